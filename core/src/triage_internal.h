/* SPDX-License-Identifier: MIT */
/*
 * triage_internal.h (internal) - what the triage's files share: the job's state and the entry
 * points each file offers the others (triage.c says what each file does).
 *
 * Who calls what, top to bottom, so that no two of them call each other (circles.py checks
 * it): triage.c (the job) calls every file below; triage_polish.c calls triage_bucket.c (the
 * bytes compared, a file written unless the same) and triage_work.c (the job's pipeline
 * options, progress); triage_bucket.c calls triage_work.c and triage_folder.c; triage_work.c
 * calls triage_record.c and triage_folder.c; triage_record.c calls triage_folder.c (a test's
 * file name in OUT); triage_folder.c calls none of them.  Every function here sets the last
 * error where it fails, unless its comment (at its definition) says otherwise.
 */
#ifndef TNORM__TRIAGE_INTERNAL_H
#define TNORM__TRIAGE_INTERNAL_H

#include <pthread.h>

#include <jansson.h>

#include "tnorm/triage.h"

/* The longest name file_key makes (triage_folder.c). */
#define FILE_KEY_MAX 128

/* A finished test on its way from a worker to the calling thread. */
typedef struct done_item {
	tnorm_triage_test test;
	struct done_item *next;
} done_item;

/* What a worker thread owns: its name in the database's claims, its connection, and the item it
 * holds now (read by the calling thread, which renews the lease, under the job's lock). */
typedef struct worker_state {
	struct triage_job *j;
	char name[96];  /* "HOST:PID:tK" */
	tnorm_db *db;   /* NULL without a database: claims are files */
	char *held;     /* the item this worker works on, NULL when none */
	pthread_t tid;
	tnorm_runner *runner; /* its checks' runner: one fork server for all its files */
	tnorm_match *match;   /* the job's policy, parsed */
} worker_state;

typedef struct triage_job {
	const tnorm_triage_options *o;
	tnorm_triage_result *res;
	pthread_mutex_t lock;
	pthread_cond_t cv;
	size_t next;          /* the next test to look at */
	size_t *aside;        /* tests another live worker holds, to look at again */
	size_t naside;
	unsigned running;     /* workers not finished */
	size_t earlier;       /* tests found done by an earlier job (or another worker) */
	done_item *head, *tail; /* finished tests not yet reported */
	volatile int stop;    /* the workers' pipelines' cancel flag */
	int err;              /* the first worker error (not a test's) */
	char *errmsg;         /* its message */
	const char *dbpath;   /* the database when it opened; NULL: claims are files */
	char jobkey[40];      /* the job's name in the database ("triage-HEX") */
	int lease;            /* seconds */
	worker_state *workers;
	unsigned nworkers;
	int check;                  /* this pass runs each test once (its signature): no minimizing */
	const unsigned char *want;  /* the tests this pass does (NULL: all) */
} triage_job;

/* What the generalization and the polish report their runs with. */
typedef struct gen_ctx {
	const tnorm_triage_options *o;
	tnorm_triage_progress *p;
	double t0;
} gen_ctx;

/* triage_record.c */
void tnorm__triage_test_dispose(tnorm_triage_test *t);
void tnorm__triage_hash_hex(const char *text, size_t len, char hex[17]);
int tnorm__triage_load_result(const char *out, tnorm_triage_test *t, const char *hex,
                              const char *jobkey);
int tnorm__triage_parse_result(const char *text, tnorm_triage_test *t, const char *hex,
                               const char *jobkey);
long tnorm__triage_count_steps(const char *t);
json_t *tnorm__triage_record(const tnorm_triage_test *t, const char *hex, const char *jobkey);
int tnorm__triage_result_text(const tnorm_triage_test *t, const char *hex, const char *jobkey,
                              char **text);
int tnorm__triage_write_result_text(const char *out, const char *name, const char *text);

/* triage_folder.c */
char *tnorm__triage_path_of(const char *a, const char *b, const char *c);
int tnorm__triage_find_tests(const tnorm_triage_options *o, tnorm_triage_result *res);
int tnorm__triage_make_dirs(const char *folder, const char *out);
const char *tnorm__triage_file_key(const char *name, char buf[FILE_KEY_MAX]);
long tnorm__triage_claim_owner(const char *file);
int tnorm__triage_held_by(long pid);
int tnorm__triage_void_claim(long pid);
int tnorm__triage_take_claim(const char *claims, const char *name, const char *file);
void tnorm__triage_clear_claims(const char *out);

/* triage_work.c */
char *tnorm__triage_dup_bytes(const char *p, size_t len);
tnorm_pipeline_options tnorm__triage_job_options(const tnorm_triage_options *o, tnorm_mode mode,
                                                 const char *test, const char *out);
int tnorm__triage_tell(const tnorm_triage_options *o, tnorm_triage_progress *p, double t0);
int tnorm__triage_pass(triage_job *j, tnorm_triage_progress *p, double t0);

/* triage_bucket.c */
int tnorm__triage_same_bytes(const char *a, size_t alen, const char *b, size_t blen);
int tnorm__triage_make_buckets(tnorm_triage_result *r);
int tnorm__triage_split_by_coverage(const tnorm_triage_options *o, tnorm_triage_result *r);
int tnorm__triage_write_unless_same(const char *path, const char *p, size_t len);
int tnorm__triage_generalize_bucket(const tnorm_triage_options *o, tnorm_triage_result *r, size_t b,
                                    gen_ctx *g);
int tnorm__triage_sign_representatives(const tnorm_triage_options *o, tnorm_triage_result *r);
int tnorm__triage_explain_buckets(const tnorm_triage_options *o, tnorm_triage_result *r);
int tnorm__triage_write_representatives(tnorm_triage_result *r);
void tnorm__triage_unmake_buckets(tnorm_triage_result *r);

/* triage_polish.c */
int tnorm__triage_polish(const tnorm_triage_options *o, tnorm_triage_result *r, const char *jobkey,
                         gen_ctx *g);

#endif

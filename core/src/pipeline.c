/* SPDX-License-Identifier: MIT */
/*
 * pipeline.c - one job on one failing test: confirm, reduce, normalize, generalize (pipeline.h).
 *
 * The one place that strings the stages together, so that the CLI, the Python binding and
 * triage's workers cannot drift apart: they fill tnorm_pipeline_options and call
 * tnorm_pipeline_run.  One session (session.c) is the oracle of every stage: it confirms that
 * the test fails and takes its signature, caches outcomes, writes each better test to OUT as it
 * is found (so a job stopped halfway leaves its best so far) and keeps the tests that slipped
 * to another failure.  A harness test is reduced (reduce.c: ddmin or adaptive deletion, with
 * slicing), normalized (normalize.c) and, when asked, generalized (generalize.c, its batches on
 * the session's -j workers); any other file is reduced and normalized as bytes (generic.c).
 * The database (db.c) is reached through hooks: a test whose normal form is known jumps there,
 * every test the normalization visited gets the normal form it reached, and the path of a
 * minimization is recorded and replayed first next time (the program may have been rebuilt).
 * With keep_near, the runs one edit away from the result are kept for tnorm why.  What a front
 * end shows of the result (its JSON, the default output name) is pipeline_output.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common.h"
#include "options.h"
#include "tnorm/pipeline.h"

const char *tnorm_mode_name(tnorm_mode m)
{
	static const char *const names[] = {[TNORM_MODE_MINIMIZE] = "minimize",
	                                    [TNORM_MODE_REDUCE] = "reduce",
	                                    [TNORM_MODE_NORMALIZE] = "normalize",
	                                    [TNORM_MODE_GENERALIZE] = "generalize",
	                                    [TNORM_MODE_CHECK] = "check"};
	return (unsigned)m < 5 ? names[m] : "?";
}

int tnorm_db_path(const char *test, const char *explicit_path, char **out)
{
	const char *env = getenv("TNORM_DB");
	const char *slash;
	tnorm__buf p = TNORM__BUF_INIT;
	int err;
	*out = NULL;
	if (explicit_path)
		return (*out = tnorm__strdup(explicit_path)) ? 0 : TNORM_ENOMEM;
	if (env && *env) {
		if (!strcmp(env, "off"))
			return 0;
		return (*out = tnorm__strdup(env)) ? 0 : TNORM_ENOMEM;
	}
	if (!test)
		return 0;
	slash = strrchr(test, '/');
	if ((err = tnorm__buf_printf(&p, "%.*s/.tnorm", slash ? (int)(slash - test) : 1,
	                             slash ? test : ".")) < 0)
		return err;
	if (mkdir(p.ptr, 0755) < 0 && errno != EEXIST) {
		tnorm__buf_dispose(&p);
		return 0; /* a read-only folder: work without the database */
	}
	if ((err = tnorm__buf_puts(&p, "/cache.db")) < 0) {
		tnorm__buf_dispose(&p);
		return err;
	}
	*out = tnorm__buf_detach(&p);
	return 0;
}

/* The database's hooks for the normalizer: known normal forms, and the tests passed through
 * (recorded with the final normal form at the end). */
typedef struct {
	tnorm_db *db;
	uint64_t ctx;  /* candidates' outcomes */
	uint64_t nctx; /* normal forms: the context and the rule set */
	const tnorm_harness *h;
	char **visited;
	size_t nvisited;
} db_hooks;

static int hook_known(void *vctx, const tnorm_test *t, tnorm_test **normal)
{
	db_hooks *c = vctx;
	char *text = NULL, *form = NULL;
	size_t len = 0;
	int err;
	*normal = NULL;
	if ((err = tnorm_test_format(t, &text, &len)) < 0)
		return err;
	err = tnorm_db_get_normal(c->db, c->nctx, text, len, &form);
	tnorm_free(text);
	if (err < 0 || !form)
		return err;
	/* A form that no longer parses (the harness changed) is simply not used. */
	if (tnorm_test_parse(normal, c->h, "database", form, strlen(form)) < 0) {
		*normal = NULL;
		tnorm_error_clear();
	}
	tnorm_free(form);
	return 0;
}

static int hook_visited(void *vctx, const tnorm_test *t)
{
	db_hooks *c = vctx;
	char **n, *text = NULL;
	int err;
	if ((err = tnorm_test_format(t, &text, NULL)) < 0)
		return err;
	if (!(n = tnorm__reallocarray(c->visited, c->nvisited + 1, sizeof(*n)))) {
		tnorm_free(text);
		return TNORM_ENOMEM;
	}
	c->visited = n;
	c->visited[c->nvisited++] = text;
	return 0;
}

/* Add a command's words and its program's build stamp (mtime and size) to a context key. */
static int add_command(const char **parts, int np, int max, const char *const *argv, char *stamp,
                       size_t stampsize)
{
	struct stat sb;
	int k, have = stat(argv[0], &sb) == 0;
	snprintf(stamp, stampsize, "%lld:%lld", have ? (long long)sb.st_mtime : 0LL,
	         have ? (long long)sb.st_size : 0LL);
	for (k = 0; argv[k] && np < max; k++)
		parts[np++] = argv[k];
	parts[np++] = stamp;
	return np;
}

/* The context key: the program (and when it was built), its arguments, the fixed program when
 * there is one (an answer under --fixed is not an answer without it), the policy, the target. */
static uint64_t db_context(const char *const *argv, const char *const *fixed, const char *match,
                           const char *sigtext, const char *rules)
{
	const char *parts[132];
	char stamp[64], fstamp[64];
	int np = add_command(parts, 0, 60, argv, stamp, sizeof(stamp));
	if (fixed) {
		parts[np++] = "\001fixed";
		np = add_command(parts, np, np + 60, fixed, fstamp, sizeof(fstamp));
	}
	parts[np++] = match;
	parts[np++] = sigtext;
	if (rules) /* normal forms depend on the rule set */
		parts[np++] = rules;
	parts[np] = NULL;
	return tnorm_db_context(parts);
}

void tnorm_pipeline_result_dispose(tnorm_pipeline_result *r)
{
	size_t i;
	if (!r)
		return;
	tnorm_free(r->text);
	tnorm_free(r->plain);
	tnorm_free(r->reduced);
	tnorm_free(r->signature);
	tnorm_free(r->generalization);
	tnorm_free(r->expect_signature);
	tnorm_free(r->match_key);
	tnorm_free(r->warning);
	for (i = 0; i < r->nslipped; i++) {
		free(r->slipped[i].signature);
		free(r->slipped[i].path);
	}
	free(r->slipped);
	for (i = 0; i < r->nnear; i++)
		tnorm_free(r->near[i].test);
	free(r->near);
	memset(r, 0, sizeof(*r));
}

/*
 * The runs near the result (keep_near, for tnorm why).  A run of the job after the confirm runs
 * is kept while it can still be a neighbour of the result (without a harness: no more than one
 * byte longer than the shortest failing test so far; kept runs are dropped as that shrinks), and
 * within bounds (tests of up to NEAR_MAX_LEN bytes, NEAR_MAX_RUNS of them, NEAR_MAX_BYTES in
 * all); those one edit away from the result are handed over at the end.  The user's own
 * observer, if any, is called as well.
 */
#define NEAR_MAX_LEN 65536
#define NEAR_MAX_RUNS 20000
#define NEAR_MAX_BYTES (64u << 20) /* in all: 20000 runs of 64 KiB would be 1.3 GB */

typedef struct near_runs {
	tnorm_tested *v;
	size_t n, cap, bytes;
	size_t best;                /* without a harness, the shortest failing length so far: a
	                               neighbour of the result is at most one byte longer (the result
	                               is no longer than any failing candidate, each one having been
	                               taken); (size_t)-1 with a harness, whose units are lines */
	int failed;                 /* out of memory once: nothing more is kept */
	tnorm_run_observer user;    /* the caller's observer and its context */
	void *user_ctx;
} near_runs;

static void observe_near(void *ctx, const void *data, size_t len, tnorm_outcome outcome, int same)
{
	near_runs *k = ctx;
	if (k->user)
		k->user(k->user_ctx, data, len, outcome, same);
	if (same && k->best != (size_t)-1 && len < k->best) { /* longer runs: no neighbours now */
		size_t i, m = 0;
		k->best = len;
		for (i = 0; i < k->n; i++) {
			if (k->v[i].len <= k->best + 1) {
				k->v[m++] = k->v[i];
				continue;
			}
			k->bytes -= k->v[i].len + 1;
			tnorm_free(k->v[i].test);
		}
		k->n = m;
	}
	if (k->failed || len > NEAR_MAX_LEN || (k->best != (size_t)-1 && len > k->best + 1) ||
	    k->n >= NEAR_MAX_RUNS ||
	    k->bytes + len > NEAR_MAX_BYTES)
		return;
	if (k->n == k->cap) {
		size_t nc = k->cap ? 2 * k->cap : 256;
		tnorm_tested *nv = tnorm__reallocarray(k->v, nc, sizeof(*nv));
		if (!nv) {
			k->failed = 1;
			return;
		}
		k->v = nv;
		k->cap = nc;
	}
	if (!(k->v[k->n].test = tnorm__malloc(len + 1))) {
		k->failed = 1;
		return;
	}
	if (len)
		memcpy(k->v[k->n].test, data, len);
	k->v[k->n].test[len] = '\0';
	k->v[k->n].len = len;
	k->v[k->n].outcome = outcome;
	k->v[k->n].same = same;
	k->n++;
	k->bytes += len + 1;
}

/* The units of a test: its lines (with a harness) or its bytes, as [start, end) pairs. */
static size_t unit_end(const char *d, size_t len, size_t p, int lines)
{
	if (!lines)
		return p + 1;
	while (p < len && d[p] != '\n')
		p++;
	return p < len ? p + 1 : p;
}

/* Is b one edit away from a: one unit (line or byte) deleted or inserted, or changed (without a
 * harness, up to two bytes changed: a swap, a value and its copy)? */
static int one_edit(const char *a, size_t alen, const char *b, size_t blen, int lines)
{
	size_t pa = 0, pb = 0, ea, eb, diff = 0;
	if (alen == blen && !memcmp(a, b, alen))
		return 0;
	if (!lines && alen == blen) {
		for (pa = 0; pa < alen && diff <= 2; pa++)
			diff += a[pa] != b[pa];
		return diff <= 2;
	}
	/* The common head, then the rest must be the same after skipping one unit of either side
	 * (deleted or inserted) or of both (changed). */
	for (;;) {
		if (pa >= alen || pb >= blen)
			break;
		ea = unit_end(a, alen, pa, lines);
		eb = unit_end(b, blen, pb, lines);
		if (ea - pa != eb - pb || memcmp(a + pa, b + pb, ea - pa))
			break;
		pa = ea;
		pb = eb;
	}
	ea = pa < alen ? unit_end(a, alen, pa, lines) : pa;
	eb = pb < blen ? unit_end(b, blen, pb, lines) : pb;
	return (alen - ea == blen - pb && !memcmp(a + ea, b + pb, alen - ea)) ||
	       (alen - pa == blen - eb && !memcmp(a + pa, b + eb, alen - pa)) ||
	       (alen - ea == blen - eb && !memcmp(a + ea, b + eb, alen - ea));
}

/* Hand the kept runs one edit away from `form` to r->near; the others are freed. */
static void keep_near(tnorm_pipeline_result *r, near_runs *k, const char *form, size_t flen,
                      int lines)
{
	size_t i, n = 0;
	for (i = 0; i < k->n; i++) {
		if (form && one_edit(form, flen, k->v[i].test, k->v[i].len, lines))
			k->v[n++] = k->v[i];
		else
			tnorm_free(k->v[i].test);
	}
	r->near = n ? k->v : NULL;
	r->nnear = n;
	if (!n)
		free(k->v);
	k->v = NULL;
	k->n = k->cap = 0;
}

static int stopped(int err)
{
	return err == TNORM_EINTERRUPTED || err == TNORM_ETIMEOUT;
}

/*
 * Replay: the path a minimization of this same test took before (under any context), tried from
 * its end: the first recorded test that is interesting here becomes the starting point.
 */
static int replay(tnorm_pipeline_result *r, tnorm_session *s, const db_hooks *hooks,
                  const char *data, size_t len, tnorm_test **start)
{
	char **forms = NULL;
	size_t n = 0, k;
	int err;
	*start = NULL;
	if ((err = tnorm_db_get_path(hooks->db, data, len, &forms, &n)) < 0)
		return err;
	r->replay_len = n;
	tnorm_session_set_phase(s, "replay");
	for (k = n; k-- > 0 && err == 0;) {
		tnorm_test *c = NULL;
		int yes = 0;
		if (tnorm_test_parse(&c, hooks->h, "database", forms[k], strlen(forms[k])) < 0) {
			tnorm_error_clear(); /* the harness changed: that entry is of no use */
			continue;
		}
		if (tnorm_test_is_wellformed(c) && (err = tnorm_session_test_oracle(s, c, &yes)) == 0 &&
		    yes) {
			*start = c;
			r->replayed = k + 1;
			break;
		}
		tnorm_test_free(c);
	}
	for (k = 0; k < n; k++)
		tnorm_free(forms[k]);
	tnorm_free(forms);
	return err;
}

/* Record the path of this minimization: reduced test, the rewrites, the normal form. */
static int record_path(const tnorm_pipeline_result *r, const db_hooks *hooks, const char *data,
                       size_t len, const char *final)
{
	const char **forms;
	size_t n = 0, k;
	int err;
	if (!(forms = tnorm__calloc(hooks->nvisited + 2, sizeof(*forms))))
		return TNORM_ENOMEM;
	if (r->reduced)
		forms[n++] = r->reduced;
	for (k = 0; k < hooks->nvisited; k++)
		if (strcmp(hooks->visited[k], data) && (!n || strcmp(forms[n - 1], hooks->visited[k])))
			forms[n++] = hooks->visited[k];
	if (final && (!n || strcmp(forms[n - 1], final)))
		forms[n++] = final;
	err = tnorm_db_put_path(hooks->db, data, len, forms, n);
	tnorm_free(forms);
	return err;
}

/* Reduce, normalize and generalize a harness test; *rt receives the best test reached. */
static int harness_job(const tnorm_pipeline_options *o, tnorm_pipeline_result *r, tnorm_session *s,
                       const tnorm_test *t, const char *data, size_t len, db_hooks *hooks,
                       tnorm_test **rt)
{
	tnorm_normalize_options nopts = o->normalize;
	tnorm_mode mode = o->mode;
	tnorm_test *known = NULL;
	int err = 0;

	if (hooks->db && mode != TNORM_MODE_REDUCE) {
		nopts.known = hook_known;
		nopts.visited = hook_visited;
		nopts.hook_ctx = hooks;
	}
	tnorm_session_set_phase(s, "reduce");
	if (hooks->db && (mode == TNORM_MODE_MINIMIZE || mode == TNORM_MODE_NORMALIZE) &&
	    (err = hook_known(hooks, t, &known)) == 0 && known) {
		*rt = known; /* seen before: its normal form is known */
		r->known = r->normalize.jumped = 1;
	} else if (err < 0) {
		return err;
	} else if (mode == TNORM_MODE_REDUCE || mode == TNORM_MODE_MINIMIZE) {
		tnorm_test *start = NULL;
		if (hooks->db && mode == TNORM_MODE_MINIMIZE &&
		    ((err = hook_visited(hooks, t)) < 0 ||
		     (o->replay && (err = replay(r, s, hooks, data, len, &start)) < 0)))
			return err;
		tnorm_session_set_phase(s, "reduce");
		err = tnorm_reduce_test(rt, start ? start : t, &o->reduce, tnorm_session_test_oracle, s,
		                        &r->reduce);
		tnorm_test_free(start);
		if (*rt) {
			int e2 = tnorm_test_format(*rt, &r->reduced, &r->reduced_len);
			if (e2 < 0 && err == 0)
				err = e2;
		}
	} else {
		err = tnorm_test_dup(rt, t);
	}
	if (err == 0 && (mode == TNORM_MODE_MINIMIZE || mode == TNORM_MODE_NORMALIZE) && !r->known) {
		tnorm_test *nt = NULL;
		tnorm_session_set_phase(s, "normalize");
		err = tnorm_normalize(&nt, *rt, &nopts, tnorm_session_test_oracle, s, o->log, o->log_ctx,
		                      &r->normalize);
		if (nt) {
			tnorm_test_free(*rt);
			*rt = nt;
		}
		r->known = r->normalize.jumped;
		if (err == 0 && hooks->db && nt) {
			char *form = NULL;
			size_t k;
			int e2 = tnorm_test_format(nt, &form, NULL);
			for (k = 0; e2 == 0 && k < hooks->nvisited; k++)
				e2 = tnorm_db_put_normal(hooks->db, hooks->nctx, hooks->visited[k],
				                         strlen(hooks->visited[k]), form);
			if (e2 == 0 && mode == TNORM_MODE_MINIMIZE)
				e2 = record_path(r, hooks, data, len, form);
			tnorm_free(form);
			if (e2 < 0)
				err = e2;
		}
	}
	if (*rt) {
		int e2 = tnorm_test_format(*rt, &r->text, &r->text_len);
		r->final = tnorm_test_len(*rt);
		if (e2 < 0 && err == 0)
			err = e2;
	}
	if (*rt && err == 0 && (o->generalize || mode == TNORM_MODE_GENERALIZE)) {
		tnorm_generalization *g = NULL;
		char *annotated = NULL;
		tnorm_session_set_phase(s, "generalize");
		tnorm_session_set_jobs(s, o->jobs);
		if ((err = tnorm_generalize_batch(&g, *rt, NULL, tnorm_session_test_batch_oracle, s)) == 0 &&
		    (err = tnorm_generalization_format(g, &annotated)) == 0 &&
		    (err = tnorm_generalization_json(g, &r->generalization)) == 0) {
			r->plain = r->text;
			r->text = annotated;
			r->text_len = strlen(annotated);
			annotated = NULL;
		}
		tnorm_free(annotated);
		tnorm_generalization_free(g);
	}
	return err;
}

/* Reduce and/or normalize any file (no harness): generic.h, the session as the oracle. */
static int generic_job(const tnorm_pipeline_options *o, tnorm_pipeline_result *r,
                       tnorm_session *s, const char *data, size_t len)
{
	tnorm_generic_options go = o->generic;
	tnorm_generic_stats st;
	char *reduced = NULL;
	size_t rlen = len;
	int err = 0;
	go.algo = o->reduce.algo;
	go.seed = o->reduce.seed;
	if (o->mode != TNORM_MODE_NORMALIZE) {
		tnorm_session_set_phase(s, "reduce");
		err = tnorm_generic_reduce(data, len, &go, tnorm_session_bytes_oracle, s, &reduced, &rlen,
		                           NULL);
		if (o->mode == TNORM_MODE_REDUCE || err < 0) {
			r->text = reduced;
			r->text_len = rlen;
			r->final = rlen;
			return err;
		}
		r->reduced = reduced;
		r->reduced_len = rlen;
		data = reduced;
		len = rlen;
	}
	tnorm_session_set_phase(s, "normalize");
	err = tnorm_generic_normalize(data, len, &go, tnorm_session_bytes_oracle, s, &r->text,
	                              &r->text_len, &st);
	r->normalize.rewrites = st.rewrites;
	r->normalize.candidates = st.calls;
	r->final = r->text_len;
	return err;
}

/* 1 when both paths name one existing file (device and inode: ./t, $PWD/t and a hard link of t
 * are all t). */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (!a || !b || stat(a, &sa) < 0 || stat(b, &sb) < 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The folder a path is in ("." for a bare name); NULL when out of memory. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	tnorm__buf b = TNORM__BUF_INIT;
	if (!slash)
		return tnorm__strdup(".");
	if (tnorm__buf_printf(&b, "%.*s", slash == path ? 1 : (int)(slash - path), path) < 0)
		return NULL;
	return tnorm__buf_detach(&b);
}

/*
 * The rules for OUT (docs/cli.md, "Output files"; issue 28, items 1 and 9).  The output is
 * written atomically from the start (a temporary file in its folder, renamed over it), so:
 * it must be named; it must not be any file the job reads, however it is spelled; it must not
 * be a symbolic link (the rename would replace the link with a file); if it exists it must be a
 * regular file (a rename over /dev/null or a FIFO would replace it with a file: as root, for the
 * whole machine); and its folder must exist.
 */
int tnorm_pipeline_check_output(const tnorm_pipeline_options *o)
{
	struct stat st;
	static const char *const what[] = {"the input test", "the harness", "the database",
	                                   "the program"};
	const char *inputs[4];
	char *dir;
	size_t i;
	if (!o || !o->out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_check_output: no output");
	if (!o->out[0])
		return tnorm__error_set(TNORM_EINVALID, "the output file's name is empty");
	inputs[0] = o->test;
	inputs[1] = o->harness;
	inputs[2] = o->db;
	inputs[3] = o->argv ? o->argv[0] : NULL;
	if (o->test && !strcmp(o->out, o->test))
		return tnorm__error_set(TNORM_EINVALID, "the output must not be the input test (it is "
		                        "never modified)");
	for (i = 0; i < 4; i++)
		if (same_file(o->out, inputs[i]))
			return tnorm__error_set(TNORM_EINVALID, "the output %s is %s (%s): it would be "
			                        "overwritten; name another output file", o->out, what[i],
			                        inputs[i]);
	if (lstat(o->out, &st) == 0) {
		if (S_ISLNK(st.st_mode))
			return tnorm__error_set(TNORM_EINVALID, "the output %s is a symbolic link: writing "
			                        "the result would replace the link with a file; name the "
			                        "file itself", o->out);
		if (!S_ISREG(st.st_mode))
			return tnorm__error_set(TNORM_EINVALID, "the output %s exists and is %s, not a "
			                        "regular file: tnorm writes its results to regular files "
			                        "only (it would be replaced by one)", o->out,
			                        tnorm__file_kind(st.st_mode));
	}
	if (!(dir = folder_of(o->out)))
		return TNORM_ENOMEM;
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		int err = tnorm__error_set(TNORM_EINVALID, "the output %s: its folder %s does not exist",
		                           o->out, dir);
		free(dir);
		return err;
	}
	free(dir);
	return 0;
}

void tnorm__pipeline_options_versions(tnorm_pipeline_options *o)
{
	if (!o->run.version)
		o->run.version = TNORM_RUN_OPTIONS_VERSION;
	if (!o->session.version)
		o->session.version = TNORM_SESSION_OPTIONS_VERSION;
	if (!o->reduce.version)
		o->reduce.version = TNORM_REDUCE_OPTIONS_VERSION;
	if (!o->normalize.version)
		o->normalize.version = TNORM_NORMALIZE_OPTIONS_VERSION;
	if (!o->normalize.reduce.version)
		o->normalize.reduce.version = TNORM_REDUCE_OPTIONS_VERSION;
	if (!o->generic.version)
		o->generic.version = TNORM_GENERIC_OPTIONS_VERSION;
}

/* The options, checked before anything runs: 0 or TNORM_EINVALID (the message says what). */
static int check_options(const tnorm_pipeline_options *o)
{
	if (!o || !o->test || !o->out || !o->argv || !o->argv[0])
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_run: missing test, output or command");
	if (o->version != TNORM_PIPELINE_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_run: options version %u, "
		                        "expected %u (rebuild against this tnorm)", o->version,
		                        TNORM_PIPELINE_OPTIONS_VERSION);
	if ((unsigned)o->mode > TNORM_MODE_CHECK)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_run: unknown mode %d", (int)o->mode);
	if (o->jobs > TNORM_MAX_JOBS)
		return tnorm__error_set(TNORM_EINVALID, "jobs: 1 to %d, not %u", TNORM_MAX_JOBS, o->jobs);
	if (o->mode == TNORM_MODE_GENERALIZE && !o->harness)
		return tnorm__error_set(TNORM_EINVALID, "generalize needs a harness: it annotates the "
		                        "steps of harness tests");
	return tnorm_pipeline_check_output(o);
}

/* The input: a harness test (loaded, checked, in canonical text: *h and *t set) or any file;
 * its bytes in *data, *len, and its size in r->original. */
static int load_input(const tnorm_pipeline_options *o, tnorm_pipeline_result *r,
                      tnorm_harness **h, tnorm_test **t, char **data, size_t *len)
{
	size_t bad = 0;
	int err;
	if (!o->harness) {
		if ((err = tnorm_file_read(o->test, data, len)) == 0)
			r->original = *len;
		return err;
	}
	if ((err = tnorm_harness_load(h, o->harness)) < 0 || (err = tnorm_test_load(t, *h, o->test)) < 0)
		return err;
	if ((err = tnorm_test_check(*t, &bad)) < 0) {
		if (err == TNORM_EINVALID) /* not TNORM_ENOMEM: that is no fault of the test */
			err = tnorm__error_set(TNORM_EINVALID, "%s:%u: not well-formed: %s", o->test,
			                       tnorm_test_step_line(*t, bad), tnorm_error_last()->message);
		return err;
	}
	if ((err = tnorm_test_format(*t, data, len)) < 0)
		return err;
	r->original = tnorm_test_len(*t);
	return 0;
}

/* The confirmed target into the result: its text, its match key, how it compares with the
 * caller's `expect`; then the caller's on_target hears of it. */
static int describe_target(const tnorm_pipeline_options *o, tnorm_pipeline_result *r,
                           tnorm_session *s, const char *match)
{
	const tnorm_signature *target = tnorm_session_target(s, &r->stable);
	tnorm_match *m = NULL;
	int err;
	if ((err = tnorm_signature_format(target, 0, &r->signature)) < 0 ||
	    (err = tnorm_match_parse(&m, match)) < 0)
		return err;
	if ((err = tnorm_match_key(m, target, &r->match_key)) == 0 && o->expect &&
	    (err = tnorm_signature_format(o->expect, 0, &r->expect_signature)) == 0)
		r->expect_matches = tnorm_match_test(m, target, o->expect, "", "");
	tnorm_match_free(m);
	if (err == 0 && o->on_target)
		o->on_target(o->target_ctx, r->signature, r->stable);
	return err;
}

/* The cross-test database, when one is named: opened into *db with the hooks' contexts set.  One
 * that cannot be used (read-only, corrupt) is a warning in the result and the job goes on
 * without it: the cache only saves runs.  Somebody else's file is refused (TNORM_EINVALID). */
static int open_db(const tnorm_pipeline_options *o, tnorm_pipeline_result *r, tnorm_session *s,
                   const tnorm_harness *h, const char *match, db_hooks *hooks, tnorm_db **db)
{
	tnorm__buf w = TNORM__BUF_INIT;
	int err;
	if (!o->db)
		return 0;
	if ((err = tnorm_db_open(db, o->db)) == TNORM_EDB) {
		*db = NULL;
		if (tnorm__buf_printf(&w, "%s; going on without the result cache",
		                      tnorm_error_last()->message) < 0 ||
		    !(r->warning = tnorm__buf_detach(&w))) {
			tnorm__buf_dispose(&w);
			return TNORM_ENOMEM;
		}
		return 0;
	}
	if (err < 0)
		return err;
	hooks->db = *db;
	hooks->ctx = db_context(o->argv, o->session.fixed, match, r->signature, NULL);
	hooks->nctx = db_context(o->argv, o->session.fixed, match, r->signature,
	                         o->normalize.rules == TNORM_RULES_PAPER ? "\001rules=paper"
	                                                                 : "\001rules=calls");
	hooks->h = h;
	tnorm_session_set_db(s, *db, hooks->ctx);
	return 0;
}

/* The other failures the session met, copied into the result: 0 or TNORM_ENOMEM. */
static int copy_slips(tnorm_pipeline_result *r, tnorm_session *s)
{
	size_t i;
	if ((r->nslipped = tnorm_session_slipped_count(s)) == 0)
		return 0;
	if (!(r->slipped = tnorm__calloc(r->nslipped, sizeof(*r->slipped)))) {
		r->nslipped = 0;
		return TNORM_ENOMEM;
	}
	for (i = 0; i < r->nslipped; i++) {
		const char *sg = NULL, *p = NULL;
		tnorm_session_slipped(s, i, &sg, &p, &r->slipped[i].size);
		r->slipped[i].signature = tnorm__strdup(sg ? sg : "");
		r->slipped[i].path = p ? tnorm__strdup(p) : NULL;
		if (!r->slipped[i].signature || (p && !r->slipped[i].path))
			return TNORM_ENOMEM;
	}
	return 0;
}

int tnorm_pipeline_run(const tnorm_pipeline_options *o, tnorm_pipeline_result *r)
{
	tnorm_pipeline_options own; /* the options, resolved (options.h) */
	tnorm_session_options sopts;
	tnorm_run_options ropts;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL, *rt = NULL;
	tnorm_session *s = NULL;
	tnorm_db *db = NULL;
	db_hooks hooks;
	near_runs near = {NULL, 0, 0, 0, (size_t)-1, 0, NULL, NULL};
	const char *match;
	char *data = NULL;
	size_t len = 0, i;
	int err = 0, e2;

	if (!r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_run: NULL argument");
	memset(r, 0, sizeof(*r));
	memset(&hooks, 0, sizeof(hooks));
	r->expect_matches = -1;
	r->replayed = 0;
	if ((err = check_options(o)) < 0)
		return err;
	own = *o;
	tnorm__pipeline_options_versions(&own);
	own.replay = own.replay >= 0;
	own.generalize = own.generalize > 0; /* off by default: -1 is off too */
	o = &own;
	r->unit = o->harness ? "steps" : "bytes";
	match = o->session.match ? o->session.match : "line";
	if ((err = load_input(o, r, &h, &t, &data, &len)) < 0)
		goto done;

	ropts = o->run;
	if (!ropts.suffix && o->harness)
		ropts.suffix = ".t";
	sopts = o->session;
	sopts.out_path = o->out;
	sopts.slipped_dir = o->slipped_dir;
	if ((err = tnorm_session_new(&s, o->argv, &ropts, &sopts)) < 0)
		goto done;
	tnorm_session_set_phase(s, "confirm");
	if ((err = tnorm_session_confirm(s, data, len)) < 0)
		goto done;
	if (o->keep_near) { /* from now on: the confirm runs are the test itself */
		near.best = o->harness ? (size_t)-1 : len;
		near.user = sopts.observe;
		near.user_ctx = sopts.observe_ctx;
		tnorm_session_observe(s, observe_near, &near);
	}
	if ((err = describe_target(o, r, s, match)) < 0)
		goto done;
	if (o->mode == TNORM_MODE_CHECK) { /* the target is all a check asks for */
		r->complete = 1;
		tnorm_session_stats(s, &r->stats);
		goto done;
	}
	if ((err = open_db(o, r, s, h, match, &hooks, &db)) < 0)
		goto done;
	/* OUT is written from the first improvement on (docs/cli.md): the session writes each better
	 * test as it is found, and the result goes there at the end.  A job stopped before it
	 * improved on the input (Ctrl-C, kill -9 or a budget right after the confirm runs) leaves
	 * OUT as it was, an earlier run's better result included (issue 39, item 2); a complete job
	 * writes its result, the input itself when that is minimal and normal already. */
	err = o->harness ? harness_job(o, r, s, t, data, len, &hooks, &rt)
	                 : generic_job(o, r, s, data, len);
	if (r->text && (err == 0 || r->text_len != len || memcmp(r->text, data, len))) {
		if ((e2 = tnorm_file_write_atomic(o->out, r->text, r->text_len)) < 0 &&
		    (err == 0 || stopped(err)))
			err = e2;
		r->written = e2 == 0;
	}
	r->complete = err == 0;
	tnorm_session_stats(s, &r->stats);
	if (o->keep_near)
		keep_near(r, &near, r->plain ? r->plain : r->text,
		          r->plain ? strlen(r->plain) : r->text_len, o->harness != NULL);
	if ((e2 = copy_slips(r, s)) < 0)
		err = err ? err : e2;
done:
	for (i = 0; i < near.n; i++)
		tnorm_free(near.v[i].test);
	free(near.v);
	for (i = 0; i < hooks.nvisited; i++)
		tnorm_free(hooks.visited[i]);
	free(hooks.visited);
	if (s && !r->stats.runs)
		tnorm_session_stats(s, &r->stats);
	tnorm_session_free(s);
	tnorm_db_close(db);
	tnorm_test_free(rt);
	tnorm_test_free(t);
	tnorm_harness_free(h);
	tnorm_free(data);
	return err;
}

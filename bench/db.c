/* SPDX-License-Identifier: MIT */
/*
 * bench/db.c - writes and lookups per second of the result database, by backend and by number of
 * concurrent writer processes: what bounds a shared cache (docs/scaling.md).
 *
 * usage: bench_db LABEL DB [N]   (DB: an SQLite file path, or a postgresql:// URL of an empty
 * database; bench/db.sh starts a throwaway server and runs both).  Prints one table row per
 * operation and process count: operations per second over all processes, wall clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tnorm/tnorm.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

enum { OP_PUT, OP_GET, OP_CLAIM };
static const char *const op_names[] = {"put outcome", "get outcome (hit)", "claim + finish"};

/* One process: n operations of kind op on keys of its own; 0 on success. */
static int work(const char *db_path, int op, int proc, int n, int round)
{
	const char *parts[] = {"bench", NULL};
	uint64_t ctx = tnorm_db_context(parts);
	tnorm_db *db = NULL;
	char key[64], worker[16], job[24];
	int i, found, yes, got, ok;
	if (tnorm_db_open(&db, db_path) < 0)
		return 1;
	snprintf(worker, sizeof(worker), "p%d", proc);
	snprintf(job, sizeof(job), "bench round %d", round); /* every row claims fresh items */
	for (i = 0; i < n; i++) {
		snprintf(key, sizeof(key), "round %d proc %d test %d\n", op == OP_GET ? 0 : round, proc, i);
		if (op == OP_PUT) {
			if (tnorm_db_put_outcome(db, ctx, key, strlen(key), i & 1) < 0)
				return 2;
		} else if (op == OP_GET) {
			if (tnorm_db_get_outcome(db, ctx, key, strlen(key), &found, &yes) < 0 || !found)
				return 3;
		} else {
			snprintf(key, sizeof(key), "item %d", i);
			if (tnorm_db_claim(db, job, key, worker, 600, &got) < 0)
				return 4;
			if (got && (tnorm_db_finish(db, job, key, worker, "r", &ok) < 0 || !ok))
				return 5;
		}
	}
	tnorm_db_close(db);
	return 0;
}

/* Run `procs` processes at once; operations per second over all of them, or -1. */
static double timed(const char *db_path, int op, int procs, int n, int round)
{
	pid_t pid[16];
	double t0 = now();
	int p, st, failed = 0;
	for (p = 0; p < procs; p++)
		if ((pid[p] = fork()) == 0)
			_exit(work(db_path, op, p, n, round));
	for (p = 0; p < procs; p++)
		if (waitpid(pid[p], &st, 0) != pid[p] || !WIFEXITED(st) || WEXITSTATUS(st))
			failed = 1;
	return failed ? -1 : (double)procs * n / (now() - t0);
}

int main(int argc, char **argv)
{
	static const int procs[] = {1, 4};
	int n = argc > 3 ? atoi(argv[3]) : 2000, op, k, round = 1;
	if (argc < 3 || n <= 0) {
		fprintf(stderr, "usage: bench_db LABEL DB [N]\n");
		return 2;
	}
	for (op = 0; op < 3; op++)
		for (k = 0; k < 2; k++) {
			double r;
			if (op == OP_GET && timed(argv[2], OP_PUT, procs[k], n, 0) < 0) {
				fprintf(stderr, "bench_db: %s: filling the database failed\n", argv[1]);
				return 1;
			}
			r = timed(argv[2], op, procs[k], n, round++);
			if (r < 0) {
				fprintf(stderr, "bench_db: %s: %s with %d processes failed\n", argv[1],
				        op_names[op], procs[k]);
				return 1;
			}
			printf("| %-10s | %-18s | %d | %8.0f |\n", argv[1], op_names[op], procs[k], r);
			fflush(stdout);
		}
	return 0;
}

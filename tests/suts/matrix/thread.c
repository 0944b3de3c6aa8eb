/* SPDX-License-Identifier: MIT */
/*
 * thread: a job queue read one command a line:  job NAME [ARG] | run | report NAME
 * `run` hands the queued jobs to a worker pthread and joins it.
 * Bug A (in the worker thread, job_checksum): a job queued without an argument has a NULL
 *        argument.  Lines: "job fetch", "run"                (2 lines)
 * Bug B (in the main thread, report): `report` of a job that was never queued.
 *        Lines: "report upload"                              (1 line)
 * The input has A's lines first, so the whole test fails with A.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct job {
	char name[24];
	char *arg; /* NULL when the line had none */
	unsigned sum;
};

struct queue {
	struct job jobs[32];
	int n;
};

static void mark(const char *bug) { fprintf(stderr, "%s\n", bug); } /* test marker */

static unsigned job_checksum(const struct job *j)
{
	unsigned h = 5381;
	for (const char *p = j->arg; *p; p++) /* BUG A: j->arg may be NULL */
		h = h * 33 + (unsigned char)*p;
	return h;
}

static void *worker(void *arg)
{
	struct queue *q = arg;
	for (int i = 0; i < q->n; i++) {
		if (!q->jobs[i].arg)
			mark("BUG-A");
		q->jobs[i].sum = job_checksum(&q->jobs[i]);
	}
	return NULL;
}

static struct job *find_job(struct queue *q, const char *name)
{
	for (int i = 0; i < q->n; i++)
		if (!strcmp(q->jobs[i].name, name))
			return &q->jobs[i];
	return NULL;
}

static void report(struct queue *q, const char *name)
{
	struct job *j = find_job(q, name);
	if (!find_job(q, name))
		mark("BUG-B");
	printf("%s: %08x\n", j->name, j->sum); /* BUG B: j may be NULL */
}

int main(int argc, char **argv)
{
	static struct queue q;
	char line[256], cmd[16], name[24], arg[64];
	pthread_t t;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%15s %23s %63s", cmd, name, arg);
		if (n >= 2 && !strcmp(cmd, "job") && q.n < 32) {
			snprintf(q.jobs[q.n].name, sizeof(q.jobs[q.n].name), "%s", name);
			q.jobs[q.n++].arg = n == 3 ? strdup(arg) : NULL;
		} else if (n == 1 && !strcmp(cmd, "run")) {
			if (pthread_create(&t, NULL, worker, &q) == 0)
				pthread_join(t, NULL);
		} else if (n == 2 && !strcmp(cmd, "report")) {
			report(&q, name);
		}
	}
	fclose(f);
	for (int i = 0; i < q.n; i++)
		free(q.jobs[i].arg);
	return 0;
}

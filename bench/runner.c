/* SPDX-License-Identifier: MIT */
/*
 * bench/runner.c - what one run costs: a bare vfork + exec + ptrace(TRACEME) + waitpid loop
 * against tnorm's runner (and its fork server, when the runner has one), on the same driver and
 * the same test.
 *
 * usage: bench_runner SOURCE_ROOT BUILD_ROOT [REPS [RUNS]]   (meson: ninja -C build bench-runner)
 *
 * For each example driver (AVL, hash table) and test (a passing and a failing one), the variants
 * run in turn, RUNS runs at a time, REPS times over (interleaved, so that a noisy neighbour hurts
 * every variant alike); each figure is the median over the repetitions of a batch's cost per
 * run.  CPU is user + system time: the engine's own (RUSAGE_SELF, every thread of this process)
 * and the programs' (RUSAGE_CHILDREN).  Ratios are to the bare loop of the same row: on a noisy
 * machine a ratio within one run is what counts, not the absolute figures.  The bare loop does
 * none of the runner's work (no private folder, no captured output, no unwinding of the failing
 * run): it is the floor for a traced process per run.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tnorm/tnorm.h"

#include "bench.h"

#define MAX_REPS 64

extern char **environ;

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double tv(struct timeval t)
{
	return (double)t.tv_sec + (double)t.tv_usec / 1e6;
}

static void die(const char *what)
{
	const tnorm_error *e = tnorm_error_last();
	fprintf(stderr, "bench_runner: %s: %s\n", what, e && e->message[0] ? e->message : "failed");
	exit(1);
}

/* One run of the bare loop: the child asks to be traced and execs; the parent lets every stop
 * go on (delivering the signal) until the child is gone.  Its output goes to /dev/null. */
static void bare_run(const char *driver, const char *test, int devnull)
{
	char *argv[] = {(char *)driver, (char *)test, NULL};
	int st = 0;
	pid_t pid = vfork();
	if (pid == 0) {
		dup2(devnull, 1);
		dup2(devnull, 2);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execve(driver, argv, environ);
		_exit(127);
	}
	if (pid < 0)
		die("vfork");
	for (;;) {
		if (waitpid(pid, &st, 0) < 0)
			die("waitpid");
		if (!WIFSTOPPED(st))
			break;
		ptrace(PTRACE_CONT, pid, NULL,
		       (void *)(long)(WSTOPSIG(st) == SIGTRAP ? 0 : WSTOPSIG(st)));
	}
}

/*
 * CPU seconds our live children have used themselves (/proc/PID/schedstat, in ns): a fork
 * server's own time reaches RUSAGE_CHILDREN only when the server is reaped.  Its children's time
 * is in the runs' results (child_cpu).
 */
static double live_children_cpu(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	double sum = 0;
	while (d && (e = readdir(d))) {
		char path[300];
		FILE *f;
		long pid;
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/children", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		while (fscanf(f, "%ld", &pid) == 1) {
			unsigned long long ns = 0;
			FILE *g;
			snprintf(path, sizeof(path), "/proc/%ld/schedstat", pid);
			if (!(g = fopen(path, "r")))
				continue;
			if (fscanf(g, "%llu", &ns) == 1)
				sum += (double)ns / 1e9;
			fclose(g);
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return sum;
}

typedef enum { V_BARE, V_RUNNER, V_FORKSERVER, V_COVERAGE, NVARIANTS } variant;
static const char *const variant_name[NVARIANTS] = {"bare loop", "runner", "fork server",
                                                    "+ coverage"};

typedef struct {
	double wall[MAX_REPS], self[MAX_REPS], child[MAX_REPS];
	size_t n;
} samples;

/* One batch of `runs` runs of a variant; records its cost per run.  `first` (may be NULL)
 * gets the first run's outcome and signature (free it). */
static void batch(variant v, tnorm_runner *r, const char *driver, const char *test,
                  const char *text, size_t len, int devnull, size_t runs, samples *s,
                  char **first)
{
	double forked = 0; /* the fork server's children's CPU */
	struct rusage s0, s1, c0, c1;
	double t0, l0 = live_children_cpu();
	size_t i;
	getrusage(RUSAGE_SELF, &s0);
	getrusage(RUSAGE_CHILDREN, &c0);
	t0 = now();
	for (i = 0; i < runs; i++) {
		if (v == V_BARE) {
			bare_run(driver, test, devnull);
		} else {
			tnorm_run_result res;
			if (tnorm_runner_run(r, text, len, &res) < 0)
				die("tnorm_runner_run");
			if (res.outcome == TNORM_OUTCOME_ERROR)
				die(res.message);
			if (v == V_FORKSERVER || v == V_COVERAGE)
				forked += res.child_cpu;
			if (first && i == 0) {
				char *sig = NULL;
				if (res.sig && tnorm_signature_format(res.sig, 0, &sig) < 0)
					die("tnorm_signature_format");
				if (!(*first = malloc(strlen(sig ? sig : "") + 16)))
					die("malloc");
				sprintf(*first, "%s %s", tnorm_outcome_name(res.outcome), sig ? sig : "");
				tnorm_free(sig);
			}
			tnorm_run_result_dispose(&res);
		}
	}
	s->wall[s->n] = (now() - t0) / (double)runs;
	getrusage(RUSAGE_SELF, &s1);
	getrusage(RUSAGE_CHILDREN, &c1);
	s->self[s->n] = (tv(s1.ru_utime) + tv(s1.ru_stime) - tv(s0.ru_utime) - tv(s0.ru_stime)) /
	                (double)runs;
	s->child[s->n] = (tv(c1.ru_utime) + tv(c1.ru_stime) - tv(c0.ru_utime) - tv(c0.ru_stime) +
	                  live_children_cpu() - l0 + forked) /
	                 (double)runs;
	s->n++;
}

static tnorm_runner *new_runner(const char *driver, int fork_server)
{
	const char *argv[] = {driver, "{}", NULL};
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	o.suffix = ".t";
	o.fork_server = fork_server;
	if (tnorm_runner_new(&r, argv, &o) < 0)
		die(driver);
	return r;
}

static void row(const char *label, const char *driver, const char *test, size_t reps, size_t runs)
{
	tnorm_runner *r[NVARIANTS] = {NULL};
	samples s[NVARIANTS];
	char *text = NULL, *outcome = NULL;
	size_t len = 0, k, v, nv = NVARIANTS;
	double bare_cpu = 0, bare_wall = 0;
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0 || tnorm_file_read(test, &text, &len) < 0)
		die(test);
	memset(s, 0, sizeof(s));
	r[V_RUNNER] = new_runner(driver, 0);
	r[V_FORKSERVER] = new_runner(driver, 1);
	r[V_COVERAGE] = new_runner(driver, 1); /* line coverage (issue 27): one stop per new line */
	if (tnorm_runner_set_coverage(r[V_COVERAGE], 1) < 0)
		die("tnorm_runner_set_coverage");
	/* One warm-up batch each: the page cache, the runner's symbol caches, the server's start. */
	for (v = 0; v < nv; v++) {
		char *first = NULL;
		batch((variant)v, r[v], driver, test, text, len, devnull, 5, &s[v],
		      v == V_BARE ? NULL : &first);
		s[v].n = 0;
		if (v == V_RUNNER) {
			outcome = first;
		} else if (first) {
			if (strcmp(first, outcome)) {
				fprintf(stderr, "bench_runner: %s: the %s says '%s', the runner '%s'\n", test,
				        variant_name[v], first, outcome);
				exit(1);
			}
			free(first);
		}
	}
	free(outcome);
	for (k = 0; k < reps; k++)
		for (v = 0; v < nv; v++)
			batch((variant)v, r[v], driver, test, text, len, devnull, runs, &s[v], NULL);
	for (v = 0; v < nv; v++) {
		double wall = bench_median(s[v].wall, s[v].n), self = bench_median(s[v].self, s[v].n);
		double child = bench_median(s[v].child, s[v].n), cpu;
		double tot[MAX_REPS];
		for (k = 0; k < s[v].n; k++)
			tot[k] = s[v].self[k] + s[v].child[k];
		cpu = bench_median(tot, s[v].n);
		if (v == V_BARE) {
			bare_cpu = cpu;
			bare_wall = wall;
		}
		printf("| %-16s | %-11s | %8.3f | %8.3f | %8.3f | %8.3f | %6.2fx | %6.2fx |\n", label,
		       variant_name[v], wall * 1e3, self * 1e3, child * 1e3, cpu * 1e3,
		       bare_cpu > 0 ? cpu / bare_cpu : 0, bare_wall > 0 ? wall / bare_wall : 0);
	}
	fflush(stdout);
	for (v = 0; v < NVARIANTS; v++)
		tnorm_runner_free(r[v]);
	tnorm_free(text);
	close(devnull);
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {"avl", "htable"};
	static const char *const tests[] = {"pass-1.t", "fail-1.t"};
	size_t reps = 7, runs = 40, e, t;
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: bench_runner SOURCE_ROOT BUILD_ROOT [REPS [RUNS]]\n");
		return 2;
	}
	if (argc > 3)
		reps = (size_t)strtoul(argv[3], NULL, 10);
	if (argc > 4)
		runs = (size_t)strtoul(argv[4], NULL, 10);
	if (reps < 1 || reps > MAX_REPS || runs < 1) {
		fprintf(stderr, "bench_runner: REPS is 1..%d, RUNS at least 1\n", MAX_REPS);
		return 2;
	}
	printf("median of %zu interleaved batches of %zu runs; times per run in ms; CPU = user + sys\n\n",
	       reps, runs);
	printf("| %-16s | %-11s | %8s | %8s | %8s | %8s | %7s | %7s |\n", "test", "variant", "wall",
	       "CPU eng", "CPU prog", "CPU all", "CPU/bare", "wall/bare");
	printf("|------------------|-------------|----------|----------|----------|----------|---------|---------|\n");
	for (e = 0; e < sizeof(examples) / sizeof(*examples); e++)
		for (t = 0; t < sizeof(tests) / sizeof(*tests); t++) {
			char label[64], driver[4096], test[4096];
			snprintf(label, sizeof(label), "%s/%s", examples[e], tests[t]);
			snprintf(driver, sizeof(driver), "%s/examples/%s/%s_driver_faulty", argv[2],
			         examples[e], examples[e]);
			snprintf(test, sizeof(test), "%s/examples/%s/tests/%s", argv[1], examples[e],
			         tests[t]);
			row(label, driver, test, reps, runs);
		}
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * bench/runner.c - what one run costs: a bare vfork + exec + ptrace(TRACEME) + waitpid loop
 * against tnorm's runner (and its fork server, when the runner has one), on the same program and
 * the same test.
 *
 * usage: bench_runner SOURCE_ROOT BUILD_ROOT [REPS [RUNS [--coverage]]]
 *        (meson: ninja -C build bench-runner)
 *
 * For each example driver (AVL, hash table, radix tree) and an AddressSanitizer-built parser
 * (tests/suts/jsonish.c, no tnorm driver: its "fork server" runs are plain ones), on a passing
 * and a failing test, the variants run in turn, RUNS runs at a time, REPS times over
 * (interleaved, so that a noisy neighbour hurts every variant alike); each figure is the median
 * over the repetitions of a batch's cost per run.  CPU is user + system time: the engine's own
 * (RUSAGE_SELF, every thread of this process) and the programs' (RUSAGE_CHILDREN).  Ratios are to
 * the bare loop of the same row: on a noisy machine a ratio within one run is what counts, not
 * the absolute figures.  The bare loop does none of the runner's work (no private folder, no
 * captured output, no unwinding of the failing run): it is the floor for a traced process per
 * run.  It runs the program with the runner's own environment (its sanitizer options), so that
 * the program does the same work both ways.  "eng csw" is the engine's context switches per run
 * (RUSAGE_SELF, voluntary and not).  The last lines hold the ratios against issue 30's targets.
 * "persistent" is the fork server in persistent mode (issue 30, item 2): a child runs the runs
 * while they pass; "fork server" is a child per run (persistent mode off).  On a failing test
 * both fork a child per run.  With --coverage, another variant: the fork server with line
 * coverage on (a child per run: coverage needs a fresh one).
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

/* The bare loop's environment: the runner's (tnorm_runner_new's defaults, sanitizer options
 * included), so that the program does the same work in both. */
static char *bare_env[8];

static void bare_env_init(void)
{
	static char path[4200], home[4200];
	const char *p = getenv("PATH"), *h = getenv("HOME");
	snprintf(path, sizeof(path), "PATH=%s", p ? p : "/usr/local/bin:/usr/bin:/bin");
	snprintf(home, sizeof(home), "HOME=%s", h ? h : "/");
	bare_env[0] = path;
	bare_env[1] = home;
	bare_env[2] = "LANG=C";
	bare_env[3] = "LC_ALL=C";
	bare_env[4] = "ASAN_OPTIONS=abort_on_error=1:detect_leaks=0:symbolize=0:handle_abort=0";
	bare_env[5] = "UBSAN_OPTIONS=halt_on_error=1:abort_on_error=1:print_stacktrace=0";
	bare_env[6] = NULL;
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
		execve(driver, argv, bare_env);
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

typedef enum { V_BARE, V_RUNNER, V_FORKSERVER, V_PERSISTENT, V_COVERAGE, NVARIANTS } variant;
static const char *const variant_name[NVARIANTS] = {"bare loop", "runner", "fork server",
                                                    "persistent", "+ coverage"};

typedef struct {
	double wall[MAX_REPS], self[MAX_REPS], child[MAX_REPS], csw[MAX_REPS];
	size_t n;
} samples;

/* The figures of each row's variants, for the summary against the targets. */
#define MAX_ROWS 16
static struct {
	char label[64];
	double cpu[NVARIANTS], wall[NVARIANTS];
} rows[MAX_ROWS];
static size_t nrows;

/* One batch of `runs` runs of a variant; records its cost per run.  `first` (may be NULL)
 * gets the first run's outcome and signature (free it).  `served`: the program is a tnorm
 * driver, whose runs with the fork server are its children, not ours (their CPU is the runs'
 * child_cpu); another program's runs are ours either way (RUSAGE_CHILDREN). */
static void batch(variant v, tnorm_runner *r, const char *driver, const char *test,
                  const char *text, size_t len, int devnull, size_t runs, int served, samples *s,
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
			if (served && (v == V_FORKSERVER || v == V_PERSISTENT || v == V_COVERAGE))
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
	s->csw[s->n] = (double)(s1.ru_nvcsw + s1.ru_nivcsw - s0.ru_nvcsw - s0.ru_nivcsw) / (double)runs;
	s->child[s->n] = (tv(c1.ru_utime) + tv(c1.ru_stime) - tv(c0.ru_utime) - tv(c0.ru_stime) +
	                  live_children_cpu() - l0 + forked) /
	                 (double)runs;
	s->n++;
}

static tnorm_runner *new_runner(const char *driver, const char *suffix, int fork_server,
                                int persistent)
{
	const char *argv[] = {driver, "{}", NULL};
	tnorm_run_options o = TNORM_RUN_OPTIONS_INIT;
	tnorm_runner *r = NULL;
	o.suffix = suffix;
	o.fork_server = fork_server ? 1 : -1;
	o.persistent = persistent ? 0 : 1;
	if (tnorm_runner_new(&r, argv, &o) < 0)
		die(driver);
	return r;
}

static void row(const char *label, const char *driver, const char *test, size_t reps, size_t runs,
                int served, int coverage)
{
	tnorm_runner *r[NVARIANTS] = {NULL};
	samples s[NVARIANTS];
	char *text = NULL, *outcome = NULL;
	const char *suffix = strrchr(test, '.') ? strrchr(test, '.') : "";
	size_t len = 0, k, v, nv = coverage ? NVARIANTS : V_COVERAGE;
	double bare_cpu = 0, bare_wall = 0;
	int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0 || tnorm_file_read(test, &text, &len) < 0)
		die(test);
	memset(s, 0, sizeof(s));
	r[V_RUNNER] = new_runner(driver, suffix, 0, 0);
	r[V_FORKSERVER] = new_runner(driver, suffix, 1, 0);
	r[V_PERSISTENT] = new_runner(driver, suffix, 1, 1);
	if (coverage) { /* line coverage (issue 27): one stop per new line */
		r[V_COVERAGE] = new_runner(driver, suffix, 1, 0);
		if (tnorm_runner_set_coverage(r[V_COVERAGE], 1) < 0)
			die("tnorm_runner_set_coverage");
	}
	/* One warm-up batch each: the page cache, the runner's symbol caches, the server's start. */
	for (v = 0; v < nv; v++) {
		char *first = NULL;
		batch((variant)v, r[v], driver, test, text, len, devnull, 5, served, &s[v],
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
			batch((variant)v, r[v], driver, test, text, len, devnull, runs, served, &s[v], NULL);
	for (v = 0; v < nv; v++) {
		double wall = bench_median(s[v].wall, s[v].n), self = bench_median(s[v].self, s[v].n);
		double child = bench_median(s[v].child, s[v].n), csw = bench_median(s[v].csw, s[v].n), cpu;
		double tot[MAX_REPS];
		for (k = 0; k < s[v].n; k++)
			tot[k] = s[v].self[k] + s[v].child[k];
		cpu = bench_median(tot, s[v].n);
		if (v == V_BARE) {
			bare_cpu = cpu;
			bare_wall = wall;
		}
		printf("| %-16s | %-11s | %8.3f | %8.3f | %8.3f | %8.3f | %7.1f | %6.2fx | %6.2fx |\n",
		       label, variant_name[v], wall * 1e3, self * 1e3, child * 1e3, cpu * 1e3, csw,
		       bare_cpu > 0 ? cpu / bare_cpu : 0, bare_wall > 0 ? wall / bare_wall : 0);
		if (nrows < MAX_ROWS) {
			rows[nrows].cpu[v] = cpu;
			rows[nrows].wall[v] = wall;
		}
	}
	if (nrows < MAX_ROWS)
		snprintf(rows[nrows++].label, sizeof(rows[0].label), "%s", label);
	fflush(stdout);
	for (v = 0; v < nv; v++)
		tnorm_runner_free(r[v]);
	tnorm_free(text);
	close(devnull);
}

/* The ASan-built parser's tests, written under $TMPDIR: a passing file of some size (nested
 * objects, arrays, strings, numbers) and the failing one of its bug A. */
static void jsonish_tests(char *pass, char *fail, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	FILE *f;
	int i;
	snprintf(pass, size, "%s/bench-runner-%d-pass.json", tmp && *tmp ? tmp : "/tmp", (int)getpid());
	snprintf(fail, size, "%s/bench-runner-%d-fail.json", tmp && *tmp ? tmp : "/tmp", (int)getpid());
	if (!(f = fopen(pass, "w")))
		die(pass);
	fputs("{\"items\": [", f);
	for (i = 0; i < 40; i++)
		fprintf(f, "%s{\"id\": %d, \"name\": \"item %d\", \"tags\": [\"a\", \"b\", true, null], "
		           "\"price\": %d.%02d}", i ? ", " : "", i, i, i * 7, i % 100);
	fputs("], \"count\": 40}\n", f);
	fclose(f);
	if (!(f = fopen(fail, "w")))
		die(fail);
	fputs("{\"\":[{}]}\n", f);
	fclose(f);
}

/* Runner CPU per run against the bare loop's: the targets of issue 30 (item 1). */
static void summary(void)
{
	size_t i;
	printf("\nagainst the targets (CPU per run / bare loop's): runner <= 1.20x, fork server <= 0.60x"
	       "\n\n");
	printf("| %-16s | %-15s | %-15s |\n", "test", "runner", "fork server");
	printf("|------------------|-----------------|-----------------|\n");
	for (i = 0; i < nrows; i++) {
		double bare = rows[i].cpu[V_BARE];
		double a = bare > 0 ? rows[i].cpu[V_RUNNER] / bare : 0;
		double b = bare > 0 ? rows[i].cpu[V_FORKSERVER] / bare : 0;
		printf("| %-16s | %5.2fx %-8s | %5.2fx %-8s |\n", rows[i].label, a,
		       a <= 1.2 ? "met" : "MISSED", b, b <= 0.6 ? "met" : "MISSED");
	}
	printf("\npersistent mode against the fork server (item 2: >= 5x the runs per second; a\n"
	       "failing test forks a child per run either way)\n\n");
	printf("| %-16s | %-12s | %-12s | %-8s | %-12s | %-12s |\n", "test", "runs/s fs",
	       "runs/s pers", "ratio", "CPU/run fs", "CPU/run pers");
	printf("|------------------|--------------|--------------|----------|--------------|--------------|\n");
	for (i = 0; i < nrows; i++) {
		double fs = rows[i].wall[V_FORKSERVER], pe = rows[i].wall[V_PERSISTENT];
		if (fs <= 0 || pe <= 0)
			continue;
		printf("| %-16s | %12.0f | %12.0f | %7.2fx | %9.3f ms | %9.3f ms |\n", rows[i].label,
		       1 / fs, 1 / pe, fs / pe, rows[i].cpu[V_FORKSERVER] * 1e3,
		       rows[i].cpu[V_PERSISTENT] * 1e3);
	}
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {"avl", "htable", "trie"};
	static const char *const tests[] = {"pass-1.t", "fail-1.t"};
	size_t reps = 7, runs = 40, e, t;
	int coverage = 0;
	char sut[4096], jpass[4096], jfail[4096];
	if (argc > 5 && !strcmp(argv[argc - 1], "--coverage")) {
		coverage = 1;
		argc--;
	}
	if (argc < 3 || argc > 5) {
		fprintf(stderr, "usage: bench_runner SOURCE_ROOT BUILD_ROOT [REPS [RUNS [--coverage]]]\n");
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
	bare_env_init();
	printf("median of %zu interleaved batches of %zu runs; times per run in ms; CPU = user + sys\n\n",
	       reps, runs);
	printf("| %-16s | %-11s | %8s | %8s | %8s | %8s | %7s | %7s | %7s |\n", "test", "variant",
	       "wall", "CPU eng", "CPU prog", "CPU all", "eng csw", "CPU/bare", "wall/bare");
	printf("|------------------|-------------|----------|----------|----------|----------|---------|"
	       "---------|---------|\n");
	for (e = 0; e < sizeof(examples) / sizeof(*examples); e++)
		for (t = 0; t < sizeof(tests) / sizeof(*tests); t++) {
			char label[64], driver[4096], test[4096];
			snprintf(label, sizeof(label), "%s/%s", examples[e], tests[t]);
			snprintf(driver, sizeof(driver), "%s/examples/%s/%s_driver_faulty", argv[2],
			         examples[e], examples[e]);
			snprintf(test, sizeof(test), "%s/examples/%s/tests/%s", argv[1], examples[e],
			         tests[t]);
			row(label, driver, test, reps, runs, 1, coverage);
		}
	/* An ASan-built program that is no tnorm driver (its runs are plain ones either way). */
	snprintf(sut, sizeof(sut), "%s/tests/suts/sut_jsonish", argv[2]);
	if (access(sut, X_OK) == 0) {
		jsonish_tests(jpass, jfail, sizeof(jpass));
		row("jsonish/pass", sut, jpass, reps, runs, 0, 0);
		row("jsonish/fail", sut, jfail, reps, runs, 0, 0);
		unlink(jpass);
		unlink(jfail);
	}
	summary();
	return 0;
}

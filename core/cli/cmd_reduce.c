/* SPDX-License-Identifier: MIT */
/*
 * cmd_reduce.c - the commands that judge candidates by running the program:
 *   `tnorm reduce [--harness H] TEST -- CMD ARGS {}`    a 1-minimal test that fails the same way;
 *   `tnorm normalize --harness H TEST -- CMD ARGS {}`   its canonical form (rewriting + reduction);
 *   `tnorm minimize --harness H TEST -- CMD ARGS {}`    confirm, reduce, then normalize.
 * They share one option set and one session (one cache, one best-so-far file, one slipped/).
 */
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static volatile int cancel_flag;

static void on_signal(int sig)
{
	(void)sig;
	cancel_flag = 1;
}

enum { MODE_REDUCE, MODE_NORMALIZE, MODE_MINIMIZE, MODE_GENERALIZE };

/* The cross-test database's hooks for the normalizer: known normal forms, and the tests passed
 * through (recorded with the final normal form at the end). */
typedef struct {
	tnorm_db *db;
	uint64_t ctx;
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
	err = tnorm_db_get_normal(c->db, c->ctx, text, len, &form);
	tnorm_free(text);
	if (err < 0 || !form)
		return err;
	/* A form that no longer parses (the harness changed) is simply not used. */
	if (tnorm_test_parse(normal, c->h, "database", form, strlen(form)) < 0)
		*normal = NULL;
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
	if (!(n = realloc(c->visited, (c->nvisited + 1) * sizeof(*n)))) {
		tnorm_free(text);
		return TNORM_ENOMEM;
	}
	c->visited = n;
	c->visited[c->nvisited++] = text;
	return 0;
}

static int open_db(const char *test, const char *dbpath, tnorm_db **db)
{
	char *path = NULL;
	const char *env = getenv("TNORM_DB");
	int err;
	if (!dbpath && env && *env) {
		if (!strcmp(env, "off")) {
			*db = NULL;
			return 0;
		}
		dbpath = env;
	}
	if (dbpath)
		return tnorm_db_open(db, dbpath);
	{
		const char *slash = strrchr(test, '/');
		size_t dl = slash ? (size_t)(slash - test) : 1;
		if (!(path = malloc(dl + 32)))
			return TNORM_ENOMEM;
		snprintf(path, dl + 32, "%.*s/.tnorm", (int)dl, slash ? test : ".");
		if (mkdir(path, 0755) < 0 && errno != EEXIST) {
			free(path);
			*db = NULL;
			return 0; /* a read-only folder: work without the database */
		}
		strcat(path, "/cache.db");
	}
	err = tnorm_db_open(db, path);
	free(path);
	return err;
}
static const char *const mode_names[] = {"reduce", "normalize", "minimize", "generalize"};

/* Where accepted rewrites go: stderr lines (--verbose) and/or a JSON array (--json). */
typedef struct {
	int print;
	char *json;
	size_t len;
} log_sink;

static void log_rewrite(void *ctx, tnorm_rule rule, const char *what)
{
	log_sink *l = ctx;
	size_t need = 2 * strlen(what) + 64, i;
	char *n;
	if (l->print)
		fprintf(stderr, "  %s: %s\n", tnorm_rule_name(rule), what);
	if (!(n = realloc(l->json, l->len + need)))
		return;
	l->json = n;
	l->len += (size_t)sprintf(l->json + l->len, "%s{\"rule\": \"%s\", \"what\": \"", l->len ? ", " : "",
	                          tnorm_rule_name(rule));
	for (i = 0; what[i]; i++) {
		if (what[i] == '"' || what[i] == '\\')
			l->json[l->len++] = '\\';
		l->json[l->len++] = what[i];
	}
	l->len += (size_t)sprintf(l->json + l->len, "\"}");
}

static void help_norm(FILE *f, int mode)
{
	fprintf(f, "usage: tnorm %s --harness H [--match P] [-o OUT] [--verbose] [--wide]\n"
	           "                    [--max-edit N] [--confirm N] [--allow-flaky] [--max-runs N]\n"
	           "                    [--max-time T] [--timeout T] [--mem SIZE] [--stdin]\n"
	           "                    [--env N=V]... [--json] [--quiet] TEST -- CMD ARGS...\n\n",
	        mode_names[mode]);
	if (mode == MODE_GENERALIZE)
		fprintf(f, "Run experiments on TEST (best: a normal form) and print it annotated: which\n"
		           "other actions each step could be (# or ...), which steps it swaps with, and\n"
		           "blocks of steps in any order (#[ ... #]).  The annotated test is still a test.  ");
	else if (mode == MODE_MINIMIZE)
		fprintf(f, "Confirm that CMD fails on TEST, reduce it, then normalize it: the command to\n"
		           "run on a failing test (--generalize: annotate the result).  ");
	else
		fprintf(f, "Rewrite TEST into its normal form: the lowest test the rewrite rules reach\n"
		           "that still fails with the same signature.  ");
	fprintf(f, "The result is written to OUT (default\n"
	           "TEST.norm, TEST.gen for generalize); Ctrl-C keeps the best so far.\n\n"
	           "  --verbose      print every accepted rewrite (rule: before -> after)\n"
	           "  --wide         try every lower action as a replacement, not just those of\n"
	           "                 the same template (slower, sometimes lower)\n"
	           "  --max-edit N   only replacements within edit distance N of the action text\n"
	           "  --db PATH      the cross-test cache (default .tnorm/cache.db beside TEST);\n"
	           "                 a test seen before jumps to its known normal form; --no-db\n"
	           "  (other options as for tnorm reduce)\n\n"
	           "exit status: 0 done, 1 bad harness or test, 2 usage, 3 system error,\n"
	           "4 the test does not fail (or is flaky), 130 interrupted (best so far written)\n");
}

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm reduce [--harness H] [--match P] [--algo ddmin|adaptive] [--no-slice]\n"
	           "                    [-o OUT] [--confirm N] [--allow-flaky] [--max-runs N]\n"
	           "                    [--max-time T] [--timeout T] [--mem SIZE] [--stdin]\n"
	           "                    [--env N=V]... [--seed S] [--json] [--quiet]\n"
	           "                    TEST -- CMD ARGS...\n\n"
	           "Reduce TEST to a 1-minimal test on which CMD fails with the same signature.\n"
	           "With --harness, TEST is a harness test reduced step by step (shortest failing\n"
	           "prefix, slicing, then the algorithm); without, TEST is any file, reduced by\n"
	           "lines, then tokens, then bytes.  The best test so far is written to OUT (default\n"
	           "TEST.min) after every improvement; Ctrl-C stops and keeps it.  Other failures met\n"
	           "on the way are kept, smallest first, in a slipped/ folder beside OUT.\n\n"
	           "  --match P      line (default), stack:N, kind, any, output:REGEX\n"
	           "  --algo A       adaptive (default) or ddmin\n"
	           "  --confirm N    runs of the original to confirm the failure (default 3)\n"
	           "  --timeout T    per run (default: 10x the original's run, at least 1s)\n"
	           "  --max-runs N, --max-time T   budgets; the best so far is kept when they run out\n"
	           "  --db PATH      the cross-test cache (default: $TNORM_DB, else .tnorm/cache.db\n"
	           "                 beside TEST; TNORM_DB=off disables it)\n"
	           "  --no-db        do not use it\n\n"
	           "exit status: 0 reduced, 1 bad harness or test, 2 usage, 3 system error,\n"
	           "4 the test does not fail (or is flaky), 130 interrupted (best so far written)\n");
}

static int progress(void *ctx, const tnorm_progress *p)
{
	(void)ctx;
	fprintf(stderr, "\r%s: best %zu bytes, %llu runs, %llu accepted, %llu cached, %.1fs   ",
	        p->phase, p->best_len, (unsigned long long)p->runs, (unsigned long long)p->accepted,
	        (unsigned long long)p->cache_hits, p->elapsed);
	fflush(stderr);
	return 0;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *d;
	if (!slash)
		return strdup(".");
	d = strndup(path, (size_t)(slash - path));
	return d;
}

static int pipeline(int argc, char **argv, int mode)
{
	tnorm_run_options ropts = TNORM_RUN_OPTIONS_INIT;
	tnorm_session_options sopts = TNORM_SESSION_OPTIONS_INIT;
	tnorm_reduce_options redo = TNORM_REDUCE_OPTIONS_INIT;
	tnorm_reduce_stats rst;
	tnorm_normalize_options nopts = TNORM_NORMALIZE_OPTIONS_INIT;
	tnorm_normalize_stats nst;
	int verbose = 0, no_db = 0, generalize = mode == MODE_GENERALIZE;
	char *genjson = NULL;
	const char *cmd = mode_names[mode], *dbpath = NULL;
	tnorm_db *db = NULL;
	db_hooks hooks;
	log_sink lsink = {0, NULL, 0};
	cli_run_args ra;
	const char *harness = NULL, *test = NULL, *outp = NULL, *match = "line";
	char **rest = NULL, *outbuf = NULL, *slipdir = NULL, *data = NULL, *result = NULL;
	char *sigtext = NULL, *dir = NULL;
	size_t len = 0, rlen = 0, orig_units = 0, final_units = 0;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL, *rt = NULL;
	tnorm_session *s = NULL;
	tnorm_progress st;
	int i, nrest = 0, json = 0, quiet = 0, err = 0, rc = EXIT_OK, tty;
	unsigned long long v;
	struct sigaction sa, old_int, old_term;

	memset(&rst, 0, sizeof(rst));
	memset(&nst, 0, sizeof(nst));
	memset(&hooks, 0, sizeof(hooks));
	if (cli_run_args_init(&ra) < 0)
		return EXIT_SYSTEM;
	ra.timeout = 0; /* derived from the confirm runs unless given */
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		int used;
		if (!strcmp(a, "--")) {
			rest = argv + i + 1;
			nrest = argc - i - 1;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			if (mode == MODE_REDUCE)
				help(stdout);
			else
				help_norm(stdout, mode);
			goto done;
		}
		if (mode == MODE_MINIMIZE && !strcmp(a, "--generalize")) {
			generalize = 1;
		} else if (mode != MODE_REDUCE && !strcmp(a, "--verbose")) {
			verbose = 1;
		} else if (mode != MODE_REDUCE && !strcmp(a, "--wide")) {
			nopts.wide = 1;
		} else if (mode != MODE_REDUCE && !strcmp(a, "--max-edit")) {
			if (i + 1 >= argc || cli_parse_u64(cmd, a, argv[i + 1], &v) < 0) {
				rc = i + 1 >= argc ? cli_usage_error(cmd, "%s needs a value", a) : EXIT_USAGE;
				goto done;
			}
			nopts.max_edit = (unsigned)v;
			i++;
		} else if (!strcmp(a, "--no-db")) {
			no_db = 1;
		} else if (!strcmp(a, "--db")) {
			if (i + 1 >= argc) {
				rc = cli_usage_error(cmd, "--db needs a path");
				goto done;
			}
			dbpath = argv[++i];
		} else if (!strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			quiet = 1;
		} else if (!strcmp(a, "--no-slice")) {
			redo.slice = 0;
		} else if (!strcmp(a, "--allow-flaky")) {
			sopts.allow_flaky = 1;
		} else if (!strcmp(a, "--harness") || !strcmp(a, "-o") || !strcmp(a, "--match") ||
		           !strcmp(a, "--algo") || !strcmp(a, "--confirm") || !strcmp(a, "--max-runs") ||
		           !strcmp(a, "--max-time") || !strcmp(a, "--seed")) {
			const char *val;
			if (i + 1 >= argc) {
				rc = cli_usage_error(cmd, "%s needs a value", a);
				goto done;
			}
			val = argv[++i];
			if (!strcmp(a, "--harness")) {
				harness = val;
			} else if (!strcmp(a, "-o")) {
				outp = val;
			} else if (!strcmp(a, "--match")) {
				tnorm_match *m = NULL;
				if (tnorm_match_parse(&m, val) < 0) {
					rc = cli_usage_error(cmd, "%s", tnorm_error_last()->message);
					goto done;
				}
				tnorm_match_free(m);
				match = val;
			} else if (!strcmp(a, "--algo")) {
				if (tnorm_reduce_algo_parse(val, &redo.algo) < 0) {
					rc = cli_usage_error(cmd, "%s", tnorm_error_last()->message);
					goto done;
				}
			} else if (!strcmp(a, "--max-time")) {
				if (cli_parse_seconds(cmd, a, val, &sopts.max_time) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
			} else {
				if (cli_parse_u64(cmd, a, val, &v) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
				if (!strcmp(a, "--confirm")) {
					if (v < 1 || v > 100) {
						rc = cli_usage_error(cmd, "--confirm takes 1 to 100 runs");
						goto done;
					}
					sopts.confirm = (unsigned)v;
				} else if (!strcmp(a, "--max-runs")) {
					sopts.max_runs = v;
				} else {
					redo.seed = v;
				}
			}
		} else if ((used = cli_run_args_parse(&ra, cmd, argc, argv, i)) != 0) {
			if (used < 0) {
				rc = EXIT_USAGE;
				goto done;
			}
			i += used - 1;
		} else if (a[0] == '-' && a[1]) {
			rc = cli_usage_error(cmd, "unknown option '%s'", a);
			goto done;
		} else if (test) {
			rc = cli_usage_error(cmd, "unexpected argument '%s' (put the command after --)", a);
			goto done;
		} else {
			test = a;
		}
	}
	if (!test) {
		rc = cli_usage_error(cmd, "missing TEST");
		goto done;
	}
	if (!rest || nrest == 0) {
		rc = cli_usage_error(cmd, "missing the command: tnorm %s TEST -- CMD ARGS {}", cmd);
		goto done;
	}
	if (mode != MODE_REDUCE && !harness) {
		rc = cli_usage_error(cmd, "%s needs --harness: normalization rewrites harness tests", cmd);
		goto done;
	}
	if (!outp) {
		if (!(outbuf = malloc(strlen(test) + 6))) {
			rc = EXIT_SYSTEM;
			goto done;
		}
		sprintf(outbuf, "%s.%s", test,
		        mode == MODE_REDUCE ? "min" : mode == MODE_GENERALIZE ? "gen" : "norm");
		outp = outbuf;
	}
	if (!strcmp(outp, test)) {
		rc = cli_usage_error(cmd, "-o must not name the input test (it is never modified)");
		goto done;
	}
	dir = dir_of(outp);
	if (!dir || !(slipdir = malloc(strlen(dir) + 10))) {
		rc = EXIT_SYSTEM;
		goto done;
	}
	sprintf(slipdir, "%s/slipped", dir);

	/* The input: a harness test in canonical text, or any file. */
	if (harness) {
		size_t bad = 0;
		if ((err = tnorm_harness_load(&h, harness)) < 0 || (err = tnorm_test_load(&t, h, test)) < 0) {
			rc = cli_fail(cmd, err);
			goto done;
		}
		if ((err = tnorm_test_check(t, &bad)) < 0) {
			fprintf(stderr, "tnorm %s: %s:%u: not well-formed: %s\n", cmd, test,
			        tnorm_test_step_line(t, bad), tnorm_error_last()->message);
			rc = EXIT_BADINPUT;
			goto done;
		}
		if ((err = tnorm_test_format(t, &data, &len)) < 0) {
			rc = cli_fail(cmd, err);
			goto done;
		}
		orig_units = tnorm_test_len(t);
	} else {
		if ((err = tnorm_file_read(test, &data, &len)) < 0) {
			rc = cli_fail(cmd, err);
			goto done;
		}
		orig_units = len;
	}

	cli_run_args_apply(&ra, &ropts);
	ropts.suffix = harness ? ".t" : NULL;
	sopts.match = match;
	sopts.out_path = outp;
	sopts.slipped_dir = slipdir;
	sopts.cancel = &cancel_flag;
	tty = isatty(2);
	if (!quiet && tty)
		sopts.progress = progress;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);

	if ((err = tnorm_session_new(&s, (const char *const *)rest, &ropts, &sopts)) < 0) {
		rc = cli_fail(cmd, err);
		goto restore;
	}
	tnorm_session_set_phase(s, "confirm");
	if ((err = tnorm_session_confirm(s, data, len)) < 0) {
		rc = cli_fail(cmd, err);
		goto restore;
	}
	{
		int stable = 1;
		const tnorm_signature *target = tnorm_session_target(s, &stable);
		if ((err = tnorm_signature_format(target, 0, &sigtext)) < 0) {
			rc = cli_fail(cmd, err);
			goto restore;
		}
		if (!quiet && !json) {
			fprintf(stderr, "target: %s\n", sigtext);
			if (!stable)
				fprintf(stderr, "note: the stack differs between runs of the original; matching "
				                "on the part they share\n");
		}
	}
	if (!no_db) {
		struct stat sb;
		char stamp[64];
		const char *parts[64];
		int np = 0, k;
		if ((err = open_db(test, dbpath, &db)) < 0) {
			rc = cli_fail(cmd, err);
			goto restore;
		}
		/* The context: the program (and when it was built), its arguments, the policy and the
		 * target.  A rebuilt program gets a fresh context. */
		snprintf(stamp, sizeof(stamp), "%lld:%lld",
		         stat(rest[0], &sb) == 0 ? (long long)sb.st_mtime : 0LL,
		         stat(rest[0], &sb) == 0 ? (long long)sb.st_size : 0LL);
		for (k = 0; k < nrest && np < 60; k++)
			parts[np++] = rest[k];
		parts[np++] = stamp;
		parts[np++] = match;
		parts[np++] = sigtext;
		parts[np] = NULL;
		if (db) {
			hooks.db = db;
			hooks.ctx = tnorm_db_context(parts);
			hooks.h = h;
			tnorm_session_set_db(s, db, hooks.ctx);
			if (mode != MODE_REDUCE) {
				nopts.known = hook_known;
				nopts.visited = hook_visited;
				nopts.hook_ctx = &hooks;
			}
		}
	}
	/* The original is the first best-so-far: the output exists from now on. */
	if ((err = tnorm_file_write_atomic(outp, data, len)) < 0) {
		rc = cli_fail(cmd, err);
		goto restore;
	}
	tnorm_session_set_phase(s, "reduce");
	if (harness) {
		tnorm_test *known = NULL;
		if (hooks.db && mode != MODE_REDUCE && (err = hook_known(&hooks, t, &known)) == 0 && known) {
			/* Seen before: its normal form is known. */
			rt = known;
			nst.jumped = 1;
		} else if (mode == MODE_GENERALIZE) {
			err = tnorm_test_dup(&rt, t);
			nst.jumped = 1; /* no normalization */
		} else if (mode != MODE_NORMALIZE) {
			if (hooks.db && mode != MODE_REDUCE)
				hook_visited(&hooks, t);
			err = tnorm_reduce_test(&rt, t, &redo, tnorm_session_test_oracle, s, &rst);
		} else {
			err = tnorm_test_dup(&rt, t);
		}
		if (err == 0 && mode != MODE_REDUCE && !nst.jumped) {
			tnorm_test *nt = NULL;
			tnorm_session_set_phase(s, "normalize");
			if (verbose && !json)
				fprintf(stderr, "rewrites:\n");
			lsink.print = verbose && !json;
			err = tnorm_normalize(&nt, rt, &nopts, tnorm_session_test_oracle, s,
			                      verbose || json ? log_rewrite : NULL, &lsink, &nst);
			if (nt) {
				tnorm_test_free(rt);
				rt = nt;
			}
			if (err == 0 && hooks.db && nt) {
				char *form = NULL;
				size_t k;
				int e2 = tnorm_test_format(nt, &form, NULL);
				for (k = 0; e2 == 0 && k < hooks.nvisited; k++)
					e2 = tnorm_db_put_normal(db, hooks.ctx, hooks.visited[k],
					                         strlen(hooks.visited[k]), form);
				tnorm_free(form);
				if (e2 < 0)
					err = e2;
			}
		}
		if (rt) {
			int e2 = tnorm_test_format(rt, &result, &rlen);
			final_units = tnorm_test_len(rt);
			if (e2 < 0 && err == 0)
				err = e2;
		}
		if (rt && err == 0 && generalize) {
			tnorm_generalization *g = NULL;
			char *annotated = NULL;
			tnorm_session_set_phase(s, "generalize");
			if ((err = tnorm_generalize(&g, rt, NULL, tnorm_session_test_oracle, s)) == 0 &&
			    (err = tnorm_generalization_format(g, &annotated)) == 0 &&
			    (err = tnorm_generalization_json(g, &genjson)) == 0) {
				tnorm_free(result);
				result = annotated;
				rlen = strlen(annotated);
				annotated = NULL;
			}
			tnorm_free(annotated);
			tnorm_generalization_free(g);
		}
	} else {
		err = tnorm_session_reduce_bytes(s, data, len, redo.algo, redo.seed, TNORM_VIEW_ALL,
		                                 &result, &rlen);
		final_units = rlen;
	}
	if (tty && !quiet && sopts.progress)
		fprintf(stderr, "\n");
	if (result) {
		int e2 = tnorm_file_write_atomic(outp, result, rlen);
		if (e2 < 0 && err == 0)
			err = e2;
	}
	if (err < 0 && err != TNORM_EINTERRUPTED && err != TNORM_ETIMEOUT) {
		rc = cli_fail(cmd, err);
		goto restore;
	}
	if (err == TNORM_EINTERRUPTED || err == TNORM_ETIMEOUT) {
		fprintf(stderr, "tnorm %s: %s\n", cmd, tnorm_error_last()->message);
		rc = err == TNORM_EINTERRUPTED ? EXIT_INTERRUPTED : EXIT_OK;
	}
	tnorm_session_stats(s, &st);
	if (json) {
		size_t k;
		printf("{\"output\": \"%s\", \"original\": %zu, \"reduced\": %zu, \"unit\": \"%s\", "
		       "\"runs\": %llu, \"accepted\": %llu, \"cache_hits\": %llu, \"skipped\": %llu, "
		       "\"slice_level\": %d, \"rewrites\": %llu, \"known_normal_form\": %s, "
		       "\"seconds\": %.3f, \"complete\": %s, "
		       "\"signature\": \"%s\", \"slipped\": [",
		       outp, orig_units, final_units, harness ? "steps" : "bytes",
		       (unsigned long long)st.runs, (unsigned long long)st.accepted,
		       (unsigned long long)st.cache_hits, (unsigned long long)rst.skipped,
		       rst.slice_level, (unsigned long long)nst.rewrites, nst.jumped ? "true" : "false",
		       st.elapsed,
		       err == 0 ? "true" : "false", sigtext);
		for (k = 0; k < tnorm_session_slipped_count(s); k++) {
			const char *sg = NULL, *p = NULL;
			size_t sz = 0;
			tnorm_session_slipped(s, k, &sg, &p, &sz);
			printf("%s{\"signature\": \"%s\", \"path\": \"%s\", \"size\": %zu}", k ? ", " : "", sg,
			       p ? p : "", sz);
		}
		printf("], \"log\": [%s], \"generalization\": %s}\n", lsink.json ? lsink.json : "",
		       genjson ? genjson : "null");
	} else {
		size_t k;
		printf("%s: %zu -> %zu %s in %llu runs (%llu cached), %.2f s\n", outp, orig_units,
		       final_units, harness ? "steps" : "bytes", (unsigned long long)st.runs,
		       (unsigned long long)st.cache_hits, st.elapsed);
		printf("signature: %s\n", sigtext);
		if (generalize && result)
			printf("%s:\n%s", mode == MODE_GENERALIZE ? "generalized" : "normal form, generalized",
			       result);
		else if (mode != MODE_REDUCE && result && nst.jumped)
			printf("normal form (known from the database):\n%s", result);
		else if (mode != MODE_REDUCE && result)
			printf("normal form (%llu rewrites):\n%s", (unsigned long long)nst.rewrites, result);
		for (k = 0; k < tnorm_session_slipped_count(s); k++) {
			const char *sg = NULL, *p = NULL;
			size_t sz = 0;
			tnorm_session_slipped(s, k, &sg, &p, &sz);
			printf("slipped: %s (smallest test, %zu bytes: %s)\n", sg, sz, p ? p : "-");
		}
	}
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
done:
	free(lsink.json);
	tnorm_free(genjson);
	tnorm_session_free(s);
	tnorm_db_close(db);
	{
		size_t k;
		for (k = 0; k < hooks.nvisited; k++)
			tnorm_free(hooks.visited[k]);
		free(hooks.visited);
	}
	tnorm_test_free(rt);
	tnorm_test_free(t);
	tnorm_harness_free(h);
	tnorm_free(data);
	tnorm_free(result);
	tnorm_free(sigtext);
	free(outbuf);
	free(slipdir);
	free(dir);
	cli_run_args_dispose(&ra);
	return rc;
}

int cmd_reduce(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_REDUCE);
}

int cmd_normalize(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_NORMALIZE);
}

int cmd_minimize(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_MINIMIZE);
}

int cmd_generalize(int argc, char **argv)
{
	return pipeline(argc, argv, MODE_GENERALIZE);
}

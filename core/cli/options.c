/* SPDX-License-Identifier: MIT */
/*
 * options.c - the command line of every subcommand: one table and one parser.
 *
 * The commands share most of their options (--match, --rules, -j, --db, the runner's --timeout,
 * --env, ...), and each of them used to read its own copy, so that a spelling or a message could
 * differ between two commands by accident.  Here an option is one row: its spellings, the
 * commands that take it (a CLI_* bit each), how its value is read and the field of cli_args it
 * goes to.  Where two commands really say different things (reduce's "--db needs a path",
 * run's "--match needs a policy"), the option has a row per wording, each with its commands.
 * What is checked across options (--shard with --no-db, --runs 0 without --max-time) and the
 * operands' meaning stay with each command, which reads the fields it takes after cli_parse.
 */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The commands that run the whole job (pipeline.h), and those that run a program at all. */
#define PIPELINE (CLI_REDUCE | CLI_NORMALIZE | CLI_MINIMIZE | CLI_GENERALIZE)
#define REWRITES (CLI_NORMALIZE | CLI_MINIMIZE | CLI_GENERALIZE)
#define RUNS (CLI_RUN | CLI_FUZZ | CLI_WHY | PIPELINE | CLI_TRIAGE | CLI_EXPORT)
#define F(x) offsetof(cli_args, x)

static int parse_match(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	tnorm_match *m = NULL;
	if (tnorm_match_parse(&m, val) < 0) {
		cli_usage_error(cmd, "%s", tnorm_error_last()->message);
		return -1;
	}
	tnorm_match_free(m);
	a->match = val;
	return 0;
}

static int parse_algo(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	tnorm_reduce_algo algo;
	if (tnorm_reduce_algo_parse(val, &algo) < 0) {
		cli_usage_error(cmd, "%s", tnorm_error_last()->message);
		return -1;
	}
	a->algo = val;
	return 0;
}

static int parse_shard(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	if (tnorm_triage_shard_parse(val, &a->shard, &a->shards) < 0) {
		cli_usage_error(cmd, "%s", tnorm_error_last()->message);
		return -1;
	}
	return 0;
}

static int parse_polish(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	unsigned long long v;
	if (cli_parse_u64_in(cmd, opt, val, 1, 1000000, "bytes", &v) < 0)
		return -1;
	a->polish = (long)v;
	return 0;
}

static int parse_no_polish(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	a->polish = -1;
	return 0;
}

static int parse_env(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	char **n;
	if (!strchr(val, '=') || val[0] == '=') {
		cli_usage_error(cmd, "--env expects NAME=VALUE, got '%s'", val);
		return -1;
	}
	if (!(n = realloc(a->run.env, (a->run.nenv + 2) * sizeof(*n))))
		return -1;
	a->run.env = n;
	a->run.env[a->run.nenv++] = (char *)val;
	a->run.env[a->run.nenv] = NULL;
	return 0;
}

static int parse_invalid_exit(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	unsigned long long code;
	int *n;
	if (cli_parse_u64(cmd, opt, val, &code) < 0)
		return -1;
	if (code < 1 || code > 255) {
		cli_usage_error(cmd, "--invalid-exit takes an exit code from 1 to 255 (0 is a "
		                "pass), got %llu", code);
		return -1;
	}
	if (!(n = realloc(a->run.invalid_exits, (a->run.ninvalid + 1) * sizeof(*n))))
		return -1;
	a->run.invalid_exits = n;
	a->run.invalid_exits[a->run.ninvalid++] = (int)code;
	return 0;
}

static int parse_fixed(cli_args *a, const char *cmd, const char *opt, const char *val)
{
	if (!val[0]) {
		cli_usage_error(cmd, "--fixed expects the fixed program");
		return -1;
	}
	a->run.fixed = val;
	return 0;
}

/* The rows' shapes.  Every field is given, so that a row says all it is. */
#define ROW(names, cmds, kind, field, lo, hi, text, missing, bad, quotes, takes, parse)           \
	{names, cmds, kind, field, lo, hi, text, missing, bad, quotes, takes, parse}
#define FLAG(names, cmds, f) ROW(names, cmds, CLI_OPT_FLAG, F(f), 0, 0, NULL, NULL, NULL, 0, 0, NULL)
#define STRING(names, cmds, f, missing)                                                          \
	ROW(names, cmds, CLI_OPT_STRING, F(f), 0, 0, NULL, missing, NULL, 0, 1, NULL)
#define U64(names, cmds, f, lo, hi, unit)                                                        \
	ROW(names, cmds, CLI_OPT_U64, F(f), lo, hi, unit, NULL, NULL, 0, 1, NULL)
#define SECONDS(names, cmds, f)                                                                  \
	ROW(names, cmds, CLI_OPT_SECONDS, F(f), 0, 0, NULL, NULL, NULL, 0, 1, NULL)
#define SIZE(names, cmds, f) ROW(names, cmds, CLI_OPT_SIZE, F(f), 0, 0, NULL, NULL, NULL, 0, 1, NULL)
#define CHOICE(names, cmds, f, words, missing, bad, quotes)                                      \
	ROW(names, cmds, CLI_OPT_CHOICE, F(f), 0, 0, words, missing, bad, quotes, 1, NULL)
#define CUSTOM(names, cmds, takes, parse, missing)                                               \
	ROW(names, cmds, CLI_OPT_CUSTOM, 0, 0, 0, NULL, missing, NULL, 0, takes, parse)

/* Every option of every command.  A spelling has one row per command at most. */
static const cli_option options[] = {
	/* output and the job's shape */
	FLAG("--json", PIPELINE | CLI_RUN | CLI_WHY, json),
	FLAG("--quiet|-q", PIPELINE | CLI_FUZZ | CLI_TRIAGE | CLI_EXPORT, quiet),
	STRING("-o", PIPELINE | CLI_TRIAGE | CLI_FUZZ | CLI_GEN, out, NULL),
	STRING("-o", CLI_EXPORT, out, "-o needs a folder"),
	STRING("--harness", PIPELINE | CLI_TRIAGE | CLI_WHY | CLI_EXPORT, harness, NULL),
	FLAG("--no-harness", CLI_REDUCE | CLI_NORMALIZE | CLI_MINIMIZE | CLI_TRIAGE | CLI_WHY | CLI_EXPORT,
	     no_harness),
	CUSTOM("--match", PIPELINE | CLI_TRIAGE, 1, parse_match, NULL),
	CUSTOM("--match", CLI_RUN, 1, parse_match, "--match needs a policy"),
	U64("-j|--jobs", REWRITES | CLI_TRIAGE, jobs, 1, TNORM_MAX_JOBS, "jobs"),
	STRING("--db", PIPELINE, db, "--db needs a path"),
	STRING("--db", CLI_TRIAGE, db, NULL),
	FLAG("--no-db", PIPELINE | CLI_TRIAGE | CLI_WHY, no_db),
	CHOICE("--rules", REWRITES, rules, "calls|paper", "--rules needs a value: calls or paper",
	       "--rules takes calls or paper", 1),
	CHOICE("--rules", CLI_TRIAGE, rules, "calls|paper", "--rules takes calls or paper",
	       "--rules takes calls or paper", 0),
	/* reduce, normalize, minimize, generalize */
	FLAG("--verbose", REWRITES, verbose),
	FLAG("--wide", REWRITES, wide),
	FLAG("--no-rewire", REWRITES, no_rewire),
	U64("--max-edit", REWRITES, max_edit, 0, 0, NULL),
	FLAG("--generalize", CLI_MINIMIZE, generalize),
	FLAG("--no-replay", CLI_MINIMIZE, no_replay),
	FLAG("--no-slice", PIPELINE, no_slice),
	FLAG("--no-chunks", PIPELINE, no_chunks),
	FLAG("--allow-flaky", PIPELINE, allow_flaky),
	CUSTOM("--algo", PIPELINE, 1, parse_algo, NULL),
	U64("--confirm", PIPELINE, confirm, 1, 100, "runs"),
	U64("--max-runs", PIPELINE, max_runs, 0, 0, NULL),
	SECONDS("--max-time", PIPELINE | CLI_FUZZ, max_time),
	U64("--seed", PIPELINE | CLI_FUZZ | CLI_GEN, seed, 0, 0, NULL),
	/* gen, fuzz: a test has at least one step (issue 39: gen took 0 where fuzz refused it) */
	U64("--steps", CLI_GEN, steps, 1, 10000000, ""),
	U64("--steps", CLI_FUZZ, steps, 1, 100000, ""),
	U64("--runs", CLI_FUZZ, runs, 0, 0, NULL),
	U64("--max-failures", CLI_FUZZ, max_failures, 0, 0, NULL),
	/* triage */
	FLAG("--no-generalize", CLI_TRIAGE, no_generalize),
	FLAG("--thorough", CLI_TRIAGE, thorough),
	FLAG("--explain", CLI_TRIAGE, explain),
	STRING("--sarif", CLI_TRIAGE, sarif, "--sarif needs a file"),
	CUSTOM("--no-polish", CLI_TRIAGE, 0, parse_no_polish, NULL),
	CUSTOM("--polish", CLI_TRIAGE, 1, parse_polish, NULL),
	U64("--polish-runs", CLI_TRIAGE, polish_runs, 1, ULLONG_MAX, ""),
	SECONDS("--max-time-per-test", CLI_TRIAGE, max_time),
	CUSTOM("--shard", CLI_TRIAGE, 1, parse_shard, NULL),
	U64("--lease", CLI_TRIAGE, lease, 1, 86400, "seconds"),
	/* run, why, check */
	CHOICE("--expect", CLI_RUN, expect, "fail|pass", "--expect takes fail or pass",
	       "--expect takes fail or pass", 0),
	FLAG("--normal", CLI_WHY, normal),
	U64("--top", CLI_WHY, top, 0, 0, NULL),
	U64("--neighbours", CLI_WHY, neighbours, 0, 0, NULL),
	STRING("--driver", CLI_CHECK, driver, "--driver needs a program"),
	/* export */
	STRING("--from", CLI_EXPORT, from, "--from needs a triage's output folder"),
	STRING("--name", CLI_EXPORT, name, "--name needs a name"),
	FLAG("--force", CLI_EXPORT, force),
	/* the runner's (cli_run_args) */
	FLAG("--stdin", RUNS, run.use_stdin),
	FLAG("--no-fork-server", RUNS, run.no_fork_server),
	SECONDS("--timeout", RUNS, run.timeout),
	SIZE("--mem", RUNS, run.mem),
	CUSTOM("--env", RUNS, 1, parse_env, NULL),
	CUSTOM("--invalid-exit", RUNS, 1, parse_invalid_exit, NULL),
	CUSTOM("--fixed", PIPELINE | CLI_TRIAGE, 1, parse_fixed, NULL),
};

/* 1 when `word` is one of the '|'-separated words of `list`. */
static int in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (;;) {
		const char *bar = strchr(list, '|');
		size_t len = bar ? (size_t)(bar - list) : strlen(list);
		if (len == n && !memcmp(list, word, n))
			return 1;
		if (!bar)
			return 0;
		list = bar + 1;
	}
}

static const cli_option *find(unsigned bit, const char *arg)
{
	size_t i;
	for (i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		if ((options[i].commands & bit) && in_list(options[i].names, arg))
			return &options[i];
	return NULL;
}

/* Store `val`, the value of `opt` (spelled `arg`), in `a`: 0, or -1 after a usage error. */
static int store(const cli_option *opt, cli_args *a, const char *cmd, const char *arg,
                 const char *val)
{
	char *field = (char *)a + opt->field;
	switch (opt->kind) {
	case CLI_OPT_FLAG:
		*(int *)field = 1;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)field = val;
		return 0;
	case CLI_OPT_U64:
		if (opt->hi)
			return cli_parse_u64_in(cmd, arg, val, opt->lo, opt->hi, opt->text,
			                        (unsigned long long *)field);
		return cli_parse_u64(cmd, arg, val, (unsigned long long *)field);
	case CLI_OPT_SECONDS:
		return cli_parse_seconds(cmd, arg, val, (double *)field);
	case CLI_OPT_SIZE:
		return cli_parse_size(cmd, arg, val, (unsigned long long *)field);
	case CLI_OPT_CHOICE:
		if (in_list(opt->text, val)) {
			*(const char **)field = val;
			return 0;
		}
		if (opt->bad_quotes)
			cli_usage_error(cmd, "%s, not '%s'", opt->bad, val);
		else
			cli_usage_error(cmd, "%s", opt->bad);
		return -1;
	case CLI_OPT_CUSTOM:
		return opt->parse(a, cmd, arg, val);
	}
	return -1;
}

int cli_parse(const cli_spec *s, cli_args *a, int argc, char **argv)
{
	int i;
	a->operands = argv + 1;
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];
		const cli_option *opt;
		if (s->dashdash && !strcmp(arg, "--")) {
			a->rest = argv + i + 1;
			a->nrest = argc - i - 1;
			break;
		}
		if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			s->help(stdout);
			return EXIT_OK;
		}
		if ((opt = find(s->bit, arg)) != NULL) {
			int takes = opt->takes_value;
			if (takes && i + 1 >= argc) {
				if (opt->missing)
					cli_usage_error(s->name, "%s", opt->missing);
				else
					cli_usage_error(s->name, "%s needs a value", arg);
				return EXIT_USAGE;
			}
			if (store(opt, a, s->name, arg, takes ? argv[++i] : NULL) < 0)
				return EXIT_USAGE;
		} else if (arg[0] == '-' && arg[1]) {
			return cli_usage_error(s->name, "unknown option '%s'", arg);
		} else if (s->operands && a->noperands >= s->operands) {
			return cli_usage_error(s->name, "unexpected argument '%s'%s", arg,
			                       s->dashdash ? " (put the command after --)" : "");
		} else {
			a->operands[a->noperands++] = argv[i];
		}
	}
	return CLI_GO_ON;
}

void cli_args_init(cli_args *a)
{
	memset(a, 0, sizeof(*a));
	a->run.timeout = 10.0; /* run's, why's and fuzz's default; the whole job derives its own */
}

void cli_args_dispose(cli_args *a)
{
	cli_run_args_dispose(&a->run);
}

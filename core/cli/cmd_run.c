/* SPDX-License-Identifier: MIT */
/*
 * cmd_run.c - `tnorm run TEST -- CMD ARGS {}`: run one test, print its outcome and signature.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm run [--json] [--match P] [--expect fail|pass] [--timeout T] [--mem SIZE] [--stdin] [--no-fork-server] [--env NAME=VALUE]...\n"
	           "                 [--invalid-exit N]... TEST -- CMD ARGS...\n\n"
	           "Run CMD once on a private copy of TEST ({} or @@ in ARGS stands for its path; with\n"
	           "--stdin it is also fed on standard input) and print the outcome (pass, fail,\n"
	           "timeout, invalid, error) and, for a failure, its signature.\n\n"
	           "  --json         print one JSON object instead\n"
	           "  --match P      also print the signature's key under policy P (line, stack:N,\n"
	           "                 kind): two failures are the same fault when their keys are equal\n"
	           "  --expect O     exit 0 only when the outcome is O (fail or pass), 1 when it is\n"
	           "                 another: for scripts (fails on the buggy build, passes on the\n"
	           "                 fixed one)\n"
	           "  --timeout T    kill the program's process group after T (default 10s)\n"
	           "  --mem SIZE     limit its address space (e.g. 512M)\n"
	           "  --env N=V      add to the program's fixed environment (repeatable); ASAN_OPTIONS\n"
	           "                 and the other *SAN_OPTIONS merge flag by flag with tnorm's defaults\n"
	           "  --invalid-exit N  exit status N means \"invalid\", like 125 (repeatable)\n\n"
	           "exit status: 0 the test ran (whatever its outcome; with --expect: the outcome\n"
	           "was the one expected), 1 with --expect: another outcome, 2 usage, 3 the program\n"
	           "could not be started or an I/O error\n");
}

/* The --json object: the library's (tnorm_run_result_json; docs/commands/run.md), on one line. */
static int print_json(const tnorm_run_result *res, const tnorm_match *match)
{
	char *text = NULL;
	int err = tnorm_run_result_json(&text, res, match);
	if (err < 0)
		return cli_fail("run", err);
	printf("%s\n", text);
	tnorm_free(text);
	return EXIT_OK;
}

/*
 * A check (or handler) that failed by returning nonzero: the runtime aborts on the check's
 * behalf, so every failure of that check has this one signature, whichever property broke.
 */
static void warn_check_failed(const tnorm_signature *sig)
{
	const char *kind = sig ? tnorm_signature_kind(sig) : NULL;
	const char *what = NULL, *name = NULL;
	if (kind && !strncmp(kind, "check-failed:", 13)) {
		what = "check";
		name = kind + 13;
	} else if (kind && !strncmp(kind, "handler-failed:", 15)) {
		what = "handler";
		name = kind + 15;
	}
	if (name)
		fprintf(stderr,
		        "tnorm run: warning: the %s %s failed by returning nonzero, so all its failures "
		        "have this one signature and cannot be told apart; assert each property in the "
		        "handler instead (docs/driver.md, \"Checks\")\n",
		        what, name);
}

int cmd_run(int argc, char **argv)
{
	static const cli_spec spec = {"run", CLI_RUN, 1, 1, help};
	tnorm_run_options opts = TNORM_RUN_OPTIONS_INIT;
	cli_args a;
	tnorm_runner *r = NULL;
	cli_cancel sigs_in;
	tnorm_run_result res;
	char *data = NULL, *sig = NULL, *key = NULL;
	tnorm_match *match = NULL;
	size_t len = 0;
	int err, rc = EXIT_OK;
	const char *test;

	memset(&res, 0, sizeof(res));
	cli_args_init(&a);
	if ((err = cli_parse(&spec, &a, argc, argv)) != CLI_GO_ON) {
		rc = err;
		goto done;
	}
	if (a.noperands == 0) {
		rc = cli_usage_error("run", "missing TEST");
		goto done;
	}
	test = a.operands[0];
	if (cli_check_command(&a.run, "run", a.rest, a.nrest, "tnorm run TEST -- CMD ARGS {}") < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	/* --match was checked as it was read */
	if (a.match && (err = tnorm_match_parse(&match, a.match)) < 0) {
		rc = cli_fail("run", err);
		goto done;
	}
	cli_run_args_apply(&a.run, &opts);
	if (opts.timeout == 0)
		opts.timeout = -1; /* --timeout 0: no limit */
	if ((err = tnorm_file_read(test, &data, &len)) < 0 ||
	    (err = tnorm_runner_new(&r, (const char *const *)a.rest, &opts)) < 0 ||
	    (err = tnorm_runner_set_test_name(r, test)) < 0) {
		rc = cli_fail("run", err);
		goto done;
	}
	tnorm_runner_set_cancel(r, &cli_cancel_flag);
	cli_cancel_begin(&sigs_in);
	err = tnorm_runner_run(r, data, len, &res);
	cli_cancel_end(&sigs_in);
	if (err < 0) {
		rc = cli_fail("run", err);
		goto done;
	}
	if (a.json) {
		rc = print_json(&res, match);
	} else if (res.sig && ((err = tnorm_signature_format(res.sig, 0, &sig)) < 0 ||
	                       (match && (err = tnorm_match_key(match, res.sig, &key)) < 0))) {
		rc = cli_fail("run", err);
		goto done;
	} else {
		printf("outcome: %s\n", tnorm_outcome_name(res.outcome));
		if (sig)
			printf("signature: %s\n", sig);
		if (key)
			printf("key: %s\n", key);
		if (res.message[0])
			printf("%s: %s\n", res.outcome == TNORM_OUTCOME_INVALID ? "reason" : "message",
			       res.message);
		printf("time: %.3f s\n", res.wall);
		warn_check_failed(res.sig);
	}
	if (res.outcome == TNORM_OUTCOME_ERROR) {
		fprintf(stderr, "tnorm run: %s\n", res.message);
		rc = EXIT_SYSTEM;
	} else if (a.expect && rc == EXIT_OK && strcmp(a.expect, tnorm_outcome_name(res.outcome))) {
		/* For scripts: "fails on the buggy build, passes on the fixed" (issue 32, item 4). */
		fprintf(stderr, "tnorm run: expected %s, the outcome is %s\n", a.expect,
		        tnorm_outcome_name(res.outcome));
		rc = EXIT_OUTCOME;
	}
done:
	tnorm_free(key);
	tnorm_match_free(match);
	tnorm_free(sig);
	tnorm_free(data);
	tnorm_run_result_dispose(&res);
	tnorm_runner_free(r);
	cli_args_dispose(&a);
	return rc;
}

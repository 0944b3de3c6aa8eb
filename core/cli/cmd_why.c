/* SPDX-License-Identifier: MIT */
/*
 * cmd_why.c - `tnorm why [--harness H] TEST -- CMD ARGS {}`: where is the bug?  Minimize the
 * test (unless it is given as a normal form), then rank the source lines that make it fail over
 * its neighbours' runs (tnorm/why.h, docs/why.md).  Without --harness, a tnorm driver's
 * compiled-in harness is used, as minimize, triage and fuzz use it (cli_harness).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm why [--harness H | --no-harness] [--json] [--top N] [--normal]\n"
	           "                 [--neighbours N] [--no-db] [--timeout T] [--mem SIZE] [--stdin]\n"
	           "                 [--no-fork-server] [--env NAME=VALUE]...\n"
	           "                 [--invalid-exit N]... TEST -- CMD ARGS...\n\n"
	           "Where is the bug?  Minimize TEST (as `tnorm minimize` does, without the database),\n"
	           "then run its normal form and tests one small edit away from it with line coverage,\n"
	           "and rank the program's source lines by how well running them separates the\n"
	           "neighbours that fail with the normal form's signature from those that pass.\n"
	           "CMD must be built with -g; its own executable's lines are covered, not libraries'.\n\n"
	           "  --harness H    TEST is a harness test (steps): neighbours delete a step or change\n"
	           "                 an integer; without it, the harness compiled into CMD when it\n"
	           "                 is a tnorm driver (CMD --print-harness), else (or with\n"
	           "                 --no-harness) a byte is deleted or changed\n"
	           "  --normal       TEST is a normal form already: do not minimize it first\n"
	           "  --top N        print the N best lines (default 10; 0 = all)\n"
	           "  --neighbours N run at most N neighbours (default 400)\n"
	           "  --no-db        accepted as the other commands take it: why uses no database\n"
	           "  --json         print {\"signature\", \"lines\": [{file, line, function, score,\n"
	           "                 failing, passing}...] best first, \"neighbours\": [{test,\n"
	           "                 outcome}...], \"runs\"}\n\n"
	           "exit status: 0 done, 1 bad harness or test, or a program without a line table,\n"
	           "2 usage, 3 the program could not be started, 4 the test does not fail,\n"
	           "130 interrupted\n");
}

/* Minimize `test` into a private file; its bytes in *out, and in *pr the job's result (its runs
 * near the normal form, which tnorm_why reuses; the caller disposes of it). */
static int minimize(const char *harness, const char *test, char **rest, const cli_run_args *ra,
                    tnorm_pipeline_result *pr, char **out, size_t *len)
{
	tnorm_pipeline_options po = TNORM_PIPELINE_OPTIONS_INIT;
	char path[4096];
	const char *tmp = getenv("TMPDIR");
	int fd, err;
	/* (the PID: a later run removes what a killed one left) */
	snprintf(path, sizeof(path), "%s/tnorm-why-%ld-XXXXXX", tmp && *tmp ? tmp : "/tmp",
	         (long)getpid());
	if ((fd = mkstemp(path)) < 0) {
		fprintf(stderr, "tnorm why: cannot create a temporary file in %s\n",
		        tmp && *tmp ? tmp : "/tmp");
		return TNORM_EIO;
	}
	close(fd);
	po.mode = TNORM_MODE_MINIMIZE;
	po.keep_near = 1;
	po.harness = harness;
	po.test = test;
	po.out = path;
	po.argv = (const char *const *)rest;
	po.session.cancel = &cli_cancel_flag;
	cli_run_args_apply(ra, &po.run);
	err = tnorm_pipeline_run(&po, pr);
	if (err == 0)
		err = tnorm_file_read(path, out, len);
	unlink(path);
	return err;
}

/* The result as the library renders it: the --json object (tnorm_why_result_json) or the
 * table of the `top` best lines (tnorm_why_result_text), on stdout. */
static int print_result(const tnorm_why_result *w, int json, size_t top)
{
	char *text = NULL;
	int err = json ? tnorm_why_result_json(&text, w) : tnorm_why_result_text(&text, w, top);
	if (err < 0)
		return cli_fail("why", err);
	fputs(text, stdout);
	if (json)
		putchar('\n');
	tnorm_free(text);
	return EXIT_OK;
}

int cmd_why(int argc, char **argv)
{
	static const cli_spec spec = {"why", CLI_WHY, 1, 1, help};
	tnorm_why_options wo = TNORM_WHY_OPTIONS_INIT;
	tnorm_why_result w;
	tnorm_pipeline_result pr;
	cli_args a;
	cli_cancel sigs_in;
	const char *test, *harness;
	char **rest, *data = NULL, *tmp_harness = NULL;
	unsigned long long top;
	size_t len = 0;
	int rc = EXIT_OK, err;

	memset(&w, 0, sizeof(w));
	memset(&pr, 0, sizeof(pr));
	cli_args_init(&a);
	a.top = 10;
	if ((err = cli_parse(&spec, &a, argc, argv)) != CLI_GO_ON) {
		rc = err;
		goto done;
	}
	if (a.noperands == 0) {
		rc = cli_usage_error("why", "missing TEST");
		goto done;
	}
	if (!a.rest || a.nrest == 0 || !a.rest[0][0]) {
		rc = cli_usage_error("why", "missing the command: tnorm why TEST -- CMD ARGS {}");
		goto done;
	}
	test = a.operands[0];
	if (cli_harness("why", &a, a.json, &harness, &tmp_harness) < 0) {
		rc = EXIT_SYSTEM;
		goto done;
	}
	rest = a.rest;
	top = a.top;
	cli_cancel_begin(&sigs_in);
	err = a.normal ? tnorm_file_read(test, &data, &len)
	               : minimize(harness, test, rest, &a.run, &pr, &data, &len);
	if (err == 0) {
		cli_run_args_apply(&a.run, &wo.run);
		wo.argv = (const char *const *)rest;
		wo.text_steps = harness != NULL;
		wo.max_neighbours = (size_t)a.neighbours;
		wo.cancel = &cli_cancel_flag;
		wo.known = pr.near;
		wo.nknown = pr.nnear;
		err = tnorm_why(&wo, data, len, &w);
	}
	cli_cancel_end(&sigs_in);
	if (err < 0) {
		rc = cli_fail("why", err);
		goto done;
	}
	rc = print_result(&w, a.json, (size_t)top);
done:
	if (tmp_harness)
		unlink(tmp_harness);
	free(tmp_harness);
	tnorm_why_result_dispose(&w);
	tnorm_pipeline_result_dispose(&pr);
	tnorm_free(data);
	cli_args_dispose(&a);
	return rc;
}

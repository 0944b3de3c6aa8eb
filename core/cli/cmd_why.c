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

/* Line `line` of `file`, without its newline, in buf ("" when the file cannot be read). */
static const char *source_line(const char *file, unsigned line, char *buf, size_t size)
{
	FILE *f = fopen(file, "r");
	unsigned n = 0;
	buf[0] = '\0';
	if (!f)
		return buf;
	while (fgets(buf, (int)size, f))
		if (++n == line)
			break;
	fclose(f);
	if (n != line)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf + strspn(buf, " \t");
}

static int print_json(const tnorm_why_result *w)
{
	json_t *o = json_object(), *lines = json_array(), *nb = json_array();
	size_t i;
	int bad = 0;
	for (i = 0; i < w->nlines; i++) {
		const tnorm_why_line *l = &w->lines[i];
		json_t *e = json_object();
		bad |= json_object_set_new(e, "file", cli_json_str(l->file));
		bad |= json_object_set_new(e, "line", json_integer(l->line));
		bad |= json_object_set_new(e, "function", l->function ? cli_json_str(l->function)
		                                                     : json_null());
		bad |= json_object_set_new(e, "score", cli_json_real(l->score, 4));
		bad |= json_object_set_new(e, "ochiai", cli_json_real(l->ochiai, 4));
		bad |= json_object_set_new(e, "failing", json_integer(l->failing));
		bad |= json_object_set_new(e, "passing", json_integer(l->passing));
		bad |= json_array_append_new(lines, e);
	}
	for (i = 0; i < w->nneighbours; i++) {
		const tnorm_why_neighbour *n = &w->neighbours[i];
		json_t *e = json_object();
		bad |= json_object_set_new(e, "test", cli_json_text(n->test, n->len));
		bad |= json_object_set_new(e, "outcome", json_string(tnorm_why_outcome(n)));
		bad |= json_object_set_new(e, "reused", json_boolean(n->reused));
		bad |= json_array_append_new(nb, e);
	}
	bad |= json_object_set_new(o, "signature", cli_json_str(w->signature));
	bad |= json_object_set_new(o, "lines", lines);
	bad |= json_object_set_new(o, "neighbours", nb);
	bad |= json_object_set_new(o, "failing", json_integer(w->failing));
	bad |= json_object_set_new(o, "passing", json_integer(w->passing));
	bad |= json_object_set_new(o, "runs", json_integer((json_int_t)w->runs));
	bad |= json_object_set_new(o, "reused", json_integer((json_int_t)w->reused));
	bad |= json_object_set_new(o, "seconds", cli_json_real(w->seconds, 3));
	return cli_json_print("why", o, bad);
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
	size_t len = 0, i;
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
	if (a.json) {
		rc = print_json(&w);
		goto done;
	}
	printf("signature: %s\n", w.signature);
	printf("%u failing and %u passing runs of the normal form and %zu neighbours (%zu runs, "
	       "%.1f s)\n", w.failing, w.passing, w.nneighbours, w.runs, w.seconds);
	if (w.reused)
		printf("%zu of the neighbours were run by the minimization too (%zu came to another "
		       "outcome this time)\n", w.reused, w.disagreed);
	putchar('\n');
	printf("rank  score  fail pass  where\n");
	for (i = 0; i < w.nlines && (!top || i < top); i++) {
		const tnorm_why_line *l = &w.lines[i];
		const char *base = strrchr(l->file, '/');
		char src[512];
		printf("%4zu  %5.3f  %4u %4u  %s:%u %s%s\n", i + 1, l->score, l->failing, l->passing,
		       base ? base + 1 : l->file, l->line, l->function ? l->function : "",
		       l->on_stack == 2 ? " (where it failed)" : l->on_stack ? " (on its stack)" : "");
		printf("                        %s\n", source_line(l->file, l->line, src, sizeof(src)));
	}
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

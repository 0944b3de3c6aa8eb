/* SPDX-License-Identifier: MIT */
/*
 * cmd_check.c - `tnorm check [--driver PROG] HARNESS [TEST...]`: parse a harness and tests,
 * report the first problem of each with file:line:col; warn about checks that cannot be told
 * apart.
 */
#include <inttypes.h>
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm check [--driver PROG] HARNESS [TEST...]\n\n"
	           "Parse HARNESS and each TEST against it; report the first problem of each\n"
	           "(file:line:col) and whether each test is well-formed.  With no TEST, describe\n"
	           "the harness: its pools, templates and the size of its action universe.  Warn\n"
	           "about checks that run one function, whose failures cannot be told apart.\n\n"
	           "  --driver PROG  also ask the driver PROG which function each check runs, and\n"
	           "                 warn when HARNESS is not the harness compiled into it (edited\n"
	           "                 without rebuilding PROG: PROG --print-harness)\n\n"
	           "exit status: 0 all good, 1 a harness or test is bad, 2 usage, 3 I/O error\n");
}

static void describe(const tnorm_harness *h)
{
	uint32_t i, n = tnorm_harness_pool_count(h);
	printf("%s: %u pools, %u templates, %u checks, %" PRIu64 " actions\n", tnorm_harness_name(h), n,
	       tnorm_harness_template_count(h), tnorm_harness_check_count(h),
	       tnorm_harness_action_count(h));
	for (i = 0; i < n; i++) {
		tnorm_pool_info p;
		tnorm_harness_pool(h, i, &p);
		printf("  pool %s: %u instances%s\n", p.name, p.instances, p.is_const ? ", const" : "");
	}
	for (i = 0; i < tnorm_harness_template_count(h); i++) {
		tnorm_template_info t;
		tnorm_action a;
		uint32_t s;
		char text[256];
		tnorm_harness_template(h, i, &t);
		tnorm_harness_unrank(h, t.first, &a);
		tnorm_harness_format_action(h, &a, text, sizeof(text));
		printf("  template %u (line %u): %" PRIu64 " actions from #%" PRIu64 ", first: %s", i,
		       t.line, t.count, t.first, text);
		for (s = 0; s < t.nslots; s++)
			if (t.slot[s].moves) {
				tnorm_pool_info p;
				tnorm_harness_pool(h, t.slot[s].pool, &p);
				printf(", moves <%s>", p.name);
			}
		printf("%s%s\n", t.guard ? ", requires " : "", t.guard ? t.guard : "");
	}
}

int cmd_check(int argc, char **argv)
{
	static const cli_spec spec = {"check", CLI_CHECK, 0, 0, help};
	tnorm_harness *h = NULL;
	const char *driver;
	char *warnings = NULL, *line, *nl;
	int i, n, err, rc = EXIT_OK;
	cli_args a;

	cli_args_init(&a); /* none of this command's options allocates: no dispose */
	if ((err = cli_parse(&spec, &a, argc, argv)) != CLI_GO_ON)
		return err;
	driver = a.driver;
	n = a.noperands; /* the operands, in order, from argv[1] on */
	if (n == 0)
		return cli_usage_error("check", "missing HARNESS");
	if ((err = tnorm_harness_load(&h, argv[1])) < 0)
		return cli_fail("check", err);
	if ((err = tnorm_lint_checks(h, driver, &warnings)) < 0) {
		tnorm_harness_free(h);
		return cli_fail("check", err);
	}
	for (line = warnings; line && *line; line = nl + 1) {
		nl = strchr(line, '\n');
		fprintf(stderr, "tnorm check: %.*s\n", (int)(nl - line), line);
	}
	tnorm_free(warnings);
	if (driver)
		cli_warn_stale_harness("check", argv[1], driver, NULL);
	if (n == 1)
		describe(h);
	for (i = 2; i <= n; i++) {
		tnorm_test *t = NULL;
		size_t bad = 0;
		if ((err = tnorm_test_load(&t, h, argv[i])) < 0) {
			int code = cli_fail("check", err);
			if (code > rc)
				rc = code;
		} else if ((err = tnorm_test_check(t, &bad)) < 0) {
			const tnorm_error *e = tnorm_error_last();
			fprintf(stderr, "tnorm check: %s:%u: not well-formed: %s\n", argv[i],
			        tnorm_test_step_line(t, bad), e ? e->message : "");
			if (EXIT_BADINPUT > rc)
				rc = EXIT_BADINPUT;
		} else {
			printf("%s: %zu steps, well-formed\n", argv[i], tnorm_test_len(t));
		}
		tnorm_test_free(t);
	}
	tnorm_harness_free(h);
	return rc;
}

/* SPDX-License-Identifier: MIT */
/*
 * cmd_gen.c - `tnorm gen HARNESS --steps N --seed S [-o OUT]`: a random well-formed test.
 */
#include <string.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm gen HARNESS [--steps N] [--seed S] [-o OUT]\n\n"
	           "Print a random well-formed test of N steps (default 100) for HARNESS.  The same\n"
	           "harness and seed (default 1) always give the same test.  -o writes it to OUT\n"
	           "atomically instead of standard output.\n\n"
	           "exit status: 0 ok, 1 bad harness, 2 usage, 3 I/O error\n");
}


int cmd_gen(int argc, char **argv)
{
	static const cli_spec spec = {"gen", CLI_GEN, 1, 0, help};
	const char *harness, *out;
	unsigned long long steps, seed;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL;
	char *text = NULL;
	size_t len = 0;
	int err, rc = EXIT_OK;
	cli_args a;

	cli_args_init(&a); /* none of this command's options allocates: no dispose */
	a.steps = 100;
	a.seed = 1;
	if ((err = cli_parse(&spec, &a, argc, argv)) != CLI_GO_ON)
		return err;
	if (a.noperands == 0)
		return cli_usage_error("gen", "missing HARNESS");
	harness = a.operands[0];
	out = a.out;
	steps = a.steps;
	seed = a.seed;
	if ((err = tnorm_harness_load(&h, harness)) < 0 ||
	    (err = tnorm_test_generate(&t, h, (size_t)steps, seed)) < 0 ||
	    (err = tnorm_test_format(t, &text, &len)) < 0) {
		rc = cli_fail("gen", err);
		goto done;
	}
	if (out) {
		if ((err = tnorm_file_write_atomic(out, text, len)) < 0)
			rc = cli_fail("gen", err);
	} else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
		fprintf(stderr, "tnorm gen: cannot write to standard output\n");
		rc = EXIT_SYSTEM;
	}
done:
	tnorm_free(text);
	tnorm_test_free(t);
	tnorm_harness_free(h);
	return rc;
}

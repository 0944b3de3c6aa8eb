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
	const char *harness = NULL, *out = NULL;
	unsigned long long steps = 100, seed = 1;
	tnorm_harness *h = NULL;
	tnorm_test *t = NULL;
	char *text = NULL;
	size_t len = 0;
	int i, err, rc = EXIT_OK;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			help(stdout);
			return EXIT_OK;
		} else if (!strcmp(a, "--steps") || !strcmp(a, "--seed") || !strcmp(a, "-o")) {
			if (i + 1 >= argc)
				return cli_usage_error("gen", "%s needs a value", a);
			if (!strcmp(a, "-o"))
				out = argv[++i];
			else if (cli_parse_u64("gen", a, argv[++i], !strcmp(a, "--steps") ? &steps : &seed) < 0)
				return EXIT_USAGE;
		} else if (a[0] == '-' && a[1]) {
			return cli_usage_error("gen", "unknown option '%s'", a);
		} else if (!harness) {
			harness = a;
		} else {
			return cli_usage_error("gen", "unexpected argument '%s'", a);
		}
	}
	if (!harness)
		return cli_usage_error("gen", "missing HARNESS");
	if (steps > 10000000)
		return cli_usage_error("gen", "--steps %llu is too many (at most 10000000)", steps);
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

/* SPDX-License-Identifier: MIT */
/*
 * main.c - the `tnorm` command: dispatch to one cmd_<verb>.c per subcommand.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const cli_command commands[] = {
	{"check", "parse a test against a harness and report problems", cmd_check},
	{"gen", "print a random well-formed test for a harness", cmd_gen},
	{"run", "run one test and print its outcome and failure signature", cmd_run},
	{"reduce", "reduce a failing test to a 1-minimal one with the same failure", cmd_reduce},
	{"normalize", "rewrite a failing test into its canonical form", cmd_normalize},
	{"minimize", "confirm, reduce and normalize a failing test (start here)", cmd_minimize},
	{"generalize", "annotate a failing test with what in it is accidental", cmd_generalize},
	{"fuzz", "random testing from a harness: a corpus of failing tests", cmd_fuzz},
	{"triage", "minimize a folder of failing tests into one test per fault", cmd_triage},
	{"why", "rank the source lines that make a failing test fail", cmd_why},
	{"export", "write failing tests as regression tests (cmocka, meson, CTest, corpus)", cmd_export},
};

static void usage(FILE *f)
{
	size_t i;
	fprintf(f, "usage: tnorm [--version] [--help] COMMAND [ARGS...]\n\n"
	           "tnorm turns a failing test into a short, canonical, annotated test.\n\n"
	           "commands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-11s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nRun 'tnorm COMMAND --help' for a command's options; docs/cli.md for all.\n");
}

/* tnorm's version, then each library's: compiled with, and running with where it can tell. */
static void version(void)
{
	size_t i, n;
	const tnorm_component_version *v = tnorm_component_versions(&n);
	printf("tnorm %s\n", tnorm_version());
	for (i = 0; i < n; i++) {
		printf("%-10s", v[i].name);
		if (v[i].compiled)
			printf(" %s (compiled)", v[i].compiled);
		if (v[i].running)
			printf("%s %s (running)", v[i].compiled ? "," : "", v[i].running);
		if (!v[i].compiled && !v[i].running)
			printf(" -");
		if (v[i].note[0])
			printf("%s %s", v[i].compiled || v[i].running ? ";" : "", v[i].note);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version")) {
		version();
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			/* tnorm's environment is checked as its options are (issue 39, item 14) */
			if (tnorm_env_check() < 0) {
				fprintf(stderr, "tnorm %s: %s\n", argv[1], tnorm_error_last()->message);
				return EXIT_USAGE;
			}
			return commands[i].run(argc - 1, argv + 1);
		}
	fprintf(stderr, "tnorm: '%s' is not a command (see 'tnorm --help')\n", argv[1]);
	return EXIT_USAGE;
}

/* SPDX-License-Identifier: MIT */
/*
 * cmd_export.c - `tnorm export (TEST | --from OUT) -o DIR -- CMD ARGS {}`: a regression test per
 * bug, for a project's suite (tnorm/export.h, docs/commands/export.md).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm export (TEST | --from OUT) -o DIR [--name NAME] [--force]\n"
	           "                    [--harness H | --no-harness] [--quiet] [--timeout T] [--mem SIZE]\n"
	           "                    [--stdin] [--no-fork-server] [--env NAME=VALUE]...\n"
	           "                    [--invalid-exit N]... -- CMD ARGS...\n\n"
	           "Write a failing test (best a normal form: TEST.norm of `tnorm minimize`), or the\n"
	           "representative of every bucket of a triage (--from OUT, the triage's output folder),\n"
	           "as a regression test into folder DIR.  Each test is run once on CMD and must fail.\n"
	           "A harness test becomes NAME.c, a cmocka test that runs its steps through the\n"
	           "driver's handlers, in-process, and DIR/meson.build, which builds it against the\n"
	           "driver's sources.  A file becomes DIR/corpus/SHA1 (a libFuzzer corpus entry) and\n"
	           "a test that runs CMD on it in DIR/meson.build and DIR/CMakeLists.txt.  The tests\n"
	           "fail while the bug is there and pass once it is fixed.\n\n"
	           "  -o DIR         the folder to write (made when it does not exist)\n"
	           "  --from OUT     every bucket of the triage whose output folder is OUT\n"
	           "                 (OUT/report.json), named NAME_N (default bucket_N)\n"
	           "  --name NAME    the test's name (letters, digits, _); default: TEST's file name\n"
	           "  --force        replace files of the same names in DIR (else nothing is written\n"
	           "                 when one exists)\n"
	           "  --harness H    TEST is a harness test; without it, the harness compiled into\n"
	           "                 CMD when it is a tnorm driver, else (or with --no-harness) a file\n"
	           "  --quiet        print nothing but errors\n"
	           "  --timeout T, --mem SIZE, --stdin, --env N=V, --invalid-exit N, --no-fork-server\n"
	           "                 how CMD is run, as for tnorm run; the file tests keep --stdin,\n"
	           "                 --env and --invalid-exit\n\n"
	           "exit status: 0 written, 1 bad test, report or name, 2 usage or a file in DIR that\n"
	           "exists, 3 system error, 4 a test does not fail on CMD, 130 interrupted\n");
}

int cmd_export(int argc, char **argv)
{
	static const cli_spec spec = {"export", CLI_EXPORT, 1, 1, help};
	tnorm_export_options xo = TNORM_EXPORT_OPTIONS_INIT;
	tnorm_run_options ro = TNORM_RUN_OPTIONS_INIT;
	tnorm_export *x = NULL;
	const char *harness = NULL;
	const char *const *files;
	char *tmp_harness = NULL;
	cli_cancel sigs_in;
	cli_args a;
	size_t i, n;
	int rc = EXIT_OK, err;

	cli_args_init(&a);
	if ((err = cli_parse(&spec, &a, argc, argv)) != CLI_GO_ON) {
		rc = err;
		goto done;
	}
	if (a.noperands == 0 && !a.from) {
		rc = cli_usage_error("export", "missing TEST (or --from OUT)");
		goto done;
	}
	if (a.noperands && a.from) {
		rc = cli_usage_error("export", "give TEST or --from OUT, not both");
		goto done;
	}
	if (!a.out || !a.out[0]) {
		rc = cli_usage_error("export", "missing -o DIR: the folder to write the tests into");
		goto done;
	}
	if (cli_check_command(&a.run, "export", a.rest, a.nrest,
	                      "tnorm export TEST -o DIR -- CMD ARGS {}") < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (cli_harness("export", &a, a.quiet, &harness, &tmp_harness) < 0) {
		rc = EXIT_SYSTEM;
		goto done;
	}
	cli_run_args_apply(&a.run, &ro);
	xo.harness = harness;
	xo.argv = (const char *const *)a.rest;
	xo.run = &ro;
	xo.force = a.force;
	xo.cancel = &cli_cancel_flag;
	if ((err = tnorm_export_new(&x, &xo)) < 0 ||
	    (err = a.from ? tnorm_export_add_triage(x, a.from, a.name)
	                  : tnorm_export_add_file(x, a.operands[0], a.name)) < 0) {
		rc = cli_fail("export", err);
		goto done;
	}
	cli_cancel_begin(&sigs_in);
	err = tnorm_export_confirm(x);
	cli_cancel_end(&sigs_in);
	if (err < 0) {
		rc = cli_fail("export", err);
		goto done;
	}
	if ((err = tnorm_export_write(x, a.out)) < 0) {
		/* a file that exists, or is no file: refused as -o is by the other commands */
		rc = cli_fail("export", err);
		if (err == TNORM_EINVALID)
			rc = EXIT_USAGE;
		goto done;
	}
	if (a.quiet)
		goto done;
	for (i = 0; i < tnorm_export_count(x); i++) {
		printf("%s: ", tnorm_export_name(x, i));
		cli_put(stdout, tnorm_export_signature(x, i));
		putchar('\n');
	}
	files = tnorm_export_files(x, &n);
	for (i = 0; i < n; i++) {
		printf("wrote ");
		cli_put(stdout, files[i]);
		putchar('\n');
	}
	printf(harness ? "build: set tnorm_export_driver to the driver's sources, then subdir() of "
	               : "build: subdir() of ");
	cli_put(stdout, a.out);
	printf(harness ? " (its meson.build says how)\n"
	               : " in meson (tnorm_export_program names the program), or add_subdirectory() "
	                 "in CMake (TNORM_EXPORT_PROGRAM)\n");
done:
	tnorm_export_free(x);
	if (tmp_harness)
		unlink(tmp_harness);
	free(tmp_harness);
	cli_args_dispose(&a);
	return rc;
}

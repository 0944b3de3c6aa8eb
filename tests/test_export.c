/* SPDX-License-Identifier: MIT */
/*
 * test_export.c - tnorm export's library (export.c): SHA-1 names of corpus entries at the block
 * boundaries, names made from files' names, the files an export of files writes, that files
 * which exist are refused whole (and replaced only with force, never through a symbolic link),
 * and an allocation-failure sweep over a whole export.  What the exported tests do when built
 * and run against a faulty and a fixed program is tests/integration/export.sh's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common.h"
#include "tnorm/export.h"
#include "unit_util.h"

static void test_export__sha1_vectors(void **state)
{
	/* FIPS 180 examples, and runs of 'a' around the padding's one- and two-block limits */
	static const struct {
		size_t n;
		const char *hex;
	} runs[] = {
		{55, "c1c8bbdc22796e28c0e15163d20899b65621d65a"},
		{56, "c2db330f6083854c99d4b5bfb6e8f29f201be699"},
		{63, "03f09f5b158a7a8cdad920bddc29b81c18a551f5"},
		{64, "0098ba824b5c16427bd7a1122a5a442a25ec644d"},
		{65, "11655326c708d70319be2610e8a57d9a5b959d3b"},
		{119, "ee971065aaa017e0632a8ca6c77bb3bf8b1dfc56"},
		{120, "f34c1488385346a55709ba056ddd08280dd4c6d6"},
		{128, "ad5b3fdbcb526778c2839d2f151ea753995e26a0"},
	};
	char hex[41], a[128];
	size_t i;
	(void)state;
	tnorm_export_sha1("", 0, hex);
	assert_string_equal(hex, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
	tnorm_export_sha1("abc", 3, hex);
	assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
	tnorm_export_sha1("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, hex);
	assert_string_equal(hex, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
	memset(a, 'a', sizeof(a));
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		tnorm_export_sha1(a, runs[i].n, hex);
		assert_string_equal(hex, runs[i].hex);
	}
}

static const char *const argv_true[] = {"/bin/true", "--in={}", "@@", NULL};

/* Write `text` to DIR/NAME; its path in `path`. */
static void put(char *path, size_t size, const char *dir, const char *name, const char *text)
{
	FILE *f;
	snprintf(path, size, "%s/%s", dir, name);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* (not inlined: gcc 12 takes the string for a pointer to its local, -Wdangling-pointer) */
static __attribute__((noinline)) char *slurp(const char *path)
{
	char *text = NULL;
	size_t len;
	assert_int_equal(tnorm_file_read(path, &text, &len), 0);
	return text;
}

static void test_export__names(void **state)
{
	tnorm_export_options o = TNORM_EXPORT_OPTIONS_INIT;
	tnorm_export *x = NULL;
	char dir[4096], p1[4200], p2[4200], p3[4200];
	(void)state;
	assert_int_equal(unit_mkdtemp(dir, sizeof(dir), "export"), 0);
	put(p1, sizeof(p1), dir, "fail-1.t.norm", "BUG\n");
	put(p2, sizeof(p2), dir, "123", "BUG 2\n");
	put(p3, sizeof(p3), dir, "empty", "");
	o.argv = argv_true;
	assert_int_equal(tnorm_export_new(&x, &o), 0);
	assert_int_equal(tnorm_export_add_file(x, p1, NULL), 0);
	assert_int_equal(tnorm_export_add_file(x, p2, NULL), 0);
	assert_string_equal(tnorm_export_name(x, 0), "fail_1_t");
	assert_string_equal(tnorm_export_name(x, 1), "t_123");
	assert_null(tnorm_export_signature(x, 0)); /* not confirmed */
	assert_int_equal(tnorm_export_add_file(x, p2, "fail_1_t"), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "the name fail_1_t is taken"));
	assert_int_equal(tnorm_export_add_file(x, p2, "1x"), TNORM_EINVALID);
	assert_int_equal(tnorm_export_add_file(x, p2, "a-b"), TNORM_EINVALID);
	assert_int_equal(tnorm_export_add_file(x, p3, NULL), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "the file is empty"));
	assert_int_equal(tnorm_export_count(x), 2);
	tnorm_export_free(x);
	unit_rmtree(dir);
}

/* An export of two files into `out`: 0 or the error of the first call that failed. */
static int export_two(const char *p1, const char *p2, const char *out, int force)
{
	tnorm_export_options o = TNORM_EXPORT_OPTIONS_INIT;
	tnorm_export *x = NULL;
	int err;
	o.argv = argv_true;
	o.force = force;
	if ((err = tnorm_export_new(&x, &o)) == 0 && (err = tnorm_export_add_file(x, p1, NULL)) == 0 &&
	    (err = tnorm_export_add_file(x, p2, NULL)) == 0)
		err = tnorm_export_write(x, out);
	tnorm_export_free(x);
	return err;
}

/* A fresh folder `dir` with the files abc ("abc") and NAME2 (TEXT2), exported into DIR/SUB
 * (`out`); each buffer of PATH_SIZE bytes. */
#define PATH_SIZE 4400
static void two_files(char *dir, char *p1, char *p2, char *out, const char *name2,
                      const char *text2, const char *sub)
{
	assert_int_equal(unit_mkdtemp(dir, 4096, "export"), 0);
	put(p1, PATH_SIZE, dir, "abc", "abc");
	put(p2, PATH_SIZE, dir, name2, text2);
	snprintf(out, PATH_SIZE, "%s/%s", dir, sub);
	assert_int_equal(export_two(p1, p2, out, 0), 0);
}

static void test_export__files_and_refusals(void **state)
{
	char dir[PATH_SIZE], p1[PATH_SIZE], p2[PATH_SIZE], out[PATH_SIZE], path[4600], *text;
	char *cmake;
	size_t semi, nl;
	struct stat st;
	(void)state;
	two_files(dir, p1, p2, out, "crash", "x\001'\"$;\n", "regress");
	snprintf(path, sizeof(path), "%s/corpus/a9993e364706816aba3e25717850c26c9cd0d89d", out);
	text = slurp(path);
	assert_string_equal(text, "abc");
	tnorm_free(text);
	snprintf(path, sizeof(path), "%s/meson.build", out);
	text = slurp(path);
	/* each word of the command, {} and @@ the entry's path */
	assert_non_null(strstr(text, "test('abc', find_program('sh'), env : _tnorm_export_env,\n"
	                             "  args : ['-c', _tnorm_export_run, 'sh', _tnorm_export_prog, "
	                             "'--in=' + (meson.current_source_dir() / 'corpus' / "
	                             "'a9993e364706816aba3e25717850c26c9cd0d89d'), "
	                             "(meson.current_source_dir() / 'corpus' / "
	                             "'a9993e364706816aba3e25717850c26c9cd0d89d')])"));
	assert_non_null(strstr(text, "/true').full_path()")); /* the program, made absolute */
	tnorm_free(text);
	snprintf(path, sizeof(path), "%s/CMakeLists.txt", out);
	cmake = slurp(path);
	assert_non_null(strstr(cmake, "\" sh \"${TNORM_EXPORT_PROGRAM}\" "
	                             "\"--in=${CMAKE_CURRENT_SOURCE_DIR}/corpus/"
	                             "a9993e364706816aba3e25717850c26c9cd0d89d\" "
	                             "\"${CMAKE_CURRENT_SOURCE_DIR}/corpus/"
	                             "a9993e364706816aba3e25717850c26c9cd0d89d\")"));
	/* no ';' in an add_test line: CTest splits arguments at them */
	assert_non_null(strstr(cmake, "add_test("));
	semi = strcspn(strstr(cmake, "add_test("), ";");
	nl = strcspn(strstr(cmake, "add_test("), "\n");
	tnorm_free(cmake);
	assert_true(semi > nl);

	/* Again: every file exists, so nothing is written, the first one named. */
	snprintf(path, sizeof(path), "%s/meson.build", out);
	assert_int_equal(truncate(path, 0), 0);
	assert_int_equal(export_two(p1, p2, out, 0), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "exists: nothing written"));
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_size, 0);
	/* force replaces regular files, and a killed export's temporary files go (a live one's stay) */
	{
		char dead[4600], live[4600];
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0)
			_exit(0);
		assert_int_equal(waitpid(pid, NULL, 0), pid);
		snprintf(dead, sizeof(dead), "%.4096s/corpus/x.tmp.%ld.abcdef", out, (long)pid);
		snprintf(live, sizeof(live), "%.4096s/meson.build.tmp.%ld.abcdef", out, (long)getpid());
		put(path, sizeof(path), out, "corpus/x.tmp.1.x", ""); /* (makes the names below) */
		assert_int_equal(rename(path, dead), 0);
		put(path, sizeof(path), out, "m.tmp", "");
		assert_int_equal(rename(path, live), 0);
		assert_int_equal(export_two(p1, p2, out, 1), 0);
		assert_int_equal(access(dead, F_OK), -1);
		assert_int_equal(access(live, F_OK), 0);
		assert_int_equal(unlink(live), 0);
	}
	snprintf(path, sizeof(path), "%s/meson.build", out);
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0);
	/* ... never a symbolic link, nor anything that is not a file; nor is DIR a file */
	assert_int_equal(unlink(path), 0);
	assert_int_equal(symlink(p1, path), 0);
	assert_int_equal(export_two(p1, p2, out, 1), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "is a symbolic link"));
	text = slurp(p1);
	assert_string_equal(text, "abc");
	tnorm_free(text);
	assert_int_equal(export_two(p1, p2, p1, 1), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "is a file, not a folder"));
	unit_rmtree(dir);
}

/* report.json of a triage: each bucket's normal form (its hex where there is one), named
 * PREFIX_N; what is refused with its place.  A harness test: parsed against the harness, its
 * steps one a string in NAME.c. */
static void test_export__triage_and_harness(void **state)
{
	tnorm_export_options o = TNORM_EXPORT_OPTIONS_INIT;
	tnorm_export *x = NULL;
	const char *src = getenv("TNORM_SOURCE_ROOT");
	char dir[4096], rep[4200], harness[4200], t[4200], out[4200], path[4400], *text;
	(void)state;
	assert_non_null(src);
	snprintf(harness, sizeof(harness), "%s/examples/avl/avl.tnh", src);
	assert_int_equal(unit_mkdtemp(dir, sizeof(dir), "export"), 0);
	put(rep, sizeof(rep), dir, "report.json",
	    "{\"unit\": \"bytes\", \"buckets\": [{\"id\": 1, \"representative\": \"c1\", "
	    "\"normal_form\": \"a\\ufffd\", \"normal_form_hex\": \"61ff00\"}, {\"id\": 2, "
	    "\"representative\": \"c2\", \"normal_form\": \"xy\"}]}\n");
	o.argv = argv_true;
	assert_int_equal(tnorm_export_new(&x, &o), 0);
	assert_int_equal(tnorm_export_add_triage(x, dir, "bug"), 0);
	assert_int_equal(tnorm_export_count(x), 2);
	assert_string_equal(tnorm_export_name(x, 0), "bug_1");
	assert_string_equal(tnorm_export_name(x, 1), "bug_2");
	snprintf(out, sizeof(out), "%s/out", dir);
	assert_int_equal(tnorm_export_write(x, out), 0);
	{ /* the bytes of normal_form_hex, NUL included, under their SHA-1 */
		char hex[41];
		FILE *f;
		unsigned char want[3] = {0x61, 0xff, 0x00}, got[4];
		tnorm_export_sha1(want, 3, hex);
		snprintf(path, sizeof(path), "%s/corpus/%s", out, hex);
		assert_non_null(f = fopen(path, "rb"));
		assert_int_equal(fread(got, 1, sizeof(got), f), 3);
		fclose(f);
		assert_memory_equal(got, want, 3);
	}
	tnorm_export_free(x);
	x = NULL;

	/* a report that does not parse: its place; a triage of files with a harness */
	put(rep, sizeof(rep), dir, "report.json", "{\"unit\": \"bytes\",\n \"buckets\": [}\n");
	assert_int_equal(tnorm_export_new(&x, &o), 0);
	assert_int_equal(tnorm_export_add_triage(x, dir, NULL), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "report.json:2:"));
	tnorm_export_free(x);
	o.harness = harness;
	put(rep, sizeof(rep), dir, "report.json",
	    "{\"unit\": \"bytes\", \"buckets\": [{\"id\": 1, \"representative\": \"c\", "
	    "\"normal_form\": \"x\"}]}");
	assert_int_equal(tnorm_export_new(&x, &o), 0);
	assert_int_equal(tnorm_export_add_triage(x, dir, NULL), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "files (bytes), but a harness is given"));

	/* a harness test that is not well-formed: its place; one that is: its steps in NAME.c */
	put(t, sizeof(t), dir, "bad.t", "avl0 = avl_new()\navl_insert(avl1, int0)\n");
	assert_int_equal(tnorm_export_add_file(x, t, NULL), TNORM_EINVALID);
	assert_non_null(strstr(tnorm_error_last()->message, "bad.t: step 1 (line 2)"));
	put(t, sizeof(t), dir, "ok.t", "# a comment\navl0 = avl_new()\n\nint0 = 3\navl_insert(avl0, int0)\n");
	assert_int_equal(tnorm_export_add_file(x, t, NULL), 0);
	snprintf(out, sizeof(out), "%s/hout", dir);
	assert_int_equal(tnorm_export_write(x, out), 0);
	snprintf(path, sizeof(path), "%s/ok.c", out);
	text = slurp(path);
	assert_non_null(strstr(text, "static const char *const steps[] = {\n\t\"avl0 = avl_new()\",\n"
	                             "\t\"int0 = 3\",\n\t\"avl_insert(avl0, int0)\",\n\tNULL};\n"));
	assert_non_null(strstr(text, "\t\"pool int 4 const"));
	assert_non_null(strstr(text, "static void test_ok(void **state)"));
	tnorm_free(text);
	snprintf(path, sizeof(path), "%s/meson.build", out);
	text = slurp(path);
	assert_non_null(strstr(text, "foreach _tnorm_export_test : ['ok']"));
	tnorm_free(text);
	tnorm_export_free(x);

	/* string literals: a quote, a backslash, a trigraph and a byte over 0x7f (the test's text
	 * holds it as it is), as C escapes */
	put(harness, sizeof(harness), dir, "s.tnh", "pool s 1\n<s> := {\"q\\\"b\\\\?\?=\\xff\"}\nuse(<s>)\n");
	put(t, sizeof(t), dir, "s.t", "s0 = \"q\\\"b\\\\?\?=\\xff\"\nuse(s0)\n");
	assert_int_equal(tnorm_export_new(&x, &o), 0);
	assert_int_equal(tnorm_export_add_file(x, t, NULL), 0);
	snprintf(out, sizeof(out), "%s/sout", dir);
	assert_int_equal(tnorm_export_write(x, out), 0);
	snprintf(path, sizeof(path), "%s/s.c", out);
	text = slurp(path);
	assert_non_null(strstr(text, "\t\"s0 = \\\"q\\\\\\\"b\\\\\\\\\\?\\?=\\377\\\"\",\n"));
	assert_non_null(strstr(text, "\t\"<s> := {\\\"q\\\\\\\"b"));
	tnorm_free(text);
	tnorm_export_free(x);
	unit_rmtree(dir);
}

/* Every allocation of a whole export failing in turn: TNORM_ENOMEM, nothing half-made in the
 * files written, or the same files as without the failure. */
static void test_export__allocation_failures(void **state)
{
	char dir[PATH_SIZE], p1[PATH_SIZE], p2[PATH_SIZE], out[PATH_SIZE], path[4600], message[512];
	char *want_meson, *want_cmake, *got;
	long k;
	int err, code, reached, enomem = 0;
	(void)state;
	two_files(dir, p1, p2, out, "crash-2", "BUG\n", "want");
	snprintf(path, sizeof(path), "%s/meson.build", out);
	want_meson = slurp(path);
	snprintf(path, sizeof(path), "%s/CMakeLists.txt", out);
	want_cmake = slurp(path);
	for (k = 0;; k++) {
		snprintf(out, sizeof(out), "%.4096s/k%ld", dir, k);
		tnorm__alloc_fail_after(k);
		err = export_two(p1, p2, out, 0);
		reached = unit_oom_end(&code, message, sizeof(message));
		if (err != 0) {
			if (err != TNORM_ENOMEM)
				fail_msg("allocation %ld: %s (%s), expected TNORM_ENOMEM", k,
				         tnorm_error_name(err), message);
			assert_true(reached);
			enomem++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/meson.build", out);
		got = slurp(path);
		assert_string_equal(got, want_meson);
		tnorm_free(got);
		snprintf(path, sizeof(path), "%s/CMakeLists.txt", out);
		got = slurp(path);
		assert_string_equal(got, want_cmake);
		tnorm_free(got);
		if (!reached)
			break;
	}
	assert_true(enomem > 10);
	tnorm_free(want_meson);
	tnorm_free(want_cmake);
	unit_rmtree(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_export__sha1_vectors),
		cmocka_unit_test(test_export__names),
		cmocka_unit_test(test_export__files_and_refusals),
		cmocka_unit_test(test_export__triage_and_harness),
		cmocka_unit_test(test_export__allocation_failures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * test_signature.c - signatures built from frames: the throwing frame, the canonical text, JSON,
 * every match policy, and calibration over several runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "common.h"
#include "tnorm/tnorm.h"

static tnorm_signature *make(const char *kind, const char *spec)
{
	/* spec: "fn:file:line fn:file:line ..." innermost first; module "libc.so.6" for "!fn"; a
	 * frame inlined into the next one for "^fn". */
	tnorm_frame f[32];
	char buf[512], *tok, *save = NULL;
	size_t n = 0;
	tnorm_signature *s = NULL;
	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok && n < 32; tok = strtok_r(NULL, " ", &save)) {
		char *c1 = strchr(tok, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		memset(&f[n], 0, sizeof(f[n]));
		if (c1)
			*c1 = '\0';
		if (c2)
			*c2 = '\0';
		f[n].module = tok[0] == '!' ? "/usr/lib/x86_64-linux-gnu/libc.so.6" : "/bin/prog";
		f[n].inlined = tok[0] == '^';
		f[n].function = tok[0] == '!' || tok[0] == '^' ? tok + 1 : tok;
		f[n].file = c1 ? c1 + 1 : NULL;
		f[n].line = c2 ? (uint32_t)atoi(c2 + 1) : 0;
		f[n].pc = 0x1000 + n;
		n++;
	}
	assert_int_equal(tnorm_signature_new(&s, kind, f, n), 0);
	return s;
}

static void expect_text(const tnorm_signature *s, size_t depth, const char *want)
{
	char *t = NULL;
	assert_int_equal(tnorm_signature_format(s, depth, &t), 0);
	assert_string_equal(t, want);
	tnorm_free(t);
}

static void test_signature__throwing_frame_and_text(void **state)
{
	tnorm_signature *s = make("SIGABRT", "!raise !abort !__assert_fail check_node:/src/avl.c:191 "
	                                     "avl_check:/src/avl.c:197 tnorm__drv_call:driver.c:9 "
	                                     "main:driver.c:53 !__libc_start_call_main");
	(void)state;
	assert_int_equal(tnorm_signature_throwing(s), 3);
	assert_string_equal(tnorm_signature_frame(s, 3)->file, "avl.c");
	expect_text(s, 0, "SIGABRT at check_node (avl.c:191) <- avl_check (avl.c:197) <- main (driver.c:53)");
	expect_text(s, 1, "SIGABRT at check_node (avl.c:191)");
	tnorm_signature_free(s);
	s = make("SIGKILL", "");
	expect_text(s, 0, "SIGKILL");
	tnorm_signature_free(s);
	assert_true(tnorm_frame_is_runtime("__asan_report_load4", "/bin/prog"));
	assert_true(tnorm_frame_is_runtime("anything", "/usr/lib/x86_64-linux-gnu/libasan.so.8"));
	assert_false(tnorm_frame_is_runtime("my_function", "/bin/prog"));
}

static void expect_top(const tnorm_signature *s, const char *want)
{
	char *t = NULL;
	assert_int_equal(tnorm_signature_format_top(s, &t), 0);
	assert_string_equal(t, want);
	tnorm_free(t);
}

/* The kind and the throwing frame: what the plugins' note on the failing step shows.  Nothing
 * else: no callers, no stack of the free, no message; a recursion's count is the frame's. */
static void test_signature__format_top(void **state)
{
	tnorm_signature *s = make("SIGABRT", "!raise !abort !__assert_fail check_node:/src/avl.c:191 "
	                                     "avl_check:/src/avl.c:197 main:driver.c:53");
	tnorm_frame freed[1];
	char *t = (char *)1;
	long n;
	int ok = 0;
	(void)state;
	expect_top(s, "SIGABRT at check_node (avl.c:191)");
	memset(freed, 0, sizeof(freed));
	freed[0].function = "drop";
	freed[0].file = "/src/uaf.c";
	freed[0].line = 40;
	freed[0].module = "/bin/prog";
	assert_int_equal(tnorm_signature_set_stack(s, TNORM_STACK_FREE, freed, 1), 0);
	assert_int_equal(tnorm_signature_set_message(s, "boom"), 0);
	expect_top(s, "SIGABRT at check_node (avl.c:191)");
	for (n = 0; n < 100 && !ok; n++) {
		int err;
		tnorm__alloc_fail_after(n);
		err = tnorm_signature_format_top(s, &t);
		tnorm__alloc_fail_after(-1);
		if (err == 0) {
			ok = 1;
		} else {
			assert_int_equal(err, TNORM_ENOMEM);
			assert_null(t);
		}
		tnorm_free(t);
		t = NULL;
	}
	assert_true(ok);
	tnorm_signature_free(s);
	s = make("SIGSEGV", "walk:t.c:5 walk:t.c:5 walk:t.c:5 main:t.c:9");
	expect_top(s, "SIGSEGV at walk (t.c:5) x3");
	tnorm_signature_free(s);
	s = make("SIGKILL", "!raise");
	expect_top(s, "SIGKILL");
	t = (char *)1;
	assert_int_equal(tnorm_signature_format_top(NULL, &t), TNORM_EINVALID);
	assert_null(t);
	assert_int_equal(tnorm_signature_format_top(s, NULL), TNORM_EINVALID);
	tnorm_signature_free(s);
}

static void test_signature__json(void **state)
{
	tnorm_signature *s = make("exit(3)", "!exit give_up:e.c:7 main:e.c:12");
	char *j = NULL;
	(void)state;
	assert_int_equal(tnorm_signature_json(s, &j), 0);
	assert_non_null(strstr(j, "\"kind\": \"exit(3)\""));
	assert_non_null(strstr(j, "\"text\": \"exit(3) at give_up (e.c:7) <- main (e.c:12)\""));
	assert_non_null(strstr(j, "\"throwing\": 1"));
	assert_non_null(strstr(j, "\"function\": \"give_up\", \"file\": \"e.c\", \"line\": 7, \"runtime\": false"));
	tnorm_free(j);
	tnorm_signature_free(s);
}

static int matches(const char *policy, const tnorm_signature *t, const tnorm_signature *c,
                   const char *out)
{
	tnorm_match *m = NULL;
	int r;
	assert_int_equal(tnorm_match_parse(&m, policy), 0);
	r = tnorm_match_test(m, t, c, out, "");
	tnorm_match_free(m);
	return r;
}

static void test_signature__policies(void **state)
{
	tnorm_signature *t = make("SIGABRT", "!abort !__assert_fail f:a.c:10 g:a.c:20 main:a.c:30");
	tnorm_signature *same_line_other_caller =
		make("SIGABRT", "!abort !__assert_fail f:a.c:10 h:a.c:25 main:a.c:30");
	tnorm_signature *other_line = make("SIGABRT", "!abort !__assert_fail f:a.c:11 g:a.c:20 main:a.c:30");
	tnorm_signature *other_kind = make("SIGSEGV", "f:a.c:10 g:a.c:20 main:a.c:30");
	tnorm_match *m = NULL;
	(void)state;
	assert_true(matches("line", t, t, ""));
	assert_true(matches("line", t, same_line_other_caller, ""));
	assert_false(matches("line", t, other_line, ""));
	assert_false(matches("line", t, other_kind, ""));
	assert_false(matches("line", t, NULL, ""));
	assert_true(matches("stack:1", t, same_line_other_caller, ""));
	assert_false(matches("stack:2", t, same_line_other_caller, ""));
	assert_true(matches("stack:3", t, t, ""));
	assert_true(matches("kind", t, other_line, ""));
	assert_false(matches("kind", t, other_kind, ""));
	assert_true(matches("any", t, other_kind, ""));
	assert_true(matches("output:bal+anced", t, other_kind, "tree is unbalanced!"));
	assert_false(matches("output:^ok$", t, other_kind, "tree is unbalanced!"));
	assert_int_equal(tnorm_match_parse(&m, "stack:0"), TNORM_EINVALID);
	assert_string_equal(tnorm_error_last()->message,
	                    "bad match policy 'stack:0', expected stack:N with N from 1 to 1000");
	assert_int_equal(tnorm_match_parse(&m, "lines"), TNORM_EINVALID);
	assert_string_equal(tnorm_error_last()->message,
	                    "unknown match policy 'lines', expected line, stack:N, kind, any or output:REGEX");
	assert_int_equal(tnorm_match_parse(&m, "output:("), TNORM_EINVALID);
	tnorm_signature_free(t);
	tnorm_signature_free(same_line_other_caller);
	tnorm_signature_free(other_line);
	tnorm_signature_free(other_kind);
}

static void test_signature__calibrate(void **state)
{
	tnorm_signature *a = make("SIGABRT", "!abort f:a.c:10 g:a.c:20 main:a.c:30");
	tnorm_signature *b = make("SIGABRT", "!abort f:a.c:10 g:a.c:21 main:a.c:30");
	tnorm_signature *sigs[3], *out = NULL;
	int stable = -1;
	(void)state;
	sigs[0] = a;
	sigs[1] = a;
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 2), 0);
	assert_int_equal(stable, 1);
	expect_text(out, 0, "SIGABRT at f (a.c:10) <- g (a.c:20) <- main (a.c:30)");
	tnorm_signature_free(out);
	sigs[2] = b;
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 3), 0);
	assert_int_equal(stable, 0);
	expect_text(out, 0, "SIGABRT at f (a.c:10)");
	tnorm_signature_free(out);
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 0), TNORM_EINVALID);
	/* The message is the target's too (issue 27): a failure helper inlined into main, whose
	 * call site cannot be told, is told apart by it; a target without it matched no candidate.
	 * Runs that disagree on it are not stable. */
	assert_int_equal(tnorm_signature_set_message(a, "model check failed: key stored twice"), 0);
	sigs[1] = a;
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 2), 0);
	assert_int_equal(stable, 1);
	assert_non_null(tnorm_signature_message(out));
	assert_string_equal(tnorm_signature_message(out), tnorm_signature_message(a));
	{
		tnorm_match *m = NULL;
		assert_int_equal(tnorm_match_parse(&m, "line"), 0);
		assert_true(tnorm_match_test(m, out, a, "", ""));
		tnorm_match_free(m);
	}
	tnorm_signature_free(out);
	{
		tnorm_signature *c = NULL;
		assert_int_equal(tnorm_signature_dup(&c, a), 0);
		assert_int_equal(tnorm_signature_set_message(c, "model check failed: size mismatch"), 0);
		sigs[1] = c;
		assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 2), 0);
		assert_int_equal(stable, 0);
		tnorm_signature_free(out);
		tnorm_signature_free(c);
	}
	tnorm_signature_free(a);
	tnorm_signature_free(b);
}

/* A deep stack: the frames of `head`, then those of `cycle` `reps` times, then `tail` (each
 * "fn:line ...", innermost first, file r.c), cut at `max` frames as the unwinder cuts a walk. */
static tnorm_signature *deep(const char *kind, const char *head, const char *cycle, size_t reps,
                             const char *tail, size_t max)
{
	static char fn[160][16];
	tnorm_frame f[160];
	const char *part[3] = {head, cycle, tail};
	size_t n = 0, p, r;
	tnorm_signature *s = NULL;
	for (p = 0; p < 3; p++)
		for (r = 0; r < (p == 1 ? reps : 1); r++) {
			char buf[128], *tok, *save = NULL;
			snprintf(buf, sizeof(buf), "%s", part[p]);
			for (tok = strtok_r(buf, " ", &save); tok && n < max && n < 160;
			     tok = strtok_r(NULL, " ", &save)) {
				char *c = strchr(tok, ':');
				memset(&f[n], 0, sizeof(f[n]));
				if (c)
					*c = '\0';
				snprintf(fn[n], sizeof(fn[n]), "%s", tok);
				f[n].function = fn[n];
				f[n].module = "/bin/prog";
				f[n].file = "r.c";
				f[n].line = c ? (uint32_t)atoi(c + 1) : 0;
				f[n].pc = 0x1000 + n;
				n++;
			}
		}
	assert_int_equal(tnorm_signature_new(&s, kind, f, n), 0);
	return s;
}

static const char *throwing_at(const tnorm_signature *s)
{
	static char where[64];
	const tnorm_frame *f = tnorm_signature_frame(s, tnorm_signature_throwing(s));
	snprintf(where, sizeof(where), "%s:%u", f ? f->function : "-", f ? f->line : 0);
	return where;
}

static void expect_throwing(const char *kind, const char *head, const char *cycle, size_t reps,
                            const char *tail, const char *want)
{
	tnorm_signature *s = deep(kind, head, cycle, reps, tail, 128);
	assert_string_equal(throwing_at(s), want);
	tnorm_signature_free(s);
}

/* A stack that ran out in an unbounded recursion (docs/signatures.md, "Stack exhaustion"): the
 * frame it ran out in changes from run to run (tiny-regex-c's matchpattern: its prologue's line
 * in one run, the recursive call's line in the next, and calibration then kept no frame at all);
 * the recursion's own frame is the throwing one.  A finite recursion keeps its line. */
static void test_signature__stack_exhaustion(void **state)
{
	tnorm_signature *a = deep("SIGSEGV", "mp:401", "mp:422", 200, "", 128);
	tnorm_signature *b = deep("SIGSEGV", "", "mp:422", 200, "", 128);
	tnorm_signature *sigs[2], *out = NULL;
	tnorm_match *m = NULL;
	tnorm_severity sev;
	char *ka = NULL, *kb = NULL;
	int stable = -1;
	(void)state;
	assert_string_equal(throwing_at(a), "mp:422");
	assert_int_equal(tnorm_signature_throwing(a), 1);
	assert_string_equal(throwing_at(b), "mp:422");
	assert_int_equal(tnorm_match_parse(&m, "line"), 0);
	assert_true(tnorm_match_test(m, a, b, "", ""));
	assert_true(tnorm_match_test(m, b, a, "", ""));
	assert_int_equal(tnorm_match_key(m, a, &ka), 0);
	assert_int_equal(tnorm_match_key(m, b, &kb), 0);
	assert_string_equal(ka, kb);
	expect_text(a, 0, "SIGSEGV at mp (r.c:422) x127");
	assert_int_equal(tnorm_severity_of_signature(&sev, a, NULL), 0);
	assert_string_equal(sev.reason, "stack exhausted (unbounded recursion)");
	/* Calibration: the runs agree (a walk cut shorter by where the stack ran out is the same
	 * stack), and the target keeps the recursion's frame, in either order. */
	sigs[0] = a;
	sigs[1] = b;
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 2), 0);
	assert_int_equal(stable, 1);
	assert_string_equal(throwing_at(out), "mp:422");
	assert_true(tnorm_match_test(m, out, b, "", ""));
	tnorm_signature_free(out);
	sigs[0] = b;
	sigs[1] = a;
	assert_int_equal(tnorm_signature_calibrate(&out, &stable, sigs, 2), 0);
	assert_int_equal(stable, 1);
	assert_true(tnorm_match_test(m, out, a, "", ""));
	tnorm_signature_free(out);
	tnorm_free(ka);
	tnorm_free(kb);
	tnorm_signature_free(a);
	tnorm_signature_free(b);

	/* Mutual recursion: the cycle's first frame in a fixed order, wherever the stack ended. */
	a = deep("SIGSEGV", "even:3", "odd:9 even:4", 100, "", 128);
	b = deep("SIGSEGV", "odd:8", "even:4 odd:9", 100, "", 128);
	assert_string_equal(throwing_at(a), "even:4");
	assert_string_equal(throwing_at(b), "even:4");
	assert_true(tnorm_match_test(m, a, b, "", ""));
	tnorm_signature_free(a);
	tnorm_signature_free(b);

	/* Not a stack that ran out: a recursion that ends in main (finite), one too short to fill
	 * the walk, a cycle that starts too far down, and an abort keep the frame that failed. */
	expect_throwing("SIGSEGV", "walk:10", "walk:12", 60, "main:30", "walk:10");
	expect_throwing("SIGSEGV", "walk:10", "walk:12", 20, "", "walk:10");
	expect_throwing("SIGSEGV", "a:1 b:2 c:3 d:4 e:5", "walk:12", 200, "", "a:1");
	expect_throwing("SIGABRT", "mp:401", "mp:422", 200, "", "mp:401");
	a = deep("SIGABRT", "mp:401", "mp:422", 200, "", 128);
	assert_int_equal(tnorm_severity_of_signature(&sev, a, NULL), 0);
	assert_string_not_equal(sev.reason, "stack exhausted (unbounded recursion)");
	tnorm_signature_free(a);
	tnorm_match_free(m);
}

/* A failure helper (abort() or exit() called by the throwing frame itself): the call site
 * counts, recursion of any depth does not. */
static void test_signature__helpers(void **state)
{
	tnorm_signature *site1 = make("SIGABRT", "!raise !abort fail:h.c:5 check_a:h.c:20 main:h.c:40");
	tnorm_signature *site2 = make("SIGABRT", "!raise !abort fail:h.c:5 check_b:h.c:30 main:h.c:40");
	tnorm_signature *deep = make("SIGABRT", "!raise !abort walk:h.c:9 walk:h.c:12 walk:h.c:13 "
	                                        "validate:h.c:50 main:h.c:40");
	tnorm_signature *shallow = make("SIGABRT", "!raise !abort walk:h.c:9 validate:h.c:50 main:h.c:40");
	tnorm_signature *exit1 = make("exit(3)", "!_exit !__run_exit_handlers !exit die:h.c:7 a:h.c:60");
	tnorm_signature *exit2 = make("exit(3)", "!_exit !__run_exit_handlers !exit die:h.c:7 b:h.c:70");
	tnorm_match *m = NULL;
	char *k1 = NULL, *k2 = NULL;
	(void)state;
	assert_false(matches("line", site1, site2, ""));
	assert_true(matches("line", site1, site1, ""));
	assert_true(matches("line", deep, shallow, ""));
	assert_true(matches("line", shallow, deep, ""));
	expect_text(deep, 0, "SIGABRT at walk (h.c:9) <- walk (h.c:12) <- walk (h.c:13) <- validate "
	                     "(h.c:50) <- main (h.c:40)");
	assert_false(matches("line", exit1, exit2, ""));
	/* The key says the same. */
	assert_int_equal(tnorm_match_parse(&m, "line"), 0);
	assert_int_equal(tnorm_match_key(m, site1, &k1), 0);
	assert_int_equal(tnorm_match_key(m, site2, &k2), 0);
	assert_string_equal(k1, "SIGABRT at fail (h.c:5) <- check_a (h.c:20)");
	assert_string_not_equal(k1, k2);
	tnorm_free(k1);
	tnorm_free(k2);
	assert_int_equal(tnorm_match_key(m, deep, &k1), 0);
	assert_int_equal(tnorm_match_key(m, shallow, &k2), 0);
	assert_string_equal(k1, k2);
	tnorm_free(k1);
	tnorm_free(k2);
	tnorm_match_free(m);
	tnorm_signature_free(site1);
	tnorm_signature_free(site2);
	tnorm_signature_free(deep);
	tnorm_signature_free(shallow);
	tnorm_signature_free(exit1);
	tnorm_signature_free(exit2);
}

/* Sanitizer runtimes linked into the executable (clang's default): their frames are runtime
 * frames by name, mangled or demangled, and interceptors by their own name. */
static void test_signature__static_sanitizer_runtime(void **state)
{
	(void)state;
	assert_true(tnorm_frame_is_runtime("__sanitizer::Die()", "/bin/prog"));
	assert_true(tnorm_frame_is_runtime("_ZN11__sanitizer3DieEv", "/bin/prog"));
	assert_true(tnorm_frame_is_runtime("__asan::ReportGenericError(unsigned long)", "/bin/prog"));
	assert_true(tnorm_frame_is_runtime("__interceptor_strcmp", "/bin/prog"));
	assert_true(tnorm_frame_is_runtime("__ubsan::Diag::~Diag()", "/bin/prog"));
	assert_false(tnorm_frame_is_runtime("strcmp_keys", "/bin/prog"));
}

/* Without line information frames compare by module and address, so two sites of a stripped
 * binary stay apart; and the free stack of a use-after-free is part of the default match. */
static void test_signature__offsets_and_free_stack(void **state)
{
	tnorm_frame a[2], b[2];
	tnorm_frame fa[2], fb[2];
	tnorm_signature *sa = NULL, *sb = NULL;
	char *text = NULL;
	(void)state;
	memset(a, 0, sizeof(a));
	a[0].function = NULL;
	a[0].module = "/opt/prog";
	a[0].build_id = "abcd";
	a[0].offset = 0x1189;
	a[1] = a[0];
	a[1].function = "main";
	a[1].offset = 0x1200;
	memcpy(b, a, sizeof(a));
	b[0].offset = 0x11a0;
	assert_int_equal(tnorm_signature_new(&sa, "SIGSEGV", a, 2), 0);
	assert_int_equal(tnorm_signature_new(&sb, "SIGSEGV", b, 2), 0);
	assert_false(matches("line", sa, sb, ""));
	assert_true(matches("line", sa, sa, ""));
	assert_int_equal(tnorm_signature_format(sa, 0, &text), 0);
	assert_string_equal(text, "SIGSEGV at ?? (prog+0x1189) <- main (prog+0x1200)");
	tnorm_free(text);
	tnorm_signature_free(sb);
	/* Same crash site, freed at two places. */
	memset(fa, 0, sizeof(fa));
	fa[0].function = "free";
	fa[0].module = "/usr/lib/x86_64-linux-gnu/libasan.so.8";
	fa[1].function = "drop_entry";
	fa[1].file = "/src/uaf.c";
	fa[1].line = 40;
	memcpy(fb, fa, sizeof(fa));
	fb[1].function = "clear_all";
	fb[1].line = 55;
	assert_int_equal(tnorm_signature_dup(&sb, sa), 0);
	assert_int_equal(tnorm_signature_set_stack(sa, TNORM_STACK_FREE, fa, 2), 0);
	assert_int_equal(tnorm_signature_set_stack(sb, TNORM_STACK_FREE, fb, 2), 0);
	assert_false(matches("line", sa, sb, ""));
	assert_true(matches("stack:2", sa, sb, ""));
	assert_int_equal(tnorm_signature_stack_count(sa, TNORM_STACK_FREE), 2);
	assert_true(tnorm_signature_stack_frame(sa, TNORM_STACK_FREE, 0)->is_runtime);
	assert_int_equal(tnorm_signature_format(sa, 0, &text), 0);
	assert_string_equal(text, "SIGSEGV at ?? (prog+0x1189) <- main (prog+0x1200); freed at "
	                          "drop_entry (uaf.c:40)");
	tnorm_free(text);
	tnorm_signature_free(sb);
	assert_int_equal(tnorm_signature_dup(&sb, sa), 0);
	assert_true(matches("line", sa, sb, ""));
	tnorm_signature_free(sa);
	tnorm_signature_free(sb);
}

static tnorm_signature *inlined_at(const char *kind, const char *fn, uint32_t line,
                                   const char *caller, uint32_t cline, int inl)
{
	tnorm_frame f[3];
	tnorm_signature *s = NULL;
	memset(f, 0, sizeof(f));
	f[0].function = fn;
	f[0].file = "inline.c";
	f[0].line = line;
	f[0].module = "/bin/prog";
	f[0].inlined = inl;
	f[1] = f[0];
	f[1].function = caller;
	f[1].line = cline;
	f[1].inlined = 0;
	f[2] = f[1];
	f[2].function = "main";
	f[2].line = 90;
	assert_int_equal(tnorm_signature_new(&s, kind, f, caller ? 3 : 1), 0);
	return s;
}

/* A function inlined into two callers is two sites, and inlined at several lines of one caller
 * one site (stb_image's stbi__shiftsigned at four colour channels: one fault, as at -O0); code
 * the optimizer hoisted to the line of the inlined call is the inlined call's site. */
static void test_signature__inlined_sites(void **state)
{
	tnorm_signature *a = inlined_at("SIGSEGV", "col_width", 30, "print_header", 47, 1);
	tnorm_signature *b = inlined_at("SIGSEGV", "col_width", 30, "show_width", 56, 1);
	tnorm_signature *hoist = inlined_at("SIGSEGV", "print_header", 47, "main", 96, 0);
	tnorm_signature *called_a = inlined_at("SIGSEGV", "col_width", 30, "print_header", 47, 0);
	tnorm_signature *called_b = inlined_at("SIGSEGV", "col_width", 30, "show_width", 56, 0);
	tnorm_signature *a2 = inlined_at("SIGSEGV", "col_width", 30, "print_header", 49, 1);
	tnorm_signature *other = inlined_at("SIGSEGV", "col_width", 31, "print_header", 47, 1);
	tnorm_match *m = NULL;
	char *k = NULL, *k2 = NULL;
	(void)state;
	assert_false(matches("line", a, b, ""));
	assert_true(matches("line", a, a2, ""));
	assert_true(matches("line", a2, a, ""));
	assert_false(matches("line", a, other, ""));
	assert_true(matches("line", a, a, ""));
	assert_true(matches("line", a, hoist, ""));
	assert_true(matches("line", hoist, a, ""));
	assert_false(matches("line", b, hoist, ""));
	/* Not inlined (-O0): one function reached from two callers is one site by default. */
	assert_true(matches("line", called_a, called_b, ""));
	assert_false(matches("stack:2", called_a, called_b, ""));
	assert_int_equal(tnorm_match_parse(&m, "line"), 0);
	assert_int_equal(tnorm_match_key(m, a, &k), 0);
	assert_string_equal(k, "SIGSEGV at col_width (inline.c:30) <- print_header (inline.c)");
	assert_int_equal(tnorm_match_key(m, a2, &k2), 0);
	assert_string_equal(k, k2);
	tnorm_free(k2);
	assert_int_equal(tnorm_match_key(m, b, &k2), 0);
	assert_string_not_equal(k, k2);
	tnorm_free(k2);
	tnorm_free(k);
	tnorm_match_free(m);
	tnorm_signature_free(a2);
	tnorm_signature_free(other);
	tnorm_signature_free(a);
	tnorm_signature_free(b);
	tnorm_signature_free(hoist);
	tnorm_signature_free(called_a);
	tnorm_signature_free(called_b);
}

/* A failed assertion's line names the check whoever reached it: inlined into two callers it is
 * one site, as at -O0 (libyaml: one removed assert reached from three token fetchers). */
static void test_signature__inlined_assert(void **state)
{
	tnorm_signature *a = make("SIGABRT", "!abort !__assert_fail ^save_simple_key:scanner.c:1113 "
	                                     "fetch_plain_scalar:scanner.c:2000 main:scanner.c:40");
	tnorm_signature *b = make("SIGABRT", "!abort !__assert_fail ^save_simple_key:scanner.c:1113 "
	                                     "fetch_flow_scalar:scanner.c:2100 main:scanner.c:40");
	tnorm_match *m = NULL;
	char *ka = NULL, *kb = NULL;
	(void)state;
	assert_true(matches("line", a, b, ""));
	assert_true(matches("line", b, a, ""));
	assert_false(matches("stack:2", a, b, ""));
	assert_int_equal(tnorm_match_parse(&m, "line"), 0);
	assert_int_equal(tnorm_match_key(m, a, &ka), 0);
	assert_int_equal(tnorm_match_key(m, b, &kb), 0);
	assert_string_equal(ka, "SIGABRT at save_simple_key (scanner.c:1113)");
	assert_string_equal(ka, kb);
	tnorm_free(ka);
	tnorm_free(kb);
	tnorm_match_free(m);
	tnorm_signature_free(a);
	tnorm_signature_free(b);
}

/* An uncaught exception: the kind names the type, the what() text is shown (escaped, cut) and
 * kept by copies, but never compared: two texts of one type at one line are one fault, two types
 * there are two. */
static void test_signature__uncaught_exception(void **state)
{
	static const char stack[] = "!raise !abort __cxa_throw lookup:/src/kv.cc:24 main:/src/kv.cc:43";
	tnorm_signature *a = make("uncaught std::invalid_argument", stack);
	tnorm_signature *b = make("uncaught std::invalid_argument", stack);
	tnorm_signature *o = make("uncaught std::out_of_range", stack), *d = NULL, *cal = NULL;
	tnorm_signature *both[2];
	tnorm_match *line = NULL;
	char long_text[300], *ka = NULL, *kb = NULL, *ko = NULL, *json = NULL, *t = NULL;
	size_t len = 0;
	int stable = 0;
	(void)state;
	assert_int_equal(tnorm_signature_set_what(a, "bad \"key\"\t\x01k1", 13), 0);
	assert_int_equal(tnorm_signature_set_what(b, "bad key k2", 10), 0);
	assert_string_equal(tnorm_signature_what(b, &len), "bad key k2");
	assert_int_equal(len, 10);
	assert_null(tnorm_signature_what(o, &len));
	assert_int_equal(len, 0);
	expect_text(a, 0, "uncaught std::invalid_argument (\"bad \\\"key\\\"\\t\\x01k1\") at lookup "
	                  "(kv.cc:24) <- main (kv.cc:43)");
	expect_top(b, "uncaught std::invalid_argument (\"bad key k2\") at lookup (kv.cc:24)");
	expect_text(o, 0, "uncaught std::out_of_range at lookup (kv.cc:24) <- main (kv.cc:43)");
	assert_int_equal(tnorm_match_parse(&line, "line"), 0);
	assert_true(tnorm_match_test(line, a, b, NULL, NULL));
	assert_false(tnorm_match_test(line, a, o, NULL, NULL));
	assert_int_equal(tnorm_match_key(line, a, &ka), 0);
	assert_int_equal(tnorm_match_key(line, b, &kb), 0);
	assert_int_equal(tnorm_match_key(line, o, &ko), 0);
	assert_string_equal(ka, "uncaught std::invalid_argument at lookup (kv.cc:24)");
	assert_string_equal(ka, kb);
	assert_string_not_equal(ka, ko);
	assert_int_equal(tnorm_signature_json(b, &json), 0);
	assert_non_null(strstr(json, "\"kind\": \"uncaught std::invalid_argument\", \"text\": "
	                             "\"uncaught std::invalid_argument (\\\"bad key k2\\\") at lookup "
	                             "(kv.cc:24) <- main (kv.cc:43)\", \"what\": \"bad key k2\", "));
	/* Copies keep it; a long text is cut where it is shown. */
	assert_int_equal(tnorm_signature_dup(&d, a), 0);
	assert_memory_equal(tnorm_signature_what(d, &len), "bad \"key\"\t\x01k1", 13);
	both[0] = b;
	both[1] = a;
	assert_int_equal(tnorm_signature_calibrate(&cal, &stable, both, 2), 0);
	assert_string_equal(tnorm_signature_what(cal, NULL), "bad key k2");
	memset(long_text, 'x', sizeof(long_text));
	assert_int_equal(tnorm_signature_set_what(d, long_text, sizeof(long_text)), 0);
	assert_int_equal(tnorm_signature_format_top(d, &t), 0);
	assert_non_null(strstr(t, "xxx\"...) at lookup (kv.cc:24)"));
	assert_int_equal(strlen(t), strlen("uncaught std::invalid_argument (\"\"...) at lookup (kv.cc:24)") + 160);
	assert_int_equal(tnorm_signature_set_what(d, NULL, 0), 0);
	assert_null(tnorm_signature_what(d, NULL));
	assert_int_equal(tnorm_signature_set_what(d, NULL, 3), TNORM_EINVALID);
	tnorm_free(t);
	tnorm_free(json);
	tnorm_free(ka);
	tnorm_free(kb);
	tnorm_free(ko);
	tnorm_match_free(line);
	tnorm_signature_free(cal);
	tnorm_signature_free(d);
	tnorm_signature_free(a);
	tnorm_signature_free(b);
	tnorm_signature_free(o);
}

/* The crash state a triage prints (issue 40, item 6): a fuzzing engine's frames and the callers
 * of LLVMFuzzerTestOneInput left out, 3 frames of the program's kept in each stack; any other
 * text as it is. */
static void shown_is(const char *text, const char *want)
{
	char *out = NULL;
	assert_int_equal(tnorm_signature_text_shown(text, &out), 0);
	assert_string_equal(out, want);
	tnorm_free(out);
}

static void test_signature__text_shown(void **state)
{
	static const char deep[] = "SIGSEGV at a (x.c:1) <- b (x.c:2) <- c (x.c:3) <- d (x.c:4) <- "
	                           "main (x.c:5)";
	(void)state;
	shown_is("asan:heap-use-after-free:READ at use (j.c:9) <- LLVMFuzzerTestOneInput (j.c:20) <- "
	         "fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) (fz+0x43303) <- "
	         "fuzzer::RunOneTest(fuzzer::Fuzzer*, char const*, unsigned long) (fz+0x2d30f) <- main "
	         "(fz+0x5ce82); freed at drop (j.c:5) <- f1 (j.c:6) <- f2 (j.c:7) <- f3 (j.c:8) <- "
	         "fuzzer::RunOneTest(fuzzer::Fuzzer*, char const*, unsigned long) (fz+0x2d30f)",
	         "asan:heap-use-after-free:READ at use (j.c:9) <- LLVMFuzzerTestOneInput (j.c:20); "
	         "freed at drop (j.c:5) <- f1 (j.c:6) <- f2 (j.c:7)");
	/* AFL++'s driver, and a helper's message kept */
	shown_is("SIGABRT at die (p.c:3) <- parse (p.c:40) <- LLVMFuzzerTestOneInput (p.c:50) <- "
	         "ExecuteFilesOnyByOne (aflpp_driver.c:200) <- LLVMFuzzerRunDriver (aflpp_driver.c:300) "
	         "<- main (aflpp_driver.c:10) [bad token]",
	         "SIGABRT at die (p.c:3) <- parse (p.c:40) <- LLVMFuzzerTestOneInput (p.c:50) "
	         "[bad token]");
	/* an exception's what() with " at " and " <- " inside its quotes */
	shown_is("uncaught std::runtime_error (\"x at y <- z\") at f (e.cc:1) <- LLVMFuzzerTestOneInput "
	         "(e.cc:2) <- fuzzer::RunOneTest(fuzzer::Fuzzer*, char const*, unsigned long) (fz+0x1)",
	         "uncaught std::runtime_error (\"x at y <- z\") at f (e.cc:1) <- LLVMFuzzerTestOneInput "
	         "(e.cc:2)");
	/* no engine: byte for byte, however deep */
	shown_is(deep, deep);
	shown_is("exit(3)", "exit(3)");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signature__throwing_frame_and_text),
		cmocka_unit_test(test_signature__format_top),
		cmocka_unit_test(test_signature__json),
		cmocka_unit_test(test_signature__policies),
		cmocka_unit_test(test_signature__helpers),
		cmocka_unit_test(test_signature__inlined_sites),
		cmocka_unit_test(test_signature__inlined_assert),
		cmocka_unit_test(test_signature__static_sanitizer_runtime),
		cmocka_unit_test(test_signature__offsets_and_free_stack),
		cmocka_unit_test(test_signature__calibrate),
		cmocka_unit_test(test_signature__stack_exhaustion),
		cmocka_unit_test(test_signature__uncaught_exception),
		cmocka_unit_test(test_signature__text_shown),
	};
	return cmocka_run_group_tests_name("signature", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * sanopts.c - merge sanitizer option strings (sanopts.h).
 *
 * The runner gives the program ASAN_OPTIONS and UBSAN_OPTIONS that the engine depends on
 * (abort_on_error=1 makes a report end in SIGABRT, which is traced and unwound; symbolize=0
 * keeps each run fast).  A user who adds one flag with --env, or has one in the environment,
 * must not lose those: the strings are merged flag by flag, the later source winning per key.
 * The sanitizers read their flags left to right with the last one winning, so a plain
 * concatenation would behave the same; merging instead gives the program one clean string that
 * reads well in a log and names each flag once.
 */
#include <stdlib.h>
#include <string.h>

#include "runner_internal.h" /* tnorm__ask_program (askdriver.c) */
#include "sanitizer_internal.h"
#include "sanopts.h"

const char *tnorm__sanopts_var(size_t i)
{
	return tnorm_sanitizer_name(TNORM_SANITIZER_OPTION_VARS, i);
}

int tnorm__sanopts_is_var(const char *name, size_t len)
{
	size_t i;
	const char *v;
	for (i = 0; (v = tnorm__sanopts_var(i)) != NULL; i++)
		if (strlen(v) == len && !strncmp(v, name, len))
			return 1;
	return 0;
}

/* One flag of an options string: s[0..klen) is its name, s[0..len) the whole "name=value". */
typedef struct {
	const char *s;
	size_t klen, len;
} flag;

static int is_sep(char c)
{
	return c == ':' || c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* The next flag at or after *p (0 at the end); *p moves past it. */
static int next_flag(const char **p, flag *f)
{
	const char *s = *p, *q;
	while (*s && is_sep(*s))
		s++;
	if (!*s)
		return 0;
	q = s;
	while (*q && *q != '=' && !is_sep(*q))
		q++;
	f->s = s;
	f->klen = (size_t)(q - s);
	if (*q == '=') {
		q++;
		if (*q == '\'' || *q == '"') {
			const char *end = strchr(q + 1, *q);
			q = end ? end + 1 : q + strlen(q);
		}
		while (*q && !is_sep(*q))
			q++;
	}
	f->len = (size_t)(q - s);
	*p = q;
	return 1;
}

/* The flag of `opts` named like `f`, the last one when several are (it is the one that holds). */
static int find_flag(const char *opts, const flag *f, flag *found)
{
	flag g;
	int seen = 0;
	while (opts && next_flag(&opts, &g))
		if (g.klen == f->klen && !strncmp(g.s, f->s, f->klen)) {
			*found = g;
			seen = 1;
		}
	return seen;
}

static int put_flag(tnorm__buf *b, const flag *f)
{
	int err;
	if (b->len && (err = tnorm__buf_putc(b, ':')) < 0)
		return err;
	return tnorm__buf_put(b, f->s, f->len);
}

int tnorm__sanopts_merge(const char *base, const char *over, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *p;
	flag f, g;
	int err = 0;
	*out = NULL;
	/* The flags of base, each with its winning value (over's, or its own last one). */
	for (p = base; p && err == 0 && next_flag(&p, &f);) {
		flag last = f;
		if (find_flag(over, &f, &g))
			f = g;
		else if (find_flag(base, &f, &last))
			f = last;
		if (find_flag(b.ptr ? b.ptr : "", &f, &g))
			continue; /* named already */
		err = put_flag(&b, &f);
	}
	/* Then the flags that only over sets. */
	for (p = over; p && err == 0 && next_flag(&p, &f);) {
		flag last = f; /* (found again below: f came from over) */
		if (find_flag(base, &f, &g) || find_flag(b.ptr ? b.ptr : "", &f, &g))
			continue;
		find_flag(over, &f, &last);
		err = put_flag(&b, &last);
	}
	if (err == 0 && !(*out = tnorm__buf_detach(&b)))
		err = TNORM_ENOMEM;
	tnorm__buf_dispose(&b);
	return err;
}

/* ---- a program a debugger runs ------------------------------------------------------------
 *
 * The debugger plugins set only what makes a report stop the debugger: the user's flags stay as
 * written (the user is debugging, not minimizing), then the defaults they left out, then
 * abort_on_error=1, which they cannot turn off (without it a report ends in exit(1), which no
 * debugger stops on). */

const char *tnorm_sanitizer_debug_var(size_t i)
{
	return tnorm__sanitizer_debug_var(i, NULL);
}

int tnorm_sanitizer_debug_options(char **out, const char *name, const char *user)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *defaults = NULL, *p, *var, *d, *debug_forced = tnorm__sanitizer_debug_forced();
	flag f, g;
	size_t i;
	int err = 0;
	if (!out || !name)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_sanitizer_debug_options: NULL argument");
	*out = NULL;
	for (i = 0; (var = tnorm__sanitizer_debug_var(i, &d)) != NULL; i++)
		if (!strcmp(name, var))
			defaults = d;
	if (!defaults)
		return tnorm__error_set(TNORM_EINVALID, "%s is not a sanitizer options variable that "
		                        "a debugger sets (" TNORM__SAN_ASAN_OPTIONS ", " TNORM__SAN_UBSAN_OPTIONS ")",
		                        name);
	/* The user's flags, each as written (a repeated one too), but for the forced ones. */
	for (p = user; p && err == 0 && next_flag(&p, &f);)
		if (!find_flag(debug_forced, &f, &g))
			err = put_flag(&b, &f);
	for (p = defaults; err == 0 && next_flag(&p, &f);)
		if (!find_flag(user, &f, &g))
			err = put_flag(&b, &f);
	for (p = debug_forced; err == 0 && next_flag(&p, &f);)
		err = put_flag(&b, &f);
	if (err == 0 && !(*out = tnorm__buf_detach(&b)))
		err = TNORM_ENOMEM;
	tnorm__buf_dispose(&b);
	return err;
}

/* ---- does the program free what it makes? ---------------------------------------------------
 *
 * The engine runs programs with detect_leaks=0: a test driver keeps its objects until exit, and
 * a leak report would turn every pass into a failure.  A driver that declares destructors
 * (tnorm_drv_pool.destroy) frees them, so for it leaks are real bugs.  It is asked
 * (`--print-hooks`) only when the file names tnorm_drv_main_pools and a leak checker, so no
 * other program is ever started with an option it does not know, and a build without ASan or
 * LSan costs nothing. */

/* An ELF file that names tnorm_drv_main_pools and the ASan or LSan runtime (a program built
 * without one has no leak check to turn on). */
static int names_pools_main(const char *path)
{
	static const char pools[] = "tnorm_drv_main_pools", asan[] = TNORM__SAN_ASAN_INIT,
	                  lsan[] = TNORM__SAN_LSAN_PREFIX;
	char *text = NULL;
	size_t len = 0;
	int found;
	if (tnorm__read_file(path, &text, &len) < 0) {
		tnorm_error_clear();
		return 0;
	}
	found = len > 4 && !memcmp(text, "\x7f" "ELF", 4) &&
	        memmem(text, len, pools, sizeof(pools) - 1) != NULL &&
	        (memmem(text, len, asan, sizeof(asan) - 1) != NULL ||
	         memmem(text, len, lsan, sizeof(lsan) - 1) != NULL);
	free(text);
	return found;
}

int tnorm__sanopts_program_frees(const char *path, char *const *envp)
{
	char out[4096];
	if (!path || !names_pools_main(path) ||
	    !tnorm__ask_program(path, "--print-hooks", envp, out, sizeof(out)))
		return 0;
	return !strncmp(out, "destroy ", 8) || strstr(out, "\ndestroy ") != NULL;
}

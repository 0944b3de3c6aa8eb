/* SPDX-License-Identifier: MIT */
/*
 * util.c - error reporting, option-value parsing (for options.c's table) and the runner's
 * options shared by the subcommands.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "cli.h"

int cli_exit_code(int code)
{
	switch (code) {
	case TNORM_OK: return EXIT_OK;
	case TNORM_EPARSE:
	case TNORM_EINVALID:
	case TNORM_ENOTFOUND:
	case TNORM_EOVERFLOW: return EXIT_BADINPUT;
	case TNORM_ENOTFAIL:
	case TNORM_EFLAKY: return EXIT_NOTFAIL;
	case TNORM_EINTERRUPTED: return EXIT_INTERRUPTED;
	default: return EXIT_SYSTEM;
	}
}

int cli_fail(const char *cmd, int code)
{
	const tnorm_error *e = tnorm_error_last();
	fprintf(stderr, "tnorm %s: %s\n", cmd, e ? e->message : tnorm_error_name(code));
	return cli_exit_code(code);
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "tnorm %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n(see 'tnorm %s --help')\n", cmd);
	return EXIT_USAGE;
}

int cli_parse_u64(const char *cmd, const char *opt, const char *s, unsigned long long *out)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		goto bad;
	*out = strtoull(s, &end, 10);
	if (errno || *end)
		goto bad;
	return 0;
bad:
	cli_usage_error(cmd, "%s expects a non-negative integer, got '%s'", opt, s ? s : "");
	return -1;
}

int cli_parse_u64_in(const char *cmd, const char *opt, const char *s, unsigned long long lo,
                     unsigned long long hi, const char *unit, unsigned long long *out)
{
	if (cli_parse_u64(cmd, opt, s, out) < 0)
		return -1;
	if (*out >= lo && *out <= hi)
		return 0;
	if (hi == ULLONG_MAX)
		cli_usage_error(cmd, "%s takes %llu or more%s%s", opt, lo, *unit ? " " : "", unit);
	else
		cli_usage_error(cmd, "%s takes %llu to %llu%s%s", opt, lo, hi, *unit ? " " : "", unit);
	return -1;
}

int cli_parse_seconds(const char *cmd, const char *opt, const char *s, double *out)
{
	char *end;
	double v;
	errno = 0;
	if (!s || !*s)
		goto bad;
	v = strtod(s, &end);
	/* nan, inf and negative values are no durations (issue 28, item 9) */
	if (errno || end == s || !(v >= 0) || isinf(v))
		goto bad;
	if (!strcmp(end, "ms"))
		v /= 1000.0;
	else if (!strcmp(end, "m"))
		v *= 60.0;
	else if (!strcmp(end, "h"))
		v *= 3600.0;
	else if (*end && strcmp(end, "s"))
		goto bad;
	*out = v;
	return 0;
bad:
	cli_usage_error(cmd, "%s expects a duration such as 10, 2.5s, 500ms or 2m, got '%s'", opt,
	                s ? s : "");
	return -1;
}

int cli_parse_size(const char *cmd, const char *opt, const char *s, unsigned long long *out)
{
	uint64_t v;
	if (!s || tnorm_size_parse(s, &v) < 0) {
		cli_usage_error(cmd, "%s expects a size such as 512M or 2G, got '%s'", opt, s ? s : "");
		return -1;
	}
	*out = v;
	return 0;
}

void cli_put(FILE *f, const char *s)
{
	char *e = NULL;
	if (!s)
		return;
	if (tnorm_text_escape(&e, NULL, s, strlen(s), 0) < 0) {
		fputs("?", f); /* out of memory: nothing of s rather than its raw bytes */
		return;
	}
	fputs(e, f);
	tnorm_free(e);
}

int cli_env_off(const char *name)
{
	const char *v = getenv(name);
	return v && (!strcmp(v, "0") || !strcmp(v, "off") || !strcmp(v, "no"));
}

void cli_run_args_apply(const cli_run_args *ra, tnorm_run_options *opts)
{
	opts->timeout = ra->timeout;
	opts->mem_limit = ra->mem;
	opts->use_stdin = ra->use_stdin;
	opts->env = (const char *const *)ra->env;
	opts->invalid_exits = ra->invalid_exits;
	opts->ninvalid_exits = ra->ninvalid;
	if (ra->no_fork_server || cli_env_off("TNORM_FORK_SERVER"))
		opts->fork_server = -1;
}

static void free_words(char **w)
{
	size_t i;
	for (i = 0; w && w[i]; i++)
		free(w[i]);
	free(w);
}

/* Split `s` into words as a shell does, without expansions: blanks separate, '...' is literal,
 * "..." keeps blanks (a backslash escapes " \ $ ` there), a backslash outside quotes escapes the
 * next character.  NULL-terminated; NULL on an unterminated quote (*bad = 1) or out of memory. */
static char **split_words(const char *s, int *bad)
{
	char **w = NULL, *cur = NULL;
	size_t n = 0, len = 0;
	*bad = 0;
	if (!(cur = malloc(strlen(s) + 1)))
		return NULL;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		len = 0;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n') {
			char q = *s;
			if (q == '\'' || q == '"') {
				for (s++; *s && *s != q; s++) {
					if (q == '"' && *s == '\\' && s[1] && strchr("\"\\$`", s[1]))
						s++;
					cur[len++] = *s;
				}
				if (!*s) {
					*bad = 1;
					goto fail;
				}
				s++;
			} else {
				if (q == '\\' && s[1])
					s++;
				cur[len++] = *s++;
			}
		}
		{
			char **nw = realloc(w, (n + 2) * sizeof(*nw));
			if (!nw)
				goto fail;
			w = nw;
			w[n + 1] = NULL;
			if (!(w[n] = strndup(cur, len)))
				goto fail;
			n++;
		}
	}
	free(cur);
	if (!w && (w = calloc(1, sizeof(*w))) == NULL)
		return NULL;
	return w;
fail:
	free(cur);
	free_words(w);
	return NULL;
}

/* The test's placeholder in a command: the library's rule (tnorm/policy.h). */
static int has_braces(char *const *v)
{
	return tnorm_argv_has_placeholder((const char *const *)v);
}

int cli_driver_harness(const char *cmd, char **rest, int quiet, const char **harness, char **tmp)
{
	const char *dir = getenv("TMPDIR");
	char *text = NULL;
	size_t len;
	int fd, err;
	*tmp = NULL;
	if ((*harness = tnorm_argv_harness((const char *const *)rest)) != NULL) {
		if (!quiet)
			fprintf(stderr, "tnorm %s: the harness is %s, as the command gives it to the "
			        "program (--harness H names another, --no-harness: the test's bytes)\n",
			        cmd, *harness);
		return 0;
	}
	if ((err = tnorm_driver_harness(rest[0], &text)) == TNORM_ENOTFOUND) {
		tnorm_error_clear();
		return 0; /* no driver: the test is any file */
	}
	if (err < 0) {
		fprintf(stderr, "tnorm %s: warning: %s; the test is taken as bytes (give --harness H)\n",
		        cmd, tnorm_error_last()->message);
		return 0;
	}
	len = strlen(text);
	if (!(*tmp = malloc(strlen(dir && *dir ? dir : "/tmp") + 64))) {
		tnorm_free(text);
		return -1;
	}
	/* (the PID: a later run removes what a killed one left) */
	sprintf(*tmp, "%s/tnorm-harness-%ld-XXXXXX.tnh", dir && *dir ? dir : "/tmp", (long)getpid());
	if ((fd = mkstemps(*tmp, 4)) >= 0) {
		int bad = write(fd, text, len) != (ssize_t)len;
		if (close(fd) < 0 || bad) {
			unlink(*tmp);
			fd = -1;
		}
	}
	if (fd < 0) {
		fprintf(stderr, "tnorm %s: %s: cannot write the driver's harness: %s\n", cmd, *tmp,
		        strerror(errno));
		free(*tmp);
		*tmp = NULL;
		tnorm_free(text);
		return -1;
	}
	tnorm_free(text);
	*harness = *tmp;
	if (!quiet)
		fprintf(stderr, "tnorm %s: the harness is the one compiled into %s (%s --print-harness); "
		        "--harness H names another, --no-harness: the test's bytes\n", cmd, rest[0],
		        rest[0]);
	return 0;
}

int cli_harness(const char *cmd, const cli_args *a, int quiet, const char **harness, char **tmp)
{
	*harness = a->harness;
	*tmp = NULL;
	if (a->harness) {
		cli_warn_stale_harness(cmd, a->harness, a->rest[0], a->rest);
		return 0;
	}
	return a->no_harness ? 0 : cli_driver_harness(cmd, a->rest, quiet, harness, tmp);
}

void cli_warn_stale_harness(const char *cmd, const char *harness, const char *program,
                            char **rest)
{
	char *compiled = NULL, *file = NULL;
	size_t len = 0;
	if (rest && tnorm_argv_harness((const char *const *)rest))
		return; /* the driver is given the harness to run with */
	if (tnorm_driver_harness(program, &compiled) < 0 || tnorm_file_read(harness, &file, &len) < 0) {
		tnorm_error_clear(); /* nothing to compare: what is wrong is said elsewhere */
	} else if (strlen(compiled) != len || memcmp(compiled, file, len)) {
		fprintf(stderr, "tnorm %s: warning: %s is not the harness compiled into %s (%s "
		        "--print-harness): the driver runs every test with its own; rebuild it, or "
		        "run it with --harness %s\n", cmd, harness, program, program, harness);
	}
	tnorm_free(compiled);
	tnorm_free(file);
}

int cli_check_command(const cli_run_args *ra, const char *cmd, char **rest, int nrest,
                      const char *synopsis)
{
	if (!rest || nrest == 0) {
		cli_usage_error(cmd, "missing the command: %s", synopsis);
		return -1;
	}
	if (!rest[0][0]) {
		cli_usage_error(cmd, "the command after -- is empty: name the program to run");
		return -1;
	}
	/* A warning, not an error: a program may crash whatever it reads, or print its
	 * environment, and still be worth running. */
	if (!ra->use_stdin && !has_braces(rest))
		fprintf(stderr, "tnorm %s: warning: CMD has no {} or @@ and no --stdin: the program does "
		        "not see the test (write {} where its path goes, e.g. -- %s {}, or give "
		        "--stdin)\n", cmd, rest[0]);
	return 0;
}

int cli_run_args_fixed(cli_run_args *ra, const char *cmd, char **cmdv, const char *const **out)
{
	char **w;
	size_t n = 0, k;
	int bad = 0;
	*out = NULL;
	if (!ra->fixed)
		return 0;
	if (!(w = split_words(ra->fixed, &bad))) {
		if (bad)
			cli_usage_error(cmd, "--fixed '%s': unterminated quote", ra->fixed);
		return -1;
	}
	while (w[n])
		n++;
	if (n == 0) {
		free(w);
		cli_usage_error(cmd, "--fixed expects the fixed program");
		return -1;
	}
	if (n == 1) {
		/* One word: the fixed program takes the main command's arguments. */
		size_t m = 0;
		char **full;
		while (cmdv[m])
			m++;
		if (!(full = realloc(w, (m + 1) * sizeof(*full)))) {
			free_words(w);
			return -1;
		}
		w = full;
		for (k = 1; k <= m; k++)
			w[k] = NULL;
		for (k = 1; k < m; k++)
			if (!(w[k] = strdup(cmdv[k]))) {
				free_words(w);
				return -1;
			}
	} else if (has_braces(cmdv) && !has_braces(w) && !ra->use_stdin) {
		free_words(w);
		cli_usage_error(cmd, "--fixed '%s' has no {}: the fixed program would not see the "
		                "test (give one word to reuse the command's arguments)", ra->fixed);
		return -1;
	}
	free_words(ra->fixed_argv);
	ra->fixed_argv = w;
	*out = (const char *const *)w;
	return 0;
}

void cli_run_args_dispose(cli_run_args *ra)
{
	free(ra->env);
	ra->env = NULL;
	free(ra->invalid_exits);
	ra->invalid_exits = NULL;
	free_words(ra->fixed_argv);
	ra->fixed_argv = NULL;
}

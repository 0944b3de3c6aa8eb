/* SPDX-License-Identifier: MIT */
/*
 * util.c - error reporting and option-value parsing shared by the subcommands.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
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

int cli_parse_seconds(const char *cmd, const char *opt, const char *s, double *out)
{
	char *end;
	double v;
	errno = 0;
	if (!s || !*s)
		goto bad;
	v = strtod(s, &end);
	if (errno || end == s || v < 0)
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
	char *end;
	unsigned long long v, mul = 1;
	errno = 0;
	if (!s || !*s || *s == '-')
		goto bad;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		goto bad;
	if (*end == 'K' || *end == 'k')
		mul = 1ULL << 10;
	else if (*end == 'M' || *end == 'm')
		mul = 1ULL << 20;
	else if (*end == 'G' || *end == 'g')
		mul = 1ULL << 30;
	else if (*end)
		goto bad;
	if (*end && end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB"))
		goto bad;
	*out = v * mul;
	return 0;
bad:
	cli_usage_error(cmd, "%s expects a size such as 512M or 2G, got '%s'", opt, s ? s : "");
	return -1;
}

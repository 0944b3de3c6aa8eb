/* SPDX-License-Identifier: MIT */
/*
 * env.c - tnorm's own environment variables, read in one place and checked as options are.
 *
 * TNORM_MAX_INPUT (a size), TNORM_PERSISTENT (off or a count), TNORM_FORK_SERVER (off or on),
 * TNORM_PRELOAD (off, always or a path) and TNORM_DB (a path, a URL or off) change what tnorm
 * does as options do.  Each used to be read where it was needed, and a value that did not parse
 * was the default in silence (issue 39, item 14: TNORM_MAX_INPUT=1.5G, TNORM_PERSISTENT=abc).
 * Here each has one parser, which the readers and tnorm_env_check() share, and a bad value is an
 * error that names the variable.  An empty value is no value.  Other TNORM_* names (a script's
 * TNORM_CORPUS) are not tnorm's and are left alone; TNORM_DRV_PRINT is the driver runtime's.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"

#define MAX_INPUT_DEFAULT ((uint64_t)256 << 20)
#define PERSIST_DEFAULT 1000
#define PERSIST_MAX 1000000

int tnorm_size_parse(const char *text, uint64_t *out)
{
	const char *p = text;
	uint64_t v = 0, mul = 1;
	if (!text || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_size_parse: NULL argument");
	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			goto bad;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (*p) {
	case 'k': case 'K': mul = (uint64_t)1 << 10; p++; break;
	case 'm': case 'M': mul = (uint64_t)1 << 20; p++; break;
	case 'g': case 'G': mul = (uint64_t)1 << 30; p++; break;
	default: break;
	}
	if (mul > 1 && (!strcmp(p, "B") || !strcmp(p, "iB")))
		p += strlen(p);
	if (*p || v > UINT64_MAX / mul)
		goto bad;
	*out = v * mul;
	return 0;
bad:
	return tnorm__error_set(TNORM_EINVALID, "'%s' is not a size such as 512M or 2G (bytes, or "
	                        "with a K, M or G suffix)", text);
}

/* The variable's value, NULL when unset or empty. */
static const char *value(const char *name)
{
	const char *v = getenv(name);
	return v && *v ? v : NULL;
}

static int is_off(const char *v)
{
	return !strcmp(v, "off") || !strcmp(v, "no") || !strcmp(v, "0");
}

int tnorm__env_max_input(uint64_t *out)
{
	const char *v = value("TNORM_MAX_INPUT");
	*out = MAX_INPUT_DEFAULT;
	if (!v)
		return 0;
	if (tnorm_size_parse(v, out) < 0 || *out == 0) {
		*out = MAX_INPUT_DEFAULT;
		return tnorm__error_set(TNORM_EINVALID, "TNORM_MAX_INPUT=%s in the environment: expects "
		                        "the largest input file tnorm reads, a size of 1 byte or more "
		                        "such as 512M or 2G (bytes, or with a K, M or G suffix)", v);
	}
	return 0;
}

int tnorm__env_persistent(unsigned *out)
{
	const char *v = value("TNORM_PERSISTENT");
	char *end = NULL;
	unsigned long n;
	*out = PERSIST_DEFAULT;
	if (!v)
		return 0;
	if (is_off(v)) {
		*out = 1;
		return 0;
	}
	n = v[0] >= '1' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
	if (n == 0 || *end || n > PERSIST_MAX)
		return tnorm__error_set(TNORM_EINVALID, "TNORM_PERSISTENT=%s in the environment: expects "
		                        "off (or no, 0) or how many candidates one child may run, 1 to "
		                        "%d", v, PERSIST_MAX);
	*out = (unsigned)n;
	return 0;
}

int tnorm__env_fork_server(int *on)
{
	const char *v = value("TNORM_FORK_SERVER");
	*on = 1;
	if (!v || !strcmp(v, "on") || !strcmp(v, "yes") || !strcmp(v, "1"))
		return 0;
	if (is_off(v)) {
		*on = 0;
		return 0;
	}
	return tnorm__error_set(TNORM_EINVALID, "TNORM_FORK_SERVER=%s in the environment: expects off "
	                        "(or no, 0) or on (yes, 1)", v);
}

int tnorm__env_preload(void)
{
	const char *v = value("TNORM_PRELOAD");
	if (!v || !strcmp(v, "off") || !strcmp(v, "always") || v[0] == '/')
		return 0;
	return tnorm__error_set(TNORM_EINVALID, "TNORM_PRELOAD=%s in the environment: expects off, "
	                        "always or the absolute path of libtnorm_preload.so", v);
}

int tnorm_env_check(void)
{
	uint64_t size;
	unsigned n;
	int on, err;
	if ((err = tnorm__env_max_input(&size)) < 0 || (err = tnorm__env_persistent(&n)) < 0 ||
	    (err = tnorm__env_fork_server(&on)) < 0 || (err = tnorm__env_preload()) < 0)
		return err;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * error.c - the per-thread last error.
 *
 * The engine runs inside debuggers and from several worker threads, so the "last error" lives in
 * thread-local storage (as in libgit2) rather than in a global.  Messages are formatted once,
 * where the problem is found, into a fixed buffer: recording an error never allocates, so it
 * works after an allocation failure too.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common.h"

#define MSG_MAX 1024

static _Thread_local struct {
	tnorm_error err;
	int set;
	char msg[MSG_MAX];
} last;

const tnorm_error *tnorm_error_last(void)
{
	if (!last.set)
		return NULL;
	last.err.message = last.msg;
	return &last.err;
}

void tnorm_error_clear(void)
{
	last.set = 0;
	last.msg[0] = '\0';
}

int tnorm__error_setv(int code, const char *fmt, va_list ap)
{
	vsnprintf(last.msg, sizeof(last.msg), fmt, ap);
	last.err.code = code;
	last.set = 1;
	return code;
}

int tnorm__error_set(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tnorm__error_setv(code, fmt, ap);
	va_end(ap);
	return code;
}

int tnorm__error_errno(int code, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	tnorm__error_setv(code, fmt, ap);
	va_end(ap);
	n = strlen(last.msg);
	snprintf(last.msg + n, sizeof(last.msg) - n, ": %s", strerror(saved));
	return code;
}

int tnorm__error_prefix(const char *fmt, ...)
{
	char old[MSG_MAX];
	va_list ap;
	size_t n;

	if (!last.set)
		return TNORM_ERROR;
	memcpy(old, last.msg, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(last.msg, sizeof(last.msg), fmt, ap);
	va_end(ap);
	n = strlen(last.msg);
	snprintf(last.msg + n, sizeof(last.msg) - n, ": %s", old);
	return last.err.code;
}

const char *tnorm_error_name(int code)
{
	switch (code) {
	case TNORM_OK: return "OK";
	case TNORM_ERROR: return "ERROR";
	case TNORM_EINVALID: return "EINVALID";
	case TNORM_EPARSE: return "EPARSE";
	case TNORM_ENOTFOUND: return "ENOTFOUND";
	case TNORM_ENOMEM: return "ENOMEM";
	case TNORM_EIO: return "EIO";
	case TNORM_ETIMEOUT: return "ETIMEOUT";
	case TNORM_EINTERRUPTED: return "EINTERRUPTED";
	case TNORM_EOVERFLOW: return "EOVERFLOW";
	case TNORM_ENOTFAIL: return "ENOTFAIL";
	case TNORM_EFLAKY: return "EFLAKY";
	case TNORM_EDB: return "EDB";
	default: return "EUNKNOWN";
	}
}

const char *tnorm_version(void)
{
	return TNORM_VERSION;
}

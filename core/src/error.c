/* SPDX-License-Identifier: MIT */
/*
 * error.c - the per-thread last error.
 *
 * The engine runs inside debuggers and from several worker threads, so the "last error" lives in
 * thread-local storage (as in libgit2) rather than in a global.  Messages are formatted once,
 * where the problem is found, into a fixed buffer: recording an error never allocates, so it
 * works after an allocation failure too.
 *
 * Messages quote bytes from users' files and paths, which need not be UTF-8, while a message is
 * read as a Python str inside gdb and lldb.  So every setter leaves the message valid UTF-8:
 * each byte that does not belong to a well-formed UTF-8 sequence is written as "\xHH".
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

size_t tnorm__utf8_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t len, i;
	if (n == 0)
		return 0;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		len = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		len = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		len = 4;
	else
		return 0;
	/* No overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629). */
	if (p[0] == 0xe0)
		lo = 0xa0;
	else if (p[0] == 0xed)
		hi = 0x9f;
	else if (p[0] == 0xf0)
		lo = 0x90;
	else if (p[0] == 0xf4)
		hi = 0x8f;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < len; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return len;
}

size_t tnorm__text_shown(const char *s, size_t n, int lines)
{
	unsigned char c = n ? (unsigned char)s[0] : 0;
	size_t len = tnorm__utf8_len(s, n);
	if (len == 1 && (c < 0x20 || c == 0x7f))
		return lines && (c == '\n' || c == '\t') ? 1 : 0;
	if (len == 2 && c == 0xc2 && (unsigned char)s[1] < 0xa0)
		return 0; /* U+0080..U+009F: C1 controls (U+009B is a CSI to a terminal) */
	return len;
}

/* Rewrite the message so that it is valid UTF-8 without control characters (see above: a file
 * name in it may hold any byte, issue 39, item 13), truncating at a whole character or escape
 * when the escapes make it longer than the buffer. */
static void make_utf8(void)
{
	char in[MSG_MAX];
	size_t n = strlen(last.msg), i = 0, o = 0, len;
	for (; i < n; i += len)
		if (!(len = tnorm__text_shown(last.msg + i, n - i, 0)))
			break;
	if (i == n)
		return; /* already valid: the common case copies nothing */
	o = i;
	memcpy(in, last.msg, n + 1);
	while (i < n) {
		len = tnorm__text_shown(in + i, n - i, 0);
		if (len) {
			if (o + len >= sizeof(last.msg))
				break;
			memcpy(last.msg + o, in + i, len);
			o += len;
			i += len;
		} else {
			if (o + 4 >= sizeof(last.msg))
				break;
			snprintf(last.msg + o, 5, "\\x%02x", (unsigned char)in[i]);
			o += 4;
			i++;
		}
	}
	last.msg[o] = '\0';
}

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
	/* Formatted aside first: a message may quote the last one ("%s", tnorm_error_last()->message)
	 * to add where it happened, and vsnprintf into its own argument is undefined. */
	char msg[sizeof(last.msg)];
	vsnprintf(msg, sizeof(msg), fmt, ap);
	memcpy(last.msg, msg, sizeof(msg));
	make_utf8();
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
	make_utf8();
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
	make_utf8();
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

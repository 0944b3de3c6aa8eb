/* SPDX-License-Identifier: MIT */
/*
 * lex.c - the string syntax of harness files and tests: a C-style literal read (the harness
 * parser's tokens, a test's value arguments) and written (a test's steps, a harness error's
 * quote).  One file for both directions, so that what is written reads back as it was; the
 * harness parser (harness_lex.c) and the action order (order.c) both use it and neither the other
 * for it.
 */
#include <ctype.h>

#include "model.h"

/* model.h has the contracts of both. */
int tnorm__lex_string(const char *p, const char *end, char **out, size_t *outlen,
                      const char **after, const char **bad)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	p++;
	while (p < end && *p != '"' && *p != '\n') {
		char c = *p++;
		if (c == '\\') {
			if (p >= end || *p == '\n') {
				*bad = p;
				tnorm__buf_dispose(&b);
				return 1;
			}
			c = *p++;
			switch (c) {
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case '0': c = '\0'; break;
			case '\\': case '"': case '\'': break;
			case 'x': {
				int v = 0, k;
				for (k = 0; k < 2; k++) {
					if (p >= end || !isxdigit((unsigned char)*p)) {
						*bad = p;
						tnorm__buf_dispose(&b);
						return 1;
					}
					v = v * 16 + (isdigit((unsigned char)*p) ? *p - '0'
					                                         : (tolower((unsigned char)*p) - 'a' + 10));
					p++;
				}
				c = (char)v;
				break;
			}
			default:
				*bad = p - 1;
				tnorm__buf_dispose(&b);
				return 1;
			}
		}
		if ((err = tnorm__buf_putc(&b, c)) < 0) {
			tnorm__buf_dispose(&b);
			return err;
		}
	}
	if (p >= end || *p != '"') {
		*bad = NULL;
		tnorm__buf_dispose(&b);
		return 2;
	}
	*after = p + 1;
	*outlen = b.len;
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

/* Append s (len bytes, any) to b as a literal that tnorm__lex_string reads back as s; `ascii`:
 * bytes over 0x7f escaped too (tnorm_string_quote), else kept (a test's steps). */
static int put_quoted(tnorm__buf *b, const char *s, size_t len, int ascii)
{
	size_t i;
	int err;
	if ((err = tnorm__buf_putc(b, '"')) < 0)
		return err;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': err = tnorm__buf_puts(b, "\\\""); break;
		case '\\': err = tnorm__buf_puts(b, "\\\\"); break;
		case '\n': err = tnorm__buf_puts(b, "\\n"); break;
		case '\t': err = tnorm__buf_puts(b, "\\t"); break;
		case '\r': err = tnorm__buf_puts(b, "\\r"); break;
		case '\0': err = tnorm__buf_puts(b, "\\0"); break;
		default:
			if (c < 0x20 || c == 0x7f || (ascii && c > 0x7f))
				err = tnorm__buf_printf(b, "\\x%02x", c);
			else
				err = tnorm__buf_putc(b, (char)c);
		}
		if (err < 0)
			return err;
	}
	return tnorm__buf_putc(b, '"');
}

int tnorm__buf_put_quoted(tnorm__buf *b, const char *s, size_t len)
{
	return put_quoted(b, s, len, 0);
}

/* tnorm/test.h */
int tnorm_string_quote(const char *s, size_t len, char **out)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	if (out)
		*out = NULL;
	if (!out || (!s && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_string_quote: NULL argument");
	if ((err = put_quoted(&b, s, len, 1)) < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

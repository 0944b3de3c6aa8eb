/* SPDX-License-Identifier: MIT */
/*
 * json.c - the engine's side of JSON: every JSON text the library writes is a jansson value
 * rendered here, and every string in it is made valid UTF-8 here.
 *
 * jansson escapes quotes, backslashes and control bytes, and refuses a string that is not valid
 * UTF-8; what tnorm puts in JSON (actions with string literals, file names, a program's output,
 * generic-mode tests) can be any bytes, so each byte that does not start a well-formed UTF-8
 * character becomes U+FFFD first.  jansson allocates with its own functions (setting them is
 * process-wide, and we run inside the user's debugger), so the rendered text is copied once
 * through tnorm__malloc: callers free it with tnorm_free, and OOM injection reaches the copy.
 * Bytes shown to people (a report's texts, the CLI's lines) are escaped here too, one way
 * everywhere (tnorm_text_escape).
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* b's text into *out and *outlen, or b freed on an error. */
static int hand_over(tnorm__buf *b, int err, char **out, size_t *outlen)
{
	if (err < 0) {
		tnorm__buf_dispose(b);
		return err;
	}
	if (outlen)
		*outlen = b->len;
	if (!(*out = tnorm__buf_detach(b)))
		return TNORM_ENOMEM;
	return 0;
}

/* The copy of tnorm_text_utf8: U+FFFD for each byte that does not start a UTF-8 character. */
int tnorm_text_utf8(char **out, size_t *outlen, const char *s, size_t len)
{
	static const char fffd[] = "\xef\xbf\xbd";
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i = 0, n;
	int err = 0;
	if (out)
		*out = NULL;
	if (outlen)
		*outlen = 0;
	if (!out || (!s && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_text_utf8: NULL argument");
	while (i < len && err == 0) {
		if ((n = tnorm__utf8_len(s + i, len - i)) > 0) {
			err = tnorm__buf_put(&b, s + i, n);
			i += n;
		} else {
			err = tnorm__buf_put(&b, fffd, 3);
			i++;
		}
	}
	return hand_over(&b, err, out, outlen);
}

/*
 * The one escaping of bytes for people (issue 40, item 7): a printable ASCII character as it is,
 * a backslash as two, every other byte (a control character, DEL, any byte of 0x80 and up) as
 * \xNN; with `lines`, newline and tab as they are.  Each byte alone: a reader can tell every
 * byte back, `\x00\201` is a NUL, a backslash and "201", never an octal escape, and the text is
 * ASCII whatever the bytes were (valid UTF-8 for a page or a JSON string).
 */
int tnorm__buf_put_escaped(tnorm__buf *b, const char *s, size_t len, int lines)
{
	static const char digits[] = "0123456789abcdef";
	size_t i, run;
	int err = 0;
	for (i = 0; i < len && err == 0; i += run) {
		unsigned char c = (unsigned char)s[i];
		char esc[4];
		for (run = 0; i + run < len; run++) { /* the bytes shown as they are, in one put */
			unsigned char d = (unsigned char)s[i + run];
			if (!((d >= 0x20 && d < 0x7f && d != '\\') || (lines && (d == '\n' || d == '\t'))))
				break;
		}
		if (run) {
			err = tnorm__buf_put(b, s + i, run);
			continue;
		}
		run = 1;
		if (c == '\\') {
			err = tnorm__buf_put(b, "\\\\", 2);
			continue;
		}
		esc[0] = '\\';
		esc[1] = 'x';
		esc[2] = digits[c >> 4];
		esc[3] = digits[c & 15];
		err = tnorm__buf_put(b, esc, 4);
	}
	return err;
}

int tnorm_text_escape(char **out, size_t *outlen, const char *s, size_t len, int lines)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	if (out)
		*out = NULL;
	if (outlen)
		*outlen = 0;
	if (!out || (!s && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_text_escape: NULL argument");
	err = tnorm__buf_put_escaped(&b, s ? s : "", len, lines);
	return hand_over(&b, err, out, outlen);
}

json_t *tnorm__json_text(const char *s, size_t len)
{
	char *clean = NULL;
	size_t n = 0;
	json_t *v;
	if (!s)
		return json_string("");
	/* Most strings are already valid: no copy for them. */
	if ((v = json_stringn(s, len)))
		return v;
	if (tnorm_text_utf8(&clean, &n, s, len) < 0)
		return NULL;
	v = json_stringn(clean, n);
	tnorm_free(clean);
	return v;
}

json_t *tnorm__json_str(const char *s)
{
	return tnorm__json_text(s, s ? strlen(s) : 0);
}

json_t *tnorm__json_real(double v, int decimals)
{
	double scale = 1;
	while (decimals-- > 0)
		scale *= 10;
	return json_real((double)(long long)(v * scale + (v < 0 ? -0.5 : 0.5)) / scale);
}

int tnorm__json_is_text(const char *s, size_t len)
{
	size_t i = 0, n;
	while (i < len && s[i] && (n = tnorm__utf8_len(s + i, len - i)) != 0)
		i += n;
	return i == len;
}

json_t *tnorm__json_hex(const char *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	tnorm__buf h = TNORM__BUF_INIT;
	size_t i;
	json_t *v;
	int bad = tnorm__buf_grow(&h, 2 * len) < 0;
	for (i = 0; i < len && !bad; i++)
		bad = tnorm__buf_putc(&h, digits[(unsigned char)p[i] >> 4]) < 0 ||
		      tnorm__buf_putc(&h, digits[(unsigned char)p[i] & 15]) < 0;
	v = bad ? NULL : json_stringn(h.ptr, h.len);
	tnorm__buf_dispose(&h);
	return v;
}

int tnorm__json_set_bytes(json_t *o, const char *key, const char *hexkey, const char *p, size_t len)
{
	int bad = json_object_set_new(o, key, tnorm__json_text(p, len));
	if (bad || !p || tnorm__json_is_text(p, len))
		return bad;
	return json_object_set_new(o, hexkey, tnorm__json_hex(p, len)) < 0;
}

json_t *tnorm__json_done(json_t *v, int bad)
{
	if (!bad)
		return v;
	json_decref(v);
	return NULL;
}

int tnorm__json_dump(char **out, json_t *v, int built)
{
	char *text = NULL;
	*out = NULL;
	if (v && built == 0)
		text = json_dumps(v, TNORM__JSON_FLAGS);
	json_decref(v);
	if (!text)
		return tnorm__error_set(TNORM_ENOMEM, "out of memory while writing JSON");
	*out = tnorm__strdup(text);
	free(text);
	return *out ? 0 : TNORM_ENOMEM;
}

/* json_dump_callback's sink: append to the tnorm__buf. */
static int json_to_buf(const char *p, size_t n, void *data)
{
	return tnorm__buf_put(data, p, n) < 0 ? -1 : 0;
}

int tnorm__json_dump_buf(tnorm__buf *b, json_t *v, int built)
{
	int bad = !v || built != 0 || json_dump_callback(v, json_to_buf, b, TNORM__JSON_FLAGS) != 0;
	json_decref(v);
	return bad ? tnorm__error_set(TNORM_ENOMEM, "out of memory while writing JSON") : 0;
}

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
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"

/* The copy of tnorm_text_utf8 (`escape` 0: U+FFFD for each byte that is not UTF-8) and of
 * tnorm_text_escape (`escape` 1, or 2 keeping newlines and tabs: \xNN for each byte that is not
 * shown as it is, tnorm__text_shown). */
static int text_copy(char **out, size_t *outlen, const char *s, size_t len, int escape,
                     const char *fn)
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
		return tnorm__error_set(TNORM_EINVALID, "%s: NULL argument", fn);
	while (i < len && err == 0) {
		n = escape ? tnorm__text_shown(s + i, len - i, escape == 2)
		           : tnorm__utf8_len(s + i, len - i);
		if (n > 0) {
			err = tnorm__buf_put(&b, s + i, n);
			i += n;
		} else {
			err = escape ? tnorm__buf_printf(&b, "\\x%02x", (unsigned char)s[i])
			             : tnorm__buf_put(&b, fffd, 3);
			i++;
		}
	}
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	if (outlen)
		*outlen = b.len;
	if (!(*out = tnorm__buf_detach(&b)))
		return TNORM_ENOMEM;
	return 0;
}

int tnorm_text_utf8(char **out, size_t *outlen, const char *s, size_t len)
{
	return text_copy(out, outlen, s, len, 0, "tnorm_text_utf8");
}

int tnorm_text_escape(char **out, size_t *outlen, const char *s, size_t len, int lines)
{
	return text_copy(out, outlen, s, len, lines ? 2 : 1, "tnorm_text_escape");
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

int tnorm__json_is_text(const char *s, size_t len)
{
	size_t i = 0, n;
	while (i < len && s[i] && (n = tnorm__utf8_len(s + i, len - i)) != 0)
		i += n;
	return i == len;
}

int tnorm__json_set_bytes(json_t *o, const char *key, const char *hexkey, const char *p, size_t len)
{
	static const char digits[] = "0123456789abcdef";
	tnorm__buf h = TNORM__BUF_INIT;
	size_t i;
	int bad = json_object_set_new(o, key, tnorm__json_text(p, len));
	if (bad || !p || tnorm__json_is_text(p, len))
		return bad;
	for (i = 0; i < len && !bad; i++)
		bad = tnorm__buf_putc(&h, digits[(unsigned char)p[i] >> 4]) < 0 ||
		      tnorm__buf_putc(&h, digits[(unsigned char)p[i] & 15]) < 0;
	bad = bad || json_object_set_new(o, hexkey, json_stringn(h.ptr, h.len)) < 0;
	tnorm__buf_dispose(&h);
	return bad;
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

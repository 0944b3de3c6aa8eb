/* SPDX-License-Identifier: MIT */
/*
 * report.c - parse sanitizer reports and the driver runtime's failure lines into a failure kind
 * and the extra stacks (free, alloc, leak) that the ptrace stack does not show; and the step a
 * driver run with --trace ended in (its "STEP K: " lines, tnorm_trace_last_step).
 *
 * The crash stack itself always comes from ptrace (the runner sets abort_on_error=1, so every
 * report ends in an abort whose stack runs through the sanitizer runtime into the user's frame).
 * What only the report knows is the bug type and access ("heap-use-after-free", "READ"), where
 * the memory was freed and allocated, and, for LeakSanitizer, the leak's allocation stack.
 * With symbolize=0 (tnorm's default) report frames are "(MODULE+0xOFFSET)", which the engine
 * symbolizes with its own caches; symbolized reports ("in FN FILE:LINE:COL") are read too.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "sanitizer_internal.h"
#include "tnorm/runner.h"
#include "tnorm/signature.h"

static void clear_stack(tnorm__report *rep, int k)
{
	size_t i;
	for (i = 0; i < rep->nstack[k]; i++) {
		free(rep->stack[k][i].module);
		free(rep->stack[k][i].function);
		free(rep->stack[k][i].file);
	}
	free(rep->stack[k]);
	rep->stack[k] = NULL;
	rep->nstack[k] = 0;
}

void tnorm__report_dispose(tnorm__report *rep)
{
	int k;
	if (!rep)
		return;
	for (k = 0; k < TNORM__REPORT_STACKS; k++)
		clear_stack(rep, k);
	memset(rep, 0, sizeof(*rep));
}

void tnorm__report_ubsan_kind(const char *msg, char *out, size_t size)
{
	size_t n = 0;
	const char *p = msg;
	if (!size)
		return;
	while (*p == ' ')
		p++;
	for (; *p && *p != ':' && *p != '\'' && *p != '"' && *p != '\n' && !isdigit((unsigned char)*p) &&
	       n + 1 < size;
	     p++)
		out[n++] = *p == ' ' ? '-' : *p;
	while (n && out[n - 1] == '-')
		n--;
	out[n] = '\0';
}

int tnorm_signature_ubsan_kind(char **out, const char *message)
{
	size_t len;
	char *word;
	int err;
	if (!out || !message)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_signature_ubsan_kind: NULL argument");
	*out = NULL;
	len = strlen(message);
	if (!(word = tnorm__malloc(len + 1)))
		return TNORM_ENOMEM;
	/* The word reads the message from its first letter: lower-casing that one is enough. */
	word[0] = '\0';
	if (isupper((unsigned char)message[0])) {
		char *lowered = tnorm__strdup(message);
		if (!lowered) {
			tnorm_free(word);
			return TNORM_ENOMEM;
		}
		lowered[0] = (char)tolower((unsigned char)lowered[0]);
		tnorm__report_ubsan_kind(lowered, word, len + 1);
		tnorm_free(lowered);
	} else {
		tnorm__report_ubsan_kind(message, word, len + 1);
	}
	if (!word[0]) {
		tnorm_free(word);
		return 0;
	}
	err = tnorm_sanitizer_kind(out, "ubsan", word, NULL);
	tnorm_free(word);
	return err;
}

/* The rest of the line after `prefix` when line starts with it (after leading blanks). */
static const char *after(const char *line, const char *prefix)
{
	while (*line == ' ' || *line == '\t')
		line++;
	return strncmp(line, prefix, strlen(prefix)) ? NULL : line + strlen(prefix);
}

static int push_frame(tnorm__report *rep, int which, const char *line)
{
	tnorm__report_frame f, *nf;
	const char *p = strstr(line, " (/"), *in = strstr(line, " in ");
	memset(&f, 0, sizeof(f));
	if (p) {
		/* "#1 0x55d1  (/path/exe+0x61b2) (BuildId: ...)" */
		const char *plus = strstr(p, "+0x"), *close = plus ? strchr(plus, ')') : NULL;
		if (!plus || !close)
			return 0;
		if (!(f.module = tnorm__strndup(p + 2, (size_t)(plus - p - 2))))
			return TNORM_ENOMEM;
		f.offset = strtoull(plus + 1, NULL, 16);
	} else if (in) {
		/* "#1 0x55d1 in fn /path/file.c:12:3" */
		const char *fn = in + 4, *sp = strchr(fn, ' ');
		if (!sp)
			sp = fn + strcspn(fn, "\n");
		if (!(f.function = tnorm__strndup(fn, (size_t)(sp - fn))))
			return TNORM_ENOMEM;
		if (*sp == ' ') {
			const char *loc = sp + 1, *c1 = strchr(loc, ':');
			size_t end = strcspn(loc, "\n");
			if (c1 && (size_t)(c1 - loc) < end) {
				f.file = tnorm__strndup(loc, (size_t)(c1 - loc));
				f.line = (uint32_t)strtoul(c1 + 1, NULL, 10);
			}
		}
	} else {
		return 0;
	}
	if (!(nf = tnorm__reallocarray(rep->stack[which], rep->nstack[which] + 1, sizeof(*nf)))) {
		free(f.module);
		free(f.function);
		free(f.file);
		return TNORM_ENOMEM;
	}
	rep->stack[which] = nf;
	nf[rep->nstack[which]++] = f;
	return 0;
}

static void copy_word(char *out, size_t size, const char *p)
{
	size_t n = 0;
	while (p[n] && !isspace((unsigned char)p[n]) && n + 1 < size) {
		out[n] = p[n];
		n++;
	}
	out[n] = '\0';
}

/* The driver runtime: "tnorm driver: check NAME(args) failed after step N" and
 * "tnorm driver: step N: NAME(args) failed (handler returned R)". */
static void driver_kind(const char *line, tnorm__report *rep)
{
	const char *p;
	char name[100];
	size_t n;
	if ((p = after(line, "tnorm driver: check ")) && strstr(p, " failed after step ")) {
		n = strcspn(p, "( ");
		snprintf(name, sizeof(name), "%.*s", (int)(n < 99 ? n : 99), p);
		snprintf(rep->kind, sizeof(rep->kind), "check-failed:%s", name);
	} else if ((p = after(line, "tnorm driver: step ")) && strstr(p, "(handler returned")) {
		/* "N: NAME": a ':' that ends the line is no separator (p + 2 would pass the NUL). */
		p = strstr(p, ": ");
		if (!p)
			return;
		p += 2;
		n = strcspn(p, "( ");
		snprintf(name, sizeof(name), "%.*s", (int)(n < 99 ? n : 99), p);
		snprintf(rep->kind, sizeof(rep->kind), "handler-failed:%s", name);
	}
}

int tnorm__report_parse(const char *err, tnorm__report *rep)
{
	const char *line = err;
	char type[64] = "", access[16] = "", tool[16] = "";
	int stack = -1, leak_seen = 0, rc;
	memset(rep, 0, sizeof(*rep));
	while (line && *line) {
		const char *nl = strchr(line, '\n'), *p;
		char buf[512];
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
		if ((p = strstr(buf, "ERROR: AddressSanitizer: ")) && !tool[0]) {
			p += strlen("ERROR: AddressSanitizer: ");
			if (!strncmp(p, "attempting ", 11))
				p += 11;
			copy_word(type, sizeof(type), p);
			snprintf(tool, sizeof(tool), "asan");
			stack = -1;
		} else if ((p = strstr(buf, "ERROR: LeakSanitizer: ")) && !tool[0]) {
			snprintf(tool, sizeof(tool), "lsan");
			snprintf(type, sizeof(type), "leak");
		} else if ((p = strstr(buf, ": runtime error: ")) && !tool[0]) {
			snprintf(tool, sizeof(tool), "ubsan");
			tnorm__report_ubsan_kind(p + strlen(": runtime error: "), type, sizeof(type));
		} else if (!tool[0] && !strncmp(buf, "tnorm driver: ", 14) && !rep->kind[0]) {
			driver_kind(buf, rep);
		} else if (tool[0] && !access[0] && ((p = after(buf, "READ of size")) || after(buf, "WRITE of size"))) {
			snprintf(access, sizeof(access), "%s", p ? "READ" : "WRITE");
		} else if (tool[0] && !access[0] && (p = strstr(buf, "caused by a ")) &&
		           (!strncmp(p + 12, "READ", 4) || !strncmp(p + 12, "WRITE", 5))) {
			copy_word(access, sizeof(access), p + 12);
		} else if (tool[0] && strstr(buf, "freed by thread ") && strstr(buf, " here:")) {
			stack = rep->nstack[TNORM__REPORT_FREE] ? -1 : TNORM__REPORT_FREE;
		} else if (tool[0] && strstr(buf, "allocated by thread ") && strstr(buf, " here:")) {
			stack = rep->nstack[TNORM__REPORT_ALLOC] ? -1 : TNORM__REPORT_ALLOC;
		} else if (!strcmp(tool, "lsan") && after(buf, "Direct leak of ")) {
			/* The first direct leak; an indirect one only when there is no direct one. */
			stack = leak_seen ? -1 : TNORM__REPORT_LEAK;
			if (!leak_seen)
				clear_stack(rep, TNORM__REPORT_LEAK);
			leak_seen = 1;
		} else if (!strcmp(tool, "lsan") && after(buf, "Indirect leak of ")) {
			stack = leak_seen || rep->nstack[TNORM__REPORT_LEAK] ? -1 : TNORM__REPORT_LEAK;
		} else if (stack >= 0 && after(buf, "#")) {
			if ((rc = push_frame(rep, stack, buf)) < 0)
				return rc;
		} else if (stack >= 0 && !after(buf, "#")) {
			stack = -1;
		}
		line = nl ? nl + 1 : NULL;
	}
	if (tool[0] && type[0])
		tnorm__sanitizer_kind_buf(rep->kind, sizeof(rep->kind), tool, type, access);
	return 0;
}

/* tnorm/runner.h.  The driver runtime prints "STEP %zu: %s\n" (core/driver/driver.c). */
int tnorm_trace_last_step(const char *err, size_t len, uint64_t *step)
{
	const char *line = err, *end = err + len;
	int found = 0;
	if (!step || (!err && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_trace_last_step: NULL argument");
	while (line && line < end) {
		const char *nl = memchr(line, '\n', (size_t)(end - line)), *p = line + 5;
		uint64_t k = 0;
		int ok = end - line > 5 && !memcmp(line, "STEP ", 5) && isdigit((unsigned char)*p);
		for (; ok && p < end && isdigit((unsigned char)*p); p++) {
			if (k > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
				ok = 0;
			else
				k = k * 10 + (uint64_t)(*p - '0');
		}
		if (ok && end - p >= 2 && p[0] == ':' && p[1] == ' ') {
			*step = k;
			found = 1;
		}
		line = nl ? nl + 1 : NULL;
	}
	return found;
}

/* SPDX-License-Identifier: MIT */
/*
 * jsonish: a small JSON parser (objects, arrays, strings, numbers, true/false/null) that checks
 * its input file, then prints a summary and the label of each object found in an array ("key[]"),
 * built with AddressSanitizer.  Two planted bugs:
 *   A  heap-buffer-overflow WRITE in array_label, after the whole file parsed: an object inside an
 *      array under the EMPTY key (`{"":[{}]}`) gets a label buffer one byte short, so the file
 *      must be well-formed JSON for A to fire;
 *   B  stack-buffer-overflow WRITE in longest_number, also after the whole file parsed (and
 *      before the labels): the longest number is copied into a 24-byte buffer.
 * A syntax error prints a message and exits 1 (run it with --invalid-exit 1).  It reads the file
 * named by its argument, or standard input without one (tnorm's --stdin).  Built with
 * -DJSONISH_FUZZ -fsanitize=fuzzer,address it is a libFuzzer target instead (a syntax error
 * returns from it): the fuzzer workflow of docs/commands/triage.md.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	const char *s;
	size_t i, n;
	unsigned objects, arrays, strings, numbers, literals, labels;
	const char *longest;  /* the longest number, for the summary */
	size_t longest_len;
	const char *key[256]; /* the keys of the arrays that hold objects, for the labels */
	size_t klen[256];
} parser;

#ifdef JSONISH_FUZZ
static jmp_buf bad_input;
#endif

static void syntax(parser *p, const char *what)
{
#ifdef JSONISH_FUZZ
	(void)p;
	(void)what;
	longjmp(bad_input, 1);
#else
	fprintf(stderr, "jsonish: syntax error at byte %zu: %s\n", p->i, what);
	exit(1);
#endif
}

static void ws(parser *p)
{
	while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
	                       p->s[p->i] == '\r'))
		p->i++;
}

/* The label of the objects in an array under `key`: "key[]". */
static char *__attribute__((noinline)) array_label(const char *key, size_t klen)
{
	size_t n = klen ? klen + 3 : 2; /* BUG A: an empty key still needs "[]" and its NUL */
	char *l = malloc(n);
	memcpy(l, key, klen);
	memcpy(l + klen, "[]", 3); /* BUG_A_LINE */
	return l;
}

static void parse_value(parser *p, const char *key, size_t klen, int in_array);

/* A string; *start and *len receive its contents (escapes kept as they are). */
static void parse_string(parser *p, const char **start, size_t *len)
{
	size_t b;
	if (p->i >= p->n || p->s[p->i] != '"')
		syntax(p, "expected a string");
	b = ++p->i;
	while (p->i < p->n && p->s[p->i] != '"') {
		if (p->s[p->i] == '\\')
			p->i++;
		p->i++;
	}
	if (p->i >= p->n)
		syntax(p, "unterminated string");
	*start = p->s + b;
	*len = p->i - b;
	p->i++;
	p->strings++;
}

static void parse_number(parser *p)
{
	size_t b = p->i;
	if (p->s[p->i] != '-' && (p->s[p->i] < '0' || p->s[p->i] > '9'))
		syntax(p, "expected a value");
	while (p->i < p->n && p->s[p->i] && strchr("0123456789+-.eE", p->s[p->i]))
		p->i++;
	if (p->i - b > p->longest_len) {
		p->longest = p->s + b;
		p->longest_len = p->i - b;
	}
	p->numbers++;
}

/* The longest number, as text. */
static void __attribute__((noinline)) longest_number(const parser *p)
{
	char buf[24];
	memcpy(buf, p->longest, p->longest_len); /* BUG_B_LINE: no bound */
	buf[p->longest_len < sizeof(buf) ? p->longest_len : sizeof(buf) - 1] = '\0';
	printf("longest number: %s\n", buf);
}

static void parse_object(parser *p, const char *key, size_t klen, int in_array)
{
	if (in_array && key && p->labels < 256) {
		p->key[p->labels] = key;
		p->klen[p->labels++] = klen;
	}
	p->i++; /* '{' */
	ws(p);
	if (p->i < p->n && p->s[p->i] == '}') {
		p->i++;
		p->objects++;
		return;
	}
	for (;;) {
		const char *k;
		size_t kl;
		ws(p);
		parse_string(p, &k, &kl);
		ws(p);
		if (p->i >= p->n || p->s[p->i] != ':')
			syntax(p, "expected ':'");
		p->i++;
		parse_value(p, k, kl, 0);
		ws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == '}') {
			p->i++;
			break;
		}
		syntax(p, "expected ',' or '}'");
	}
	p->objects++;
}

static void parse_array(parser *p, const char *key, size_t klen)
{
	p->i++; /* '[' */
	ws(p);
	if (p->i < p->n && p->s[p->i] == ']') {
		p->i++;
		p->arrays++;
		return;
	}
	for (;;) {
		parse_value(p, key, klen, 1);
		ws(p);
		if (p->i < p->n && p->s[p->i] == ',') {
			p->i++;
			continue;
		}
		if (p->i < p->n && p->s[p->i] == ']') {
			p->i++;
			break;
		}
		syntax(p, "expected ',' or ']'");
	}
	p->arrays++;
}

static void parse_value(parser *p, const char *key, size_t klen, int in_array)
{
	const char *s;
	size_t l;
	ws(p);
	if (p->i >= p->n)
		syntax(p, "expected a value");
	switch (p->s[p->i]) {
	case '{':
		parse_object(p, key, klen, in_array);
		break;
	case '[':
		parse_array(p, key, klen);
		break;
	case '"':
		parse_string(p, &s, &l);
		break;
	case 't':
	case 'f':
	case 'n': {
		static const char *const lits[] = {"true", "false", "null"};
		size_t j;
		for (j = 0; j < 3; j++)
			if (!strncmp(p->s + p->i, lits[j], strlen(lits[j]))) {
				p->i += strlen(lits[j]);
				p->literals++;
				return;
			}
		syntax(p, "unknown literal");
		break;
	}
	default:
		parse_number(p);
	}
}

static void __attribute__((noinline)) print_labels(const parser *p)
{
	unsigned i;
	for (i = 0; i < p->labels; i++) {
		char *l = array_label(p->key[i], p->klen[i]);
		printf("object in %s\n", l);
		free(l);
	}
}

static void parse_file(const char *buf, size_t n)
{
	parser p;
	memset(&p, 0, sizeof(p));
	p.s = buf;
	p.n = n;
	parse_value(&p, NULL, 0, 0);
	ws(&p);
	if (p.i != p.n)
		syntax(&p, "trailing bytes");
	printf("%u objects, %u arrays, %u strings, %u numbers, %u literals\n", p.objects, p.arrays,
	       p.strings, p.numbers, p.literals);
	if (p.longest)
		longest_number(&p);
	print_labels(&p);
}

#ifdef JSONISH_FUZZ
int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static char buf[1 << 16];
	if (size >= sizeof(buf))
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	if (setjmp(bad_input) == 0)
		parse_file(buf, size);
	return 0;
}
#else
int main(int argc, char **argv)
{
	static char buf[1 << 16];
	size_t n;
	FILE *f;
	if (!(f = argc < 2 ? stdin : fopen(argv[1], "rb")))
		return 125;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	if (f != stdin)
		fclose(f);
	parse_file(buf, n);
	return 0;
}
#endif

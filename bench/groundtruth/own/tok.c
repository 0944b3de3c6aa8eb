/* tok.c: the inline tokenizer of a small markdown-like format: links
 * "[text](dest)" or "[text](<dest>)", code spans "`code`" (any run of
 * backticks, closed by a run of the same length), entities "&name;" and
 * "&#123;", backslash escapes; everything else is text.  It counts the tokens.
 *
 * Bugs, each removed by defining FIX_k (fixes are applied cumulatively); each
 * fails for many byte values at one place, values that form no interval:
 *  1. link: after "](" and a destination, the closing ')' is tested without
 *     checking for the end of the input: "[](" followed by any byte but ')'
 *     or '\n' (or nothing but blanks) reads one byte past the end.
 *  2. code span: the length of a closing backtick run is counted without
 *     checking for the end: "`", any byte but '`' or '\n', "`" reads past the end.
 *  3. entity: the name is copied into char name[8] up to 8 alphanumeric bytes,
 *     then NUL-terminated: "&" and 8 bytes of [0-9A-Za-z] write name[8]
 *     (ASan stack-buffer-overflow WRITE).
 *
 * Build: the plain runner (reads argv[1], calls the entry point once) by
 * default; -DFUZZER_BUILD leaves main out for -fsanitize=fuzzer.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const entities[] = { "amp", "lt", "gt", "quot", "nbsp", "copy", "hellip" };

static int is_blank(int c)
{
    return c == ' ' || c == '\t';
}

/* p at '[': the length of the link, 0 if it is none */
static size_t parse_link(const uint8_t *p, const uint8_t *end)
{
    const uint8_t *q = p + 1;
    int depth = 1;
    while (q < end && depth > 0) {
        if (*q == '[')
            depth++;
        else if (*q == ']')
            depth--;
        else if (*q == '\\' && q + 1 < end)
            q++;
        q++;
    }
    if (depth > 0 || q >= end || *q != '(')
        return 0;
    q++;
    if (q >= end)
        return 0; /* "[text](" at the end: no destination */
    while (q < end && is_blank(*q))
        q++;
    if (q < end && *q == '<') {
        q++;
        while (q < end && *q != '>' && *q != '\n')
            q++;
        if (q < end && *q == '>')
            q++;
    } else {
        while (q < end && *q != ')' && *q != '\n' && !is_blank(*q))
            q++;
    }
    while (q < end && is_blank(*q))
        q++;
#ifdef FIX_1
    if (q >= end || *q != ')')
#else
    if (*q != ')') /* BUG 1: q may be at the end */
#endif
        return 0;
    return (size_t)(q + 1 - p);
}

/* p at '`': the length of the code span, 0 if it is not closed */
static size_t parse_code(const uint8_t *p, const uint8_t *end)
{
    size_t n = 0;
    while (p + n < end && p[n] == '`')
        n++;
    const uint8_t *q = p + n;
    while (q < end && *q != '\n') {
        if (*q == '`') {
            size_t m = 0;
#ifdef FIX_2
            while (q + m < end && q[m] == '`')
#else
            while (q[m] == '`') /* BUG 2: the run may reach the end */
#endif
                m++;
            if (m == n)
                return (size_t)(q + m - p);
            q += m;
        } else {
            q++;
        }
    }
    return 0;
}

/* p at '&': the length of the entity, 0 if it is none */
static size_t parse_entity(const uint8_t *p, const uint8_t *end)
{
    char name[8];
    size_t n = 0;
    const uint8_t *q = p + 1;
    if (q < end && *q == '#') {
        q++;
        while (q < end && isdigit(*q) && n < 7)
            q++, n++;
        return n > 0 && q < end && *q == ';' ? (size_t)(q + 1 - p) : 0;
    }
#ifdef FIX_3
    while (q < end && isalnum(*q) && n + 1 < sizeof name)
#else
    while (q < end && isalnum(*q) && n < sizeof name) /* BUG 3: no room left for the NUL */
#endif
        name[n++] = (char)*q++;
    name[n] = 0;
    int known = 0;
    for (size_t i = 0; i < sizeof entities / sizeof entities[0]; i++)
        if (strcmp(name, entities[i]) == 0)
            known = 1;
    if (!known || q >= end || *q != ';')
        return 0;
    return (size_t)(q + 1 - p);
}

volatile size_t sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data, *end = data + size;
    size_t tokens[5] = { 0 };
    while (p < end) {
        size_t n = 0;
        int kind = 0;
        switch (*p) {
        case '[':
            n = parse_link(p, end), kind = 1;
            break;
        case '`':
            n = parse_code(p, end), kind = 2;
            break;
        case '&':
            n = parse_entity(p, end), kind = 3;
            break;
        case '\\':
            n = p + 1 < end && ispunct(p[1]) ? 2 : 0, kind = 4;
            break;
        }
        if (n == 0)
            n = 1, kind = 0;
        tokens[kind]++;
        p += n;
    }
    sink = tokens[0] + tokens[1] + tokens[2] + tokens[3] + tokens[4];
    return 0;
}

#ifndef FUZZER_BUILD
#include "standalone.h" /* main(): the file in argv[1], once */
#endif

/* SPDX-License-Identifier: MIT */
/*
 * why_output.c - what a front end shows of a why job (why.h): its result as the JSON object
 * that `tnorm why --json` prints and the Python binding's why() returns (json.loads of it), and
 * as the table of ranked lines that `tnorm why` prints and the plugins' `tnorm why` shows.
 *
 * Both were written twice until issue 42: the binding's dict had the lines' "on_stack" and the
 * CLI's JSON did not, and the plugins' table (tnorm_shared.py) said "runs of the test" where the
 * CLI said "runs of the normal form" and left out the reused neighbours that disagreed.  One
 * function each now, so the front ends show the same result the same way.  The JSON's keys and
 * their order are the CLI's (docs/commands/why.md), with "on_stack" added after "passing"; a
 * neighbour's test is readable text with "test_hex", its exact bytes, when it is not all text.
 */
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "tnorm/why.h"

static json_t *lines_json(const tnorm_why_result *w)
{
	json_t *a = json_array();
	size_t i;
	int bad = !a;
	for (i = 0; i < w->nlines && !bad; i++) {
		const tnorm_why_line *l = &w->lines[i];
		json_t *e = json_object();
		bad |= json_object_set_new(e, "file", tnorm__json_str(l->file));
		bad |= json_object_set_new(e, "line", json_integer(l->line));
		bad |= json_object_set_new(e, "function",
		                           l->function ? tnorm__json_str(l->function) : json_null());
		bad |= json_object_set_new(e, "score", tnorm__json_real(l->score, 4));
		bad |= json_object_set_new(e, "ochiai", tnorm__json_real(l->ochiai, 4));
		bad |= json_object_set_new(e, "failing", json_integer(l->failing));
		bad |= json_object_set_new(e, "passing", json_integer(l->passing));
		bad |= json_object_set_new(e, "on_stack", json_integer(l->on_stack));
		bad |= json_array_append_new(a, e);
	}
	return tnorm__json_done(a, bad);
}

static json_t *neighbours_json(const tnorm_why_result *w)
{
	json_t *a = json_array();
	size_t i;
	int bad = !a;
	for (i = 0; i < w->nneighbours && !bad; i++) {
		const tnorm_why_neighbour *n = &w->neighbours[i];
		json_t *e = json_object();
		bad |= tnorm__json_set_bytes(e, "test", "test_hex", n->test ? n->test : "",
		                             n->test ? n->len : 0);
		bad |= json_object_set_new(e, "outcome", json_string(tnorm_why_outcome(n)));
		bad |= json_object_set_new(e, "reused", json_boolean(n->reused));
		bad |= json_array_append_new(a, e);
	}
	return tnorm__json_done(a, bad);
}

int tnorm_why_result_json(char **out, const tnorm_why_result *w)
{
	json_t *o;
	int bad = 0;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_why_result_json: NULL argument");
	*out = NULL;
	if (!w)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_why_result_json: NULL argument");
	o = json_object();
	bad |= json_object_set_new(o, "signature", tnorm__json_str(w->signature));
	bad |= json_object_set_new(o, "lines", lines_json(w));
	bad |= json_object_set_new(o, "neighbours", neighbours_json(w));
	bad |= json_object_set_new(o, "failing", json_integer(w->failing));
	bad |= json_object_set_new(o, "passing", json_integer(w->passing));
	bad |= json_object_set_new(o, "runs", json_integer((json_int_t)w->runs));
	bad |= json_object_set_new(o, "reused", json_integer((json_int_t)w->reused));
	bad |= json_object_set_new(o, "seconds", tnorm__json_real(w->seconds, 3));
	return tnorm__json_dump(out, o, bad);
}

/* Line `line` of `file` without its newline and leading blanks, in buf ("" when the file cannot
 * be read).  (Read in pieces of `size` bytes, as the CLI read it before issue 42: a longer line
 * counts as more than one.) */
static const char *source_line(const char *file, unsigned line, char *buf, size_t size)
{
	FILE *f = fopen(file, "r");
	unsigned n = 0;
	buf[0] = '\0';
	if (!f)
		return buf;
	while (fgets(buf, (int)size, f))
		if (++n == line)
			break;
	fclose(f);
	if (n != line)
		buf[0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return buf + strspn(buf, " \t");
}

/* The table's rows: a line's rank, score, counts and place, then its source text. */
static int rows_text(tnorm__buf *b, const tnorm_why_result *w, size_t top)
{
	size_t i;
	int err = 0;
	for (i = 0; i < w->nlines && (!top || i < top) && err == 0; i++) {
		const tnorm_why_line *l = &w->lines[i];
		const char *base = strrchr(l->file, '/');
		char src[512];
		err = tnorm__buf_printf(b, "%4zu  %5.3f  %4u %4u  %s:%u %s%s\n", i + 1, l->score,
		                        l->failing, l->passing, base ? base + 1 : l->file, l->line,
		                        l->function ? l->function : "",
		                        l->on_stack == 2 ? " (where it failed)"
		                        : l->on_stack    ? " (on its stack)"
		                                         : "");
		if (err == 0)
			err = tnorm__buf_printf(b, "                        %s\n",
			                        source_line(l->file, l->line, src, sizeof(src)));
	}
	return err;
}

int tnorm_why_result_text(char **out, const tnorm_why_result *w, size_t top)
{
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_why_result_text: NULL argument");
	*out = NULL;
	if (!w || !w->signature)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_why_result_text: NULL argument");
	err = tnorm__buf_printf(&b, "signature: %s\n", w->signature);
	if (err == 0)
		err = tnorm__buf_printf(&b, "%u failing and %u passing runs of the normal form and %zu "
		                        "neighbours (%zu runs, %.1f s)\n", w->failing, w->passing,
		                        w->nneighbours, w->runs, w->seconds);
	if (err == 0 && w->reused)
		err = tnorm__buf_printf(&b, "%zu of the neighbours were run by the minimization too "
		                        "(%zu came to another outcome this time)\n", w->reused,
		                        w->disagreed);
	if (err == 0)
		err = tnorm__buf_puts(&b, "\nrank  score  fail pass  where\n");
	if (err == 0)
		err = rows_text(&b, w, top);
	if (err < 0) {
		tnorm__buf_dispose(&b);
		return err;
	}
	return (*out = tnorm__buf_detach(&b)) ? 0 : TNORM_ENOMEM;
}

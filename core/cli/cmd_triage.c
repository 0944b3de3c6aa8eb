/* SPDX-License-Identifier: MIT */
/*
 * cmd_triage.c - `tnorm triage DIR --harness H -- CMD ARGS {}`: one test per fault.
 *
 * Every test in DIR is confirmed, reduced and normalized (tnorm_pipeline_run, mode minimize) by
 * -j N worker processes that share the SQLite database (WAL; each worker opens its own handle
 * after the fork).  A worker claims a test by creating OUT/claims/NAME with O_EXCL, and writes
 * OUT/results/NAME.json atomically when the test is done, so a triage killed at any point
 * (kill -9 included) resumes where it stopped: tests whose result exists for the same content are
 * not redone.  Then the tests are put in buckets, (signature, normal form); each bucket's
 * representative is generalized, and the summary is printed and written to OUT/report.json and
 * OUT/report.html (self-contained: the bucket table, the annotated tests, a length chart).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

static volatile sig_atomic_t triage_cancel;
static volatile int triage_cancel_flag;

static void on_triage_signal(int sig)
{
	(void)sig;
	triage_cancel = 1;
	triage_cancel_flag = 1;
}

static void free_names(char **names, size_t n)
{
	size_t i;
	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

static void help(FILE *f)
{
	fprintf(f, "usage: tnorm triage DIR --harness H [-j N] [-o OUT] [--match P] [--db PATH |\n"
	           "                   --no-db] [--max-time-per-test T] [--no-generalize] [--timeout T]\n"
	           "                   [--mem SIZE] [--no-fork-server] [--env N=V]... [--invalid-exit N]...\n"
	           "                   [--fixed CMD] [--rules calls|paper] [--quiet] -- CMD ARGS...\n\n"
	           "Confirm, reduce and normalize every test (*.t) in DIR on N worker processes\n"
	           "(default: the number of cores) sharing one database (default DIR/.tnorm/cache.db),\n"
	           "then group them into buckets of (signature, normal form): one test per fault.\n"
	           "Prints the summary and writes OUT/report.json and OUT/report.html (OUT defaults\n"
	           "to DIR/triage).  Resumable: rerun after Ctrl-C or a crash and only the tests not\n"
	           "done yet are worked on.  --invalid-exit and --fixed as for tnorm reduce; --rules\n"
	           "as for tnorm minimize.\n\n"
	           "exit status: 0 done, 1 bad harness, 2 usage, 3 system error, 130 interrupted\n");
}

/* ---- small string helpers ---------------------------------------------------------------- */

typedef struct {
	char *p;
	size_t len, cap;
	int oom;
} sbuf;

static void sb_putn(sbuf *b, const char *s, size_t n)
{
	if (b->oom)
		return;
	if (b->len + n + 1 > b->cap) {
		size_t nc = b->cap ? b->cap : 256;
		char *np;
		while (nc < b->len + n + 1)
			nc *= 2;
		if (!(np = realloc(b->p, nc))) {
			b->oom = 1;
			return;
		}
		b->p = np;
		b->cap = nc;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void sb_puts(sbuf *b, const char *s)
{
	sb_putn(b, s, strlen(s));
}

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(sbuf *b, const char *fmt, ...)
{
	char tmp[1024];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n >= 0)
		sb_putn(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n : sizeof(tmp) - 1);
}

static void sb_html(sbuf *b, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<': sb_puts(b, "&lt;"); break;
		case '>': sb_puts(b, "&gt;"); break;
		case '&': sb_puts(b, "&amp;"); break;
		case '"': sb_puts(b, "&quot;"); break;
		default: sb_putn(b, s, 1);
		}
	}
}

/* A string member of a result file's object as a malloc'd copy; NULL when missing or not a
 * string (or out of memory). */
static char *json_get(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? strdup(v) : NULL;
}

/* An integer member, -1 when missing. */
static long json_num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/* ---- the corpus ---------------------------------------------------------------------------- */

typedef struct {
	char *name;    /* file name in DIR */
	char *status;  /* "ok", "notfail", "flaky", "error" */
	char *sig, *reduced, *normal, *message;
	char *key;     /* the signature as the match policy sees it: what buckets compare */
	long original, nreduced, nnormal, runs;
	int bucket;
} item;

/*
 * The part of a signature the match policy compares: `line` the kind and the throwing frame,
 * `stack:N` N frames, `kind` the kind, `any`/`output:` nothing.  Two tests whose failures the
 * policy calls the same belong to one fault even when their full stacks differ (a recursion one
 * level deeper, say).
 */
static char *sig_key(const char *sig, const char *match)
{
	long frames = 1;
	const char *p = sig;
	if (!strncmp(match, "stack:", 6))
		frames = strtol(match + 6, NULL, 10);
	else if (!strcmp(match, "kind"))
		return strndup(sig, strcspn(sig, " "));
	else if (strcmp(match, "line"))
		return strdup("");
	while (frames-- > 0 && p) {
		p = strstr(p, " <- ");
		if (p && frames > 0)
			p += 4;
	}
	return p ? strndup(sig, (size_t)(p - sig)) : strdup(sig);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int list_tests(const char *dir, char ***out, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t cnt = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name);
		char **nn;
		if (l < 3 || strcmp(e->d_name + l - 2, ".t") || e->d_name[0] == '.')
			continue;
		if (!(nn = realloc(names, (cnt + 1) * sizeof(*nn))))
			break;
		names = nn;
		if (!(names[cnt] = strdup(e->d_name)))
			break;
		cnt++;
	}
	closedir(d);
	if (cnt)
		qsort(names, cnt, sizeof(*names), cmp_str);
	*out = names;
	*n = cnt;
	return 0;
}

static unsigned long long content_hash(const char *s, size_t n)
{
	unsigned long long h = 1469598103934665603ULL;
	size_t i;
	for (i = 0; i < n; i++) {
		h ^= (unsigned char)s[i];
		h *= 1099511628211ULL;
	}
	return h;
}

typedef struct {
	const char *dir, *out, *harness, *match, *db;
	char **argv;
	const char *const *fixed; /* --fixed: the fixed program's command, or NULL */
	cli_run_args *ra;
	double max_time;
	int quiet;
	tnorm_rules rules;
} triage_opts;

static char *path2(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3;
	char *p = malloc(n);
	if (p)
		snprintf(p, n, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "");
	return p;
}

/* The result file of a test (its object), if it exists, parses, and was made from the same
 * content.  A file that does not parse (cut short, or written by hand) is as good as missing:
 * the test is minimized again. */
static json_t *load_result(const triage_opts *o, const char *name, unsigned long long hash)
{
	char *rp = NULL, hex[32];
	const char *h;
	json_t *j;
	sbuf n = {NULL, 0, 0, 0};
	sb_printf(&n, "%s/results/%s.json", o->out, name);
	rp = n.p;
	if (!rp || !(j = json_load_file(rp, 0, NULL))) {
		free(rp);
		return NULL;
	}
	free(rp);
	snprintf(hex, sizeof(hex), "%016llx", hash);
	h = json_string_value(json_object_get(j, "hash"));
	if (!json_is_object(j) || !h || strcmp(h, hex)) {
		json_decref(j);
		return NULL;
	}
	return j;
}

/* The number of steps of a test text (its lines that are not comments), -1 for NULL. */
static long count_steps(const char *t)
{
	long steps = 0;
	if (!t)
		return -1;
	while (*t) {
		const char *nl = strchr(t, '\n');
		if (*t != '#' && *t != '\n')
			steps++;
		if (!nl)
			break;
		t = nl + 1;
	}
	return steps;
}

/* One test, in a worker: minimize it and write its result file. */
static int work_one(const triage_opts *o, const char *name, const char *text, size_t tlen)
{
	tnorm_pipeline_options po = TNORM_PIPELINE_OPTIONS_INIT;
	tnorm_pipeline_result res;
	char *test = path2(o->dir, name, NULL), *normp = NULL, hex[32];
	const char *status = "ok";
	sbuf rp = {NULL, 0, 0, 0};
	json_t *r;
	char *line = NULL;
	int err, bad = 0;
	memset(&res, 0, sizeof(res));
	sb_printf(&rp, "%s/norm/%s.norm", o->out, name);
	normp = rp.p;
	if (!test || !normp) {
		free(test);
		free(normp);
		return TNORM_ENOMEM;
	}
	po.mode = TNORM_MODE_MINIMIZE;
	po.normalize.rules = o->rules;
	po.harness = o->harness;
	po.test = test;
	po.out = normp;
	po.db = o->db;
	po.argv = (const char *const *)o->argv;
	cli_run_args_apply(o->ra, &po.run);
	po.session.match = o->match;
	po.session.fixed = o->fixed;
	po.session.max_time = o->max_time;
	po.session.cancel = &triage_cancel_flag;
	err = tnorm_pipeline_run(&po, &res);
	if (err == TNORM_EINTERRUPTED) {
		tnorm_pipeline_result_dispose(&res);
		free(test);
		free(normp);
		return err; /* not done: a resumed triage does it again */
	}
	if (err == TNORM_ENOTFAIL)
		status = "notfail";
	else if (err == TNORM_EFLAKY)
		status = "flaky";
	else if (err < 0 && err != TNORM_ETIMEOUT)
		status = "error";
	snprintf(hex, sizeof(hex), "%016llx", content_hash(text, tlen));
	r = json_object();
	bad |= json_object_set_new(r, "test", cli_json_str(name));
	bad |= json_object_set_new(r, "hash", json_string(hex));
	bad |= json_object_set_new(r, "status", json_string(status));
	bad |= json_object_set_new(r, "complete", json_boolean(res.complete));
	bad |= json_object_set_new(r, "message", cli_json_str(err < 0 ? tnorm_error_last()->message : ""));
	bad |= json_object_set_new(r, "signature", cli_json_str(res.signature));
	bad |= json_object_set_new(r, "key", cli_json_str(res.match_key));
	bad |= json_object_set_new(r, "original_steps", json_integer((json_int_t)res.original));
	bad |= json_object_set_new(r, "reduced_steps", json_integer(count_steps(res.reduced)));
	bad |= json_object_set_new(r, "normal_steps", json_integer((json_int_t)res.final));
	bad |= json_object_set_new(r, "runs", json_integer((json_int_t)res.stats.runs));
	bad |= json_object_set_new(r, "seconds", cli_json_real(res.stats.elapsed, 3));
	bad |= json_object_set_new(r, "reduced", cli_json_str(res.reduced));
	bad |= json_object_set_new(r, "normal", cli_json_str(res.text && !strcmp(status, "ok") ? res.text : ""));
	err = 0;
	if (!(line = cli_json_dump(r, bad))) {
		err = TNORM_ENOMEM;
	} else {
		sbuf p = {NULL, 0, 0, 0};
		sb_printf(&p, "%s/results/%s.json", o->out, name);
		err = p.p ? tnorm_file_write_atomic(p.p, line, strlen(line)) : TNORM_ENOMEM;
		free(p.p);
	}
	if (err == 0 && !o->quiet) {
		if (!strcmp(status, "ok"))
			printf("%s: %zu -> %zu steps (%llu runs): %s\n", name, res.original, res.final,
			       (unsigned long long)res.stats.runs, res.signature);
		else
			printf("%s: %s: %s\n", name, status, tnorm_error_last()->message);
		fflush(stdout);
	}
	free(line);
	tnorm_pipeline_result_dispose(&res);
	free(test);
	free(normp);
	return err;
}

/* A worker process: claim tests one by one and do them. */
static int worker(const triage_opts *o, char **names, size_t n)
{
	size_t i;
	for (i = 0; i < n && !triage_cancel; i++) {
		char *text = NULL, *test, *claim;
		json_t *json;
		size_t len = 0;
		sbuf c = {NULL, 0, 0, 0};
		int fd, err;
		if (!(test = path2(o->dir, names[i], NULL)))
			return EXIT_SYSTEM;
		if (tnorm_file_read(test, &text, &len) < 0) {
			free(test);
			continue;
		}
		free(test);
		if ((json = load_result(o, names[i], content_hash(text, len)))) {
			json_decref(json);
			tnorm_free(text);
			continue;
		}
		sb_printf(&c, "%s/claims/%s", o->out, names[i]);
		claim = c.p;
		fd = claim ? open(claim, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644) : -1;
		free(claim);
		if (fd < 0) {
			tnorm_free(text);
			continue; /* another worker has it */
		}
		close(fd);
		err = work_one(o, names[i], text, len);
		tnorm_free(text);
		if (err == TNORM_EINTERRUPTED)
			return EXIT_INTERRUPTED;
		if (err < 0) {
			fprintf(stderr, "tnorm triage: %s: %s\n", names[i], tnorm_error_last()->message);
			return EXIT_SYSTEM;
		}
	}
	return triage_cancel ? EXIT_INTERRUPTED : EXIT_OK;
}

static int mkdirs(const char *out)
{
	static const char *const subs[] = {"", "/results", "/norm", "/claims"};
	size_t k;
	for (k = 0; k < 4; k++) {
		char p[4096];
		snprintf(p, sizeof(p), "%s%s", out, subs[k]);
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			fprintf(stderr, "tnorm triage: %s: cannot create: %s\n", p, strerror(errno));
			return -1;
		}
	}
	return 0;
}

static void clear_claims(const char *out)
{
	char p[4096];
	DIR *d;
	struct dirent *e;
	snprintf(p, sizeof(p), "%s/claims", out);
	if (!(d = opendir(p)))
		return;
	while ((e = readdir(d))) {
		char f[4600];
		if (e->d_name[0] == '.')
			continue;
		snprintf(f, sizeof(f), "%s/%s", p, e->d_name);
		unlink(f);
	}
	closedir(d);
}

/* ---- buckets and the report ------------------------------------------------------------------ */

typedef struct {
	const char *sig, *key, *normal;
	size_t count, rep; /* rep: index of the first test */
	char *annotated;
} bucket;

static size_t count_distinct(item *it, size_t n, int which)
{
	size_t i, j, d = 0;
	for (i = 0; i < n; i++) {
		const char *a = which ? it[i].normal : it[i].reduced;
		if (strcmp(it[i].status, "ok"))
			continue;
		for (j = 0; j < i; j++) {
			const char *b = which ? it[j].normal : it[j].reduced;
			if (!strcmp(it[j].status, "ok") && !strcmp(a, b))
				break;
		}
		if (j == i)
			d++;
	}
	return d;
}

static void svg_chart(sbuf *h, item *it, size_t n)
{
	size_t i, k = 0, m = 0;
	long maxlen = 1;
	const int W = 860, H = 260, L = 40, B = 30;
	for (i = 0; i < n; i++)
		if (!strcmp(it[i].status, "ok")) {
			m++;
			if (it[i].original > maxlen)
				maxlen = it[i].original;
		}
	sb_printf(h, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
	             "role=\"img\" aria-label=\"test length: original, reduced, normalized\">\n", W, H);
	sb_printf(h, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>\n", L, H - B, W,
	          H - B);
	sb_printf(h, "<text x=\"4\" y=\"14\" font-size=\"11\">%ld steps</text>\n", maxlen);
	sb_printf(h, "<text x=\"4\" y=\"%d\" font-size=\"11\">0</text>\n", H - B);
	for (i = 0; i < n && m; i++) {
		double slot = (double)(W - L) / (double)m, bw = slot / 3.5;
		double x = L + slot * (double)k;
		long v[3] = {it[i].original, it[i].nreduced, it[i].nnormal};
		static const char *const col[3] = {"#bbb", "#6a9fd4", "#d4662a"};
		int c;
		if (strcmp(it[i].status, "ok"))
			continue;
		for (c = 0; c < 3; c++) {
			double hh = (double)(H - B - 20) * (double)(v[c] < 0 ? 0 : v[c]) / (double)maxlen;
			sb_printf(h, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
			             "<title>", x + bw * c, (double)(H - B) - hh, bw, hh, col[c]);
			sb_html(h, it[i].name);
			sb_printf(h, ": %ld</title></rect>\n", v[c]);
		}
		k++;
	}
	sb_printf(h, "<text x=\"%d\" y=\"%d\" font-size=\"11\"><tspan fill=\"#888\">&#9632; original"
	             "</tspan>  <tspan fill=\"#6a9fd4\">&#9632; reduced</tspan>  <tspan fill=\"#d4662a\">"
	             "&#9632; normalized</tspan>  (one group per failing test)</text>\n</svg>\n",
	          L, H - 8);
}

/* A bucket of report.json. */
static json_t *bucket_json(const item *it, size_t n, const bucket *bk, size_t b)
{
	json_t *o = json_object(), *tests = json_array();
	size_t i;
	int bad = 0;
	for (i = 0; i < n && tests && !bad; i++)
		if (it[i].bucket == (int)b)
			bad |= json_array_append_new(tests, cli_json_str(it[i].name));
	bad |= json_object_set_new(o, "id", json_integer((json_int_t)b + 1));
	bad |= json_object_set_new(o, "count", json_integer((json_int_t)bk[b].count));
	bad |= json_object_set_new(o, "signature", cli_json_str(bk[b].sig));
	bad |= json_object_set_new(o, "representative", cli_json_str(it[bk[b].rep].name));
	bad |= json_object_set_new(o, "normal_form", cli_json_str(bk[b].normal));
	bad |= json_object_set_new(o, "annotated", cli_json_str(bk[b].annotated));
	bad |= json_object_set_new(o, "tests", tests);
	return cli_json_done(o, bad);
}

/* A test's line in report.json's "results". */
static json_t *result_json(const item *t)
{
	json_t *o = json_object();
	int bad = 0;
	bad |= json_object_set_new(o, "test", cli_json_str(t->name));
	bad |= json_object_set_new(o, "status", cli_json_str(t->status));
	bad |= json_object_set_new(o, "bucket", json_integer(t->bucket >= 0 ? t->bucket + 1 : 0));
	bad |= json_object_set_new(o, "signature", cli_json_str(t->sig));
	bad |= json_object_set_new(o, "original_steps", json_integer(t->original));
	bad |= json_object_set_new(o, "reduced_steps", json_integer(t->nreduced));
	bad |= json_object_set_new(o, "normal_steps", json_integer(t->nnormal));
	bad |= json_object_set_new(o, "runs", json_integer(t->runs));
	return cli_json_done(o, bad);
}

/* report.json's text (free with free()), NULL when out of memory. */
static char *report_json(const triage_opts *o, const item *it, size_t n, const bucket *bk,
                         size_t nb, size_t nfail, size_t nsigs, size_t nred, size_t nnorm)
{
	json_t *r = json_object(), *buckets = json_array(), *results = json_array();
	size_t i;
	int bad = 0;
	for (i = 0; i < nb && buckets && !bad; i++)
		bad |= json_array_append_new(buckets, bucket_json(it, n, bk, i));
	for (i = 0; i < n && results && !bad; i++)
		bad |= json_array_append_new(results, result_json(&it[i]));
	bad |= json_object_set_new(r, "corpus", cli_json_str(o->dir));
	bad |= json_object_set_new(r, "tests", json_integer((json_int_t)n));
	bad |= json_object_set_new(r, "failing", json_integer((json_int_t)nfail));
	bad |= json_object_set_new(r, "distinct_signatures", json_integer((json_int_t)nsigs));
	bad |= json_object_set_new(r, "distinct_reduced", json_integer((json_int_t)nred));
	bad |= json_object_set_new(r, "distinct_normalized", json_integer((json_int_t)nnorm));
	bad |= json_object_set_new(r, "buckets", buckets);
	bad |= json_object_set_new(r, "results", results);
	return cli_json_dump(r, bad);
}

static int write_reports(const triage_opts *o, item *it, size_t n, bucket *bk, size_t nb,
                         size_t nfail, size_t nsigs, size_t nred, size_t nnorm)
{
	sbuf h = {NULL, 0, 0, 0};
	size_t i, b;
	char *p, *j = report_json(o, it, n, bk, nb, nfail, nsigs, nred, nnorm);
	int err;

	/* report.html: self-contained, no scripts */
	sb_puts(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	            "<title>tnorm triage report</title>\n<style>\n"
	            "body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}\n"
	            "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
	            "padding:.3em .6em;text-align:left;vertical-align:top}th{background:#f3f3f3}\n"
	            "pre{background:#f8f8f8;padding:.8em;border:1px solid #ddd;overflow:auto}\n"
	            "code{font-size:90%}\n</style>\n</head>\n<body>\n<h1>tnorm triage</h1>\n<p>Corpus <code>");
	sb_html(&h, o->dir);
	sb_printf(&h, "</code>: %zu tests, %zu failing, %zu distinct signatures, %zu distinct reduced "
	              "tests, <strong>%zu distinct normalized tests</strong> in %zu buckets.</p>\n",
	          n, nfail, nsigs, nred, nnorm, nb);
	sb_puts(&h, "<h2>Buckets</h2>\n<table id=\"buckets\">\n<thead><tr><th>bucket</th><th>tests</th>"
	            "<th>signature</th><th>representative</th><th>steps</th></tr></thead>\n<tbody>\n");
	for (b = 0; b < nb; b++) {
		sb_printf(&h, "<tr><td><a href=\"#bucket-%zu\">%zu</a></td><td>%zu</td><td><code>", b + 1,
		          b + 1, bk[b].count);
		sb_html(&h, bk[b].sig);
		sb_puts(&h, "</code></td><td>");
		sb_html(&h, it[bk[b].rep].name);
		sb_printf(&h, "</td><td>%ld</td></tr>\n", it[bk[b].rep].nnormal);
	}
	sb_puts(&h, "</tbody>\n</table>\n<h2>Test length: original &rarr; reduced &rarr; normalized</h2>\n");
	svg_chart(&h, it, n);
	for (b = 0; b < nb; b++) {
		sb_printf(&h, "<h2 id=\"bucket-%zu\">Bucket %zu: %zu tests</h2>\n<p><code>", b + 1, b + 1,
		          bk[b].count);
		sb_html(&h, bk[b].sig);
		sb_puts(&h, "</code></p>\n<pre>");
		sb_html(&h, bk[b].annotated ? bk[b].annotated : bk[b].normal);
		sb_puts(&h, "</pre>\n<p>Tests: ");
		for (i = 0, p = NULL; i < n; i++)
			if (it[i].bucket == (int)b) {
				if (p)
					sb_puts(&h, ", ");
				sb_html(&h, it[i].name);
				p = it[i].name;
			}
		sb_puts(&h, "</p>\n");
	}
	for (i = 0, p = NULL; i < n; i++)
		if (strcmp(it[i].status, "ok")) {
			if (!p)
				sb_puts(&h, "<h2>Not triaged</h2>\n<ul>\n");
			sb_puts(&h, "<li>");
			sb_html(&h, it[i].name);
			sb_printf(&h, ": %s ", it[i].status);
			sb_html(&h, it[i].message ? it[i].message : "");
			sb_puts(&h, "</li>\n");
			p = it[i].name;
		}
	if (p)
		sb_puts(&h, "</ul>\n");
	sb_puts(&h, "</body>\n</html>\n");
	if (!j || h.oom) {
		free(j);
		free(h.p);
		return TNORM_ENOMEM;
	}
	p = path2(o->out, "report.json", NULL);
	err = p ? tnorm_file_write_atomic(p, j, strlen(j)) : TNORM_ENOMEM;
	free(p);
	if (err == 0) {
		p = path2(o->out, "report.html", NULL);
		err = p ? tnorm_file_write_atomic(p, h.p, h.len) : TNORM_ENOMEM;
		free(p);
	}
	free(j);
	free(h.p);
	return err;
}

/* 1 when the file at `path` holds `text` as JSON carries it (valid UTF-8).  The worker wrote
 * the normal form there with all its bytes; the result file's copy has U+FFFD for those that
 * are not UTF-8, which would not parse back as the same test. */
static int same_as_json(const char *path, const char *text)
{
	char *file = NULL, *clean = NULL;
	size_t len = 0;
	int same = 0;
	if (tnorm_file_read(path, &file, &len) == 0 && tnorm_text_utf8(&clean, NULL, file, len) == 0)
		same = !strcmp(clean, text);
	tnorm_error_clear();
	tnorm_free(file);
	tnorm_free(clean);
	return same;
}

/* Generalize a bucket's representative's normal form (OUT/norm/NAME.gen).  A resumed triage
 * does it again, from the database's outcomes: no runs. */
static char *generalize_rep(const triage_opts *o, const item *rep, unsigned jobs)
{
	tnorm_pipeline_options po = TNORM_PIPELINE_OPTIONS_INIT;
	tnorm_pipeline_result res;
	sbuf in = {NULL, 0, 0, 0}, out = {NULL, 0, 0, 0};
	char *text = NULL;
	memset(&res, 0, sizeof(res));
	sb_printf(&in, "%s/norm/%s.norm", o->out, rep->name);
	sb_printf(&out, "%s/norm/%s.gen", o->out, rep->name);
	if (!in.p || !out.p)
		goto done;
	tnorm_error_clear();
	if (!same_as_json(in.p, rep->normal) &&
	    tnorm_file_write_atomic(in.p, rep->normal, strlen(rep->normal)) < 0)
		goto done;
	po.mode = TNORM_MODE_GENERALIZE;
	po.harness = o->harness;
	po.test = in.p;
	po.out = out.p;
	po.db = o->db;
	po.jobs = jobs;
	po.argv = (const char *const *)o->argv;
	cli_run_args_apply(o->ra, &po.run);
	po.session.match = o->match;
	po.session.fixed = o->fixed;
	po.session.cancel = &triage_cancel_flag;
	if (tnorm_pipeline_run(&po, &res) == 0 && res.text)
		text = strdup(res.text);
	tnorm_pipeline_result_dispose(&res);
done:
	free(in.p);
	free(out.p);
	return text;
}

int cmd_triage(int argc, char **argv)
{
	triage_opts o;
	cli_run_args ra;
	char **rest = NULL, **names = NULL, *outbuf = NULL, *dbfile = NULL;
	const char *dbpath = NULL;
	unsigned long long v;
	unsigned jobs = cli_default_jobs(), w;
	int k, nrest = 0, no_db = 0, rc = EXIT_OK, err, no_gen = 0;
	size_t n = 0, i, b, nb = 0, nfail = 0, nsigs = 0, nred = 0, nnorm = 0;
	item *it = NULL;
	bucket *bk = NULL;
	pid_t *pids = NULL;
	struct sigaction sa, old_int, old_term;
	tnorm_harness *h = NULL;

	memset(&o, 0, sizeof(o));
	o.match = "line";
	if (cli_run_args_init(&ra) < 0)
		return EXIT_SYSTEM;
	ra.timeout = 0; /* derived from each test's confirm runs unless given */
	ra.fixed_ok = 1;
	o.ra = &ra;
	for (k = 1; k < argc; k++) {
		const char *a = argv[k];
		int used;
		if (!strcmp(a, "--")) {
			rest = argv + k + 1;
			nrest = argc - k - 1;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			help(stdout);
			goto done;
		}
		if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			o.quiet = 1;
		} else if (!strcmp(a, "--no-db")) {
			no_db = 1;
		} else if (!strcmp(a, "--no-generalize")) {
			no_gen = 1;
		} else if (!strcmp(a, "--rules")) {
			if (k + 1 >= argc || (strcmp(argv[k + 1], "calls") && strcmp(argv[k + 1], "paper"))) {
				rc = cli_usage_error("triage", "--rules takes calls or paper");
				goto done;
			}
			o.rules = strcmp(argv[++k], "paper") ? TNORM_RULES_CALLS : TNORM_RULES_PAPER;
		} else if (!strcmp(a, "--harness") || !strcmp(a, "-o") || !strcmp(a, "--match") ||
		           !strcmp(a, "--db") || !strcmp(a, "-j") || !strcmp(a, "--jobs") ||
		           !strcmp(a, "--max-time-per-test")) {
			const char *val;
			if (k + 1 >= argc) {
				rc = cli_usage_error("triage", "%s needs a value", a);
				goto done;
			}
			val = argv[++k];
			if (!strcmp(a, "--harness")) {
				o.harness = val;
			} else if (!strcmp(a, "-o")) {
				o.out = val;
			} else if (!strcmp(a, "--db")) {
				dbpath = val;
			} else if (!strcmp(a, "--max-time-per-test")) {
				if (cli_parse_seconds("triage", a, val, &o.max_time) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
			} else if (!strcmp(a, "--match")) {
				tnorm_match *m = NULL;
				if (tnorm_match_parse(&m, val) < 0) {
					rc = cli_usage_error("triage", "%s", tnorm_error_last()->message);
					goto done;
				}
				tnorm_match_free(m);
				o.match = val;
			} else {
				if (cli_parse_u64("triage", a, val, &v) < 0) {
					rc = EXIT_USAGE;
					goto done;
				}
				if (v < 1 || v > 256) {
					rc = cli_usage_error("triage", "%s takes 1 to 256 jobs", a);
					goto done;
				}
				jobs = (unsigned)v;
			}
		} else if ((used = cli_run_args_parse(&ra, "triage", argc, argv, k)) != 0) {
			if (used < 0) {
				rc = EXIT_USAGE;
				goto done;
			}
			k += used - 1;
		} else if (a[0] == '-' && a[1]) {
			rc = cli_usage_error("triage", "unknown option '%s'", a);
			goto done;
		} else if (o.dir) {
			rc = cli_usage_error("triage", "unexpected argument '%s' (put the command after --)", a);
			goto done;
		} else {
			o.dir = a;
		}
	}
	if (!o.dir) {
		rc = cli_usage_error("triage", "missing DIR (a folder of failing tests, e.g. from tnorm fuzz)");
		goto done;
	}
	if (!o.harness) {
		rc = cli_usage_error("triage", "triage needs --harness: normalization rewrites harness tests");
		goto done;
	}
	if (!rest || nrest == 0) {
		rc = cli_usage_error("triage", "missing the command: tnorm triage DIR -- CMD ARGS {}");
		goto done;
	}
	o.argv = rest;
	if (cli_run_args_fixed(&ra, "triage", rest, &o.fixed) < 0) {
		rc = EXIT_USAGE;
		goto done;
	}
	if (!o.out) {
		if (!(outbuf = path2(o.dir, "triage", NULL))) {
			rc = EXIT_SYSTEM;
			goto done;
		}
		o.out = outbuf;
	}
	if ((err = tnorm_harness_load(&h, o.harness)) < 0) {
		rc = cli_fail("triage", err);
		goto done;
	}
	if (list_tests(o.dir, &names, &n) < 0) {
		fprintf(stderr, "tnorm triage: %s: cannot read the folder: %s\n", o.dir, strerror(errno));
		rc = EXIT_SYSTEM; /* a file that cannot be read: 3, as docs/cli.md says */
		goto done;
	}
	if (n == 0) {
		fprintf(stderr, "tnorm triage: %s: no tests (*.t) to triage\n", o.dir);
		rc = EXIT_BADINPUT;
		goto done;
	}
	if (mkdirs(o.out) < 0) {
		rc = EXIT_SYSTEM;
		goto done;
	}
	if (!no_db) {
		char *probe = path2(o.dir, "x", NULL); /* the database goes beside the tests */
		err = probe ? tnorm_db_path(probe, dbpath, &dbfile) : TNORM_ENOMEM;
		free(probe);
		if (err < 0) {
			rc = cli_fail("triage", err);
			goto done;
		}
	}
	o.db = dbfile;
	/* Stale claims (a triage killed before) are void: this run redoes unfinished tests. */
	clear_claims(o.out);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_triage_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	if (!o.quiet)
		fprintf(stderr, "triage: %zu tests in %s, %u jobs, results in %s\n", n, o.dir, jobs, o.out);
	fflush(stdout);
	fflush(stderr);
	if (!(pids = calloc(jobs, sizeof(*pids)))) {
		rc = EXIT_SYSTEM;
		goto restore;
	}
	for (w = 0; w < jobs; w++) {
		pid_t parent = getpid();
		pids[w] = fork();
		if (pids[w] == 0) {
			/* A worker dies with triage, even with a kill -9 that triage cannot pass on (and
			 * its traced runs die with it: PTRACE_O_EXITKILL). */
			int wrc = EXIT_SYSTEM;
			if (prctl(PR_SET_PDEATHSIG, SIGKILL) == 0 && getppid() == parent)
				wrc = worker(&o, names, n);
			/* What the worker inherited and does not hand back (issue 14: 25 bytes a worker). */
			free_names(names, n);
			free(pids);
			_exit(wrc);
		}
		if (pids[w] < 0) {
			fprintf(stderr, "tnorm triage: fork failed: %s\n", strerror(errno));
			rc = EXIT_SYSTEM;
			break;
		}
	}
	for (w = 0; w < jobs; w++) {
		int st = 0;
		if (pids[w] <= 0)
			continue;
		while (waitpid(pids[w], &st, 0) < 0 && errno == EINTR)
			;
		if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_INTERRUPTED)
			triage_cancel = 1;
		else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = EXIT_SYSTEM;
	}
	clear_claims(o.out);

	/* Gather the results. */
	if (!(it = calloc(n, sizeof(*it)))) {
		rc = EXIT_SYSTEM;
		goto restore;
	}
	{
		size_t missing = 0;
		for (i = 0; i < n; i++) {
			char *text = NULL, *test = path2(o.dir, names[i], NULL);
			json_t *json = NULL;
			size_t len = 0;
			it[i].name = names[i];
			it[i].bucket = -1;
			if (test && tnorm_file_read(test, &text, &len) == 0)
				json = load_result(&o, names[i], content_hash(text, len));
			free(test);
			tnorm_free(text);
			if (!json) {
				it[i].status = strdup("pending");
				missing++;
				continue;
			}
			it[i].status = json_get(json, "status");
			it[i].sig = json_get(json, "signature");
			it[i].reduced = json_get(json, "reduced");
			it[i].normal = json_get(json, "normal");
			it[i].message = json_get(json, "message");
			it[i].original = json_num(json, "original_steps");
			it[i].nreduced = json_num(json, "reduced_steps");
			it[i].nnormal = json_num(json, "normal_steps");
			it[i].runs = json_num(json, "runs");
			/* The library's key for the policy; records from before it existed: from the text. */
			it[i].key = json_get(json, "key");
			json_decref(json);
			if (!it[i].key && it[i].sig)
				it[i].key = sig_key(it[i].sig, o.match);
			if (!it[i].status || !it[i].sig || !it[i].reduced || !it[i].normal || !it[i].key) {
				rc = EXIT_SYSTEM;
				goto restore;
			}
		}
		if (triage_cancel || missing) {
			fprintf(stderr, "tnorm triage: interrupted: %zu of %zu tests done; run the same "
			                "command again to resume\n", n - missing, n);
			rc = EXIT_INTERRUPTED;
			goto restore;
		}
	}
	/* Buckets: (signature, normal form), in order of first appearance. */
	if (!(bk = calloc(n, sizeof(*bk)))) {
		rc = EXIT_SYSTEM;
		goto restore;
	}
	for (i = 0; i < n; i++) {
		size_t j;
		if (strcmp(it[i].status, "ok"))
			continue;
		nfail++;
		for (j = 0; j < i; j++)
			if (!strcmp(it[j].status, "ok") && !strcmp(it[j].key, it[i].key))
				break;
		if (j == i)
			nsigs++;
		for (b = 0; b < nb; b++)
			if (!strcmp(bk[b].key, it[i].key) && !strcmp(bk[b].normal, it[i].normal))
				break;
		if (b == nb) {
			bk[nb].sig = it[i].sig;
			bk[nb].key = it[i].key;
			bk[nb].normal = it[i].normal;
			bk[nb].rep = i;
			nb++;
		}
		bk[b].count++;
		it[i].bucket = (int)b;
	}
	nred = count_distinct(it, n, 0);
	nnorm = count_distinct(it, n, 1);
	for (b = 0; b < nb && !triage_cancel && !no_gen; b++)
		bk[b].annotated = generalize_rep(&o, &it[bk[b].rep], jobs);
	if (triage_cancel) {
		fprintf(stderr, "tnorm triage: interrupted while generalizing; run again to finish\n");
		rc = EXIT_INTERRUPTED;
		goto restore;
	}
	if ((err = write_reports(&o, it, n, bk, nb, nfail, nsigs, nred, nnorm)) < 0) {
		rc = cli_fail("triage", err);
		goto restore;
	}
	printf("%s: %zu tests, %zu failing, %zu distinct signatures, %zu distinct reduced, %zu "
	       "distinct normalized: %zu bucket%s\n",
	       o.dir, n, nfail, nsigs, nred, nnorm, nb, nb == 1 ? "" : "s");
	for (b = 0; b < nb; b++) {
		printf("\n== bucket %zu: %zu tests; %s\n   representative %s:\n", b + 1, bk[b].count,
		       bk[b].sig, it[bk[b].rep].name);
		fputs(bk[b].annotated ? bk[b].annotated : bk[b].normal, stdout);
	}
	for (i = 0; i < n; i++)
		if (strcmp(it[i].status, "ok"))
			printf("not triaged: %s: %s: %s\n", it[i].name, it[i].status,
			       it[i].message ? it[i].message : "");
	printf("\nreport: %s/report.html, %s/report.json\n", o.out, o.out);
restore:
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
done:
	if (it)
		for (i = 0; i < n; i++) {
			free(it[i].status);
			free(it[i].sig);
			free(it[i].reduced);
			free(it[i].normal);
			free(it[i].message);
			free(it[i].key);
		}
	if (bk)
		for (b = 0; b < nb; b++)
			free(bk[b].annotated);
	free(bk);
	free(it);
	free_names(names, n);
	free(pids);
	free(outbuf);
	tnorm_free(dbfile);
	tnorm_harness_free(h);
	cli_run_args_dispose(&ra);
	return rc;
}

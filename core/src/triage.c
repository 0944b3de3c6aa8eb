/* SPDX-License-Identifier: MIT */
/*
 * triage.c - a folder of failing tests, one test per fault (triage.h).
 *
 * One call does the whole job, in this order.  The pass: worker threads take the tests in name
 * order; a test whose result file (OUT/results/NAME.json) parses and carries the hash of the
 * test's content is done already, and so is one the database holds a result for (written to its
 * result file then); any other is claimed (in the database, else OUT/claims/NAME with O_EXCL),
 * run or minimized, its result recorded in the database and its result file written
 * atomically.  A test another worker holds is put aside and looked at again every second until
 * it is finished (by that worker) or its lease runs out (the worker died: this one takes it
 * over).  The calling thread meanwhile waits for finished tests and hands each to the progress
 * callback, so callbacks never run on a worker.  By default (sampled, issue 38) the pass runs
 * each test once for its signature, and triage_sample.c then plans which tests to minimize,
 * round by round (a pass of the workers each); with `thorough` the one pass minimizes every
 * test with the pipeline.  Every result file is then read back (the files, not memory, are the
 * truth: they are what a resumed job sees), and the rest runs on the calling thread: the polish
 * (each distinct normal form normalized once more with every lower value of every byte, on a
 * budget), the buckets (one per signature key, its normal forms merged), their split by
 * coverage, the tests left unminimized assigned to the bucket of a minimized test of their key
 * and stack (triage_sample.c), and each representative generalized (the database makes a
 * resumed job's runs free), run once more for its own signature (sign_representatives: the
 * report shows what its file does), with `explain` ranked by tnorm_why, and written to
 * OUT/buckets.  The report is not written here: the
 * caller renders it from the result (triage_report.c, sarif.c), so those do not call back.
 *
 * Without a harness (generic mode) the tests are any files of the folder (fuzzers' crash files:
 * list_tests says which), minimized as bytes; their normal forms may hold any byte, so the result
 * files carry them exactly (hex beside the readable text), buckets compare lengths and bytes, and
 * each bucket's representative is written byte for byte to OUT/buckets/N-NAME.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tnorm/db.h"
#include "tnorm/generic.h"
#include "tnorm/harness.h"
#include "tnorm/triage.h"

#include "common.h"
#include "triage_sample.h"
#include "json.h"
#include "options.h"

const char *tnorm_triage_status_name(tnorm_triage_status s)
{
	switch (s) {
	case TNORM_TRIAGE_OK: return "ok";
	case TNORM_TRIAGE_NOTFAIL: return "notfail";
	case TNORM_TRIAGE_FLAKY: return "flaky";
	case TNORM_TRIAGE_ERROR: return "error";
	default: return "pending";
	}
}

static tnorm_triage_status status_from_name(const char *s)
{
	int k;
	for (k = TNORM_TRIAGE_OK; s && k <= TNORM_TRIAGE_ERROR; k++)
		if (!strcmp(s, tnorm_triage_status_name((tnorm_triage_status)k)))
			return (tnorm_triage_status)k;
	return TNORM_TRIAGE_PENDING;
}

static void test_dispose(tnorm_triage_test *t)
{
	tnorm_free(t->name);
	tnorm_free(t->message);
	tnorm_free(t->signature);
	tnorm_free(t->key);
	tnorm_free(t->reduced);
	tnorm_free(t->normal);
	tnorm_free(t->evidence);
	memset(t, 0, sizeof(*t));
}

void tnorm_triage_result_dispose(tnorm_triage_result *res)
{
	size_t i;
	if (!res)
		return;
	for (i = 0; res->tests && i < res->ntests; i++)
		test_dispose(&res->tests[i]);
	for (i = 0; res->buckets && i < res->nbuckets; i++) {
		tnorm_free(res->buckets[i].annotated);
		tnorm_free(res->buckets[i].file);
		tnorm_free(res->buckets[i].own_signature);
		tnorm_why_result_dispose(res->buckets[i].why);
		tnorm_free(res->buckets[i].why);
	}
	tnorm_free(res->tests);
	tnorm_free(res->buckets);
	tnorm_free(res->corpus);
	tnorm_free(res->out);
	tnorm_free(res->warning);
	tnorm_free(res->folder);
	memset(res, 0, sizeof(*res));
}

/* ---- shards -------------------------------------------------------------------------------- */

unsigned tnorm_triage_shard_of(const char *name, unsigned shards)
{
	if (!name || shards <= 1)
		return 0;
	return (unsigned)(tnorm__hash64(name, strlen(name), 0x5eed5eedULL) % shards);
}

/* A decimal number of up to 9 digits at *p (advanced past it); -1 when there is none. */
static long shard_number(const char **p)
{
	long v = 0;
	int digits = 0;
	while (**p >= '0' && **p <= '9' && digits < 10) {
		v = v * 10 + (**p - '0');
		(*p)++;
		digits++;
	}
	return digits == 0 || digits > 9 ? -1 : v;
}

int tnorm_triage_shard_parse(const char *text, unsigned *shard, unsigned *shards)
{
	const char *p = text;
	long k, n;
	if (!text || !shard || !shards)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_shard_parse: NULL argument");
	k = shard_number(&p);
	if (k < 0 || *p++ != '/' || (n = shard_number(&p)) < 0 || *p)
		return tnorm__error_set(TNORM_EINVALID, "shard '%s': expected K/N, two numbers such as 1/4",
		                        text);
	/* 1-based, as Jest, Playwright and Vitest write it (issue 32, item 9): 1/3 .. 3/3.  0/N,
	 * the old 0-based spelling's first shard, is refused rather than read another way. */
	if (n < 1 || k < 1 || k > n)
		return tnorm__error_set(TNORM_EINVALID, "shard '%s': K must be 1..N (shards count from "
		                        "1: 1/%ld .. %ld/%ld)", text, n < 1 ? 1 : n, n < 1 ? 1 : n,
		                        n < 1 ? 1 : n);
	*shard = (unsigned)(k - 1);
	*shards = (unsigned)n;
	return 0;
}

/* ---- the folders ----------------------------------------------------------------------------- */

/* "A/B" or "A/B/C" (c may be NULL), freed with tnorm_free; NULL when out of memory. */
static char *path_of(const char *a, const char *b, const char *c)
{
	tnorm__buf p = TNORM__BUF_INIT;
	if (tnorm__buf_printf(&p, "%s/%s%s%s", a, b, c ? "/" : "", c ? c : "") < 0) {
		tnorm__buf_dispose(&p);
		return NULL;
	}
	return tnorm__buf_detach(&p);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(((const tnorm_triage_test *)a)->name, ((const tnorm_triage_test *)b)->name);
}

/*
 * Whether a file of the folder is a test.  With a harness: *.t.  Without: any file a fuzzer
 * leaves in its crash folder, except what is not a crash: AFL++'s README.txt (and the files of
 * its output folder, should one be given with its crashes), and libFuzzer's timeout-* and
 * slow-unit-* artifacts (leak-* and oom-* are kept: they are reported with their status).
 * Hidden files never are (AFL++'s .cur_input, tnorm's .tnorm/).
 */
static int is_test_name(const char *name, int generic)
{
	static const char *const not_crashes[] = {"README.txt", "fuzzer_stats", "plot_data",
	                                          "fuzz_bitmap", "cmdline", "fuzzer_setup",
	                                          "target_hash"};
	size_t l = strlen(name), k;
	if (name[0] == '.')
		return 0;
	if (!generic)
		return l >= 3 && !strcmp(name + l - 2, ".t");
	for (k = 0; k < sizeof(not_crashes) / sizeof(*not_crashes); k++)
		if (!strcmp(name, not_crashes[k]))
			return 0;
	return strncmp(name, "timeout-", 8) && strncmp(name, "slow-unit-", 10);
}

/* 1 when NAME in the open folder `d` is a regular file, -1 when it is a symbolic link (never
 * followed: a link to /etc/passwd is no crash of the folder's, issue 39), else 0. */
static int is_regular(DIR *d, const char *name)
{
	struct stat st;
	if (fstatat(dirfd(d), name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	return S_ISLNK(st.st_mode) ? -1 : S_ISREG(st.st_mode);
}

/* Say which entries were symbolic links, not triaged (res->warning, joined to one there). */
static int warn_links(tnorm_triage_result *res, const tnorm__buf *links, size_t n)
{
	tnorm__buf w = TNORM__BUF_INIT;
	if (!n)
		return 0;
	if (tnorm__buf_printf(&w, "%s%snot triaged: %s%s: symbolic link%s, never followed (a link "
	                      "can lead out of the folder; copy the file in to triage it)",
	                      res->warning ? res->warning : "", res->warning ? "; " : "",
	                      links->ptr, n > 10 ? ", ..." : "", n > 1 ? "s" : "") < 0) {
		tnorm__buf_dispose(&w);
		return TNORM_ENOMEM;
	}
	tnorm_free(res->warning);
	res->warning = tnorm__buf_detach(&w);
	return 0;
}

static int add_test(tnorm_triage_result *res, size_t *cap, const char *name)
{
	if (res->ntests == *cap) {
		tnorm_triage_test *nt;
		size_t n = *cap ? 2 * *cap : 64;
		if (!(nt = tnorm__reallocarray(res->tests, n, sizeof(*nt))))
			return TNORM_ENOMEM;
		res->tests = nt;
		*cap = n;
	}
	memset(&res->tests[res->ntests], 0, sizeof(*res->tests));
	if (!(res->tests[res->ntests].name = tnorm__strdup(name)))
		return TNORM_ENOMEM;
	res->ntests++;
	return 0;
}

/* The tests of the folder (is_test_name, regular files only: never OUT, which is a folder),
 * sorted by name, into res->tests.  0 even when there are none. */
static int list_tests(const char *dir, int generic, tnorm_triage_result *res)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	tnorm__buf links = TNORM__BUF_INIT;
	size_t cap = 0, nlinks = 0;
	int err = 0, kind;
	if (!d)
		return tnorm__error_errno(TNORM_EIO, "%s: cannot read the folder", dir);
	while ((e = readdir(d)) && err == 0) {
		if (!is_test_name(e->d_name, generic) || !(kind = is_regular(d, e->d_name)))
			continue;
		if (kind > 0)
			err = add_test(res, &cap, e->d_name);
		else if (++nlinks <= 10)
			err = tnorm__buf_printf(&links, "%s%s", nlinks > 1 ? ", " : "", e->d_name);
	}
	closedir(d);
	if (err == 0 && res->ntests > 1)
		qsort(res->tests, res->ntests, sizeof(*res->tests), cmp_name);
	if (err == 0)
		err = warn_links(res, &links, nlinks);
	tnorm__buf_dispose(&links);
	return err;
}

/*
 * The folder the tests are read from, into res->folder.  Without a harness an AFL++ output folder
 * is read as it is: when DIR has crashes/ (AFL++ before 4, or one instance) or default/crashes/
 * (AFL++ 4), that is the folder.
 */
static int find_folder(const tnorm_triage_options *o, tnorm_triage_result *res)
{
	static const char *const afl[] = {"crashes", "default/crashes"};
	size_t k;
	for (k = 0; k < 2 && !o->harness; k++) {
		char *sub = path_of(o->dir, afl[k], NULL);
		struct stat st;
		if (!sub)
			return TNORM_ENOMEM;
		if (stat(sub, &st) == 0 && S_ISDIR(st.st_mode)) {
			res->folder = sub;
			return 0;
		}
		tnorm_free(sub);
	}
	return (res->folder = tnorm__strdup(o->dir)) ? 0 : TNORM_ENOMEM;
}

/* The folder and its tests; TNORM_ENOTFOUND when it has none. */
static int find_tests(const tnorm_triage_options *o, tnorm_triage_result *res)
{
	int err;
	if ((err = find_folder(o, res)) < 0 ||
	    (err = list_tests(res->folder, !o->harness, res)) < 0)
		return err;
	if (res->ntests == 0)
		return o->harness ? tnorm__error_set(TNORM_ENOTFOUND, "%s: no tests (*.t) to triage",
		                                     res->folder)
		                  : tnorm__error_set(TNORM_ENOTFOUND, "%s: no files to triage",
		                                     res->folder);
	return 0;
}

/*
 * OUT is tnorm's own (issue 28, items 2 and 3): tnorm deletes and rewrites files in its results/,
 * norm/, claims/ and buckets/, so it works only in a folder it made or was given empty, known
 * by the marker file it leaves there (or the output of a tnorm from before the marker: nothing
 * but tnorm's own names, results/ among them).  A folder that holds anything else is refused,
 * and so is the triaged folder itself (its report files would be triaged next time).
 */
#define OUT_MARKER ".tnorm-triage"

/* 1 when every entry of OUT is one tnorm triage writes there (or a triage output folder of its
 * own, with its marker: the shards' folders of examples/cluster) and its results/ is among them
 * or there are only such folders: taken as tnorm's (an empty folder is, too). */
static int folder_is_tnorms(const char *dir)
{
	static const char *const names[] = {"results", "norm", "claims", "buckets", "polish",
	                                    "report.json", "report.html"};
	DIR *d = opendir(dir);
	struct dirent *e;
	int ok = 1, entries = 0, results = 0, shards = 0;
	size_t k;
	while (d && ok && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		entries++;
		results |= !strcmp(e->d_name, "results");
		for (k = 0; k < sizeof(names) / sizeof(*names); k++)
			if (!strcmp(e->d_name, names[k]))
				break;
		/* (an atomic write's temporary file, left by a kill; a shard's own output folder) */
		if (k == sizeof(names) / sizeof(*names) && !strstr(e->d_name, ".tmp.")) {
			char *marker = path_of(dir, e->d_name, OUT_MARKER);
			ok = marker && access(marker, F_OK) == 0;
			shards |= ok;
			tnorm_free(marker);
		}
	}
	if (d)
		closedir(d);
	return d && ok && (entries == 0 || results || shards);
}

/* OUT's absolute, resolved path, whether it exists yet or not (NULL: its parent cannot be
 * resolved, or out of memory). */
static char *resolve_out(const char *out)
{
	char *full = realpath(out, NULL), *parent = NULL, *res = NULL;
	const char *slash = strrchr(out, '/'), *base;
	tnorm__buf b = TNORM__BUF_INIT;
	if (full) {
		res = tnorm__strdup(full);
		free(full);
		return res;
	}
	base = slash ? slash + 1 : out;
	if (slash) {
		tnorm__buf pb = TNORM__BUF_INIT;
		if (tnorm__buf_printf(&pb, "%.*s", slash == out ? 1 : (int)(slash - out), out) == 0)
			parent = realpath(pb.ptr, NULL);
		tnorm__buf_dispose(&pb);
	} else {
		parent = realpath(".", NULL);
	}
	if (parent && tnorm__buf_printf(&b, "%s/%s", strcmp(parent, "/") ? parent : "", base) == 0)
		res = tnorm__buf_detach(&b);
	tnorm__buf_dispose(&b);
	free(parent);
	return res;
}

/* OUT must not be the folder of tests itself: report.json and report.html would be triaged as
 * tests next time.  A folder inside it is harmless (tests are the folder's regular files only,
 * never its subfolders' files), the default FOLDER/triage among them. */
static int check_out_place(const char *folder, const char *out)
{
	char *f = realpath(folder, NULL), *o = resolve_out(out);
	int err = 0;
	if (f && o && !strcmp(f, o))
		err = tnorm__error_set(TNORM_EINVALID, "the output folder %s is the folder of tests %s: "
		                       "its report files would be taken for tests; name another (or "
		                       "leave -o out: %s/triage)", out, folder, folder);
	free(f);
	tnorm_free(o);
	return err;
}

static const char out_marker_text[] =
	"This folder is tnorm triage's output: tnorm deletes and rewrites the files in results/, "
	"norm/, claims/ and buckets/ and report.json and report.html here.  Keep nothing of your own "
	"in it.\n";

/* Make OUT with its marker in one step: a folder made beside it, the marker written in it, then
 * renamed to OUT (over an empty OUT too), so that no other process (a shard of the same job)
 * ever sees OUT without its marker.  0 when OUT is there now (made by us or another process);
 * another error when it cannot be made. */
static int make_out(const char *out)
{
	tnorm__buf tmp = TNORM__BUF_INIT, m = TNORM__BUF_INIT;
	int err;
	if ((err = tnorm__buf_printf(&tmp, "%s.tmp.%ld.XXXXXX", out, (long)getpid())) < 0)
		return err;
	if (!mkdtemp(tmp.ptr) || chmod(tmp.ptr, 0755) < 0) {
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot create", out);
		rmdir(tmp.ptr);
		goto done;
	}
	if ((err = tnorm__buf_printf(&m, "%s/" OUT_MARKER, tmp.ptr)) < 0 ||
	    (err = tnorm__write_file_atomic(m.ptr, out_marker_text, sizeof(out_marker_text) - 1)) < 0) {
		unlink(m.ptr);
		rmdir(tmp.ptr);
		goto done;
	}
	if (rename(tmp.ptr, out) < 0) {
		int e = errno;
		unlink(m.ptr);
		rmdir(tmp.ptr);
		if (e != ENOTEMPTY && e != EEXIST)
			err = tnorm__error_set(TNORM_EIO, "%s: cannot create: %s", out, strerror(e));
	}
done:
	tnorm__buf_dispose(&tmp);
	tnorm__buf_dispose(&m);
	return err;
}

static int make_dirs(const char *folder, const char *out)
{
	static const char *const subs[] = {"/results", "/norm", "/claims", "/buckets", "/polish"};
	tnorm__buf p = TNORM__BUF_INIT;
	struct stat st;
	size_t k;
	int err;
	if ((err = check_out_place(folder, out)) < 0)
		return err;
	if (lstat(out, &st) == 0 && !S_ISDIR(st.st_mode))
		return tnorm__error_set(TNORM_EINVALID, "the output %s is not a folder", out);
	if ((err = make_out(out)) < 0)
		return err;
	if ((err = tnorm__buf_printf(&p, "%s/" OUT_MARKER, out)) < 0)
		return err;
	if (access(p.ptr, F_OK) < 0) {
		if (!folder_is_tnorms(out)) {
			err = tnorm__error_set(TNORM_EINVALID, "the output folder %s is not empty and is not "
			                       "one that tnorm triage made (it has no %s): tnorm deletes "
			                       "files in its output folder, so it takes only a new or an "
			                       "empty one; name another", out, OUT_MARKER);
			tnorm__buf_dispose(&p);
			return err;
		}
		if ((err = tnorm__write_file_atomic(p.ptr, out_marker_text,
		                                    sizeof(out_marker_text) - 1)) < 0) {
			tnorm__buf_dispose(&p);
			return err;
		}
	}
	tnorm__buf_dispose(&p);
	for (k = 0; k < sizeof(subs) / sizeof(*subs); k++) {
		err = tnorm__buf_printf(&p, "%s%s", out, subs[k]);
		if (err == 0 && mkdir(p.ptr, 0755) < 0 && errno != EEXIST)
			err = tnorm__error_errno(TNORM_EIO, "%s: cannot create", p.ptr);
		/* Never followed (issue 39, item 1): tnorm deletes and writes files in these folders,
		 * and a link would take that outside OUT. */
		if (err == 0 && lstat(p.ptr, &st) < 0)
			err = tnorm__error_errno(TNORM_EIO, "%s: cannot read", p.ptr);
		else if (err == 0 && !S_ISDIR(st.st_mode))
			err = tnorm__error_set(TNORM_EINVALID, "%s is %s: tnorm writes and deletes files "
			                       "in it and never follows a link out of its output folder; "
			                       "remove it (or name another output folder)", p.ptr,
			                       S_ISLNK(st.st_mode) ? "a symbolic link" : "not a folder");
		tnorm__buf_dispose(&p);
		if (err < 0)
			return err;
	}
	return 0;
}

/*
 * The name of a test's own files in OUT (claims/NAME, results/NAME.json, norm/NAME.norm and
 * their temporary files): the test's name while every name made from it stays valid (at most
 * 200 bytes: NAME.json.tmp.XXXXXX, .NAME.tmp.PID.XXXXXX), else its first 100 bytes, '~' and a hash of
 * the whole name (issue 39, item 9: a 236-255-byte name aborted the triage).  Result files keep
 * the test's name inside ("test"), checked when read back.  `buf` holds a made name.
 */
#define FILE_KEY_MAX 128

static const char *file_key(const char *name, char buf[FILE_KEY_MAX])
{
	size_t l = strlen(name);
	if (l <= 200)
		return name;
	snprintf(buf, FILE_KEY_MAX, "%.100s~%016llx", name,
	         (unsigned long long)tnorm__hash64(name, l, 0x6b6579ULL));
	return buf;
}

/* The process that holds a claim file, whose content is "PID\n" (written before the claim
 * appears, see claim()); 0 for an empty file (a tnorm from before the pid: void), -1 for a file
 * that is not a claim of tnorm's (never deleted). */
static long claim_owner(const char *file)
{
	char buf[32] = "";
	int fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	ssize_t n;
	char *end;
	long pid;
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return n == 0 ? 0 : -1;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	return pid > 0 && end != buf && !strcmp(end, "\n") ? pid : -1;
}

/* 1 when `pid` (a claim's owner, claim_owner) is another process that is alive: its claim is
 * held elsewhere (a second triage of the same folder). */
static int held_by(long pid)
{
	return pid > 0 && pid != (long)getpid() && (kill((pid_t)pid, 0) == 0 || errno != ESRCH);
}

/* 1 when a claim with owner `pid` may be deleted: tnorm's, and its owner is gone or is this
 * process. */
static int void_claim(long pid)
{
	return pid == 0 || (pid > 0 && !held_by(pid));
}

/* Claim OUT/claims/NAME (`file`) for this process: its pid is written to a file beside it that is then
 * linked to the claim's name, so that a claim is never seen without its owner.  1 when claimed,
 * 0 when the name exists already, or an error.  The file is not synced: a claim only has to
 * outlive its process, not the machine (after a reboot its owner is gone and the claim void),
 * and a sync per file was a third of triage's bookkeeping on a folder of duplicates (issue 38,
 * item 3).  Its temporary name has the PID where tnorm__sweep_dead_tmp looks for it. */
static int take_claim(const char *claims, const char *name, const char *file)
{
	tnorm__buf tmp = TNORM__BUF_INIT;
	char pid[24];
	int n = snprintf(pid, sizeof(pid), "%ld\n", (long)getpid()), err, got = 0, fd;
	if ((err = tnorm__buf_printf(&tmp, "%s/.%s.tmp.%ld.XXXXXX", claims, name, (long)getpid())) < 0)
		return err;
	if ((fd = mkstemp(tmp.ptr)) < 0) {
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot create a claim", tmp.ptr);
		tnorm__buf_dispose(&tmp);
		return err;
	}
	if (write(fd, pid, (size_t)n) != (ssize_t)n || fchmod(fd, 0644) < 0)
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot write a claim", tmp.ptr);
	if (close(fd) < 0 && err == 0)
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot write a claim", tmp.ptr);
	if (err == 0 && link(tmp.ptr, file) == 0)
		got = 1;
	else if (err == 0 && errno != EEXIST)
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot claim", file);
	unlink(tmp.ptr);
	tnorm__buf_dispose(&tmp);
	return err < 0 ? err : got;
}

/* What a job killed while it wrote left (issue 39, item 10): NAME.tmp.PID.XXXXXX files in OUT
 * and its folders, and OUT.tmp.PID.XXXXXX beside OUT (make_out), whose PID is gone. */
static void clear_dead_tmp(const char *out)
{
	static const char *const subs[] = {"results", "norm", "buckets", "polish", "claims"};
	const char *slash = strrchr(out, '/');
	tnorm__buf parent = TNORM__BUF_INIT;
	size_t k;
	tnorm__sweep_dead_tmp(out);
	for (k = 0; k < sizeof(subs) / sizeof(*subs); k++) {
		char *sub = path_of(out, subs[k], NULL);
		if (sub)
			tnorm__sweep_dead_tmp(sub);
		tnorm_free(sub);
	}
	if (tnorm__buf_printf(&parent, "%.*s", slash ? (int)(slash - out) + 1 : 1,
	                      slash ? out : ".") == 0)
		tnorm__sweep_dead_tmp(parent.ptr);
	tnorm__buf_dispose(&parent);
}

/* Claims left by a job that died are void: this job redoes unfinished tests.  Claims of another
 * live process (two triages of one folder, issue 28 item 8) are left alone; at the end of the
 * job its own go.  So do the temporary files of dead jobs (clear_dead_tmp). */
static void clear_claims(const char *out)
{
	char *dir = path_of(out, "claims", NULL);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *f;
		if (e->d_name[0] == '.')
			continue;
		if ((f = path_of(dir, e->d_name, NULL)) && void_claim(claim_owner(f)))
			unlink(f);
		tnorm_free(f);
	}
	if (d)
		closedir(d);
	tnorm_free(dir);
	clear_dead_tmp(out);
	tnorm_error_clear();
}

/* ---- result files -------------------------------------------------------------------------- */

static void hash_hex(const char *text, size_t len, char hex[17])
{
	snprintf(hex, 17, "%016llx", (unsigned long long)tnorm__hash64(text, len, 0));
}

/* A string member as a tnorm_free'd copy; NULL when missing (or out of memory). */
static char *member_str(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? tnorm__strdup(v) : NULL;
}

/* The bytes tnorm__json_set_bytes() wrote in hex, as a tnorm_free'd copy (NUL-terminated, *len
 * its length); NULL when missing, not hex, or out of memory. */
static char *hex_bytes(const char *hex, size_t *len)
{
	size_t n = strlen(hex), i;
	char *b;
	if (n % 2 || !(b = tnorm__malloc(n / 2 + 1)))
		return NULL;
	for (i = 0; i < n / 2; i++) {
		unsigned v = 0;
		int k;
		for (k = 0; k < 2; k++) {
			char c = hex[2 * i + (size_t)k];
			v = v * 16 + (unsigned)(c >= '0' && c <= '9'   ? c - '0'
			                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
			                                               : 16 * 16);
		}
		if (v > 255) {
			tnorm_free(b);
			return NULL;
		}
		b[i] = (char)v;
	}
	b[n / 2] = '\0';
	*len = n / 2;
	return b;
}

/* Any bytes, as tnorm__json_set_bytes() wrote them: `hexkey` when there, else the string `key`. */
static char *member_bytes(json_t *o, const char *key, const char *hexkey, size_t *len)
{
	json_t *v = json_object_get(o, key);
	const char *hex = json_string_value(json_object_get(o, hexkey));
	char *b;
	if (hex)
		return hex_bytes(hex, len);
	if (!json_is_string(v))
		return NULL;
	*len = json_string_length(v);
	if (!(b = tnorm__malloc(*len + 1)))
		return NULL;
	memcpy(b, json_string_value(v), *len);
	b[*len] = '\0';
	return b;
}

static long member_long(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);
	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

/*
 * The result file of a test into *t (its name kept), if the file exists, parses, and was made
 * from the test's current content (`hex`) by this job (`jobkey`): 1 when loaded, else 0 (a file
 * that does not parse is as good as missing: the test is done again; so is one that cannot be
 * read for lack of memory).
 */
static int result_from_json(json_t *j, tnorm_triage_test *t, const char *hex, const char *jobkey);

static int load_result(const char *out, tnorm_triage_test *t, const char *hex, const char *jobkey)
{
	tnorm__buf p = TNORM__BUF_INIT;
	const char *file = NULL;
	json_t *j = NULL;
	char key[FILE_KEY_MAX];
	const char *test;
	int loaded = 0;
	if (tnorm__buf_printf(&p, "%s/results/%s.json", out, file_key(t->name, key)) == 0)
		file = p.ptr;
	/* (a made name is another test's too, however unlikely: the record names its test, as
	 * JSON holds it: a name that is not UTF-8 with U+FFFD for its other bytes) */
	if (file && (j = json_load_file(file, JSON_ALLOW_NUL, NULL))) {
		json_t *mine = tnorm__json_str(t->name);
		test = json_string_value(json_object_get(j, "test"));
		if (!test || (mine && !strcmp(test, json_string_value(mine))))
			loaded = result_from_json(j, t, hex, jobkey);
		json_decref(mine);
	}
	json_decref(j);
	tnorm__buf_dispose(&p);
	tnorm_error_clear();
	return loaded;
}

/* The same from a result's text (as the database holds it). */
static int parse_result(const char *text, tnorm_triage_test *t, const char *hex,
                        const char *jobkey)
{
	json_t *j = json_loads(text, JSON_ALLOW_NUL, NULL);
	int loaded = j ? result_from_json(j, t, hex, jobkey) : 0;
	json_decref(j);
	tnorm_error_clear();
	return loaded;
}

/* A result record into *t: 1 when it is one, made from content `hex` by the job `jobkey`.  A
 * result of another job (other --rules, harness, command or policy: job_key) is no result of
 * this one, so that a job run again with other options counts what a fresh job would (issue 32,
 * item 5); a record that names no job (an older tnorm's, or one written by hand) is taken. */
static int result_from_json(json_t *j, tnorm_triage_test *t, const char *hex, const char *jobkey)
{
	const char *h, *job, *stage;
	int loaded = 0;
	if (!json_is_object(j))
		goto done;
	h = json_string_value(json_object_get(j, "hash"));
	job = json_string_value(json_object_get(j, "job"));
	if (!h || strcmp(h, hex) || (job && strcmp(job, jobkey)))
		goto done;
	t->status = status_from_name(json_string_value(json_object_get(j, "status")));
	t->message = member_str(j, "message");
	t->signature = member_str(j, "signature");
	t->key = member_str(j, "key");
	t->reduced = member_bytes(j, "reduced", "reduced_hex", &t->reduced_len);
	t->normal = member_bytes(j, "normal", "normal_hex", &t->normal_len);
	t->original_steps = member_long(j, "original_steps");
	t->reduced_steps = member_long(j, "reduced_steps");
	t->normal_steps = member_long(j, "normal_steps");
	t->runs = (uint64_t)(member_long(j, "runs") < 0 ? 0 : member_long(j, "runs"));
	t->seconds = json_number_value(json_object_get(j, "seconds"));
	t->complete = json_is_true(json_object_get(j, "complete"));
	/* A result without a stage is a minimized test's (tnorm before issue 38). */
	stage = json_string_value(json_object_get(j, "stage"));
	t->minimized = !stage || strcmp(stage, "check") != 0;
	if (!t->message || !t->signature || !t->key || !t->reduced || !t->normal ||
	    t->status == TNORM_TRIAGE_PENDING) {
		/* Written by hand, or by another version: done again. */
		tnorm_triage_test keep = {0};
		keep.name = t->name;
		t->name = NULL;
		test_dispose(t);
		*t = keep;
		goto done;
	}
	loaded = 1;
done:
	return loaded;
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

/* A real rounded to milliseconds, as every "seconds" of tnorm's JSON. */
static json_t *json_seconds(double v)
{
	return json_real((double)(long long)(v * 1000 + (v < 0 ? -0.5 : 0.5)) / 1000);
}

/* The result record of t (just done, from `hex` content) as one line of JSON, in *text. */
static int result_text(const tnorm_triage_test *t, const char *hex, const char *jobkey,
                       char **text)
{
	json_t *r = json_object();
	int bad = 0;
	bad |= json_object_set_new(r, "test", tnorm__json_str(t->name));
	bad |= json_object_set_new(r, "hash", json_string(hex));
	bad |= json_object_set_new(r, "job", json_string(jobkey));
	bad |= json_object_set_new(r, "status", json_string(tnorm_triage_status_name(t->status)));
	bad |= json_object_set_new(r, "complete", json_boolean(t->complete));
	bad |= json_object_set_new(r, "stage", json_string(t->minimized ? "minimized" : "check"));
	bad |= json_object_set_new(r, "message", tnorm__json_str(t->message));
	bad |= json_object_set_new(r, "signature", tnorm__json_str(t->signature));
	bad |= json_object_set_new(r, "key", tnorm__json_str(t->key));
	bad |= json_object_set_new(r, "original_steps", json_integer(t->original_steps));
	bad |= json_object_set_new(r, "reduced_steps", json_integer(t->reduced_steps));
	bad |= json_object_set_new(r, "normal_steps", json_integer(t->normal_steps));
	bad |= json_object_set_new(r, "runs", json_integer((json_int_t)t->runs));
	bad |= json_object_set_new(r, "seconds", json_seconds(t->seconds));
	bad |= tnorm__json_set_bytes(r, "reduced", "reduced_hex", t->reduced, t->reduced_len);
	bad |= tnorm__json_set_bytes(r, "normal", "normal_hex", t->normal, t->normal_len);
	return tnorm__json_dump(text, r, bad);
}

/* Write a result record to OUT/results/NAME.json, atomically. */
static int write_result_text(const char *out, const char *name, const char *text)
{
	tnorm__buf p = TNORM__BUF_INIT, line = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int err;
	if ((err = tnorm__buf_printf(&p, "%s/results/%s.json", out, file_key(name, key))) == 0 &&
	    (err = tnorm__buf_puts(&line, text)) == 0 && (err = tnorm__buf_putc(&line, '\n')) == 0)
		err = tnorm_file_write_atomic(p.ptr, line.ptr, line.len);
	tnorm__buf_dispose(&line);
	tnorm__buf_dispose(&p);
	return err;
}

/* ---- the work ------------------------------------------------------------------------------ */

/* A finished test on its way from a worker to the calling thread. */
typedef struct done_item {
	tnorm_triage_test test;
	struct done_item *next;
} done_item;

/* What a worker thread owns: its name in the database's claims, its connection, and the item it
 * holds now (read by the calling thread, which renews the lease, under the job's lock). */
typedef struct worker_state {
	struct job *j;
	char name[96];  /* "HOST:PID:tK" */
	tnorm_db *db;   /* NULL without a database: claims are files */
	char *held;     /* the item this worker works on, NULL when none */
	pthread_t tid;
	tnorm_runner *runner; /* its checks' runner: one fork server for all its files */
	tnorm_match *match;   /* the job's policy, parsed */
} worker_state;

typedef struct job {
	const tnorm_triage_options *o;
	tnorm_triage_result *res;
	pthread_mutex_t lock;
	pthread_cond_t cv;
	size_t next;          /* the next test to look at */
	size_t *aside;        /* tests another live worker holds, to look at again */
	size_t naside;
	unsigned running;     /* workers not finished */
	size_t earlier;       /* tests found done by an earlier job (or another worker) */
	done_item *head, *tail; /* finished tests not yet reported */
	volatile int stop;    /* the workers' pipelines' cancel flag */
	int err;              /* the first worker error (not a test's) */
	char *errmsg;         /* its message */
	const char *dbpath;   /* the database when it opened; NULL: claims are files */
	char jobkey[40];      /* the job's name in the database ("triage-HEX") */
	int lease;            /* seconds */
	worker_state *workers;
	unsigned nworkers;
	int check;                  /* this pass runs each test once (its signature): no minimizing */
	const unsigned char *want;  /* the tests this pass does (NULL: all) */
} job;

/* A worker's error that stops the job: recorded once, with the test's name. */
static void job_fail(job *j, const char *name, int err)
{
	const tnorm_error *e = tnorm_error_last();
	pthread_mutex_lock(&j->lock);
	if (j->err == 0) {
		tnorm__buf m = TNORM__BUF_INIT;
		j->err = err;
		if (tnorm__buf_printf(&m, "%s: %s", name, e ? e->message : tnorm_error_name(err)) == 0)
			j->errmsg = tnorm__buf_detach(&m);
		tnorm__buf_dispose(&m);
	}
	j->stop = 1;
	pthread_mutex_unlock(&j->lock);
}

/* A copy of `len` bytes (NULL: none), NUL-terminated, freed with tnorm_free; NULL when out of
 * memory. */
static char *dup_bytes(const char *p, size_t len)
{
	char *b = tnorm__malloc(len + 1);
	if (b) {
		if (len)
			memcpy(b, p, len);
		b[len] = '\0';
	}
	return b;
}

/* Fill t's texts and lengths from the pipeline's result (generic mode: any bytes). */
static int take_texts(tnorm_triage_test *t, const tnorm_pipeline_result *pr, int generic)
{
	int ok = t->status == TNORM_TRIAGE_OK && pr->text;
	t->reduced_len = pr->reduced ? pr->reduced_len : 0;
	t->normal_len = ok ? pr->text_len : 0;
	t->reduced = dup_bytes(pr->reduced, t->reduced_len);
	t->normal = dup_bytes(pr->text, t->normal_len);
	t->original_steps = (long)pr->original;
	t->reduced_steps = !generic      ? count_steps(pr->reduced)
	                   : pr->reduced ? (long)pr->reduced_len
	                                 : -1;
	t->normal_steps = (long)pr->final;
	return t->reduced && t->normal ? 0 : TNORM_ENOMEM;
}

/* The pipeline options of one of the job's runs of the pipeline: the job's own (o->job) with
 * `mode` on `test` into `out`, the job's database and command, one run at a time, no
 * generalization and no replay (the callers set what differs: cancel, progress, budgets). */
static tnorm_pipeline_options job_options(const tnorm_triage_options *o, tnorm_mode mode,
                                          const char *test, const char *out)
{
	tnorm_pipeline_options po = o->job;
	po.mode = mode;
	po.harness = o->harness;
	po.test = test;
	po.out = out;
	po.slipped_dir = NULL;
	po.db = o->db;
	po.generalize = 0;
	/* No replay: a replayed path starts near the normal form of another job (other --rules),
	 * so the "reduced" test would be that form and the counts would depend on what the
	 * database saw before (issue 32, item 5).  Finished results are reused by job instead. */
	po.replay = -1;
	po.jobs = 1;
	po.argv = o->argv;
	return po;
}

/* The check of one file on the worker's own runner, without a harness or a fixed program: the
 * one run a session's confirm would make (tnorm_session_confirm with one run: its signature is
 * the target, its key the policy's), at no exec of the program per file.  Fills t. */
static int check_file(job *j, worker_state *w, tnorm_triage_test *t, const char *data,
                      size_t len)
{
	const tnorm_triage_options *o = j->o;
	const char *match = o->job.session.match ? o->job.session.match : "line";
	tnorm_run_result res;
	char why[300], tmp[300];
	int err;
	memset(&res, 0, sizeof(res));
	if (!w->runner) {
		tnorm_run_options ro = o->job.run;
		if (ro.timeout == 0)
			ro.timeout = 300; /* as the confirm runs' generous limit */
		if ((err = tnorm_match_parse(&w->match, match)) < 0 ||
		    (err = tnorm_runner_new(&w->runner, o->argv, &ro)) < 0)
			return err;
		tnorm_runner_set_cancel(w->runner, &j->stop);
	}
	if ((err = tnorm_runner_run(w->runner, data, len, &res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while confirming the failure")
		           : err;
	t->runs++;
	t->seconds = res.wall;
	t->complete = 1;
	t->fresh = 1;
	t->minimized = 0;
	t->original_steps = (long)len;
	t->reduced_steps = t->normal_steps = -1;
	t->status = TNORM_TRIAGE_NOTFAIL;
	why[0] = '\0';
	if (res.outcome == TNORM_OUTCOME_ERROR) {
		t->status = TNORM_TRIAGE_ERROR;
		snprintf(why, sizeof(why), "%s", res.message);
	} else if (res.outcome == TNORM_OUTCOME_FAIL && res.sig &&
	           !tnorm_match_test(w->match, res.sig, res.sig, res.out, res.err)) {
		snprintf(why, sizeof(why), "the original test does not fail as the match policy asks: "
		         "%s, but its output (stdout and stderr) does not match --match %s",
		         tnorm__run_describe(&res, tmp, sizeof(tmp)), match);
	} else if (res.outcome == TNORM_OUTCOME_FAIL && res.sig) {
		t->status = TNORM_TRIAGE_OK;
		if ((err = tnorm_signature_format(res.sig, 0, &t->signature)) < 0 ||
		    (err = tnorm_match_key(w->match, res.sig, &t->key)) < 0)
			goto done;
	} else {
		snprintf(why, sizeof(why), "the original test does not fail: %s",
		         tnorm__run_describe(&res, tmp, sizeof(tmp)));
	}
	if (!t->signature)
		t->signature = tnorm__strdup("");
	if (!t->key)
		t->key = tnorm__strdup("");
	t->message = tnorm__strdup(why);
	t->reduced = dup_bytes("", 0);
	t->normal = dup_bytes("", 0);
	if (!t->message || !t->signature || !t->key || !t->reduced || !t->normal)
		err = TNORM_ENOMEM;
done:
	tnorm_run_result_dispose(&res);
	return err;
}

/* Minimize one test (its content `text`): fills t from the pipeline's result. */
static int minimize(job *j, tnorm_triage_test *t)
{
	const tnorm_triage_options *o = j->o;
	tnorm_pipeline_options po;
	tnorm_pipeline_result pr;
	char *test = path_of(j->res->folder, t->name, NULL), *norm = NULL;
	tnorm__buf n = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int err;
	memset(&pr, 0, sizeof(pr));
	if (!test || tnorm__buf_printf(&n, "%s/norm/%s.norm", j->res->out, file_key(t->name, key)) < 0) {
		err = TNORM_ENOMEM;
		goto done;
	}
	norm = n.ptr;
	po = job_options(o, j->check ? TNORM_MODE_CHECK : TNORM_MODE_MINIMIZE, test, norm);
	if (j->check)
		po.session.confirm = 1; /* one run: its signature is the evidence */
	po.session.cancel = &j->stop;
	po.session.progress = NULL;
	po.session.progress_ctx = NULL;
	err = tnorm_pipeline_run(&po, &pr);
	if (err == TNORM_EINTERRUPTED)
		goto done; /* not done: a resumed triage does it again */
	t->status = err == TNORM_ENOTFAIL ? TNORM_TRIAGE_NOTFAIL
	            : err == TNORM_EFLAKY ? TNORM_TRIAGE_FLAKY
	            : err < 0 && err != TNORM_ETIMEOUT ? TNORM_TRIAGE_ERROR : TNORM_TRIAGE_OK;
	t->message = tnorm__strdup(err < 0 ? tnorm_error_last()->message : "");
	t->signature = tnorm__strdup(pr.signature ? pr.signature : "");
	t->key = tnorm__strdup(pr.match_key ? pr.match_key : "");
	t->runs += pr.stats.runs; /* after its check's run, when it had one */
	t->complete = pr.complete;
	t->seconds = pr.stats.elapsed;
	t->fresh = 1;
	t->minimized = !j->check;
	err = take_texts(t, &pr, !o->harness);
	if (j->check) {
		t->original_steps = (long)pr.original;
		t->reduced_steps = t->normal_steps = -1;
	}
	if (err == 0 && !(t->message && t->signature && t->key))
		err = TNORM_ENOMEM;
done:
	tnorm_pipeline_result_dispose(&pr);
	tnorm_free(test);
	tnorm__buf_dispose(&n);
	return err;
}

/* work_on's outcome for a test another live worker holds. */
#define HELD_ELSEWHERE 1

/* A finished test into the queue the calling thread reports from. */
static void hand_over(job *j, done_item *d)
{
	pthread_mutex_lock(&j->lock);
	if (j->tail)
		j->tail->next = d;
	else
		j->head = d;
	j->tail = d;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->lock);
}

static void count_earlier(job *j)
{
	pthread_mutex_lock(&j->lock);
	j->earlier++;
	pthread_mutex_unlock(&j->lock);
}

/* Minimize a test that this worker holds (w->held, in the database) and record its result:
 * in the database if the lease is still ours, and in OUT/results in any case. */
static int do_claimed(job *j, worker_state *w, done_item *d, const char *hex, const char *data,
                      size_t len)
{
	char *text = NULL;
	int err, ok = 0;
	/* A harness test is loaded and checked by the pipeline, and a fixed program is run too:
	 * those checks take the pipeline's way. */
	if (j->check && !j->o->harness && !j->o->job.session.fixed)
		err = check_file(j, w, &d->test, data, len);
	else
		err = minimize(j, &d->test);
	if (err < 0) {
		if (err == TNORM_EINTERRUPTED && w->db) {
			/* Let another worker have it soon (a lease of one second is as good as none), and
			 * first take it from the leases the calling thread renews. */
			char *item;
			int got;
			pthread_mutex_lock(&j->lock);
			item = w->held;
			w->held = NULL;
			pthread_mutex_unlock(&j->lock);
			tnorm_db_claim(w->db, j->jobkey, item, w->name, 1, &got);
			tnorm_free(item);
			tnorm_error_clear();
		}
		return err;
	}
	if ((err = result_text(&d->test, hex, j->jobkey, &text)) < 0)
		return err;
	/* Not ours any more (our lease ran out and another worker took it): its result will be
	 * recorded by that worker; ours is as good for this job's folder. */
	if (w->held && (err = tnorm_db_finish(w->db, j->jobkey, w->held, w->name, text, &ok)) < 0) {
		tnorm_free(text);
		return err;
	}
	err = write_result_text(j->res->out, d->test.name, text);
	tnorm_free(text);
	return err;
}

/* Claim test i and do it, unless it is done already (here, or anywhere the database knows of) or
 * another worker has it (HELD_ELSEWHERE: look again later). */
static int work_on(job *j, worker_state *w, size_t i)
{
	const char *name = j->res->tests[i].name, *out = j->res->out;
	char *file = path_of(j->res->folder, name, NULL), *text = NULL, *claim = NULL, *rec = NULL, hex[17];
	tnorm__buf item = TNORM__BUF_INIT;
	done_item *d = NULL;
	size_t len = 0;
	int err = 0, got = 0;
	if (j->want && !j->want[i])
		goto done; /* not this pass's */
	if (!file) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (tnorm_file_read(file, &text, &len) < 0) {
		tnorm_error_clear();
		goto done; /* gone since it was listed: it stays pending (see unfinished()) */
	}
	hash_hex(text, len, hex);
	if (!(d = tnorm__calloc(1, sizeof(*d))) || !(d->test.name = tnorm__strdup(name))) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (load_result(out, &d->test, hex, j->jobkey)) {
		if (j->check || d->test.minimized || d->test.status != TNORM_TRIAGE_OK) {
			count_earlier(j); /* done by an earlier job */
			goto done;
		}
		/* Checked, and now to be minimized: its runs count the check's. */
		uint64_t checked = d->test.runs;
		test_dispose(&d->test);
		if (!(d->test.name = tnorm__strdup(name))) {
			err = TNORM_ENOMEM;
			goto done;
		}
		d->test.runs = checked;
	}
	if (w->db) {
		/* A check and a minimization are two items: a finished check is no minimization. */
		if ((err = tnorm__buf_printf(&item, "%s%s/%s", j->check ? "check/" : "", hex, name)) < 0 ||
		    (err = tnorm_db_result(w->db, j->jobkey, item.ptr, &rec)) < 0)
			goto done;
		if (rec && parse_result(rec, &d->test, hex, j->jobkey)) {
			/* Finished by another worker, here or on another machine: its copy in OUT. */
			err = write_result_text(out, name, rec);
			count_earlier(j);
			goto done;
		}
		if (!rec && (err = tnorm_db_claim(w->db, j->jobkey, item.ptr, w->name, j->lease, &got)) < 0)
			goto done;
		/* A record that does not parse (another version wrote it) is redone here, unclaimed. */
		if (!rec && !got) {
			err = HELD_ELSEWHERE;
			goto done;
		}
		pthread_mutex_lock(&j->lock);
		w->held = got ? tnorm__buf_detach(&item) : NULL;
		pthread_mutex_unlock(&j->lock);
	} else {
		char *claims = path_of(out, "claims", NULL), key[FILE_KEY_MAX];
		int mine;
		if (!claims || !(claim = path_of(out, "claims", file_key(name, key)))) {
			tnorm_free(claims);
			err = TNORM_ENOMEM;
			goto done;
		}
		mine = take_claim(claims, file_key(name, key), claim);
		tnorm_free(claims);
		if (mine < 0) {
			err = mine;
			goto done;
		}
		if (!mine) {
			long owner = claim_owner(claim);
			if (owner == (long)getpid())
				goto done; /* another worker of this job has it */
			if (owner < 0) {
				err = tnorm__error_set(TNORM_EIO, "%s is not a claim of tnorm's: a file of "
				                       "yours in tnorm's output folder? move it away", claim);
				goto done;
			}
			/* Another process has it (look again later: its result will be there), or had
			 * it and is gone (its claim is void). */
			if (void_claim(owner))
				unlink(claim);
			err = HELD_ELSEWHERE;
			goto done;
		}
	}
	err = do_claimed(j, w, d, hex, text, len);
	/* Done (or stopped): the claim goes now, not at the end of the pass, so that claims/ holds
	 * only the tests being worked on and the end of a pass does not read and delete one claim
	 * per test (issue 38, item 3: 100,000 of them took minutes).  A worker elsewhere that looked
	 * for the result just before it was written may take the test again: it redoes it, as after
	 * a lost lease. */
	if (claim)
		unlink(claim);
	pthread_mutex_lock(&j->lock);
	tnorm_free(w->held);
	w->held = NULL;
	pthread_mutex_unlock(&j->lock);
	if (err < 0)
		goto done;
	j->res->tests[i].fresh = 1; /* test i is this worker's alone until the workers are joined */
	hand_over(j, d);
	d = NULL;
done:
	if (d) {
		test_dispose(&d->test);
		tnorm_free(d);
	}
	tnorm__buf_dispose(&item);
	tnorm_free(file);
	tnorm_free(text);
	tnorm_free(claim);
	tnorm_free(rec);
	return err;
}

/* The next test for a worker: a new one, else one put aside (*retry set), else the test count
 * (the worker is done). */
static size_t next_test(job *j, int *retry)
{
	size_t n = j->res->ntests, i = n;
	*retry = 0;
	pthread_mutex_lock(&j->lock);
	if (!j->stop && j->next < n) {
		i = j->next++;
	} else if (!j->stop && j->naside > 0) {
		i = j->aside[--j->naside];
		*retry = 1;
	}
	pthread_mutex_unlock(&j->lock);
	return i;
}

/* A second's pause in tenths, cut short when the job stops. */
static void pause_second(job *j)
{
	int k;
	for (k = 0; k < 10 && !j->stop; k++) {
		struct timespec ts = {0, 100000000L};
		nanosleep(&ts, NULL);
	}
}

static void *worker(void *arg)
{
	worker_state *w = arg;
	job *j = w->j;
	for (;;) {
		int retry, err;
		size_t i = next_test(j, &retry);
		if (i == j->res->ntests)
			break;
		if (retry)
			pause_second(j);
		if ((err = work_on(j, w, i)) == HELD_ELSEWHERE) {
			pthread_mutex_lock(&j->lock);
			j->aside[j->naside++] = i; /* room for every test: each is aside at most once */
			pthread_mutex_unlock(&j->lock);
		} else if (err < 0 && err != TNORM_EINTERRUPTED) {
			job_fail(j, j->res->tests[i].name, err);
		}
	}
	pthread_mutex_lock(&j->lock);
	j->running--;
	pthread_cond_signal(&j->cv);
	pthread_mutex_unlock(&j->lock);
	return NULL;
}

/* Nonzero when the caller asks to stop (its flag, or its callback). */
static int report(const tnorm_triage_options *o, tnorm_triage_progress *p, double t0)
{
	p->elapsed = tnorm__now() - t0;
	if (o->cancel && *o->cancel)
		return 1;
	return o->progress ? o->progress(o->progress_ctx, p) != 0 : 0;
}

/* Renew the leases of the items the workers hold (on the calling thread's own connection).  A
 * renewal that fails is not an error: the worker goes on, and at worst another worker does the
 * same test again once the lease has run out. */
static void renew_leases(job *j, tnorm_db *db)
{
	unsigned k;
	for (k = 0; db && k < j->nworkers; k++) {
		char *item;
		int got;
		pthread_mutex_lock(&j->lock);
		item = j->workers[k].held ? tnorm__strdup(j->workers[k].held) : NULL;
		pthread_mutex_unlock(&j->lock);
		if (item)
			tnorm_db_claim(db, j->jobkey, item, j->workers[k].name, j->lease, &got);
		tnorm_free(item);
	}
	tnorm_error_clear();
}

/* The calling thread while the workers work: report finished tests, ticks, and renew leases. */
static void supervise(job *j, tnorm_triage_progress *p, double t0, tnorm_db *db)
{
	double renewed = tnorm__now();
	pthread_mutex_lock(&j->lock);
	for (;;) {
		done_item *d = j->head;
		int finished = j->running == 0;
		j->head = j->tail = NULL;
		if (!d && !finished) {
			struct timespec ts;
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 100000000L;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			pthread_cond_timedwait(&j->cv, &j->lock, &ts);
			d = j->head;
			finished = j->running == 0;
			j->head = j->tail = NULL;
		}
		p->done = p->fresh + j->earlier;
		pthread_mutex_unlock(&j->lock);
		if (db && tnorm__now() - renewed >= j->lease / 4.0) {
			renew_leases(j, db);
			renewed = tnorm__now();
		}
		p->event = TNORM_TRIAGE_EVENT_TICK;
		p->test = NULL;
		if (!d && report(j->o, p, t0))
			j->stop = 1;
		while (d) {
			done_item *next = d->next;
			p->done++;
			p->fresh++;
			p->event = TNORM_TRIAGE_EVENT_TEST;
			p->test = &d->test;
			if (report(j->o, p, t0))
				j->stop = 1;
			test_dispose(&d->test);
			tnorm_free(d);
			d = next;
		}
		p->test = NULL; /* borrowed for the callback only */
		if (finished)
			return;
		pthread_mutex_lock(&j->lock);
	}
}

/* Name the workers ("HOST:PID:tK") and open their connections (and the caller's, for renewals,
 * in *sup): 0, or the database's error. */
static int open_workers(job *j, unsigned jobs, tnorm_db **sup)
{
	char host[64];
	unsigned k;
	int err = 0;
	if (gethostname(host, sizeof(host)) < 0)
		snprintf(host, sizeof(host), "localhost");
	host[sizeof(host) - 1] = '\0';
	for (k = 0; k < jobs; k++) {
		j->workers[k].j = j;
		snprintf(j->workers[k].name, sizeof(j->workers[k].name), "%s:%ld:t%u", host,
		         (long)getpid(), k);
		if (j->dbpath && err == 0)
			err = tnorm_db_open(&j->workers[k].db, j->dbpath);
	}
	if (j->dbpath && err == 0)
		err = tnorm_db_open(sup, j->dbpath);
	return err;
}

/* Run `jobs` workers until every test is done or the job is stopped. */
static int work(job *j, unsigned jobs, tnorm_triage_progress *p, double t0)
{
	sigset_t all, old;
	tnorm_db *sup = NULL;
	unsigned k, started = 0;
	int err;
	if (!(j->workers = tnorm__calloc(jobs, sizeof(*j->workers))) ||
	    !(j->aside = tnorm__calloc(j->res->ntests + 1, sizeof(*j->aside))))
		return TNORM_ENOMEM;
	j->nworkers = jobs;
	if ((err = open_workers(j, jobs, &sup)) < 0)
		goto done;
	/* The workers (and the tracers they start) block every signal: the caller's threads get
	 * them, and stop the job through its cancel flag or callback. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	j->running = jobs;
	for (k = 0; k < jobs; k++) {
		if (pthread_create(&j->workers[k].tid, NULL, worker, &j->workers[k]) != 0)
			break;
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* The workers started may be done already: count off only those that never started. */
	pthread_mutex_lock(&j->lock);
	j->running -= jobs - started;
	pthread_mutex_unlock(&j->lock);
	if (started == 0) {
		err = tnorm__error_set(TNORM_EIO, "cannot start the triage's worker threads");
		goto done;
	}
	supervise(j, p, t0, sup);
	for (k = 0; k < started; k++)
		pthread_join(j->workers[k].tid, NULL);
done:
	for (k = 0; k < jobs; k++) {
		tnorm_db_close(j->workers[k].db);
		tnorm_runner_free(j->workers[k].runner);
		tnorm_match_free(j->workers[k].match);
	}
	tnorm_db_close(sup);
	tnorm_free(j->workers);
	tnorm_free(j->aside);
	j->workers = NULL;
	j->aside = NULL;
	return err;
}

/* ---- buckets ------------------------------------------------------------------------------- */

/* 1 when two byte strings are the same (length and bytes). */
static int same_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
	return alen == blen && (alen == 0 || !memcmp(a, b, alen));
}

static int same_text(const tnorm_triage_test *a, const tnorm_triage_test *b, int normal)
{
	return normal ? same_bytes(a->normal, a->normal_len, b->normal, b->normal_len)
	              : same_bytes(a->reduced, a->reduced_len, b->reduced, b->reduced_len);
}

static size_t count_distinct(const tnorm_triage_result *r, int normal)
{
	size_t i, k, d = 0;
	for (i = 0; i < r->ntests; i++) {
		if (r->tests[i].status != TNORM_TRIAGE_OK || !r->tests[i].minimized)
			continue;
		for (k = 0; k < i; k++)
			if (r->tests[k].status == TNORM_TRIAGE_OK && r->tests[k].minimized &&
			    same_text(&r->tests[k], &r->tests[i], normal))
				break;
		d += k == i;
	}
	return d;
}

/* Buckets: (signature key, normal form), in order of first appearance; and the counts. */
/*
 * Buckets by fault (issue 27, item 3): one per signature key.  Inside one key the normal forms
 * are merged: files of one fault that normalization could not bring to the same bytes (a byte
 * whose failing values are no interval in a longer form, two places that must change together)
 * are still one fault, as the stack hash and the crash line say; what tells two faults apart is
 * the key (kind, throwing frame, call site, message).  The representative is the test with the
 * lowest normal form in shortlex (the shortest), the first by name among equals; the bucket's
 * other normal forms are listed in the report with their counts (bucket_forms).
 */
static int make_buckets(tnorm_triage_result *r)
{
	size_t i, k, b;
	if (!(r->buckets = tnorm__calloc(r->ntests + 1, sizeof(*r->buckets))))
		return TNORM_ENOMEM;
	for (i = 0; i < r->ntests; i++) {
		tnorm_triage_test *t = &r->tests[i];
		tnorm_triage_bucket *bk;
		if (t->status != TNORM_TRIAGE_OK)
			continue;
		r->failing++;
		for (k = 0; k < i; k++)
			if (r->tests[k].status == TNORM_TRIAGE_OK && !strcmp(r->tests[k].key, t->key))
				break;
		r->signatures += k == i;
		if (!t->minimized)
			continue; /* assigned to a bucket later, on evidence (triage_sample.c) */
		for (b = 0; b < r->nbuckets; b++)
			if (!strcmp(r->buckets[b].key, t->key))
				break;
		bk = &r->buckets[b];
		if (b == r->nbuckets) {
			r->nbuckets++;
		} else if (tnorm_shortlex_cmp(t->normal, t->normal_len, bk->normal, bk->normal_len) >= 0) {
			bk->count++;
			t->bucket = b + 1;
			continue;
		}
		bk->signature = t->signature;
		bk->key = t->key;
		bk->normal = t->normal;
		bk->normal_len = t->normal_len;
		bk->representative = i;
		bk->count++;
		t->bucket = b + 1;
	}
	for (i = 0; i < r->ntests; i++) { /* a normal form counts at its first test in the bucket */
		const tnorm_triage_test *t = &r->tests[i];
		if (!t->bucket)
			continue;
		for (k = 0; k < i; k++)
			if (r->tests[k].bucket == t->bucket &&
			    same_bytes(r->tests[k].normal, r->tests[k].normal_len, t->normal, t->normal_len))
				break;
		r->buckets[t->bucket - 1].nforms += k == i;
	}
	r->distinct_reduced = count_distinct(r, 0);
	r->distinct_normalized = count_distinct(r, 1);
	return 0;
}

/*
 * Buckets by root cause (issue 27).  A signature is one bucket unless the executions of its
 * normal forms say otherwise: each distinct normal form of a bucket that has several is run
 * once more with line coverage (tnorm_runner_set_coverage), and normal forms whose executed
 * lines overlap by at least SPLIT_SIMILARITY (Jaccard: shared lines over all lines of the two)
 * are linked; the bucket splits along the linked groups (single linkage), each group with its
 * own lowest normal form as representative.  Minimized executions of one bug look alike (Igor,
 * CCS 2021): on the md4c corpus, normal forms of one bug share 0.90 to 0.99 of their lines, and
 * two different bugs at neighbouring lines of one function share 0.90 as well, so coverage can
 * only split what the signature joined, never join what it split, and only where the paths
 * clearly differ.  A normal form whose covered run does not fail, or a program without a line
 * table, leaves its bucket as it is.
 */
#define SPLIT_SIMILARITY 0.6

typedef struct {
	size_t test;            /* the first test with this normal form */
	tnorm_covered_line *v;  /* its executed lines (strings borrowed from the runner) */
	size_t n;
	size_t group;
} form_cov;

static double jaccard(const form_cov *a, const form_cov *b)
{
	size_t i = 0, k = 0, both = 0;
	while (i < a->n && k < b->n) {
		int c = tnorm__line_cmp(a->v[i].file, a->v[i].line, b->v[k].file, b->v[k].line);
		if (c < 0) {
			i++;
		} else if (c > 0) {
			k++;
		} else {
			both++;
			i++;
			k++;
		}
	}
	return a->n + b->n - both ? (double)both / (double)(a->n + b->n - both) : 1.0;
}

static size_t group_root(form_cov *f, size_t i)
{
	while (f[i].group != i)
		i = f[i].group = f[f[i].group].group;
	return i;
}

/* Cover each distinct normal form of bucket b (bucket numbers are 1-based in tests). */
static int cover_forms(tnorm_runner *run, tnorm_triage_result *r, size_t b, form_cov **out,
                       size_t *nout, int *usable)
{
	form_cov *f = NULL;
	size_t i, k, n = 0;
	int err = 0;
	*usable = 1;
	if (!(f = tnorm__calloc(r->buckets[b].nforms + 1, sizeof(*f))))
		return TNORM_ENOMEM;
	for (i = 0; i < r->ntests && n < r->buckets[b].nforms; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		tnorm_run_result res;
		if (t->bucket != b + 1)
			continue;
		for (k = 0; k < n; k++)
			if (same_bytes(r->tests[f[k].test].normal, r->tests[f[k].test].normal_len, t->normal,
			               t->normal_len))
				break;
		if (k < n)
			continue;
		f[n].test = i;
		f[n].group = n;
		if ((err = tnorm_runner_run(run, t->normal, t->normal_len, &res)) < 0)
			break;
		if (res.outcome != TNORM_OUTCOME_FAIL)
			*usable = 0;
		tnorm_run_result_dispose(&res);
		if ((err = tnorm_runner_coverage(run, &f[n].v, &f[n].n)) < 0)
			break;
		if (!f[n].n)
			*usable = 0;
		n++;
	}
	*out = f;
	*nout = n;
	return err;
}

static void free_forms(form_cov *f, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		tnorm_free(f[i].v);
	free(f);
}

static int split_bucket(tnorm_runner *run, tnorm_triage_result *r, size_t b)
{
	form_cov *f = NULL;
	size_t n = 0, i, k, g, ngroups = 0;
	int usable = 0, err;
	if ((err = cover_forms(run, r, b, &f, &n, &usable)) < 0 || !usable || n < 2) {
		free_forms(f, n);
		return err;
	}
	for (i = 0; i < n; i++)
		for (k = i + 1; k < n; k++)
			if (group_root(f, i) != group_root(f, k) && jaccard(&f[i], &f[k]) >= SPLIT_SIMILARITY)
				f[group_root(f, k)].group = group_root(f, i);
	for (i = 0; i < n; i++)
		ngroups += group_root(f, i) == i;
	if (ngroups > 1) {
		/* Every group but the bucket's representative's goes to a bucket of its own. */
		size_t keep = n, first = r->nbuckets;
		for (i = 0; i < n; i++)
			if (f[i].test == r->buckets[b].representative ||
			    same_bytes(r->tests[f[i].test].normal, r->tests[f[i].test].normal_len,
			               r->buckets[b].normal, r->buckets[b].normal_len))
				keep = group_root(f, i);
		for (g = 0; g < n; g++) {
			size_t nb;
			if (group_root(f, g) != g || g == keep)
				continue;
			nb = r->nbuckets++;
			memset(&r->buckets[nb], 0, sizeof(r->buckets[nb]));
			for (i = 0; i < r->ntests; i++) {
				tnorm_triage_test *t = &r->tests[i];
				if (t->bucket != b + 1)
					continue;
				for (k = 0; k < n; k++)
					if (group_root(f, k) == g &&
					    same_bytes(r->tests[f[k].test].normal, r->tests[f[k].test].normal_len,
					               t->normal, t->normal_len))
						break;
				if (k == n)
					continue;
				t->bucket = nb + 1;
			}
		}
		/* Each bucket's count, representative (its lowest normal form) and forms anew. */
		for (g = b; g < r->nbuckets; g = g == b ? first : g + 1) {
			tnorm_triage_bucket *bk = &r->buckets[g];
			bk->count = bk->nforms = 0;
			bk->normal = NULL;
			for (i = 0; i < r->ntests; i++) {
				tnorm_triage_test *t = &r->tests[i];
				if (t->bucket != g + 1)
					continue;
				for (k = 0; k < i; k++)
					if (r->tests[k].bucket == g + 1 && same_bytes(r->tests[k].normal,
					                                              r->tests[k].normal_len,
					                                              t->normal, t->normal_len))
						break;
				bk->nforms += k == i;
				bk->count++;
				if (!bk->normal || tnorm_shortlex_cmp(t->normal, t->normal_len, bk->normal,
				                                      bk->normal_len) < 0) {
					bk->signature = t->signature;
					bk->key = t->key;
					bk->normal = t->normal;
					bk->normal_len = t->normal_len;
					bk->representative = i;
				}
			}
		}
	}
	free_forms(f, n);
	return 0;
}

static int split_by_coverage(const tnorm_triage_options *o, tnorm_triage_result *r)
{
	tnorm_run_options ro = o->job.run;
	tnorm_runner *run = NULL;
	size_t b, nb = r->nbuckets;
	int err = 0;
	for (b = 0; b < nb && r->buckets[b].nforms < 2; b++)
		;
	if (b == nb || !o->argv)
		return 0;
	if ((err = tnorm_runner_new(&run, o->argv, &ro)) < 0)
		return err;
	tnorm_runner_set_cancel(run, o->job.session.cancel);
	if (tnorm_runner_set_coverage(run, 1) < 0) { /* no line table: buckets by signature */
		tnorm_error_clear();
		tnorm_runner_free(run);
		return 0;
	}
	for (b = 0; b < nb && err == 0; b++)
		if (r->buckets[b].nforms >= 2)
			err = split_bucket(run, r, b);
	tnorm_runner_free(run);
	return err;
}

/* Write `len` bytes to `path` (atomically) unless the file holds them already. */
static int write_unless_same(const char *path, const char *p, size_t len)
{
	char *file = NULL;
	size_t flen = 0;
	int same = tnorm_file_read(path, &file, &flen) == 0 && same_bytes(file, flen, p, len);
	tnorm_error_clear();
	tnorm_free(file);
	return same ? 0 : tnorm_file_write_atomic(path, p, len);
}

typedef struct gen_ctx {
	const tnorm_triage_options *o;
	tnorm_triage_progress *p;
	double t0;
} gen_ctx;

static int on_gen_progress(void *ctx, const tnorm_progress *runs)
{
	gen_ctx *g = ctx;
	g->p->event = TNORM_TRIAGE_EVENT_GENERALIZE;
	g->p->test = NULL;
	g->p->runs = runs;
	return report(g->o, g->p, g->t0) ? TNORM_EINTERRUPTED : 0;
}

/*
 * Generalize bucket b's representative's normal form into OUT/norm/NAME.gen and keep the text
 * in the bucket.  A failure to generalize leaves the bucket without its annotated test (the
 * report shows the normal form), as before; only a stop is returned.
 */
static int generalize_bucket(const tnorm_triage_options *o, tnorm_triage_result *r, size_t b,
                             gen_ctx *g)
{
	const tnorm_triage_test *rep = &r->tests[r->buckets[b].representative];
	tnorm_pipeline_options po;
	tnorm_pipeline_result pr;
	tnorm__buf in = TNORM__BUF_INIT, out = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int err = 0;
	memset(&pr, 0, sizeof(pr));
	if (tnorm__buf_printf(&in, "%s/norm/%s.norm", r->out, file_key(rep->name, key)) < 0 ||
	    tnorm__buf_printf(&out, "%s/norm/%s.gen", r->out, file_key(rep->name, key)) < 0) {
		err = TNORM_ENOMEM;
		goto done;
	}
	if (write_unless_same(in.ptr, rep->normal, rep->normal_len) < 0)
		goto done;
	po = job_options(o, TNORM_MODE_GENERALIZE, in.ptr, out.ptr);
	po.replay = o->job.replay;
	po.jobs = o->jobs ? o->jobs : 1;
	po.session.max_time = 0;
	po.session.cancel = o->cancel;
	po.session.progress = on_gen_progress;
	po.session.progress_ctx = g;
	g->p->bucket = b + 1;
	err = tnorm_pipeline_run(&po, &pr);
	if (err == 0 && pr.text && !(r->buckets[b].annotated = tnorm__strdup(pr.text)))
		err = TNORM_ENOMEM;
	if (err != TNORM_EINTERRUPTED && err != TNORM_ENOMEM)
		err = 0;
done:
	tnorm_pipeline_result_dispose(&pr);
	tnorm__buf_dispose(&in);
	tnorm__buf_dispose(&out);
	tnorm_error_clear();
	return err;
}

/*
 * The polish (issue 27, item 1): the normal forms of files made canonical in fact.  Generic
 * normalization tries each byte's cheap values and its class, and every lower value only in
 * forms of up to 4 bytes, because each test pays for its own normalization; a parser's failing
 * bytes need not be any of those (libyaml's ` - "\n"0` still fails as ` - "\n"$`).  Once the
 * tests are done, each distinct normal form of one signature key is normalized once more with
 * the scan's full pass (generic.h, scan_full): every lower value of every byte, lowest first,
 * then deletion after each success, until no single byte can be lowered and still fail the
 * same way.  Many files share a form, so a folder pays once per form, not per file.  It costs
 * up to a run per lower value of each byte (about 60 per byte of text), so it has a budget:
 * by default a quarter of the runs the tests took, spent on the forms whose full pass costs
 * least per test first (a form of many tests, a short form); a form whose one pass costs more
 * than is left is skipped, and one the budget cuts all the same (a polish that lowers runs its
 * pass again) keeps what was lowered so far.  A finished polish is kept in OUT/polish/HASH, so
 * that a resumed or repeated job does not pay again.  A
 * form whose polish fails (flaky, another fault now) stays as it was.
 */
typedef struct polish_ctx {
	gen_ctx *g;
	size_t form, forms;
} polish_ctx;

static int on_polish_progress(void *ctx, const tnorm_progress *runs)
{
	polish_ctx *c = ctx;
	c->g->p->event = TNORM_TRIAGE_EVENT_POLISH;
	c->g->p->test = NULL;
	c->g->p->runs = runs;
	c->g->p->bucket = c->form;
	c->g->p->nbuckets = c->forms;
	return report(c->g->o, c->g->p, c->g->t0) ? TNORM_EINTERRUPTED : 0;
}

/*
 * OUT/polish/HASH, a finished polish (issue 39, item 7: it was believed as it was read, and a
 * symlink there was followed).  A record is the line "tnorm-polish HASH CHECK" and then the
 * polished form's bytes, CHECK the hash of HASH's bytes and the form's, so that other bytes
 * written over it, or another HASH's record copied there, are no record.  It is opened without
 * following a symlink, and must be a regular file; what is not a record is polished again and
 * written over.  Written atomically (a rename, which replaces a symlink rather than follow it).
 */
#define POLISH_MAGIC "tnorm-polish "

static void polish_check(const char *id, const char *p, size_t len, char check[17])
{
	uint64_t h = tnorm__hash64(id, strlen(id), 0);
	snprintf(check, 17, "%016llx", (unsigned long long)tnorm__hash64(p, len, h));
}

static int polish_write(const char *path, const char *id, const char *p, size_t len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	char check[17];
	int err;
	polish_check(id, p, len, check);
	if ((err = tnorm__buf_printf(&b, POLISH_MAGIC "%s %s\n", id, check)) == 0 &&
	    (err = tnorm__buf_put(&b, p, len)) == 0)
		err = tnorm_file_write_atomic(path, b.ptr, b.len);
	tnorm__buf_dispose(&b);
	return err;
}

/* The form a record holds into *out (*outlen): 1, or 0 when there is none (no file, a symlink,
 * not a regular file, not a record of `id`, more than `max` bytes: it is done again). */
static int polish_read(const char *path, const char *id, size_t max, char **out, size_t *outlen)
{
	tnorm__buf b = TNORM__BUF_INIT;
	char check[17], want[80], buf[4096];
	struct stat st;
	size_t head;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), ok = 0;
	*out = NULL;
	if (fd < 0)
		return 0;
	head = (size_t)snprintf(want, sizeof(want), POLISH_MAGIC "%s ", id);
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (uint64_t)st.st_size <= head + 17 + max) {
		while ((n = read(fd, buf, sizeof(buf))) > 0 && b.len <= head + 17 + max)
			if (tnorm__buf_put(&b, buf, (size_t)n) < 0)
				break;
		ok = n == 0 && b.len >= head + 17 && b.len <= head + 17 + max &&
		     !memcmp(b.ptr, want, head) && b.ptr[head + 16] == '\n';
	}
	close(fd);
	if (ok) {
		polish_check(id, b.ptr + head + 17, b.len - head - 17, check);
		ok = !memcmp(b.ptr + head, check, 16) &&
		     (*out = dup_bytes(b.ptr + head + 17, b.len - head - 17)) != NULL;
		*outlen = b.len - head - 17;
	}
	tnorm__buf_dispose(&b);
	return ok;
}

/* Whether p, a polished form read back from OUT/polish, still fails as test t did: run once as
 * the job runs (its run and session options, one confirm run), its target's key under the match
 * policy t's key.  *same 1 or 0; the run added to *runs.  Errors: Ctrl-C, out of memory. */
static int polish_still_fails(const tnorm_triage_options *o, const tnorm_triage_test *t,
                              const char *p, size_t len, uint64_t *runs, int *same)
{
	tnorm_run_options ro = o->job.run;
	tnorm_session_options so = o->job.session;
	tnorm_session *s = NULL;
	tnorm_match *m = NULL;
	tnorm_progress st;
	char *key = NULL;
	int err;
	*same = 0;
	so.confirm = 1;
	so.max_runs = 0;
	so.max_time = 0;
	so.out_path = NULL;
	so.slipped_dir = NULL;
	so.cancel = o->cancel;
	so.progress = NULL;
	so.observe = NULL;
	if ((err = tnorm_session_new(&s, o->argv, &ro, &so)) < 0)
		goto done;
	err = tnorm_session_confirm(s, p, len);
	tnorm_session_stats(s, &st);
	*runs += st.runs;
	if (err == TNORM_EINTERRUPTED || err == TNORM_ENOMEM)
		goto done;
	if (err == 0 && (err = tnorm_match_parse(&m, so.match ? so.match : "line")) == 0 &&
	    (err = tnorm_match_key(m, tnorm_session_target(s, NULL), &key)) == 0)
		*same = !strcmp(key, t->key);
	if (err != TNORM_ENOMEM)
		err = 0; /* it does not fail (or not so): polished again */
	tnorm_error_clear();
done:
	tnorm_free(key);
	tnorm_match_free(m);
	tnorm_session_free(s);
	return err;
}

/* Test t's normal form polished into *out (*outlen; NULL: keep it as it is), from OUT/polish or
 * by the pipeline in at most `budget` runs (its runs added to *runs); *done set when the polish
 * finished. */
static int polish_one(polish_ctx *c, const tnorm_triage_result *r, const tnorm_triage_test *t,
                      const char *jobkey, size_t max, uint64_t budget, char **out,
                      size_t *outlen, uint64_t *runs, int *done)
{
	const tnorm_triage_options *o = c->g->o;
	tnorm_pipeline_options po;
	tnorm_pipeline_result pr;
	tnorm__buf id = TNORM__BUF_INIT, in = TNORM__BUF_INIT, res = TNORM__BUF_INIT,
	           tmp = TNORM__BUF_INIT;
	char hex[17];
	int err;
	*out = NULL;
	*done = 0;
	memset(&pr, 0, sizeof(pr));
	if ((err = tnorm__buf_put(&id, jobkey, strlen(jobkey) + 1)) < 0 ||
	    (err = tnorm__buf_printf(&id, "%zu%c%s%c", max, 0, t->key, 0)) < 0 ||
	    (err = tnorm__buf_put(&id, t->normal, t->normal_len)) < 0)
		goto end;
	hash_hex(id.ptr, id.len, hex);
	if ((err = tnorm__buf_printf(&res, "%s/polish/%s", r->out, hex)) < 0 ||
	    (err = tnorm__buf_printf(&in, "%s/polish/%s.in", r->out, hex)) < 0 ||
	    (err = tnorm__buf_printf(&tmp, "%s/polish/%s.out", r->out, hex)) < 0)
		goto end;
	if (polish_read(res.ptr, hex, max, out, outlen)) {
		/* An earlier job's: the form itself when it could not be lowered; a lower form is
		 * taken once it is seen to fail as the test did, run again. */
		int same = 1;
		if (same_bytes(*out, *outlen, t->normal, t->normal_len)) {
			tnorm_free(*out);
			*out = NULL;
		} else if ((err = polish_still_fails(o, t, *out, *outlen, runs, &same)) < 0) {
			goto end;
		}
		if (same) {
			*done = 1;
			goto end;
		}
		tnorm_free(*out);
		*out = NULL;
	}
	tnorm_error_clear();
	if ((err = tnorm_file_write_atomic(in.ptr, t->normal, t->normal_len)) < 0)
		goto end;
	po = job_options(o, TNORM_MODE_NORMALIZE, in.ptr, tmp.ptr);
	po.session.confirm = 1; /* the form failed so when its test was done */
	po.session.max_time = 0;
	po.session.max_runs = budget;
	po.session.cancel = o->cancel;
	po.session.progress = on_polish_progress;
	po.session.progress_ctx = c;
	po.generic.rules = (1u << TNORM_GENERIC_RULE_DELETE) | (1u << TNORM_GENERIC_RULE_SCAN);
	po.generic.scan_full = max;
	err = tnorm_pipeline_run(&po, &pr);
	*runs += pr.stats.runs;
	if (err == TNORM_EINTERRUPTED || err == TNORM_ENOMEM)
		goto end;
	*done = err == 0;
	tnorm_error_clear();
	/* Taken: a lower form that fails as the test did (the guard kept to the target's key; a
	 * different key means the confirm run saw another fault), finished or cut by the budget. */
	err = 0;
	if (pr.text && pr.match_key && !strcmp(pr.match_key, t->key) &&
	    tnorm_shortlex_cmp(pr.text, pr.text_len, t->normal, t->normal_len) < 0) {
		if (!(*out = dup_bytes(pr.text, pr.text_len))) {
			err = TNORM_ENOMEM;
			goto end;
		}
		*outlen = pr.text_len;
	} else if (*done && !(pr.match_key && !strcmp(pr.match_key, t->key))) {
		*done = 0; /* not polished: it did not fail as before */
	}
	if (*done)
		err = *out ? polish_write(res.ptr, hex, *out, *outlen)
		           : polish_write(res.ptr, hex, t->normal, t->normal_len);
end:
	if (err == 0) {
		unlink(in.ptr);
		unlink(tmp.ptr);
	}
	tnorm_pipeline_result_dispose(&pr);
	tnorm__buf_dispose(&id);
	tnorm__buf_dispose(&in);
	tnorm__buf_dispose(&res);
	tnorm__buf_dispose(&tmp);
	return err;
}

/* A distinct (key, normal form), how many tests have it, and what one full pass over it costs at
 * most: a run per lower value of each byte. */
typedef struct polish_form {
	size_t test, count;
	uint64_t cost;
	const tnorm_triage_result *r;
} polish_form;

/* The cheapest per test first (cost / count, compared without division), then the lowest. */
static int form_order(const void *x, const void *y)
{
	const polish_form *a = x, *b = y;
	const tnorm_triage_test *ta = &a->r->tests[a->test], *tb = &b->r->tests[b->test];
	uint64_t ca = a->cost * b->count, cb = b->cost * a->count;
	int c;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	c = tnorm_shortlex_cmp(ta->normal, ta->normal_len, tb->normal, tb->normal_len);
	return c ? c : (a->test > b->test) - (a->test < b->test);
}

/* Every test of test i's key and normal form (old, oldlen) takes p (a copy each, and in its
 * OUT/norm/NAME.norm), and the mark `done`. */
static int take_polish(tnorm_triage_result *r, size_t i, const char *old, size_t oldlen,
                       const char *p, size_t len, int done)
{
	size_t k;
	int err;
	for (k = 0; k < r->ntests; k++) {
		tnorm_triage_test *t = &r->tests[k];
		tnorm__buf norm = TNORM__BUF_INIT;
		char *mine;
		if (t->status != TNORM_TRIAGE_OK || !t->minimized || strcmp(t->key, r->tests[i].key) ||
		    !same_bytes(t->normal, t->normal_len, old, oldlen))
			continue;
		t->polished = done;
		if (!p)
			continue;
		if (!(mine = dup_bytes(p, len)))
			return TNORM_ENOMEM;
		if (t->normal != old)
			tnorm_free(t->normal);
		t->normal = mine; /* test i's old form is freed by the caller */
		t->normal_len = len;
		t->normal_steps = (long)len;
		if ((err = tnorm__buf_printf(&norm, "%s/norm/%s.norm", r->out, t->name)) == 0)
			err = write_unless_same(norm.ptr, p, len);
		tnorm__buf_dispose(&norm);
		if (err < 0)
			return err;
	}
	return 0;
}

static int polish(const tnorm_triage_options *o, tnorm_triage_result *r, const char *jobkey,
                  gen_ctx *g)
{
	size_t max = o->polish > 0 ? (size_t)o->polish : TNORM_TRIAGE_POLISH_MAX, i, k, n = 0;
	uint64_t spent = 0, tests = 0;
	polish_form *f;
	polish_ctx c;
	int err = 0;
	if (o->harness || o->polish < 0 || !o->argv)
		return 0;
	if (!(f = tnorm__calloc(r->ntests + 1, sizeof(*f))))
		return TNORM_ENOMEM;
	for (i = 0; i < r->ntests; i++) {
		const tnorm_triage_test *t = &r->tests[i];
		if (t->status != TNORM_TRIAGE_OK || !t->key || !t->normal)
			continue;
		tests += t->runs;
		if (!t->minimized)
			continue; /* no normal form of its own */
		if (t->normal_len > max)
			continue;
		for (k = 0; k < n; k++)
			if (!strcmp(r->tests[f[k].test].key, t->key) &&
			    same_bytes(r->tests[f[k].test].normal, r->tests[f[k].test].normal_len, t->normal,
			               t->normal_len))
				break;
		if (k == n) {
			f[n].test = i;
			f[n].r = r;
			for (k = 0; k < t->normal_len; k++)
				f[n].cost += (unsigned char)t->normal[k];
			k = n++;
		}
		f[k].count++;
	}
	qsort(f, n, sizeof(*f), form_order);
	r->polish_forms = n;
	r->polish_budget = o->polish_runs ? o->polish_runs : tests / 4;
	c.g = g;
	c.forms = n;
	for (k = 0; k < n && err == 0 && spent < r->polish_budget; k++) {
		tnorm_triage_test *t = &r->tests[f[k].test];
		char *old = t->normal, *p = NULL;
		size_t len = 0, oldlen = t->normal_len;
		int done;
		if (f[k].cost > r->polish_budget - spent)
			continue; /* more than is left: cheaper forms may still fit */
		c.form = k + 1;
		err = polish_one(&c, r, t, jobkey, max, r->polish_budget - spent, &p, &len, &spent,
		                 &done);
		if (err < 0)
			break;
		r->polished++;
		r->polish_complete += done;
		r->polish_lowered += p != NULL;
		err = take_polish(r, f[k].test, old, oldlen, p, len, done);
		if (p && t->normal != old)
			tnorm_free(old);
		tnorm_free(p);
	}
	r->polish_runs = spent;
	tnorm_free(f);
	return err;
}

/*
 * Each bucket's representative run once more, as its file (the normal form) is run by a user
 * (issue 40, item 7): a test's signature is its original's, and a normal form that fails with
 * the same key may fail by another stack (a frame below the throwing one, a call site), so the
 * report would show one stack and the representative's file crash at another.  One run per
 * bucket; a run that does not fail with the bucket's key leaves own_signature NULL (the report
 * shows the test's signature then).  And how many buckets share each key (the coverage split).
 */
static int sign_representatives(const tnorm_triage_options *o, tnorm_triage_result *r)
{
	const char *match = o->job.session.match ? o->job.session.match : "line";
	tnorm_run_options ro = o->job.run;
	tnorm_runner *run = NULL;
	tnorm_match *m = NULL;
	size_t b, k;
	int err = 0;
	for (b = 0; b < r->nbuckets; b++)
		for (k = 0, r->buckets[b].same_key = 0; k < r->nbuckets; k++)
			r->buckets[b].same_key += !strcmp(r->buckets[k].key, r->buckets[b].key);
	if (!o->argv || r->nbuckets == 0)
		return 0;
	if (ro.timeout == 0)
		ro.timeout = 300; /* as the confirm runs' generous limit */
	if ((err = tnorm_match_parse(&m, match)) < 0 || (err = tnorm_runner_new(&run, o->argv, &ro)) < 0)
		goto done;
	tnorm_runner_set_cancel(run, o->job.session.cancel);
	for (b = 0; b < r->nbuckets && err == 0; b++) {
		tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm_run_result res;
		char *text = NULL, *key = NULL;
		if ((err = tnorm_runner_run(run, bk->normal, bk->normal_len, &res)) < 0)
			break;
		if (res.outcome == TNORM_OUTCOME_FAIL && res.sig &&
		    (err = tnorm_signature_format(res.sig, 0, &text)) == 0 &&
		    (err = tnorm_match_key(m, res.sig, &key)) == 0 && !strcmp(key, bk->key)) {
			bk->own_signature = text;
			text = NULL;
		}
		tnorm_free(text);
		tnorm_free(key);
		tnorm_run_result_dispose(&res);
	}
done:
	tnorm_runner_free(run);
	tnorm_match_free(m);
	if (err != TNORM_EINTERRUPTED && err != TNORM_ENOMEM) {
		tnorm_error_clear(); /* the program cannot be run now: the tests' signatures stay */
		err = 0;
	}
	return err;
}

/*
 * --explain (issue 40, item 1): where the fault likely is, for each bucket, from tnorm_why on its
 * representative's normal form (why.h).  Opt-in: why runs the form and up to 400 neighbours
 * with line coverage, 20 to 50 times a plain run each, where a sampled triage spends about ten
 * plain runs per file.  A bucket why cannot rank (no line table, the form passes now) has none;
 * only a stop or a lack of memory ends the job.
 */
static int explain_buckets(const tnorm_triage_options *o, tnorm_triage_result *r)
{
	size_t b, k;
	int err = 0;
	for (b = 0; b < r->nbuckets && o->explain && o->argv && err == 0; b++) {
		tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm_why_options wo = TNORM_WHY_OPTIONS_INIT;
		tnorm_why_result *w = tnorm__calloc(1, sizeof(*w));
		if (!w)
			return TNORM_ENOMEM;
		wo.argv = o->argv;
		wo.run = o->job.run;
		wo.text_steps = o->harness != NULL;
		wo.cancel = o->cancel;
		if ((err = tnorm_why(&wo, bk->normal, bk->normal_len, w)) < 0) {
			tnorm_why_result_dispose(w);
			tnorm_free(w);
			if (err != TNORM_EINTERRUPTED && err != TNORM_ENOMEM) {
				tnorm_error_clear();
				err = 0;
			}
			continue;
		}
		for (k = o->explain; k < w->nlines; k++) { /* the best `explain` lines kept */
			free(w->lines[k].file); /* as tnorm_why_result_dispose frees them */
			free(w->lines[k].function);
		}
		if (w->nlines > o->explain)
			w->nlines = o->explain;
		bk->why = w;
	}
	return err;
}

/* Empty OUT/buckets of the representatives an earlier job wrote there (N-NAME: its buckets may
 * have been others); nothing else is deleted. */
static void clear_buckets_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		size_t n = strspn(e->d_name, "0123456789");
		if (n > 0 && e->d_name[n] == '-')
			unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
}

/* Each bucket's representative, byte for byte, as OUT/buckets/N-NAME (bucket->file). */
static int write_representatives(tnorm_triage_result *r)
{
	char *dir = path_of(r->out, "buckets", NULL);
	size_t b;
	int err = 0;
	if (!dir)
		return TNORM_ENOMEM;
	clear_buckets_dir(dir);
	for (b = 0; b < r->nbuckets && err == 0; b++) {
		tnorm_triage_bucket *bk = &r->buckets[b];
		tnorm__buf p = TNORM__BUF_INIT;
		/* At most 200 bytes of the name: with "N-" it is a valid file name (NAME_MAX). */
		if ((err = tnorm__buf_printf(&p, "%s/%zu-%.200s", dir, b + 1,
		                             r->tests[bk->representative].name)) == 0 &&
		    (err = tnorm_file_write_atomic(p.ptr, bk->normal, bk->normal_len)) == 0)
			bk->file = tnorm__buf_detach(&p);
		tnorm__buf_dispose(&p);
		if (err == 0 && !bk->file)
			err = TNORM_ENOMEM;
	}
	tnorm_free(dir);
	return err;
}

/* ---- the job ------------------------------------------------------------------------------- */

/* The options as this version has them: an older struct (version 1 without shard, shards and
 * lease; version 2 without polish) is copied with those zero.  0, or TNORM_EINVALID for another version. */
static int take_options(const tnorm_triage_options *in, tnorm_triage_options *o)
{
	memset(o, 0, sizeof(*o));
	if (!in || in->version < 1 || in->version > TNORM_TRIAGE_OPTIONS_VERSION)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_run: options of another version");
	memcpy(o, in, in->version == 1   ? offsetof(tnorm_triage_options, shard)
	              : in->version == 2 ? offsetof(tnorm_triage_options, polish)
	              : in->version <= 4 ? offsetof(tnorm_triage_options, thorough)
	              : in->version == 5 ? offsetof(tnorm_triage_options, explain)
	                                 : sizeof(*o));
	/* Defaults (options.h): before version 4, a generalize of 0 was off. */
	if (in->version < 4 && !o->generalize)
		o->generalize = -1;
	o->generalize = o->generalize >= 0;
	if (!o->job.version) /* held in the triage's options: 0 is the current one */
		o->job.version = TNORM_PIPELINE_OPTIONS_VERSION;
	tnorm__pipeline_options_versions(&o->job);
	o->version = TNORM_TRIAGE_OPTIONS_VERSION;
	return 0;
}

/* The file's content hashed into b (or its name when it cannot be read: a program found on the
 * PATH); the hash, not the time it was built, so that machines with their own copies of one
 * program agree. */
static int put_file_hash(tnorm__buf *b, const char *path)
{
	char *text = NULL, hex[17];
	size_t len = 0;
	int err;
	if (tnorm_file_read(path, &text, &len) < 0) {
		tnorm_error_clear();
		return tnorm__buf_put(b, path, strlen(path) + 1);
	}
	hash_hex(text, len, hex);
	tnorm_free(text);
	if ((err = tnorm__buf_put(b, hex, sizeof(hex))) < 0)
		return err;
	return 0;
}

/* What the reduction and normalization passes give for a test: bumped with every change that
 * can give another result for the same input (revision 2: generic normalization's copies rule
 * and binary bytes, the chunk pass leaving calls alone; 3: the scan of short forms; 4: the target
 * keeps the message, issue 27; 5: merged abort sites trailed, the scan's class and swap passes;
 * 6: merged abort sites by a trap per check, at any run length),
 * so that finished results of an older tnorm in a shared database are not taken as this one's. */
#define TRIAGE_REVISION "6"

/* The options of every test's job that can change its outcome, defaults resolved (so that 0 and
 * the default it stands for give one key) and in a fixed order: the runs' (--timeout, whose 0 is
 * "derived from the confirm runs" and stays 0; --mem, --env in order, the --invalid-exit codes as
 * a set, the output kept, unwinding), the session's (--confirm, flaky, --max-time-per-test, the
 * run budget) and the reduction's and normalization's.  Not here: what cannot change a result —
 * the fork server and persistent mode (a failure is always a fresh process's, docs/driver.md),
 * -j, the database, the lease, the shard, the polish (its cache has its own key) and
 * generalization (done again by every run). */
static int put_outcome_options(tnorm__buf *b, const tnorm_pipeline_options *po, int generic)
{
	tnorm_run_options run = po->run;
	tnorm_session_options ses = po->session;
	tnorm_reduce_options red = po->reduce;
	tnorm_normalize_options nor = po->normalize;
	tnorm_generic_options gen = po->generic;
	const char *const *e;
	int codes[256] = {0}, err, c;
	size_t i;
	if (run.output_cap == 0)
		run.output_cap = 65536;
	tnorm__session_options_resolve(&ses);
	tnorm__reduce_options_resolve(&red, TNORM_ALGO_ADAPTIVE);
	tnorm__normalize_options_resolve(&nor);
	tnorm__reduce_options_resolve(&nor.reduce, TNORM_ALGO_DDMIN);
	tnorm__generic_options_resolve(&gen);
	if ((err = tnorm__buf_printf(b, "%ctimeout=%.17g%cmem=%llu%ccap=%zu%cunwind=%d%cenv", 1,
	                             run.timeout < 0 ? -1.0 : run.timeout, 1,
	                             (unsigned long long)run.mem_limit, 1, run.output_cap, 1,
	                             run.unwind >= 0, 1)) < 0)
		return err;
	for (e = run.env; e && *e; e++)
		if ((err = tnorm__buf_put(b, *e, strlen(*e) + 1)) < 0)
			return err;
	for (i = 0; i < run.ninvalid_exits && run.invalid_exits; i++)
		if (run.invalid_exits[i] >= 1 && run.invalid_exits[i] <= 255)
			codes[run.invalid_exits[i]] = 1;
	if ((err = tnorm__buf_printf(b, "%cinvalid", 1)) < 0)
		return err;
	for (c = 1; c <= 255; c++)
		if (codes[c] && (err = tnorm__buf_printf(b, " %d", c)) < 0)
			return err;
	if ((err = tnorm__buf_printf(b, "%cconfirm=%u flaky=%d runs=%llu time=%.17g", 1, ses.confirm,
	                             ses.allow_flaky, (unsigned long long)ses.max_runs,
	                             ses.max_time)) < 0 ||
	    (err = tnorm__buf_printf(b, "%creduce=%d,%d,%d,%llu", 1, (int)red.algo, red.prefix,
	                             red.slice, (unsigned long long)red.seed)) < 0 ||
	    (err = tnorm__buf_printf(b, "%cnormalize=%d,%u,%u,%u,%d,%d,%d,%d,%llu", 1, nor.wide,
	                             nor.max_alternatives, nor.max_edit,
	                             nor.max_reduce_alternatives, nor.rewire, (int)nor.reduce.algo,
	                             nor.reduce.prefix, nor.reduce.slice,
	                             (unsigned long long)nor.reduce.seed)) < 0)
		return err;
	if (generic)
		err = tnorm__buf_printf(b, "%cgeneric=%u,%d,%u,%zu", 1, gen.views, gen.chunks, gen.rules,
		                        gen.scan_full);
	return err;
}

/* The job's name in the database: "triage-HEX", a hash of all that decides a test's result,
 * the same on every machine that runs the same job with the same tnorm. */
static int job_key(const tnorm_triage_options *o, char key[40])
{
	const tnorm_pipeline_options *po = &o->job;
	tnorm__buf b = TNORM__BUF_INIT;
	const char *const *a;
	char hex[17];
	int err = tnorm__buf_printf(&b, "tnorm triage %s %s%c", TNORM_VERSION, TRIAGE_REVISION, 1);
	if (err == 0)
		err = o->harness ? put_file_hash(&b, o->harness) : tnorm__buf_put(&b, "-", 2);
	if (err == 0)
		err = put_file_hash(&b, o->argv[0]);
	for (a = o->argv; err == 0 && *a; a++)
		err = tnorm__buf_put(&b, *a, strlen(*a) + 1);
	if (err == 0 && po->session.fixed) {
		err = put_file_hash(&b, po->session.fixed[0]);
		for (a = po->session.fixed; err == 0 && *a; a++)
			err = tnorm__buf_put(&b, *a, strlen(*a) + 1);
	}
	if (err == 0)
		err = tnorm__buf_printf(&b, "%c%s%crules=%d%cstdin=%d", 1,
		                        po->session.match ? po->session.match : "line", 1,
		                        (int)po->normalize.rules, 1, po->run.use_stdin);
	if (err == 0)
		err = put_outcome_options(&b, po, !o->harness);
	if (err == 0) {
		hash_hex(b.ptr, b.len, hex);
		snprintf(key, 40, "triage-%s", hex);
	}
	tnorm__buf_dispose(&b);
	return err;
}

/* Keep the tests of this job's shard (all of them without shards). */
static void keep_shard(const tnorm_triage_options *o, tnorm_triage_result *res)
{
	size_t i, k = 0;
	res->total = res->ntests;
	for (i = 0; i < res->ntests; i++) {
		if (tnorm_triage_shard_of(res->tests[i].name, o->shards) == (o->shards > 1 ? o->shard : 0))
			res->tests[k++] = res->tests[i];
		else
			test_dispose(&res->tests[i]);
	}
	res->ntests = k;
}

/*
 * Whether the workers claim in the database: *use set to o->db when it opens.  One that cannot
 * be opened (read-only, corrupt, a server that does not answer) is a warning in res, and claims
 * are files, unless this is a shard (whose results must meet the others' there): an error.
 * Somebody else's database is refused (EINVALID) either way.
 */
static int probe_db(const tnorm_triage_options *o, tnorm_triage_result *res, const char **use)
{
	tnorm_db *db = NULL;
	int err;
	*use = NULL;
	if (!o->db)
		return 0;
	if ((err = tnorm_db_open(&db, o->db)) == 0) {
		tnorm_db_close(db);
		*use = o->db;
		return 0;
	}
	if (err != TNORM_EDB)
		return err;
	if (o->shards > 1)
		return tnorm__error_set(err, "shard %u/%u: the shards' results meet in the database: %s",
		                        o->shard + 1, o->shards, tnorm_error_last()->message);
	{
		tnorm__buf w = TNORM__BUF_INIT;
		if (tnorm__buf_printf(&w, "%s; going on without it (claims are files in the output "
		                      "folder)", tnorm_error_last()->message) < 0 ||
		    (res->warning && tnorm__buf_printf(&w, "; %s", res->warning) < 0)) {
			tnorm__buf_dispose(&w);
			return TNORM_ENOMEM;
		}
		tnorm_free(res->warning);
		if (!(res->warning = tnorm__buf_detach(&w))) {
			tnorm__buf_dispose(&w);
			return TNORM_ENOMEM;
		}
	}
	tnorm_error_clear();
	return 0;
}

static int check_options(const tnorm_triage_options *o)
{
	if (o->shards > 1 && o->shard >= o->shards)
		return tnorm__error_set(TNORM_EINVALID, "shard index %u of %u shards: it must be "
		                        "0..shards-1", o->shard, o->shards);
	if (o->shards > 1 && !o->db)
		return tnorm__error_set(TNORM_EINVALID, "shard %u/%u: shards need a database (--db URL) "
		                        "where their results meet", o->shard + 1, o->shards);
	if (o->lease > 86400)
		return tnorm__error_set(TNORM_EINVALID, "a lease of %u s is more than a day", o->lease);
	if (o->jobs > TNORM_MAX_JOBS)
		return tnorm__error_set(TNORM_EINVALID, "jobs: 1 to %d, not %u", TNORM_MAX_JOBS, o->jobs);
	if (!o->dir)
		return tnorm__error_set(TNORM_EINVALID, "triage needs a folder of failing tests");
	if (!o->argv || !o->argv[0])
		return tnorm__error_set(TNORM_EINVALID, "triage needs the command that runs a test");
	if (o->job.log || o->job.on_target || o->job.expect)
		return tnorm__error_set(TNORM_EINVALID,
		                        "triage: the job's log, on_target and expect must be NULL");
	return 0;
}

/* 1 when test `name` has a result file in OUT/results (whatever it holds). */
static int result_exists(const char *out, const char *name)
{
	tnorm__buf p = TNORM__BUF_INIT;
	char key[FILE_KEY_MAX];
	int there = tnorm__buf_printf(&p, "%s/results/%s.json", out, file_key(name, key)) == 0 &&
	            access(p.ptr, F_OK) == 0;
	tnorm__buf_dispose(&p);
	return there;
}

/* Read every test's result back (the files are what a resumed job sees). */
static int gather(tnorm_triage_result *r, const char *dir, const char *jobkey)
{
	size_t i;
	r->done = 0;
	for (i = 0; i < r->ntests; i++) {
		tnorm_triage_test *t = &r->tests[i];
		char *file = path_of(dir, t->name, NULL), *text = NULL, hex[17];
		size_t len = 0;
		int fresh = t->fresh, loaded = 0;
		char *name = t->name;
		if (!file)
			return TNORM_ENOMEM;
		/* What an earlier pass read back goes first (a sampled job gathers after each pass). */
		t->name = NULL;
		test_dispose(t);
		t->name = name;
		/* (the test's bytes only for a test with a result: a job stopped early has few, and
		 * reading 10,000 crash files to find that out held a Ctrl-C for 18 s, issue 39) */
		if (result_exists(r->out, name) && tnorm_file_read(file, &text, &len) == 0) {
			hash_hex(text, len, hex);
			loaded = load_result(r->out, t, hex, jobkey);
		}
		tnorm_error_clear();
		tnorm_free(file);
		tnorm_free(text);
		t->fresh = fresh;
		r->done += loaded;
	}
	return 0;
}

/*
 * Why the job ended with tests pending although nobody stopped it (issue 28, item 8): the first
 * pending test whose file is gone, or that another live process holds.  TNORM_EIO with a
 * message that names the test and the cause; 0 when neither explains it.
 */
static int unfinished(const tnorm_triage_result *res)
{
	size_t i;
	for (i = 0; i < res->ntests; i++) {
		const char *name = res->tests[i].name;
		char *file, *claim, key[FILE_KEY_MAX];
		int gone, held;
		if (res->tests[i].status != TNORM_TRIAGE_PENDING)
			continue;
		file = path_of(res->folder, name, NULL);
		claim = path_of(res->out, "claims", file_key(name, key));
		gone = file && access(file, R_OK) < 0;
		held = claim && held_by(claim_owner(claim));
		if (gone || held) {
			int err = gone ? tnorm__error_set(TNORM_EIO, "%s: the file was deleted (or became "
			                                  "unreadable) while the triage ran; %zu of %zu "
			                                  "tests done", file, res->done, res->ntests)
			               : tnorm__error_set(TNORM_EIO, "%s: another tnorm triage (pid %ld) "
			                                  "is working on this test in %s; %zu of %zu tests "
			                                  "done: run the same command again once it is "
			                                  "done", file, claim_owner(claim), res->out,
			                                  res->done, res->ntests);
			tnorm_free(file);
			tnorm_free(claim);
			return err;
		}
		tnorm_free(file);
		tnorm_free(claim);
	}
	return 0;
}

/* One pass of the workers over the tests (j->check: their one-run checks; else the
 * minimization of those j->want asks for), then every result read back: 0 when every test of
 * the pass is done; TNORM_EINTERRUPTED (stopped), or why tests are left (unfinished). */
static int pass(job *j, tnorm_triage_progress *p, double t0)
{
	tnorm_triage_result *res = j->res;
	size_t i, left = 0;
	int err;
	j->next = 0;
	j->naside = 0;
	j->earlier = 0;
	j->head = j->tail = NULL;
	err = work(j, p->jobs, p, t0);
	clear_claims(res->out);
	if (err < 0 || (err = gather(res, res->folder, j->jobkey)) < 0)
		return err;
	if (!j->want)
		res->fresh = p->fresh; /* tests done by this job: counted at their check */
	for (i = 0; j->want && i < res->ntests; i++) /* a wanted test still only checked */
		left += j->want[i] && res->tests[i].status == TNORM_TRIAGE_OK && !res->tests[i].minimized;
	if (j->err)
		return tnorm__error_set(j->err, "%s", j->errmsg ? j->errmsg : tnorm_error_name(j->err));
	if (!j->stop && res->done < res->ntests && (err = unfinished(res)) < 0)
		return err; /* a test file deleted, or another triage on the same folder: said as such */
	if (j->stop || res->done < res->ntests)
		return tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: %zu of %zu tests done; run "
		                        "the same command again to resume", res->done, res->ntests);
	if (left)
		return tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: %zu tests to minimize are "
		                        "left; run the same command again to resume", left);
	return 0;
}

/* The buckets undone (before the next round of the plan makes them again). */
static void unmake_buckets(tnorm_triage_result *r)
{
	size_t i;
	for (i = 0; i < r->nbuckets; i++) {
		tnorm_free(r->buckets[i].annotated);
		tnorm_free(r->buckets[i].file);
		tnorm_free(r->buckets[i].own_signature);
		tnorm_why_result_dispose(r->buckets[i].why);
		tnorm_free(r->buckets[i].why);
	}
	tnorm_free(r->buckets);
	r->buckets = NULL;
	r->nbuckets = 0;
	r->failing = r->signatures = r->distinct_reduced = r->distinct_normalized = 0;
	for (i = 0; i < r->ntests; i++)
		r->tests[i].bucket = 0;
}

/* A sampled triage's rounds (triage_sample.c): after the checks, minimize what the plan asks
 * for, bucket the minimized tests (their coverage split included), and ask the plan again,
 * until it asks for nothing. */
static int sample(const tnorm_triage_options *o, job *j, tnorm_triage_progress *p, double t0)
{
	tnorm_triage_result *res = j->res;
	unsigned char *want = tnorm__calloc(res->ntests + 1, 1);
	unsigned char *planned = tnorm__calloc(res->ntests + 1, 1);
	size_t n, i, total = p->total, fresh = p->fresh;
	unsigned round;
	int err = 0;
	if (!want || !planned) {
		tnorm_free(want);
		tnorm_free(planned);
		return TNORM_ENOMEM;
	}
	j->check = 0;
	for (round = 0;; round++) {
		/* Minimized is what this plan asked for: a test minimized by an earlier job (a thorough
		 * one, a shard's plan) is taken as checked, so that the buckets are those of a fresh
		 * job whatever the folder's history; its result still saves the runs when asked for. */
		for (i = 0; i < res->ntests; i++)
			if (!planned[i])
				res->tests[i].minimized = 0;
		memset(want, 0, res->ntests + 1);
		if (round > 0 && ((err = make_buckets(res)) < 0 || (err = split_by_coverage(o, res)) < 0))
			break;
		n = tnorm__sample_plan(res, want);
		unmake_buckets(res);
		if (n == 0)
			break;
		for (i = 0; i < res->ntests; i++)
			planned[i] |= want[i];
		j->want = want;
		p->total = n;
		p->done = p->fresh = 0;
		if ((err = pass(j, p, t0)) < 0)
			break;
	}
	j->want = NULL;
	p->total = total;
	p->done = res->done;
	p->fresh = fresh;
	tnorm_free(want);
	tnorm_free(planned);
	if (err == TNORM_EINTERRUPTED && !strstr(tnorm_error_last()->message, "run "))
		err = tnorm__error_set(err, "interrupted while comparing executions; run again to "
		                       "finish");
	return err;
}

int tnorm_triage_run(const tnorm_triage_options *given, tnorm_triage_result *res)
{
	tnorm_triage_options opts;
	const tnorm_triage_options *o = &opts;
	tnorm_triage_progress p;
	tnorm_harness *h = NULL;
	job j;
	gen_ctx g;
	double t0 = tnorm__now();
	size_t b;
	int err;

	if (!res)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_run: no result");
	memset(res, 0, sizeof(*res));
	memset(&j, 0, sizeof(j));
	memset(&p, 0, sizeof(p));
	if ((err = take_options(given, &opts)) < 0 || (err = check_options(o)) < 0)
		return err;
	/* A bad harness is one error now, rather than the same error for every test. */
	if (o->harness && (err = tnorm_harness_load(&h, o->harness)) < 0)
		return err;
	tnorm_harness_free(h);
	res->unit = o->harness ? "steps" : "bytes";
	if (!(res->corpus = tnorm__strdup(o->dir)) ||
	    !(res->out = o->out ? tnorm__strdup(o->out) : path_of(o->dir, "triage", NULL)))
		return TNORM_ENOMEM;
	if ((err = find_tests(o, res)) < 0 || (err = make_dirs(res->folder, res->out)) < 0 ||
	    (err = probe_db(o, res, &j.dbpath)) < 0 || (err = job_key(o, j.jobkey)) < 0)
		return err;
	keep_shard(o, res);
	clear_claims(res->out);
	j.lease = (int)(o->lease ? o->lease : tnorm_db_is_url(o->db ? o->db : "") ? 30 : 5);

	p.total = res->ntests;
	p.jobs = o->jobs ? o->jobs : 1;
	p.out = res->out;
	p.event = TNORM_TRIAGE_EVENT_START;
	if (report(o, &p, t0))
		return tnorm__error_set(TNORM_EINTERRUPTED, "interrupted: 0 of %zu tests done; run the "
		                        "same command again to resume", res->ntests);
	j.o = o;
	j.res = res;
	j.check = !o->thorough;
	pthread_mutex_init(&j.lock, NULL);
	pthread_cond_init(&j.cv, NULL);
	err = pass(&j, &p, t0);
	/* Sampled: the tests the plan asks for are minimized, round by round (a shard plans over
	 * its own tests: the report run plans over all of them again, and finds most of what it
	 * asks for done by the shards). */
	if (err == 0 && !o->thorough)
		err = sample(o, &j, &p, t0);
	pthread_mutex_destroy(&j.lock);
	pthread_cond_destroy(&j.cv);
	tnorm_free(j.errmsg);
	if (err < 0)
		return err;

	g.o = o;
	g.p = &p;
	g.t0 = t0;
	if (o->shards <= 1 && (err = polish(o, res, j.jobkey, &g)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while polishing normal forms; run again "
		                                   "to finish")
		           : err;
	if ((err = make_buckets(res)) < 0)
		return err;
	if (o->shards > 1) {
		res->complete = 1; /* the report is the unsharded job's (which polishes) */
		return 0;
	}
	if ((err = split_by_coverage(o, res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while comparing executions; run again "
		                                   "to finish")
		           : err;
	if ((err = tnorm__sample_assign(res)) < 0)
		return err;
	p.nbuckets = res->nbuckets;
	for (b = 0; b < res->nbuckets && o->generalize && o->harness; b++)
		if ((err = generalize_bucket(o, res, b, &g)) < 0)
			return err == TNORM_EINTERRUPTED
			           ? tnorm__error_set(err, "interrupted while generalizing; run again to finish")
			           : err;
	if ((err = sign_representatives(o, res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while running the representatives; run "
		                                   "again to finish")
		           : err;
	if ((err = explain_buckets(o, res)) < 0)
		return err == TNORM_EINTERRUPTED
		           ? tnorm__error_set(err, "interrupted while explaining the buckets; run again "
		                                   "to finish")
		           : err;
	if ((err = write_representatives(res)) < 0)
		return err;
	res->complete = 1;
	return 0;
}

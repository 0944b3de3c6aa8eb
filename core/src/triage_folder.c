/* SPDX-License-Identifier: MIT */
/*
 * triage_folder.c - the triage's folders: which files of DIR are tests (with a harness *.t;
 * without, any file a fuzzer leaves: list_tests), the AFL++ output folder's crashes/, OUT made
 * and recognised as tnorm's own (its marker), each test's file name in OUT (file_key), and the
 * claims: OUT/claims/NAME made with O_EXCL by the worker that takes a test when there is no
 * database, void when the process that made it is gone, cleared at the start and end of a pass.
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
#include "json.h"
#include "options.h"
#include "triage_internal.h"

/* "A/B" or "A/B/C" (c may be NULL), freed with tnorm_free; NULL when out of memory. */
char *tnorm__triage_path_of(const char *a, const char *b, const char *c)
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
		char *sub = tnorm__triage_path_of(o->dir, afl[k], NULL);
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
int tnorm__triage_find_tests(const tnorm_triage_options *o, tnorm_triage_result *res)
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
			char *marker = tnorm__triage_path_of(dir, e->d_name, OUT_MARKER);
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

int tnorm__triage_make_dirs(const char *folder, const char *out)
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
const char *tnorm__triage_file_key(const char *name, char buf[FILE_KEY_MAX])
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
long tnorm__triage_claim_owner(const char *file)
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
int tnorm__triage_held_by(long pid)
{
	return pid > 0 && pid != (long)getpid() && (kill((pid_t)pid, 0) == 0 || errno != ESRCH);
}

/* 1 when a claim with owner `pid` may be deleted: tnorm's, and its owner is gone or is this
 * process. */
int tnorm__triage_void_claim(long pid)
{
	return pid == 0 || (pid > 0 && !tnorm__triage_held_by(pid));
}

/* Claim OUT/claims/NAME (`file`) for this process: its pid is written to a file beside it that is then
 * linked to the claim's name, so that a claim is never seen without its owner.  1 when claimed,
 * 0 when the name exists already, or an error.  The file is not synced: a claim only has to
 * outlive its process, not the machine (after a reboot its owner is gone and the claim void),
 * and a sync per file was a third of triage's bookkeeping on a folder of duplicates (issue 38,
 * item 3).  Its temporary name has the PID where tnorm__sweep_dead_tmp looks for it. */
int tnorm__triage_take_claim(const char *claims, const char *name, const char *file)
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
		char *sub = tnorm__triage_path_of(out, subs[k], NULL);
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
void tnorm__triage_clear_claims(const char *out)
{
	char *dir = tnorm__triage_path_of(out, "claims", NULL);
	DIR *d = dir ? opendir(dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		char *f;
		if (e->d_name[0] == '.')
			continue;
		if ((f = tnorm__triage_path_of(dir, e->d_name, NULL)) &&
		    tnorm__triage_void_claim(tnorm__triage_claim_owner(f)))
			unlink(f);
		tnorm_free(f);
	}
	if (d)
		closedir(d);
	tnorm_free(dir);
	clear_dead_tmp(out);
	tnorm_error_clear();
}

/* SPDX-License-Identifier: MIT */
/*
 * rundir.c - the run folder: where each run's candidate is written and its program runs.
 *
 * One per runner, made at its first run, reused: a run writes the candidate into it (a new file
 * each time, O_EXCL: never through a link the last program left), and after the run everything
 * in it goes, the candidate and whatever the program wrote.  Between runs it is empty, as a
 * fresh folder would be, without a mkdir and an rmdir per run.  A folder the program removed or
 * renamed is made again; one that cannot be emptied is given up (removed as well as can be) for
 * a new one.  The folder's path is part of the program's command line ({} or @@ replaced by the
 * candidate's path), so a new folder means a new argv, and a fork server started in the old one
 * is stopped (forkserver.c compares the folder's generation).
 *
 * Folders are named tnorm-run-PID-XXXXXX under $TMPDIR (or /tmp), so that those of an engine
 * that was killed (kill -9, a crash) can be told and removed by the next runner.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runner_internal.h"

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove a run's folder and whatever the program left in it (files, folders; links not
 * followed). */
static void remove_dir(const char *dir, const char *file)
{
	if (file)
		unlink(file);
	if (rmdir(dir) < 0)
		nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * Folders of runs whose engine was killed (kill -9, a crash) are named tnorm-run-PID-XXXXXX:
 * when PID no longer exists, nobody will remove them but us.  The command's own temporary
 * files are named so too (tnorm-why-PID-XXXXXX, tnorm-harness-PID-XXXXXX.tnh: core/cli), and
 * go the same way (issue 39, item 10).
 */
void tnorm__rundir_sweep_stale(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	if (!d)
		return;
	while ((e = readdir(d))) {
		static const char *const prefixes[] = {"tnorm-run-", "tnorm-why-", "tnorm-harness-"};
		char *end = NULL, path[4096];
		size_t k, n = 0;
		long pid;
		for (k = 0; k < sizeof(prefixes) / sizeof(*prefixes) && !n; k++)
			if (!strncmp(e->d_name, prefixes[k], strlen(prefixes[k])))
				n = strlen(prefixes[k]);
		if (!n)
			continue;
		pid = strtol(e->d_name + n, &end, 10);
		if (pid <= 0 || !end || *end != '-' || (pid_t)pid == getpid() ||
		    kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", root, e->d_name) >= sizeof(path))
			continue;
		if (n == 10 && !strncmp(e->d_name, "tnorm-run-", 10))
			remove_dir(path, NULL);
		else
			unlink(path); /* (a file: a folder of that name is not ours, and stays) */
	}
	closedir(d);
}

/* The first placeholder in `s`: `{}`, or `@@` (AFL's spelling, for fuzzers' command lines);
 * NULL when none. */
const char *tnorm__rundir_placeholder(const char *s)
{
	const char *a = strstr(s, "{}"), *b = strstr(s, "@@");
	return !a ? b : !b ? a : a < b ? a : b;
}

static char *substitute(const char *arg, const char *path)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *p = arg, *q;
	while ((q = tnorm__rundir_placeholder(p)) != NULL) {
		if (tnorm__buf_put(&b, p, (size_t)(q - p)) < 0 || tnorm__buf_puts(&b, path) < 0)
			goto oom;
		p = q + 2;
	}
	if (tnorm__buf_puts(&b, p) < 0)
		goto oom;
	return tnorm__buf_detach(&b);
oom:
	tnorm__buf_dispose(&b);
	return NULL;
}

void tnorm__rundir_drop(tnorm_runner *r)
{
	if (r->dirfd >= 0)
		close(r->dirfd);
	r->dirfd = -1;
	if (r->dir)
		remove_dir(r->dir, r->file);
	free(r->dir);
	free(r->file);
	tnorm__strv_free(r->run_argv);
	r->dir = r->file = NULL;
	r->run_argv = NULL;
}

static int folder_make(tnorm_runner *r)
{
	const char *tmproot = getenv("TMPDIR");
	tnorm__buf b = TNORM__BUF_INIT;
	size_t i;
	if (!tmproot || !*tmproot)
		tmproot = NULL;
	if (tnorm__buf_printf(&b, "%s/tnorm-run-%d-XXXXXX", tmproot ? tmproot : "/tmp",
	                      (int)getpid()) < 0)
		return TNORM_ENOMEM;
	if (!mkdtemp(b.ptr)) {
		tnorm__buf_dispose(&b);
		return tnorm__error_errno(TNORM_EIO, "cannot create a temporary folder in %s%s",
		                          tmproot ? tmproot : "/tmp", tmproot ? " ($TMPDIR)" : "");
	}
	r->dir = tnorm__buf_detach(&b);
	if (!r->dir)
		return TNORM_ENOMEM;
	if ((r->dirfd = open(r->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return tnorm__error_errno(TNORM_EIO, "%s: cannot open", r->dir);
	if (tnorm__buf_printf(&b, "%s/candidate%s", r->dir, r->suffix) < 0 ||
	    !(r->file = tnorm__buf_detach(&b)) ||
	    !(r->run_argv = tnorm__calloc(r->argc + 1, sizeof(*r->run_argv)))) {
		tnorm__buf_dispose(&b);
		return TNORM_ENOMEM;
	}
	for (i = 0; i < r->argc; i++)
		if (!(r->run_argv[i] = substitute(r->argv[i], r->file)))
			return TNORM_ENOMEM;
	r->folder_gen++;
	return 0;
}

/* The candidate's file name in the folder. */
static const char *candidate_name(const tnorm_runner *r)
{
	return strrchr(r->file, '/') + 1;
}

/* Write the candidate into the run folder (made first if need be). */
int tnorm__rundir_write(tnorm_runner *r, const void *data, size_t len)
{
	const char *p = data;
	size_t left = len;
	int fd = -1, err, tries;
	for (tries = 0; fd < 0; tries++) {
		if (!r->dir && (err = folder_make(r)) < 0) {
			tnorm__rundir_drop(r);
			return err;
		}
		fd = openat(r->dirfd, candidate_name(r), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0 && tries == 0) {
			tnorm__rundir_drop(r); /* removed, renamed, or not emptied: start afresh */
		} else if (fd < 0) {
			return tnorm__error_errno(TNORM_EIO, "%s: cannot create", r->file);
		}
	}
	while (left) {
		ssize_t w = write(fd, p, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			err = tnorm__error_errno(TNORM_EIO, "%s: cannot write", r->file);
			close(fd);
			return err;
		}
		p += w;
		left -= (size_t)w;
	}
	close(fd);
	return 0;
}

/* Remove everything in the run folder; 0 when it is empty, -1 when something stays. */
static int folder_sweep(tnorm_runner *r)
{
	char buf[4096];
	int pass;
	for (pass = 0; pass < 4; pass++) {
		int found = 0;
		ssize_t n;
		if (lseek(r->dirfd, 0, SEEK_SET) < 0)
			return -1;
		while ((n = getdents64(r->dirfd, buf, sizeof(buf))) > 0) {
			ssize_t off = 0;
			while (off < n) {
				struct dirent64 *e = (struct dirent64 *)(buf + off);
				off += e->d_reclen;
				if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
					continue;
				found = 1;
				if (unlinkat(r->dirfd, e->d_name, 0) < 0 && (errno == EISDIR || errno == EPERM)) {
					char path[4096];
					if ((size_t)snprintf(path, sizeof(path), "%s/%s", r->dir, e->d_name) <
					    sizeof(path))
						nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
				}
			}
		}
		if (n < 0)
			return -1;
		if (!found)
			return 0;
	}
	return -1;
}

/* After a run: empty the folder for the next one, or give it up. */
void tnorm__rundir_clean(tnorm_runner *r)
{
	if (!r->dir)
		return;
	/* The usual case, only the candidate there: its unlink, then one look at the folder. */
	unlinkat(r->dirfd, candidate_name(r), 0);
	if (folder_sweep(r) < 0)
		tnorm__rundir_drop(r);
}

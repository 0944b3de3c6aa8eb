/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the single allocation path, a growable buffer, and whole-file I/O.
 *
 * Every allocation in the engine goes through tnorm__malloc and friends so that a test can make
 * the N-th allocation fail and check that every caller cleans up and reports TNORM_ENOMEM.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common.h"

static _Thread_local long fail_after = -1;

void tnorm__alloc_fail_after(long n)
{
	fail_after = n;
}

static int should_fail(void)
{
	if (fail_after < 0)
		return 0;
	if (fail_after == 0)
		return 1;
	fail_after--;
	return 0;
}

static void *oom(void)
{
	tnorm__error_set(TNORM_ENOMEM, "out of memory");
	return NULL;
}

void *tnorm__malloc(size_t n)
{
	void *p;
	if (should_fail())
		return oom();
	p = malloc(n ? n : 1);
	return p ? p : oom();
}

void *tnorm__calloc(size_t n, size_t size)
{
	void *p;
	if (should_fail())
		return oom();
	p = calloc(n ? n : 1, size ? size : 1);
	return p ? p : oom();
}

void *tnorm__realloc(void *p, size_t n)
{
	void *q;
	if (should_fail())
		return oom();
	q = realloc(p, n ? n : 1);
	return q ? q : oom();
}

void *tnorm__reallocarray(void *p, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return oom();
	return tnorm__realloc(p, n * size);
}

char *tnorm__strndup(const char *s, size_t n)
{
	char *d = tnorm__malloc(n + 1);
	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

char *tnorm__strdup(const char *s)
{
	return tnorm__strndup(s, strlen(s));
}

void tnorm__freep(void *p)
{
	free(p);
}

void tnorm_free(void *p)
{
	free(p);
}

int tnorm__buf_grow(tnorm__buf *b, size_t extra)
{
	size_t need, cap;
	char *p;

	if (extra > SIZE_MAX - b->len - 1)
		return tnorm__error_set(TNORM_ENOMEM, "out of memory");
	need = b->len + extra + 1;
	if (need <= b->cap)
		return 0;
	cap = b->cap ? b->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = tnorm__realloc(b->ptr, cap);
	if (!p)
		return TNORM_ENOMEM;
	b->ptr = p;
	b->cap = cap;
	return 0;
}

int tnorm__buf_put(tnorm__buf *b, const void *data, size_t n)
{
	int err = tnorm__buf_grow(b, n);
	if (err < 0)
		return err;
	if (n)
		memcpy(b->ptr + b->len, data, n);
	b->len += n;
	b->ptr[b->len] = '\0';
	return 0;
}

int tnorm__buf_puts(tnorm__buf *b, const char *s)
{
	return tnorm__buf_put(b, s, strlen(s));
}

int tnorm__buf_putc(tnorm__buf *b, char c)
{
	return tnorm__buf_put(b, &c, 1);
}

int tnorm__buf_printf(tnorm__buf *b, const char *fmt, ...)
{
	va_list ap;
	int n, err;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return tnorm__error_set(TNORM_ERROR, "bad format");
	if ((err = tnorm__buf_grow(b, (size_t)n)) < 0)
		return err;
	va_start(ap, fmt);
	vsnprintf(b->ptr + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
	return 0;
}

char *tnorm__buf_detach(tnorm__buf *b)
{
	char *p;
	if (!b->ptr) {
		if (tnorm__buf_grow(b, 0) < 0)
			return NULL;
		b->ptr[0] = '\0';
	}
	p = b->ptr;
	b->ptr = NULL;
	b->len = b->cap = 0;
	return p;
}

void tnorm__buf_dispose(tnorm__buf *b)
{
	free(b->ptr);
	b->ptr = NULL;
	b->len = b->cap = 0;
}

const char *tnorm__file_kind(unsigned m)
{
	return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device"
	       : S_ISBLK(m) ? "a block device" : S_ISSOCK(m) ? "a socket" : "not a regular file";
}

/* Over the limit: how to raise it, or (when TNORM_MAX_INPUT set it) that it is the user's. */
static int too_big(const char *path, uint64_t limit)
{
	const char *set = getenv("TNORM_MAX_INPUT");
	if (set && *set)
		return tnorm__error_set(TNORM_EINVALID, "%s: larger than %llu bytes, the limit for an "
		                        "input file that TNORM_MAX_INPUT=%s in the environment sets",
		                        path, (unsigned long long)limit, set);
	return tnorm__error_set(TNORM_EINVALID, "%s: larger than %llu bytes, tnorm's limit for an "
	                        "input file (TNORM_MAX_INPUT=SIZE in the environment raises it, e.g. "
	                        "TNORM_MAX_INPUT=2G)", path, (unsigned long long)limit);
}

/* Read with open and read straight into the result, sized by fstat (files in /proc say 0: the
 * buffer then grows as it fills): no stdio stream and no bounce buffer.  A fork server's child
 * reads its test with this, and every page it touches there is a copy-on-write fault.  Only
 * regular files are read, opened without blocking (a FIFO would block open() for good, and
 * /dev/zero never ends), and at most TNORM_MAX_INPUT bytes (tnorm__env_max_input). */
int tnorm__read_file(const char *path, char **out, size_t *len)
{
	tnorm__buf b = TNORM__BUF_INIT;
	struct stat st;
	uint64_t limit;
	int fd, err = 0;

	*out = NULL;
	if (len)
		*len = 0;
	if ((err = tnorm__env_max_input(&limit)) < 0)
		return err;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)) < 0)
		return tnorm__error_errno(TNORM_EIO, "%s: cannot open", path);
	if (fstat(fd, &st) < 0) {
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot read", path);
		close(fd);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return tnorm__error_set(TNORM_EINVALID, "%s: %s, not a regular file: tnorm reads tests, "
		                        "harnesses and inputs from regular files only", path,
		                        tnorm__file_kind(st.st_mode));
	}
	if ((uint64_t)st.st_size > limit) {
		close(fd);
		return too_big(path, limit);
	}
	if ((err = tnorm__buf_grow(&b, st.st_size > 0 &&
	                                       (uint64_t)st.st_size < SIZE_MAX / 2
	                                   ? (size_t)st.st_size + 1
	                                   : 4096)) < 0)
		goto done;
	for (;;) {
		ssize_t n;
		if (b.cap - b.len < 2 && (err = tnorm__buf_grow(&b, b.cap)) < 0)
			goto done;
		n = read(fd, b.ptr + b.len, b.cap - b.len - 1);
		if (n == 0)
			break;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = tnorm__error_errno(TNORM_EIO, "%s: cannot read", path);
			goto done;
		}
		b.len += (size_t)n;
		if ((uint64_t)b.len > limit) {
			err = too_big(path, limit);
			goto done;
		}
	}
	b.ptr[b.len] = '\0';
	if (len)
		*len = b.len;
	*out = tnorm__buf_detach(&b);
done:
	close(fd);
	tnorm__buf_dispose(&b);
	return err;
}

int tnorm__write_file_atomic(const char *path, const void *data, size_t len)
{
	tnorm__buf tmp = TNORM__BUF_INIT;
	const char *p = data;
	int fd = -1, err = 0;

	/* (the PID: a later run removes what a killed one left, tnorm__sweep_dead_tmp) */
	if ((err = tnorm__buf_printf(&tmp, "%s.tmp.%ld.XXXXXX", path, (long)getpid())) < 0)
		return err;
	if ((fd = mkstemp(tmp.ptr)) < 0) {
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot create a temporary file", path);
		goto done;
	}
	while (len > 0) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			err = tnorm__error_errno(TNORM_EIO, "%s: cannot write", path);
			goto done;
		}
		p += w;
		len -= (size_t)w;
	}
	if (fchmod(fd, 0644) < 0 || fsync(fd) < 0) {
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot sync", path);
		goto done;
	}
	if (close(fd) < 0) {
		fd = -1;
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot close", path);
		goto done;
	}
	fd = -1;
	if (rename(tmp.ptr, path) < 0) {
		err = tnorm__error_errno(TNORM_EIO, "%s: cannot rename into place", path);
		goto done;
	}
done:
	if (fd >= 0)
		close(fd);
	if (err < 0 && tmp.ptr)
		unlink(tmp.ptr);
	tnorm__buf_dispose(&tmp);
	return err;
}

double tnorm__now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void tnorm__hash64_pair(const void *data, size_t len, uint64_t seed1, uint64_t seed2, uint64_t *h1,
                        uint64_t *h2)
{
	const unsigned char *p = data;
	uint64_t a = 1469598103934665603ULL ^ seed1, b = 1469598103934665603ULL ^ seed2;
	size_t i;
	for (i = 0; i < len; i++) {
		a = (a ^ p[i]) * 1099511628211ULL;
		b = (b ^ p[i]) * 1099511628211ULL;
	}
	*h1 = a;
	*h2 = b;
}

uint64_t tnorm__hash64(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	uint64_t h = 1469598103934665603ULL ^ seed;
	size_t i;
	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

int tnorm_file_write_atomic(const char *path, const void *data, size_t len)
{
	if (!path || (!data && len))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_file_write_atomic: NULL argument");
	return tnorm__write_file_atomic(path, data, len);
}

int tnorm_file_read(const char *path, char **out, size_t *len)
{
	if (!path || !out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_file_read: NULL argument");
	return tnorm__read_file(path, out, len);
}

/* The PID of a name "NAME.tmp.PID.XXXXXX" (the last ".tmp." in it), 0 when it is not one. */
static long tmp_owner(const char *name)
{
	const char *p = NULL, *q = name;
	char *end = NULL;
	long pid;
	while ((q = strstr(q, ".tmp.")) != NULL)
		p = q++;
	if (!p)
		return 0;
	pid = strtol(p + 5, &end, 10);
	return pid > 0 && end && *end == '.' && strlen(end + 1) == 6 ? pid : 0;
}

void tnorm__sweep_dead_tmp(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		struct stat st;
		long pid = tmp_owner(e->d_name);
		if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 || st.st_uid != geteuid())
			continue;
		if (S_ISREG(st.st_mode)) {
			unlinkat(dirfd(d), e->d_name, 0);
		} else if (S_ISDIR(st.st_mode)) {
			/* triage's OUT in the making (triage.c, make_out): its marker, then the folder */
			int fd = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0) {
				unlinkat(fd, ".tnorm-triage", 0);
				close(fd);
			}
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
		}
	}
	if (d)
		closedir(d);
}

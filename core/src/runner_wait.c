/* SPDX-License-Identifier: MIT */
/*
 * runner_wait.c - the wait loop of a run, in the caller's thread: output, the tracer's news, the
 * timeout, Ctrl-C.
 *
 * While the tracer thread (tracer.c) starts the program and takes its ptrace stops, the caller's
 * thread blocks in one ppoll on the run's output pipes, the tracer's eventfd and, for a run whose
 * persistent child may say its candidate passed, the fork server's control socket; the timeout
 * is poll's.  Nothing spins: the loop wakes for output (drained into the run's streams, up to the
 * options' cap), for the tracer's word that the program is gone (or said hello: then the fork
 * server's first request goes), for the timeout (SIGTERM to the program's group, SIGKILL 0.2 s
 * later), and every CANCEL_POLL_MS to look at the cancel flag.  A process that outlives its
 * SIGKILL by TNORM__KILL_GRACE seconds is given up on, with the tracer (gave_up).  runner.c
 * makes the run around it: the pipes, the tracer's job, what the run came to.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "runner_internal.h"

static void drain(tnorm__stream *s, size_t cap)
{
	char chunk[65536];
	for (;;) {
		ssize_t n = read(s->fd, chunk, sizeof(chunk));
		if (n > 0) {
			size_t keep = s->len < cap ? cap - s->len : 0;
			if (keep > (size_t)n)
				keep = (size_t)n;
			if (keep) {
				memcpy(s->buf + s->len, chunk, keep);
				s->len += keep;
				s->buf[s->len] = '\0';
			}
			s->total += (size_t)n;
			continue;
		}
		if (n == 0) {
			close(s->fd);
			s->fd = -1;
		} else if (errno == EINTR) {
			continue;
		}
		return;
	}
}

/*
 * Wait up to `timeout` ms (-1: no limit) for output on the open streams, or for `extra` or
 * `extra2` to be readable (-1: none); drain what came.  Returns bit 1 when `extra` is readable,
 * bit 2 when `extra2` is.  The wait is a ppoll with the thread's mask `mask` (tnorm__wait_mask):
 * SIGCHLD held while it waits.
 */
static int poll_streams(tnorm__stream *so, tnorm__stream *se, int extra, int extra2, int timeout,
                        size_t cap, const sigset_t *mask)
{
	struct timespec ts, *tsp = NULL;
	struct pollfd pfd[4];
	tnorm__stream *of[4] = {NULL, NULL, NULL, NULL};
	nfds_t np = 0, k, ix = 0, ix2 = 0;
	int got = 0;
	if (so->fd >= 0) {
		of[np] = so;
		pfd[np].fd = so->fd;
		pfd[np++].events = POLLIN;
	}
	if (se->fd >= 0) {
		of[np] = se;
		pfd[np].fd = se->fd;
		pfd[np++].events = POLLIN;
	}
	if (extra >= 0) {
		ix = np;
		pfd[np].fd = extra;
		pfd[np++].events = POLLIN;
	}
	if (extra2 >= 0) {
		ix2 = np;
		pfd[np].fd = extra2;
		pfd[np++].events = POLLIN;
	}
	if (timeout >= 0) {
		ts.tv_sec = timeout / 1000;
		ts.tv_nsec = (long)(timeout % 1000) * 1000000L;
		tsp = &ts;
	}
	if (np == 0 || ppoll(pfd, np, tsp, mask) <= 0)
		return 0;
	for (k = 0; k < np; k++)
		if (pfd[k].revents && of[k])
			drain(of[k], cap);
	if (extra >= 0 && pfd[ix].revents)
		got |= 1;
	if (extra2 >= 0 && pfd[ix2].revents)
		got |= 2;
	return got;
}

void tnorm__wait_output(tnorm__stream *so, tnorm__stream *se, int timeout, size_t cap,
                        const sigset_t *mask)
{
	poll_streams(so, se, -1, -1, timeout, cap, mask);
}

/* The poll timeout until `when` (monotonic seconds), rounded up to whole milliseconds; 0 when it
 * is past. */
static int ms_until(double when)
{
	double left = when - tnorm__now();
	return left <= 0 ? 0 : (int)(left * 1000.0) + 1;
}

/* How often a run that waits looks at the cancel flag (ms): a signal that sets it may be taken
 * by another thread, so poll's EINTR alone cannot be relied on. */
#define CANCEL_POLL_MS 50

/*
 * The mask the caller's thread waits with: its own, and SIGCHLD.  The tracer thread blocks every
 * signal, so the kernel does not drop the SIGCHLD of each ptrace stop and exit of a run's program
 * (as it does for an ignored signal) but hands it to a thread that takes it: this one, in its
 * wait, which it would interrupt two or three times a run (a wake-up, the signal ignored, the
 * wait made again).  Held while the thread waits, a SIGCHLD stays pending (one, however many
 * came) and goes as before when the wait returns; every other signal (Ctrl-C) comes as before.
 */
void tnorm__wait_mask(sigset_t *mask)
{
	pthread_sigmask(SIG_BLOCK, NULL, mask);
	sigaddset(mask, SIGCHLD);
}

/* 1 when a run asked for with request byte `what` may end with its child's "TNPS". */
static int may_end_persisting(char what)
{
	return what == 'P' || what == 'C';
}

/* The state letter of process `pid` (/proc/PID/stat), '?' when it cannot be read. */
static char proc_state(pid_t pid)
{
	char path[64], *text = NULL, *p, c = '?';
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (tnorm__read_file(path, &text, NULL) == 0 && (p = strrchr(text, ')')) && p[1] == ' ' && p[2])
		c = p[2];
	free(text);
	return c;
}

/*
 * A run whose processes were sent SIGKILL TNORM__KILL_GRACE seconds ago and are not reaped (or
 * whose program was never started: the tracer waits in a vfork that does not return): the
 * kernel holds them.  Waiting on would be for good, with Ctrl-C unheard: the tracer is left to
 * it (stuck: this runner runs nothing more) and the run ends with an error (TNORM_EINTERRUPTED
 * when the user stopped it, else TNORM_EIO).
 */
static int gave_up(tnorm_runner *r, tnorm__tracer *t, pid_t pid, tnorm__waited *w)
{
	tnorm__tracer_abandon(t);
	w->pid = pid;
	if (pid > 0)
		return tnorm__error_set(w->cancelled ? TNORM_EINTERRUPTED : TNORM_EIO,
		                        "%s'%s' (pid %d, state %c) did not end %.0f s after SIGKILL: "
		                        "no longer waited for, and no more runs",
		                        w->cancelled ? "interrupted; " : "", r->argv[0], (int)pid,
		                        proc_state(pid), TNORM__KILL_GRACE);
	return tnorm__error_set(w->cancelled ? TNORM_EINTERRUPTED : TNORM_EIO,
	                        "%s'%s' was not started %.0f s after its run was stopped: no "
	                        "longer waited for, and no more runs",
	                        w->cancelled ? "interrupted; " : "", r->argv[0], TNORM__KILL_GRACE);
}

/*
 * How long the wait loop's poll may block, in ms (-1: until something comes), given the run's
 * deadline `dl` (0: none), its pid (0: not known yet), and when SIGTERM and SIGKILL were sent
 * (-1: not yet).
 */
static int poll_timeout(const tnorm_runner *r, double dl, pid_t pid, double term_at, double kill_at)
{
	int timeout = -1;
	if (dl && term_at < 0) /* (no pid yet: a second's grace for the fork, in 1 ms polls once the
	                        * deadline is past, because the fork server's report of the pid
	                        * does not wake the poll: a longer sleep let a run past its timeout
	                        * pass) */
		timeout = pid ? ms_until(dl) : 1 + ms_until(dl);
	else if (term_at >= 0 && kill_at < 0)
		timeout = ms_until(term_at + 0.2);
	else if (kill_at >= 0)
		timeout = ms_until(kill_at + TNORM__KILL_GRACE);
	if (r->cancel && kill_at < 0 && (timeout < 0 || timeout > CANCEL_POLL_MS))
		timeout = CANCEL_POLL_MS;
	return timeout;
}

/*
 * TNORM__RUN_SPAWN: the fork server said hello (`hello`, as w->hello has it; 0: the run ended
 * first): the run's request `what` goes to the server with the streams in `pending`, which are
 * closed here either way.  1 when the request went and its child may end persisting (the
 * control socket is then polled), else 0.
 */
static int hand_request(tnorm_runner *r, tnorm__tracer *t, int *pending, char what, int hello)
{
	int polled = 0;
	size_t i;
	if (hello) {
		/* (A runtime that cannot echo request numbers: no persistent child.) */
		r->fs_nonced = hello >= 2;
		if (what == 'P' && !r->fs_nonced)
			what = 'R';
		if (tnorm__forkserver_request(r->ctl, pending, what, &r->nonce) < 0)
			tnorm__tracer_kill_server(t);
		else
			polled = may_end_persisting(what);
	}
	for (i = 0; i < 3; i++) {
		close(pending[i]);
		pending[i] = -1;
	}
	return polled;
}

/*
 * Block until output comes, the tracer says the run's program is gone, the run's persistent
 * child says its candidate passed, or the timeout (then SIGTERM to its group, SIGKILL 0.2 s
 * later).  When the cancel flag is set, the program's group is killed at once (w->cancelled).
 * In TNORM__RUN_SPAWN, `pending` holds the run's streams for the server's request, sent when the
 * program says hello.  `what`: the request byte of the run (0: none).  0, or TNORM_EIO (fork
 * failed).
 *
 * Persistent mode: for a run whose child may persist ('P' or 'C'), the control socket is polled
 * too.  Its "TNPS" ends the run as an exit 0 (tnorm__tracer_persisted), with no stop of the child
 * and no word from the tracer: two hand-offs per candidate (the request, the report).  A run
 * that ends otherwise (the child died, was timed out or cancelled) reads the socket once more,
 * after the tracer reaped the child: a "TNPS" it sent before it died is taken there (the pass
 * stands, unless the run timed out or was cancelled), and never left for the next run.
 */
int tnorm__wait_run(tnorm_runner *r, tnorm__tracer *t, tnorm__run_mode mode, char what,
                    tnorm__stream *so, tnorm__stream *se, int *pending, double start,
                    const sigset_t *mask, tnorm__waited *w)
{
	double deadline = r->opts.timeout > 0 ? start + r->opts.timeout : 0, term_at = 0, kill_at = 0;
	int term_sent = 0, kill_sent = 0, blind_kill = 0, done_seen = 0, got, pgot = 0;
	int pctl = mode == TNORM__RUN_SERVED && may_end_persisting(what) ? r->ctl : -1, ppoll_fd = pctl;
	struct rusage pru;
	pid_t pid = 0;
	while (!done_seen) {
		int timeout;
		double tnow, dl;
		/* The deadline moves by the time the tracer held the program stopped for its own
		 * work: under load, unwinding a sanitizer's crash can take longer than the run. */
		dl = deadline ? deadline + tnorm__tracer_held(t) : 0;
		timeout = poll_timeout(r, dl, pid, term_sent ? term_at : -1, kill_sent ? kill_at : -1);
		got = poll_streams(so, se, tnorm__tracer_fd(t), ppoll_fd, timeout, r->opts.output_cap, mask);
		if (got & 1) {
			uint64_t v;
			while (read(tnorm__tracer_fd(t), &v, sizeof(v)) > 0)
				;
		}
		/* (After a timeout or a cancel, the child is being killed: its report, if it comes,
		 * is read once it is reaped, below.) */
		if ((got & 2) && !term_sent &&
		    (pgot = tnorm__forkserver_persisted(pctl, r->nonce, &pru)) > 0) {
			tnorm__tracer_persisted(t, &pru, &pid, w);
			break;
		}
		if ((got & 2) && (term_sent || pgot < 0))
			ppoll_fd = -1; /* the socket's other ends are closed (or the run is being
			                * killed): the tracer has the rest to say.  (What the candidate
			                * wrote there itself was dropped: the socket is still polled.) */
		done_seen = tnorm__tracer_answer(t, &pid, w);
		if (pending[0] >= 0 && (w->hello || done_seen) &&
		    hand_request(r, t, pending, what, done_seen ? 0 : w->hello))
			pctl = ppoll_fd = r->ctl; /* (the hello is read: only the child speaks now) */
		if (pid < 0) {
			/* The fork failed (errno is its error): nothing to wait for. */
			w->pid = 0;
			return tnorm__error_errno(TNORM_EIO, "fork failed");
		}
		tnow = tnorm__now();
		if (done_seen)
			continue;
		dl = deadline ? deadline + tnorm__tracer_held(t) : 0; /* (again: the poll took time) */
		if (kill_sent && tnow >= kill_at + TNORM__KILL_GRACE)
			return gave_up(r, t, pid, w); /* (never for good, issue 39, item 4) */
		if (!pid && !kill_sent &&
		    ((r->cancel && *r->cancel) || (dl && tnow > dl + 1.0))) {
			/* A fork server that does not fork (a program that said hello and sleeps, issue
			 * 39 item 4: Ctrl-C went unheard, and for good without a timeout), a program the
			 * tracer has not started yet, or Ctrl-C before the fork: the server goes (then a
			 * run afresh, or the job ends), and a program started after all is killed when
			 * it is known (blind_kill). */
			w->cancelled = r->cancel && *r->cancel;
			w->timed_out = !w->cancelled;
			term_sent = kill_sent = blind_kill = 1;
			kill_at = tnow;
			tnorm__tracer_kill_server(t);
		}
		if (pid == 0)
			continue; /* pid 0: started a moment ago, the timeout waits for the fork */
		if (blind_kill) {
			blind_kill = 0;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
		if (r->cancel && *r->cancel && !w->cancelled) {
			/* Ctrl-C: the run ends now, not at its timeout (issue 28, item 6); also while
			 * a timed-out run's processes are being killed. */
			if (!kill_sent)
				kill_at = tnow;
			w->cancelled = term_sent = kill_sent = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		} else if (dl && tnow >= dl && !term_sent) {
			w->timed_out = 1;
			term_sent = 1;
			term_at = tnow;
			kill(-pid, SIGTERM);
			kill(pid, SIGTERM);
		} else if (term_sent && !kill_sent && tnow >= term_at + 0.2) {
			kill_sent = 1;
			kill_at = tnow;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
		}
	}
	if (done_seen && pctl >= 0 && tnorm__forkserver_persisted(pctl, r->nonce, &pru) > 0 &&
	    !w->timed_out && !w->cancelled && !w->lost) {
		/* The child said its candidate passed, then died before we read it: a pass. */
		w->status = 0;
		w->ru = pru;
		w->from_server = 0;
	}
	w->pid = pid;
	return 0;
}

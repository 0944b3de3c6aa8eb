/* SPDX-License-Identifier: MIT */
/*
 * tracer.c - the tracer: a thread of the runner's own that starts each run's program and waits
 * for it.
 *
 * ptrace requests come from the tracing thread only, and a blocking wait that sees every traced
 * thread of the program (its threads come and go: PTRACE_O_TRACECLONE) must be a wait for any
 * child.  In the caller's thread that would take the children of whoever else lives there (a
 * debugger's inferior, a Python subprocess), and the output pipes and the timeout need it at the
 * same time.  So a private thread, which has no children but the runs', vforks the program and
 * blocks in wait4(-1, __WALL | __WNOTHREAD), handling each ptrace stop as it comes; the caller
 * blocks in poll on the output pipes and an eventfd the tracer signals when the program is
 * gone, with the timeout as poll's.  Neither spins.  The thread blocks every signal, starts at
 * the first run and ends in tnorm_runner_free (PTRACE_O_EXITKILL: a tracee dies with it).
 *
 * Below, in order: what a stop of the program means (on_stop: a fatal signal or a failing exit
 * is unwound by unwind.c, a probe's breakpoint taken back), how the program starts (start_child:
 * vfork, then only system calls up to exec), the run's other processes (the task set: killed
 * when the run is over), then the thread itself and what the caller's thread asks of it
 * (runner_internal.h).  Following a fork server's children is here too; what is said on its
 * control socket is forkserver.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "runner_internal.h"

/*
 * Of the threads stopping on their way out of an exit_group, the one that called it: its
 * stack shows who called exit().  The others were merely stopped wherever they were.
 */
static int called_exit(pid_t tid)
{
#if defined(__x86_64__)
	struct user_regs_struct regs;
	if (ptrace(PTRACE_GETREGS, tid, NULL, &regs) < 0)
		return 1;
	return regs.orig_rax == SYS_exit_group || regs.orig_rax == SYS_exit;
#else
	(void)tid;
	return 1;
#endif
}

/* 1 when thread `tid` neither ignores nor catches `sig` (its /proc status masks). */
static int default_disposition(pid_t pid, pid_t tid, int sig)
{
	char path[64], *text = NULL, *p;
	unsigned long long ign = 0, cgt = 0, bit = 1ULL << (sig - 1);
	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)pid, (int)tid);
	if (tnorm__read_file(path, &text, NULL) < 0)
		return 0;
	if ((p = strstr(text, "\nSigIgn:")))
		ign = strtoull(p + 8, NULL, 16);
	if ((p = strstr(text, "\nSigCgt:")))
		cgt = strtoull(p + 8, NULL, 16);
	free(text);
	return !(ign & bit) && !(cgt & bit);
}

/*
 * Signals whose stop is unwound.  SIGPIPE too (a write to a closed pipe kills the program where
 * it wrote), but only when the program leaves it at its default: a program that ignores or
 * handles it goes on, and a later crash must be the one unwound.
 */
static int is_fatal(pid_t pid, pid_t tid, int sig)
{
	if (sig == SIGPIPE)
		return default_disposition(pid, tid, sig);
	return sig == SIGSEGV || sig == SIGABRT || sig == SIGFPE || sig == SIGBUS || sig == SIGILL ||
	       sig == SIGTRAP || sig == SIGSYS;
}

/* In the vfork child: the value of the hexadecimal field `name` (with its colon) of the status
 * text `s`, ORed into *mask; 0, or -1 when the field is not there.  Plain code, no library call
 * that could take a lock: the child borrows our memory. */
static int status_mask(const char *s, const char *name, unsigned long long *mask)
{
	size_t n = strlen(name);
	unsigned long long v = 0;
	for (; *s; s++)
		if (s[0] == '\n' && !strncmp(s + 1, name, n)) {
			for (s += 1 + n; *s == ' ' || *s == '\t'; s++)
				;
			for (;; s++) {
				int d = *s >= '0' && *s <= '9'   ? *s - '0'
				        : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
				                                 : -1;
				if (d < 0)
					break;
				v = v << 4 | (unsigned)d;
			}
			*mask |= v;
			return 0;
		}
	return -1;
}

/*
 * In the vfork child, after it left our process group: every signal whose disposition is not
 * the default, or that is pending, is ignored then set to its default.  That drops the handlers
 * it shares with us, and ignoring discards what was sent to our group before the child left it
 * (a Ctrl-C meant for the debugger).  For a signal at its default with nothing pending the two
 * calls change nothing, so only the signals that /proc/self/status (SigIgn, SigCgt, SigPnd,
 * ShdPnd: the child's own, its handlers being a copy no other thread changes) names get them:
 * a handful of calls instead of 120.  Without /proc, every signal gets them.
 */
static void child_reset_signals(void)
{
	char text[4096];
	unsigned long long mask = 0;
	ssize_t n = -1;
	int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC), sig;
	if (fd >= 0) {
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
	}
	if (n > 0) {
		text[n] = '\0';
		if (status_mask(text, "SigPnd:", &mask) < 0 || status_mask(text, "ShdPnd:", &mask) < 0 ||
		    status_mask(text, "SigIgn:", &mask) < 0 || status_mask(text, "SigCgt:", &mask) < 0)
			n = -1;
	}
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && (n <= 0 || (sig <= 64 && (mask >> (sig - 1) & 1))) &&
		    signal(sig, SIG_IGN) != SIG_ERR)
			signal(sig, SIG_DFL);
}

/*
 * Start the program: vfork, then in the child only plain system calls up to exec (it borrows our
 * memory until then, so it stores nothing of ours).  vfork, not fork: copying the page tables of
 * a multithreaded engine for every run made parallel runs slower than serial ones.  Its own
 * function, so that no variable of the caller lives across the vfork.
 */
static pid_t __attribute__((noinline)) start_child(const tnorm_runner *r, int shielded,
                                                   const char *d, int infd, int out, int errfd,
                                                   int execw, int ctl, char **argv, char **envp)
{
	sigset_t all, old;
	pid_t pid;
	/* No signal may reach the child before it has dropped the handlers it shares with us: a
	 * debugger's handler (lldb's SIGINT one) run in a vfork child hangs it, and the debugger with
	 * it.  Signals are blocked across the vfork, and the child resets every handler before it
	 * unblocks them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = vfork();
	if (pid == 0) {
		struct rlimit rl;
		int e;
		/* Out of our process group, then every handler back to its default (what was sent to
		 * our group before is discarded). */
		setpgid(0, 0);
		child_reset_signals();
		personality(ADDR_NO_RANDOMIZE);
		rl.rlim_cur = rl.rlim_max = 0;
		setrlimit(RLIMIT_CORE, &rl);
		if (r->opts.mem_limit) {
			rl.rlim_cur = rl.rlim_max = (rlim_t)r->opts.mem_limit;
			setrlimit(RLIMIT_AS, &rl);
		}
		if (chdir(d) < 0 || dup2(infd, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
			goto child_fail;
		/* A fork server's control socket goes right above execw (envp names it there). */
		if (ctl >= 0 && (ctl == execw + 1 ? fcntl(ctl, F_SETFD, 0) : dup2(ctl, execw + 1)) < 0)
			goto child_fail;
		/* Any other descriptor the engine holds must not leak into the program. */
		if (execw > 3)
			close_range(3, (unsigned)execw - 1, 0);
		close_range((unsigned)execw + (ctl >= 0 ? 2 : 1), ~0U, 0);
		{
			/* A debugger (the plugins run inside gdb or lldb) may block or ignore signals:
			 * the program starts with none blocked and every one at its default (above). */
			sigset_t none;
			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
		}
		/* No signal from the program (or what it starts) reaches the engine (shield.c): the
		 * child inherited the filter from the tracer thread, or installs it now; where
		 * seccomp cannot be had, the program runs as before. */
		if (!shielded)
			tnorm__shield_apply(&r->shield);
		if (r->opts.unwind && ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			goto child_fail;
		execvpe(argv[0], argv, envp);
child_fail:
		e = errno;
		if (write(execw, &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return pid;
}

#define TRACE_OPTS                                                                            \
	(PTRACE_O_EXITKILL | PTRACE_O_TRACEEXIT | PTRACE_O_TRACEEXEC | PTRACE_O_TRACECLONE |     \
	 PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK)

/* One ptrace stop of thread `tid` of the program `pid`: record what it means, resume it. */
static void on_stop(tnorm_runner *r, pid_t pid, pid_t tid, int status, int *exec_seen,
                    int arm_at_exec, tnorm_run_result *res)
{
	int sig = WSTOPSIG(status), event = status >> 16, deliver = 0;
	char kind[32];
	if (event == PTRACE_EVENT_EXIT) {
		unsigned long msg = 0;
		ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg);
		if (WIFEXITED((int)msg) && WEXITSTATUS((int)msg) != 0 &&
		    !tnorm__runner_invalid_exit(r, WEXITSTATUS((int)msg)) &&
		    !res->sig && called_exit(tid)) {
			snprintf(kind, sizeof(kind), "exit(%d)", WEXITSTATUS((int)msg));
			tnorm__unwind(r, pid, tid, kind, &res->sig);
		}
	} else if (sig == SIGTRAP && !event && !*exec_seen && tid == pid) {
		/* The stop right after exec: set the options, start the program. */
		ptrace(PTRACE_SETOPTIONS, pid, NULL, (void *)(long)TRACE_OPTS);
		*exec_seen = 1;
		/* (the traps first: a coverage breakpoint on one of their bytes keeps it as the
		 * byte to put back) */
		if (r->mtrap && arm_at_exec)
			tnorm__mtrap_arm(r->mtrap, r->syms, pid);
		if (r->probe && arm_at_exec)
			tnorm__probe_arm(r->probe, r->syms, pid, 0);
	} else if (event == PTRACE_EVENT_EXEC && tid == pid && (r->probe || r->mtrap) && arm_at_exec) {
		/* a wrapper exec'd the program */
		if (r->mtrap)
			tnorm__mtrap_arm(r->mtrap, r->syms, pid);
		if (r->probe)
			tnorm__probe_arm(r->probe, r->syms, pid, 0);
	} else if (sig == SIGTRAP && !event && r->mtrap && tnorm__mtrap_trap(r->mtrap, tid)) {
		deliver = 0; /* a merged abort site's trap: its check recorded, the code put back */
	} else if (sig == SIGTRAP && !event && r->probe && tnorm__probe_trap(r->probe, tid)) {
		deliver = 0; /* a breakpoint of the probe's, taken back */
	} else if (event) {
		deliver = 0; /* other ptrace events (clone, exec): nothing to do; a new thread is
		              * traced from its first instruction, and its events come to the tracer's
		              * wait like the leader's */
	} else if (sig == SIGSTOP && tid != pid) {
		deliver = 0; /* a new thread's first stop */
	} else {
		if (!res->sig && is_fatal(pid, tid, sig)) {
			tnorm__unwind(r, pid, tid, tnorm__signame(sig, kind, sizeof(kind)), &res->sig);
			/* The run has its signature: this thread's exit stop (the signal's kill) would
			 * have nothing to unwind.  One request instead of a stop, two context
			 * switches and three requests. */
			if (res->sig)
				ptrace(PTRACE_SETOPTIONS, tid, NULL,
				       (void *)(long)(TRACE_OPTS & ~PTRACE_O_TRACEEXIT));
		}
		deliver = sig;
	}
	ptrace(PTRACE_CONT, tid, NULL, (void *)(long)deliver);
}

/*
 * The run's processes.  Every process the program starts is traced as well (PTRACE_O_TRACEFORK,
 * TRACEVFORK and TRACECLONE are inherited, with EXITKILL, by every new tracee), so that a process
 * that left the program's process group (setsid(), a double-fork daemon) is still known: when
 * the run's program is reaped, every other process of the run is killed (SIGKILL) and reaped.
 * Only the run's program (or the fork server's child) defines the outcome: the stops of the other
 * processes are passed on as they come, never unwound.
 *
 * The set holds every traced task (thread) but the started program's leader, each with its
 * process (tgid) and, for a process, the parent it was forked by.  A task is recorded at the
 * first of its parent's fork/clone event and its own first stop (either may come first), and
 * forgotten when it is reaped, or when a thread that exec'd takes its leader's id.  Until we
 * reap it, a traced task's id cannot be reused, so killing a recorded id never hits a stranger.
 * A task is doomed (killed on sight) when its run is over, and so is any task whose parent is
 * doomed or gone: one that a process forked as it was being killed.
 */
typedef struct {
	pid_t tid, tgid, ppid;
	unsigned started : 1; /* its first stop (a new tracee's SIGSTOP) is behind it */
	unsigned doomed : 1;  /* killed: its run is over */
	unsigned execd : 1;   /* its process, or one it descends from, exec'd another image: none
	                       * of the probe's or the traps' int3s is in its memory */
} task;

typedef struct {
	task *v;
	size_t n, cap;
} task_set;

/* Thread `tid`'s process and its parent process, from /proc.  -1 when it is gone. */
static int proc_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	if (!(p = strstr(buf, "\nTgid:")))
		return -1;
	*tgid = (pid_t)strtol(p + 6, NULL, 10);
	if (!(p = strstr(buf, "\nPPid:")))
		return -1;
	*ppid = (pid_t)strtol(p + 6, NULL, 10);
	return 0;
}

static task *tasks_find(task_set *ts, pid_t tid)
{
	size_t i;
	for (i = 0; i < ts->n; i++)
		if (ts->v[i].tid == tid)
			return &ts->v[i];
	return NULL;
}

static void tasks_forget(task_set *ts, pid_t tid)
{
	task *k = tasks_find(ts, tid);
	if (k)
		*k = ts->v[--ts->n];
}

/*
 * Task `tid` of the run, recorded now if it is new.  `root`, `root2` (0: none): the program
 * and the fork server's child, whose tasks and children are never doomed on sight.  NULL when
 * it cannot be recorded (gone, or out of memory): its stops are then passed on, nothing more.
 */
static task *tasks_note(task_set *ts, pid_t tid, pid_t root, pid_t root2)
{
	task *k = tasks_find(ts, tid), *up;
	pid_t tgid, ppid, above;
	if (k || proc_ids(tid, &tgid, &ppid) < 0)
		return k;
	if (ts->n == ts->cap) {
		size_t cap = ts->cap ? 2 * ts->cap : 16;
		task *v = tnorm__reallocarray(ts->v, cap, sizeof(*v));
		if (!v)
			return NULL;
		ts->v = v;
		ts->cap = cap;
	}
	k = &ts->v[ts->n++];
	memset(k, 0, sizeof(*k));
	k->tid = tid;
	k->tgid = tgid;
	k->ppid = ppid;
	/* A thread goes with its process, a process with the one that forked it. */
	above = tgid != tid ? tgid : ppid;
	up = tasks_find(ts, above);
	if (above != root && (!root2 || above != root2))
		k->doomed = up ? up->doomed : 1;
	k->execd = up && up->execd;
	if (k->doomed)
		kill(tid, SIGKILL);
	return k;
}

/* At a ptrace stop of `tid`: a new task it started is recorded; after an exec, the id the
 * exec'ing thread had is forgotten (it is the leader's now), and the process holds another
 * image. */
static void tasks_follow(task_set *ts, pid_t tid, int status, pid_t root, pid_t root2)
{
	int event = status >> 16;
	unsigned long msg = 0;
	task *k;
	if (!WIFSTOPPED(status) ||
	    (event != PTRACE_EVENT_FORK && event != PTRACE_EVENT_VFORK &&
	     event != PTRACE_EVENT_CLONE && event != PTRACE_EVENT_EXEC) ||
	    ptrace(PTRACE_GETEVENTMSG, tid, NULL, &msg) < 0)
		return;
	if (event == PTRACE_EVENT_FORK || event == PTRACE_EVENT_VFORK || event == PTRACE_EVENT_CLONE)
		tasks_note(ts, (pid_t)msg, root, root2);
	else if (event == PTRACE_EVENT_EXEC) {
		if ((pid_t)msg != tid)
			tasks_forget(ts, (pid_t)msg);
		if ((k = tasks_find(ts, tid)))
			k->execd = 1;
	}
}

/* The run is over: kill every task but those of process `keep` (the fork server; 0: none).  (A
 * persistent child whose candidate passed left nothing to kill: it persists only then.) */
static void tasks_doom(task_set *ts, pid_t keep)
{
	size_t i;
	for (i = 0; i < ts->n; i++)
		if (ts->v[i].tgid != keep && !ts->v[i].doomed) {
			ts->v[i].doomed = 1;
			kill(ts->v[i].tid, SIGKILL);
		}
}

/* A stop of a process the program started (`k` may be NULL): pass it on.  A new tracee's first
 * SIGSTOP is ours, and a group stop (no siginfo) is resumed, as ptrace without SEIZE must. */
static void other_stop(task *k, pid_t tid, int status)
{
	int sig = WSTOPSIG(status), deliver = 0;
	siginfo_t si;
	if (k && k->doomed) {
		kill(tid, SIGKILL);
	} else if (status >> 16) {
		deliver = 0; /* a ptrace event */
	} else if (sig == SIGSTOP && (!k || !k->started)) {
		deliver = 0;
	} else if (ptrace(PTRACE_GETSIGINFO, tid, NULL, &si) == 0) {
		deliver = sig;
	}
	if (k)
		k->started = 1;
	ptrace(PTRACE_CONT, tid, NULL, (void *)(long)deliver);
}

typedef enum { JOB_NONE, JOB_RUN, JOB_QUIT } job_kind;

struct tnorm__tracer {
	pthread_t thread;
	pid_t owner;          /* getpid() of the process that started the thread; 0: no thread */
	pthread_mutex_t mu;   /* guards what follows */
	pthread_cond_t cv;    /* the caller's signal: a job */
	pthread_cond_t idle_cv; /* the tracer's signal: back to waiting for a job */
	int evfd;             /* the tracer's signal: news of the run (see below) */
	job_kind job;
	int busy;             /* a program (or a fork server) of ours is alive */
	int stuck;            /* a run's process outlived its SIGKILL by the grace: the thread is
	                       * left to it, and the tracer takes no more jobs (see
	                       * tnorm__tracer_stop_server) */
	int shielded;         /* the tracer thread has the programs' seccomp filter (shield.c):
	                       * every child it starts inherits it (set and read by the thread) */
	/* The filter's questions (shield.c): the thread that answers them (started before the
	 * tracer, so without the filter), the listener the tracer hands it (-1: not yet, -2: none
	 * will come), and the eventfd that ends it. */
	pthread_t shield_thread;
	int shield_started, shield_fd, shield_quit;
	/* The job (set by the caller; the descriptors belong to the tracer from then on). */
	const char *dir;
	char **argv, **envp;
	int fds[4];           /* the child's stdin, stdout, stderr, and the exec-error pipe */
	int ctl;              /* a would-be fork server's end of the control socket, or -1 */
	int ctl_engine;       /* our end of it (the tracer reads the hello there) */
	tnorm_run_result *res; /* the run's result: the tracer sets res->sig, nothing else */
	/* The tracer's answer, for the current run. */
	pid_t pid;            /* the run's program: 0 not known yet, -1 the fork failed */
	int fork_errno;
	int done, lost;       /* the run's program was reaped (status, ru); lost: wait failed */
	int from_server;      /* done because the fork server died, with no child for this run */
	int hello;            /* the program said it is a fork server (tnorm__forkserver_hello) */
	pid_t server;         /* the live fork server, or 0 */
	/* Persistent mode: the server's child that passed its last candidate and waits for the
	 * next (0: none), how many candidates it ran; whether the current run was given to it
	 * (reused), and whether the run ended with that child's pass (persisted). */
	pid_t pchild;
	unsigned pruns;
	int reused, persisted;
	int status;
	struct rusage ru;
	/* The time this thread spent on the current run's stops, in ns (atomic: the caller's wait
	 * reads it), which its timeout does not count; and the delay each signal stop gets for the
	 * tests (TNORM_TEST_STOP_DELAY_MS: a stand-in for a slow unwind). */
	uint64_t held_ns;
	uint64_t stop_since_ns; /* when the stop being handled began (0: none; atomic) */
	long test_delay_ms;
};

/* The tracer's news for the caller's poll: a fork failed, a server said hello, a program ended. */
static void tracer_notify(tnorm__tracer *t)
{
	uint64_t one = 1;
	while (write(t->evfd, &one, sizeof(one)) < 0 && errno == EINTR)
		;
}

/*
 * The run's program is reaped (or the server went with no child for the run: from_server).
 * `last`: nothing of ours is left, the tracer is done with this job (busy is cleared here, in
 * the same breath, so that the caller's next run seldom has to wait for the thread).
 */
static void tracer_done_(tnorm__tracer *t, int status, const struct rusage *ru, int from_server,
                         int lost, int last, int child_gone)
{
	pthread_mutex_lock(&t->mu);
	if (child_gone) {
		t->pchild = 0;
		t->pruns = 0;
	}
	t->done = 1;
	t->lost = lost;
	t->status = status;
	if (ru)
		t->ru = *ru;
	t->from_server = from_server;
	if (last) {
		t->busy = 0;
		pthread_cond_broadcast(&t->idle_cv);
	}
	pthread_mutex_unlock(&t->mu);
	tracer_notify(t);
}

static void tracer_done(tnorm__tracer *t, int status, const struct rusage *ru, int from_server,
                        int lost, int last)
{
	tracer_done_(t, status, ru, from_server, lost, last, 0);
}

/* The server's child of this run is reaped: the run is over, and no persistent child is left. */
static void tracer_done_child(tnorm__tracer *t, int status, const struct rusage *ru, int last)
{
	tracer_done_(t, status, ru, 0, 0, last, 1);
}

/*
 * Persistent mode, in the caller's thread: the run's child said "TNPS" on the control socket
 * (runner.c reads it there; the tracer never does) and waits on the socket for its next
 * candidate, without a stop of ours to resume.  Under the mutex, as one step with the tracer's
 * own news: when the tracer has not seen the child end, the run is over as if it had exited 0
 * with the candidate's CPU time as the child measured it, and the child is kept (pchild) for
 * the next run; when it has (the child died right after its report: killed, or the engine's
 * timeout), the pass stands but no child is kept.  *w and *pid are the answer, as
 * tnorm__tracer_answer gives it.  The tracer's later news of this child (its reap, if it dies
 * now) is the next run's: tnorm__tracer_begin clears what it left.
 */
void tnorm__tracer_persisted(tnorm__tracer *t, const struct rusage *ru, pid_t *pid, tnorm__waited *w)
{
	pthread_mutex_lock(&t->mu);
	if (!t->done && t->pid > 0) {
		t->pchild = t->pid;
		t->pruns++;
		t->persisted = 1;
	} else {
		t->persisted = 0;
	}
	t->done = 1;
	t->lost = 0;
	t->status = 0;
	t->ru = *ru;
	t->from_server = 0;
	*pid = t->pid;
	w->lost = 0;
	w->status = 0;
	w->ru = *ru;
	w->from_server = 0;
	w->persisted = t->persisted;
	w->hello = t->hello;
	pthread_mutex_unlock(&t->mu);
}

/* The server's child is gone: no persistent child any more. */
static void tracer_no_pchild(tnorm__tracer *t)
{
	pthread_mutex_lock(&t->mu);
	t->pchild = 0;
	t->pruns = 0;
	pthread_mutex_unlock(&t->mu);
}

/* The current run's result, or `scratch` between runs (a fork server's own stops). */
static tnorm_run_result *current_res(tnorm__tracer *t, tnorm_run_result *scratch)
{
	tnorm_run_result *res;
	pthread_mutex_lock(&t->mu);
	res = t->res;
	pthread_mutex_unlock(&t->mu);
	return res ? res : scratch;
}

/* The run's program (or the fork server's child of this run) is `child` from now on. */
static void set_run_pid(tnorm__tracer *t, pid_t child)
{
	pthread_mutex_lock(&t->mu);
	t->pid = child;
	pthread_mutex_unlock(&t->mu);
}

/*
 * One program, in the tracer thread: start it, follow its stops until it is reaped.  With a
 * control socket (`ctl`), the program may say it is a fork server: then the tracer follows its
 * forks, each child being one run's program (see core/driver/driver.c), until the server is gone
 * and its last child reaped.  Every process either of them starts is followed too (see "The
 * run's processes" above), and killed when its run is over; the last of them reaped, the tracer
 * returns (wait4 says there is nothing left: ECHILD).
 */
/* What trace_one knows about its run while it waits: the program (pid) and, when it is a fork
 * server, its child of this run; what the program has done so far; the run's other tasks. */
typedef struct trace_state {
	tnorm_runner *r;
	tnorm__tracer *t;
	int ctl;                 /* the control socket's end the program got, or -1 */
	pid_t pid, child;
	int exec_seen, child_exec_seen, is_server, child_started, p_gone, execs, over;
	task_set ts;
	tnorm_run_result scratch; /* where stops go when no run takes them */
} trace_state;

/* A stop of the program itself: a fork server's forks and signals, its hello, or (a program run
 * afresh) a stop of the program's. */
static void program_stop(trace_state *x, int st)
{
	tnorm__tracer *t = x->t;
	int event = st >> 16, sig = WSTOPSIG(st), hello;
	if (x->is_server) {
		/* The server's own stops: its forks (a run's child), and signals. */
		unsigned long msg = 0;
		if (event == PTRACE_EVENT_FORK && !x->child &&
		    ptrace(PTRACE_GETEVENTMSG, x->pid, NULL, &msg) == 0) {
			x->child = (pid_t)msg;
			set_run_pid(t, x->child);
		}
		ptrace(PTRACE_CONT, x->pid, NULL,
		       (void *)(long)(event || sig == SIGSTOP || sig == SIGTRAP ? 0 : sig));
	} else if (x->ctl >= 0 && x->exec_seen && !event && sig == SIGSTOP && x->execs > 0 &&
	           tnorm__forkserver_hello(t->ctl_engine)) {
		/* A driver that a program we started exec'd: the runs are the program's, it is no
		 * server of ours.  It runs the test as usual. */
		tnorm__forkserver_refuse(t->ctl_engine);
		ptrace(PTRACE_CONT, x->pid, NULL, NULL);
	} else if (x->ctl >= 0 && x->exec_seen && !event && sig == SIGSTOP && x->execs == 0 &&
	           (hello = tnorm__forkserver_hello(t->ctl_engine)) != 0) {
		x->is_server = 1;
		/* The probe is for the server's children (armed at their first stop): the server's
		 * own copy of the code goes back as it was. */
		if (x->r->probe)
			tnorm__probe_disarm(x->r->probe);
		tnorm__mtrap_disarm(x->r->mtrap);
		pthread_mutex_lock(&t->mu);
		t->hello = hello; /* (2: its runtime echoes request numbers) */
		t->server = x->pid;
		t->pid = 0; /* the run's program is the server's next child */
		pthread_mutex_unlock(&t->mu);
		tracer_notify(t); /* the caller sends the run's request */
		ptrace(PTRACE_CONT, x->pid, NULL, NULL);
	} else {
		x->execs += event == PTRACE_EVENT_EXEC;
		on_stop(x->r, x->pid, x->pid, st, &x->exec_seen, 1, current_res(t, &x->scratch));
	}
}

/* The program, or the server, is gone (with its child of this run, if any, still to be waited
 * for). */
static void program_gone(trace_state *x, int st, struct rusage *wru)
{
	x->p_gone = 1;
	pthread_mutex_lock(&x->t->mu);
	x->t->server = 0;
	pthread_mutex_unlock(&x->t->mu);
	if (!x->child) {
		/* The run is over: what the program started goes, then the tracer (idle at once when
		 * nothing is left to reap). */
		x->over = 1;
		tasks_doom(&x->ts, 0);
		tracer_done(x->t, st, wru, x->is_server, 0, x->ts.n == 0);
	}
}

/* A task other than the program ended.  The fork server's child of this run ends the run. */
static void task_ended(trace_state *x, pid_t w, int st, struct rusage *wru)
{
	tasks_forget(&x->ts, w);
	if (!(x->is_server && w == x->child))
		return; /* a thread, or a process the program started */
	x->over = x->p_gone;
	tasks_doom(&x->ts, x->p_gone ? 0 : x->pid);
	/* (no persistent child any more: in the same step as the run's news, so that the caller,
	 * which may be taking a "TNPS" of this child, sees both or neither) */
	tracer_done_child(x->t, st, wru, x->over && x->ts.n == 0);
	x->child = 0;
	x->child_started = 0;
}

/* A stop of the server's child of this run, or of one of its threads. */
static void child_stop(trace_state *x, pid_t w, int st)
{
	if (!x->child) { /* its first stop came before the server's fork event */
		x->child = w;
		set_run_pid(x->t, x->child);
	}
	if (w == x->child && !x->child_started) {
		/* The child's first stop: trace it as a program run afresh. */
		x->child_started = 1;
		ptrace(PTRACE_SETOPTIONS, w, NULL, (void *)(long)TRACE_OPTS);
		if (x->r->mtrap)
			tnorm__mtrap_arm(x->r->mtrap, x->r->syms, w);
		if (x->r->probe)
			tnorm__probe_arm(x->r->probe, x->r->syms, w, 1);
		ptrace(PTRACE_CONT, w, NULL, NULL);
	} else {
		/* (Persistent mode: a child whose candidate passed says so on the control socket,
		 * which the caller's thread reads, and waits there without a stop: nothing of it comes
		 * here.  A SIGSTOP of the child is the program's, delivered as in a run afresh.) */
		on_stop(x->r, x->child, w, st, &x->child_exec_seen, 0, current_res(x->t, &x->scratch));
	}
}

/* A stop of a task that is not the program: one the program started (killed when its run is
 * over), one of the program's threads, a thread of the server's, or the server's child. */
static void task_stop(trace_state *x, pid_t w, int st)
{
	task *k = tasks_note(&x->ts, w, x->pid, x->child);
	if (x->over || (k && k->doomed) ||
	    (k && k->tgid != x->pid && k->tgid != x->child &&
	     !(x->is_server && !x->child && k->tgid == w && k->ppid == x->pid))) {
		/* A process the program started (killed when its run is over).  A driver among them
		 * that offers a fork server is told no, as one the program exec'd is. */
		if (x->ctl >= 0 && !x->is_server && !x->over && !(st >> 16) && WSTOPSIG(st) == SIGSTOP &&
		    k && k->started && tnorm__forkserver_hello(x->t->ctl_engine)) {
			tnorm__forkserver_refuse(x->t->ctl_engine);
			ptrace(PTRACE_CONT, w, NULL, NULL);
		} else if (!(st >> 16) && WSTOPSIG(st) == SIGTRAP && !(k && k->execd) &&
		           ((x->r->mtrap && tnorm__mtrap_foreign(x->r->mtrap, w)) ||
		            (x->r->probe &&
		             tnorm__probe_foreign(x->r->probe, w, !x->over && k && !k->doomed)))) {
			/* A breakpoint it inherited, undone (a fork child's copy, or a vfork child's
			 * memory, which is the program's): a line of the run's program it ran. */
			ptrace(PTRACE_CONT, w, NULL, NULL);
		} else {
			other_stop(k, w, st);
		}
	} else if (!x->is_server) {
		/* One of the program's threads: its stops are the program's; its end, nothing. */
		on_stop(x->r, x->pid, w, st, &x->exec_seen, 1, current_res(x->t, &x->scratch));
	} else if (k && k->tgid == x->pid) {
		ptrace(PTRACE_CONT, w, NULL, NULL); /* a thread of the server's */
	} else {
		child_stop(x, w, st);
	}
}

static void trace_one(tnorm_runner *r, tnorm__tracer *t, const char *dir, char **argv, char **envp,
                      int *fds, int ctl)
{
	trace_state x;
	struct rusage wru;
	pid_t w;
	int i, st = 0, e;
	memset(&x, 0, sizeof(x));
	x.r = r;
	x.t = t;
	x.ctl = ctl;
	x.child_exec_seen = 1;
	x.pid = start_child(r, t->shielded, dir, fds[0], fds[1], fds[2], fds[3], ctl, argv, envp);
	e = errno;
	for (i = 0; i < 4; i++)
		close(fds[i]);
	if (ctl >= 0)
		close(ctl);
	if (x.pid < 0) {
		pthread_mutex_lock(&t->mu);
		t->pid = -1;
		t->fork_errno = e;
		pthread_mutex_unlock(&t->mu);
		tracer_notify(t);
		return;
	}
	setpgid(x.pid, x.pid); /* also in the parent, so the group exists before the caller kills it */
	set_run_pid(t, x.pid);
	for (;;) {
		w = wait4(-1, &st, __WALL | __WNOTHREAD, &wru);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (!x.over) /* ECHILD before the program was reaped: it is lost to us */
				tracer_done(t, 0, NULL, 0, 1, 1);
			break;
		}
		if (WIFSTOPPED(st)) {
			/* A stopped program is not running: the time spent here (unwinding at a crash,
			 * setting breakpoints at exec) is tnorm's, not the program's (see held_ns). */
			double t0 = tnorm__now();
			__atomic_store_n(&t->stop_since_ns, (uint64_t)(t0 * 1e9), __ATOMIC_RELAXED);
			if (t->test_delay_ms > 0 && !(st >> 16) && WSTOPSIG(st) != SIGTRAP &&
			    WSTOPSIG(st) != SIGSTOP) {
				struct timespec d = {t->test_delay_ms / 1000, (t->test_delay_ms % 1000) * 1000000L};
				while (nanosleep(&d, &d) < 0 && errno == EINTR)
					;
			}
			tasks_follow(&x.ts, w, st, x.pid, x.child);
			if (w == x.pid)
				program_stop(&x, st);
			else
				task_stop(&x, w, st);
			__atomic_add_fetch(&t->held_ns, (uint64_t)((tnorm__now() - t0) * 1e9), __ATOMIC_RELAXED);
			__atomic_store_n(&t->stop_since_ns, 0, __ATOMIC_RELAXED);
		} else if (w == x.pid) {
			program_gone(&x, st, &wru);
		} else {
			task_ended(&x, w, st, &wru);
		}
	}
	tracer_no_pchild(t);
	free(x.ts.v);
	tnorm_signature_free(x.scratch.sig);
}

/* The thread that answers the filter's questions (shield.c), once the tracer has a listener. */
static void *shield_main(void *arg)
{
	tnorm_runner *r = arg;
	tnorm__tracer *t = r->tr;
	int fd;
	pthread_mutex_lock(&t->mu);
	while (t->shield_fd == -1)
		pthread_cond_wait(&t->idle_cv, &t->mu);
	fd = t->shield_fd;
	pthread_mutex_unlock(&t->mu);
	if (fd >= 0)
		tnorm__shield_serve(&r->shield, fd, t->shield_quit);
	return NULL;
}

static void *tracer_main(void *arg)
{
	tnorm_runner *r = arg;
	tnorm__tracer *t = r->tr;
	/* The programs' seccomp filter, once, on this thread: the children it starts inherit it,
	 * and a child that installed its own paid for compiling it at every run.  It refuses
	 * signals to the engine's process and group, which this thread never sends, and asks the
	 * shield thread about other targets (this thread's kills of a run's tasks too). */
	int fd = tnorm__shield_apply_asking(&r->shield);
	if (fd == -1) /* no filter at all: a child that tries again gets one without questions */
		tnorm__shield_init(&r->shield, r->shield.engine, r->shield.group, 0);
	t->shielded = fd != -1;
	pthread_mutex_lock(&t->mu);
	t->shield_fd = fd >= 0 ? fd : -2;
	pthread_cond_broadcast(&t->idle_cv);
	pthread_mutex_unlock(&t->mu);
	for (;;) {
		const char *dir;
		char **argv, **envp;
		int fds[4], ctl;
		pthread_mutex_lock(&t->mu);
		t->busy = 0;
		pthread_cond_broadcast(&t->idle_cv);
		while (t->job == JOB_NONE)
			pthread_cond_wait(&t->cv, &t->mu);
		if (t->job == JOB_QUIT) {
			pthread_mutex_unlock(&t->mu);
			return NULL;
		}
		t->job = JOB_NONE;
		t->busy = 1;
		dir = t->dir;
		argv = t->argv;
		envp = t->envp;
		memcpy(fds, t->fds, sizeof(fds));
		ctl = t->ctl;
		pthread_mutex_unlock(&t->mu);
		trace_one(r, t, dir, argv, envp, fds, ctl);
	}
}

/* Kill the fork server, if there is one, and its persistent child (which waits on the control
 * socket, the engine's to close): the tracer reports them gone. */
void tnorm__tracer_kill_server(tnorm__tracer *t)
{
	pthread_mutex_lock(&t->mu);
	if (t->server > 0)
		kill(t->server, SIGKILL);
	if (t->pchild > 0)
		kill(t->pchild, SIGKILL);
	pthread_mutex_unlock(&t->mu);
}

int tnorm__tracer_persistent(tnorm__tracer *t)
{
	int alive;
	pthread_mutex_lock(&t->mu);
	alive = t->pchild > 0;
	pthread_mutex_unlock(&t->mu);
	return alive;
}

/* Stop the fork server, if there is one, and wait until the tracer is idle (ready for a job,
 * with nothing of the last one left to report), for TNORM__KILL_GRACE seconds at most: what the
 * tracer still waits for was killed, and a process that outlives its SIGKILL by that long (one
 * the kernel holds in an uninterruptible wait) will not be waited for (issue 39, item 4).  Then
 * the tracer is stuck for good: -1 (and from then on at once). */
int tnorm__tracer_stop_server(tnorm__tracer *t)
{
	struct timespec until;
	int stuck;
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += (time_t)TNORM__KILL_GRACE;
	pthread_mutex_lock(&t->mu);
	if (t->server > 0)
		kill(t->server, SIGKILL);
	if (t->pchild > 0)
		kill(t->pchild, SIGKILL);
	while ((t->busy || t->job != JOB_NONE) && !t->stuck)
		if (pthread_cond_timedwait(&t->idle_cv, &t->mu, &until) == ETIMEDOUT &&
		    (t->busy || t->job != JOB_NONE))
			t->stuck = 1;
	stuck = t->stuck;
	pthread_mutex_unlock(&t->mu);
	return stuck ? -1 : 0;
}

void tnorm__tracer_abandon(tnorm__tracer *t)
{
	pthread_mutex_lock(&t->mu);
	t->stuck = 1;
	pthread_mutex_unlock(&t->mu);
}

int tnorm__tracer_stuck(tnorm__tracer *t)
{
	int stuck;
	pthread_mutex_lock(&t->mu);
	stuck = t->stuck;
	pthread_mutex_unlock(&t->mu);
	return stuck;
}

/* Stop and join the tracer thread (when this process started it), free its state; a stuck
 * tracer is left as it is (1). */
int tnorm__tracer_free(tnorm__tracer *t)
{
	if (!t)
		return 0;
	if (t->owner && t->owner == getpid()) {
		if (tnorm__tracer_stop_server(t) < 0)
			return 1; /* (its thread waits for a process that will not die: left to it) */
		pthread_mutex_lock(&t->mu);
		t->job = JOB_QUIT;
		pthread_cond_signal(&t->cv);
		pthread_mutex_unlock(&t->mu);
		pthread_join(t->thread, NULL);
	}
	if (t->shield_started && t->owner == getpid()) {
		uint64_t one = 1;
		pthread_mutex_lock(&t->mu);
		if (t->shield_fd == -1)
			t->shield_fd = -2; /* (the tracer never started) */
		pthread_cond_broadcast(&t->idle_cv);
		pthread_mutex_unlock(&t->mu);
		while (write(t->shield_quit, &one, sizeof(one)) < 0 && errno == EINTR)
			;
		pthread_join(t->shield_thread, NULL);
	}
	if (t->shield_fd >= 0)
		close(t->shield_fd);
	if (t->shield_quit >= 0)
		close(t->shield_quit);
	if (t->evfd >= 0)
		close(t->evfd);
	pthread_cond_destroy(&t->cv);
	pthread_cond_destroy(&t->idle_cv);
	pthread_mutex_destroy(&t->mu);
	free(t);
	return 0;
}

/*
 * The runner's tracer, started on first use.  In a child of a fork() (a host that forks after
 * a run, such as Python's os.fork) the thread is not there: that process gets its own.
 */
int tnorm__tracer_get(tnorm_runner *r, tnorm__tracer **out)
{
	tnorm__tracer *t = r->tr;
	sigset_t all, old;
	int rc;
	if (t && t->owner == getpid()) {
		*out = t;
		return 0;
	}
	if (t) {
		t->owner = 0; /* the thread belongs to the parent process: leave it alone */
		tnorm__tracer_free(t);
		r->tr = NULL;
		r->fs_state = FS_UNKNOWN; /* and so does the fork server */
		if (r->ctl >= 0)
			close(r->ctl);
		r->ctl = -1;
	}
	if (!(t = tnorm__calloc(1, sizeof(*t))))
		return TNORM_ENOMEM;
	t->evfd = -1;
	{
		const char *d = getenv("TNORM_TEST_STOP_DELAY_MS");
		t->test_delay_ms = d ? strtol(d, NULL, 10) : 0;
	}
	t->shield_fd = -1;
	t->shield_quit = -1;
	pthread_mutex_init(&t->mu, NULL);
	pthread_cond_init(&t->cv, NULL);
	{
		/* (stop_server's timed wait counts monotonic time) */
		pthread_condattr_t ca;
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&t->idle_cv, &ca);
		pthread_condattr_destroy(&ca);
	}
	r->tr = t;
	if ((t->evfd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		return tnorm__error_errno(TNORM_EIO, "cannot create an eventfd for the runner");
	if ((t->shield_quit = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
		return tnorm__error_errno(TNORM_EIO, "cannot create an eventfd for the runner");
	/* The threads block every signal: the host's signals are the host's threads' business.
	 * The shield's first: a thread started by the tracer would have the tracer's filter. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&t->shield_thread, NULL, shield_main, r);
	t->shield_started = rc == 0;
	t->busy = 1; /* until the thread waits for its first job */
	if (rc == 0)
		rc = pthread_create(&t->thread, NULL, tracer_main, r);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0) {
		t->busy = 0;
		if (t->shield_started) {
			pthread_mutex_lock(&t->mu);
			t->shield_fd = -2;
			pthread_cond_broadcast(&t->idle_cv);
			pthread_mutex_unlock(&t->mu);
			pthread_join(t->shield_thread, NULL);
			t->shield_started = 0;
		}
		errno = rc;
		return tnorm__error_errno(TNORM_EIO, "cannot start the runner's tracer thread");
	}
	t->owner = getpid();
	*out = t;
	return 0;
}

/* Get ready for a run: the tracer's answer cleared, `res` the run's result.  For a run of the
 * fork server, 0 when the server is gone already (then nothing is changed); *reused, the
 * candidates the persistent child that takes the run ran before (0: a fresh child). */
int tnorm__tracer_begin(tnorm__tracer *t, tnorm_run_result *res, int served, unsigned *reused)
{
	pthread_mutex_lock(&t->mu);
	if (served && !t->server) {
		pthread_mutex_unlock(&t->mu);
		return 0;
	}
	t->res = res;
	/* A persistent child takes the run: it is the run's program from the start.  (If it died
	 * meanwhile, its end is this run's, and the server, which gets the request, exits.) */
	t->reused = served && t->pchild > 0;
	t->pid = t->reused ? t->pchild : 0;
	t->persisted = 0;
	if (reused)
		*reused = t->reused ? t->pruns : 0;
	t->fork_errno = 0;
	__atomic_store_n(&t->held_ns, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&t->stop_since_ns, 0, __ATOMIC_RELAXED);
	t->done = t->lost = t->status = t->from_server = t->hello = 0;
	memset(&t->ru, 0, sizeof(t->ru));
	pthread_mutex_unlock(&t->mu);
	return 1;
}

/* The run is over: the tracer writes no more into its result. */
void tnorm__tracer_end(tnorm__tracer *t)
{
	pthread_mutex_lock(&t->mu);
	t->res = NULL;
	pthread_mutex_unlock(&t->mu);
}

/* Hand a program to start to the (idle) tracer; from here on the descriptors are the tracer's. */
void tnorm__tracer_start(tnorm__tracer *t, const char *dir, char **argv, char **envp, int *fds,
                         int ctl, int ctl_engine)
{
	pthread_mutex_lock(&t->mu);
	t->dir = dir;
	t->argv = argv;
	t->envp = envp;
	memcpy(t->fds, fds, sizeof(t->fds));
	t->ctl = ctl;
	t->ctl_engine = ctl_engine;
	t->job = JOB_RUN;
	pthread_cond_signal(&t->cv);
	pthread_mutex_unlock(&t->mu);
}

double tnorm__tracer_held(const tnorm__tracer *t)
{
	/* (a stop being handled counts up to now: the caller's deadline must not pass during it) */
	uint64_t since = __atomic_load_n(&t->stop_since_ns, __ATOMIC_RELAXED);
	double held = (double)__atomic_load_n(&t->held_ns, __ATOMIC_RELAXED) / 1e9;
	if (since) {
		double now = tnorm__now();
		if (now > (double)since / 1e9)
			held += now - (double)since / 1e9;
	}
	return held;
}

int tnorm__tracer_fd(const tnorm__tracer *t)
{
	return t->evfd;
}

int tnorm__tracer_answer(tnorm__tracer *t, pid_t *pid, tnorm__waited *w)
{
	int done;
	pthread_mutex_lock(&t->mu);
	*pid = t->pid;
	errno = t->fork_errno;
	done = t->done;
	if (done) {
		w->lost = t->lost;
		w->status = t->status;
		w->ru = t->ru;
		w->from_server = t->from_server;
		w->persisted = t->persisted;
	}
	w->hello = t->hello;
	pthread_mutex_unlock(&t->mu);
	return done;
}

pid_t tnorm__tracer_server(tnorm__tracer *t)
{
	pid_t server;
	pthread_mutex_lock(&t->mu);
	server = t->server;
	pthread_mutex_unlock(&t->mu);
	return server;
}

/* SPDX-License-Identifier: MIT */
/*
 * cancel.c - the one place where the commands that run programs take their signals (issue 28,
 * items 5 and 6).
 *
 * The user stops a job with Ctrl-C, SIGTERM or a hang-up: the handler sets cli_cancel_flag,
 * which the library reads (session, triage and runner options), and the run under way is killed
 * at once by the runner.  The programs under test must not be able to stop or kill tnorm, so:
 *   - SIGINT, SIGTERM and SIGHUP sent by a process that descends from tnorm (a program under
 *     test or one it started: kill(getppid(), SIGTERM)) are ignored: SA_SIGINFO names the
 *     sender, and tnorm_signal_from_below() reads its line of parents.  A signal from the
 *     terminal (si_code SI_KERNEL) or from any other living process is the user's (a sender
 *     already gone is taken as a program that signalled and exited).
 *   - SIGUSR1, SIGUSR2, SIGALRM and SIGPIPE, which tnorm does not use and whose default would
 *     end it (a daemon's "ready" signal to its parent), are ignored; SIGTSTP, SIGTTIN and
 *     SIGTTOU from a program under test are ignored, and from anyone else stop tnorm as usual.
 * The programs themselves start with every handler at its default (the runner resets them).
 * What cannot be caught, SIGSTOP and SIGKILL, is not covered (docs/cli.md says so).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

volatile int cli_cancel_flag;

static void on_cancel(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	(void)uc;
	if (!(si && tnorm_signal_from_below(si->si_code, (long)si->si_pid)))
		cli_cancel_flag = sig;
	errno = saved;
}

static void on_stop(int sig, siginfo_t *si, void *uc)
{
	int saved = errno;
	(void)uc;
	(void)sig;
	if (!(si && tnorm_signal_from_below(si->si_code, (long)si->si_pid)))
		raise(SIGSTOP);
	errno = saved;
}

static const int cancel_sigs[] = {SIGINT, SIGTERM, SIGHUP};
static const int stop_sigs[] = {SIGTSTP, SIGTTIN, SIGTTOU};
static const int ignored_sigs[] = {SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE};

#define NSIGS(a) (sizeof(a) / sizeof((a)[0]))

void cli_cancel_begin(cli_cancel *c)
{
	struct sigaction sa;
	size_t i, k = 0;
	cli_cancel_flag = 0;
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sa.sa_sigaction = on_cancel;
	for (i = 0; i < NSIGS(cancel_sigs); i++, k++) {
		c->sig[k] = cancel_sigs[i];
		sigaction(cancel_sigs[i], &sa, &c->old[k]);
	}
	sa.sa_sigaction = on_stop;
	for (i = 0; i < NSIGS(stop_sigs); i++, k++) {
		c->sig[k] = stop_sigs[i];
		sigaction(stop_sigs[i], &sa, &c->old[k]);
	}
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = SIG_IGN;
	for (i = 0; i < NSIGS(ignored_sigs); i++, k++) {
		c->sig[k] = ignored_sigs[i];
		sigaction(ignored_sigs[i], &sa, &c->old[k]);
	}
	c->n = k;
}

void cli_cancel_end(cli_cancel *c)
{
	size_t i;
	for (i = 0; i < c->n; i++)
		sigaction(c->sig[i], &c->old[i], NULL);
	c->n = 0;
}

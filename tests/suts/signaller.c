/* SPDX-License-Identifier: MIT */
/*
 * signaller: a program that signals its parent, as daemons do to say "ready" (issue 28, item 5).
 * Each line of the input file names a signal (USR1, USR2, HUP, PIPE, ALRM, INT, TERM, TSTP, TTIN,
 * TTOU, STOP, KILL); the program sends each to its parent in turn (kill(getppid(), ...)), then,
 * when the file has a line "boom", aborts in boom().  tnorm must neither die, stop nor take the
 * signal for the user's Ctrl-C.  A line "GROUP" sends SIGTERM to the parent's process group,
 * which is refused to a program under test too.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name;
	int sig;
} names[] = {{"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"HUP", SIGHUP},   {"PIPE", SIGPIPE},
             {"ALRM", SIGALRM}, {"INT", SIGINT},   {"TERM", SIGTERM}, {"TSTP", SIGTSTP},
             {"TTIN", SIGTTIN}, {"TTOU", SIGTTOU}, {"STOP", SIGSTOP}, {"KILL", SIGKILL}};

static void __attribute__((noinline)) boom(void)
{
	abort(); /* BOOM_LINE */
}

int main(int argc, char **argv)
{
	char line[64];
	int fail = 0;
	size_t i;
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 2;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "boom"))
			fail = 1;
		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(line, names[i].name))
				kill(getppid(), names[i].sig);
		if (!strcmp(line, "GROUP"))
			kill(-getpgid(getppid()), SIGTERM);
	}
	fclose(f);
	if (fail)
		boom();
	return 0;
}

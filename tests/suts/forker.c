/* SPDX-License-Identifier: MIT */
/* forker: starts children that outlive it (they sleep forever), prints their pids, then crashes. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(void)
{
	int i;
	for (i = 0; i < 3; i++) {
		pid_t p = fork();
		if (p == 0) {
			for (;;)
				pause();
		}
		printf("%d\n", (int)p);
	}
	fflush(stdout);
	abort();
}

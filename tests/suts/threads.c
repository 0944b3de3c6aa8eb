/* SPDX-License-Identifier: MIT */
/*
 * threads: failures in threads other than main.  argv[1] "crash": a worker thread dereferences
 * NULL while main waits for it; "exit": a worker calls exit(3) through a helper while another
 * thread sleeps in pause() and main waits in pthread_join.  The signature must name the worker's
 * frames, not main's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int *volatile nowhere;

static void __attribute__((noinline)) give_up(void)
{
	exit(3); /* GIVE_UP_LINE */
}

static void *crasher(void *arg)
{
	(void)arg;
	*nowhere = 1; /* CRASH_LINE */
	return NULL;
}

static void *quitter(void *arg)
{
	(void)arg;
	usleep(2000);
	give_up(); /* QUIT_LINE */
	return NULL;
}

static void *idler(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t, u;
	int crash = argc > 1 && !strcmp(argv[1], "crash");
	pthread_create(&u, NULL, idler, NULL);
	pthread_create(&t, NULL, crash ? crasher : quitter, NULL);
	pthread_join(t, NULL);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* sigkill_self: kills itself with SIGKILL (no stack can be taken: the kind alone). */
#include <signal.h>
#include <unistd.h>

int main(void)
{
	kill(getpid(), SIGKILL);
	return 0;
}

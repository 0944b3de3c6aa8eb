/* SPDX-License-Identifier: MIT */
/* hang: never finishes (ignores SIGTERM, so only the group SIGKILL ends it). */
#include <signal.h>
#include <unistd.h>

int main(void)
{
	signal(SIGTERM, SIG_IGN);
	for (;;)
		pause();
}

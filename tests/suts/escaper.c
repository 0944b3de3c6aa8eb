/* SPDX-License-Identifier: MIT */
/*
 * escaper: processes that leave the program's process group (escape.h).  Reads the file
 * argv[1] line by line: "setsid" starts a child that calls setsid(), "daemon" a double-fork
 * daemon, "crash" aborts; other lines do nothing.  Exits 0 at the end of the file.
 */
#include <stdlib.h>

#include "escape.h"

int main(int argc, char **argv)
{
	char line[256];
	FILE *f;
	if (argc < 2 || !(f = fopen(argv[1], "r")))
		return 125;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strcmp(line, "setsid"))
			escape(0);
		else if (!strcmp(line, "daemon"))
			escape(1);
		else if (!strcmp(line, "crash"))
			abort(); /* CRASH_LINE */
	}
	fclose(f);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * json.c - the CLI's side of JSON: --json output and triage's files are jansson values,
 * rendered with one set of flags so the same result always prints the same bytes, with every
 * string made valid UTF-8 first (tests, actions and a program's output can hold any bytes).
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"

json_t *cli_json_text(const char *s, size_t len)
{
	char *clean = NULL;
	size_t n = 0;
	json_t *v = NULL;
	if (tnorm_text_utf8(&clean, &n, s ? s : "", s ? len : 0) == 0)
		v = json_stringn(clean, n);
	tnorm_free(clean);
	return v;
}

json_t *cli_json_str(const char *s)
{
	return cli_json_text(s, s ? strlen(s) : 0);
}

json_t *cli_json_real(double v, int decimals)
{
	double scale = 1;
	while (decimals-- > 0)
		scale *= 10;
	return json_real((double)(long long)(v * scale + (v < 0 ? -0.5 : 0.5)) / scale);
}

json_t *cli_json_parse(const char *text)
{
	return text ? json_loads(text, 0, NULL) : json_null();
}

char *cli_json_dump(json_t *v, int bad)
{
	char *text = NULL, *line = NULL;
	size_t n;
	if (v && !bad)
		text = json_dumps(v, CLI_JSON_FLAGS);
	json_decref(v);
	if (text) {
		n = strlen(text);
		if ((line = malloc(n + 2))) {
			memcpy(line, text, n);
			memcpy(line + n, "\n", 2);
		}
	}
	free(text);
	return line;
}

int cli_json_print(const char *cmd, json_t *v, int bad)
{
	char *line = cli_json_dump(v, bad);
	if (!line) {
		fprintf(stderr, "tnorm %s: out of memory while writing JSON\n", cmd);
		return EXIT_SYSTEM;
	}
	fputs(line, stdout);
	free(line);
	return EXIT_OK;
}

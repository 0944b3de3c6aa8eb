/* SPDX-License-Identifier: MIT */
/*
 * run_output.c - what a front end shows of one run (runner.h): the result as the JSON object
 * that `tnorm run --json` prints and the Python binding's run() returns (json.loads of it).
 *
 * Until issue 42 the CLI and the binding each built it, and the two had drifted: the signal was
 * "signal" in one and "signo" in the other, the CPU time and the match key were only in the
 * CLI, the program's stdout, the kind and the top only in the binding, and "signature" was an
 * object in one and the text in the other.  One object now, the union of the keys under one
 * name each, in the CLI's order (docs/commands/run.md): "signature" is the signature as data
 * (tnorm_signature_json, whose "text" is the engine's text), "kind" and "top" are beside it for
 * the plugins' notes.  A program's output can be any bytes: "stdout" and "stderr" are readable
 * text, and "stdout_hex"/"stderr_hex" their exact copy when that is not all of them, as a
 * triage record's test (tnorm__json_set_bytes).
 */
#include <string.h>

#include "json.h"
#include "tnorm/runner.h"
#include "tnorm/signature.h"

/* A string the library handed out (or NULL) as a JSON value: a string, or null. */
static json_t *owned(char *s)
{
	json_t *v = s ? tnorm__json_str(s) : json_null();
	tnorm_free(s);
	return v;
}

int tnorm_run_result_json(char **out, const tnorm_run_result *res, const tnorm_match *match)
{
	char *sigjson = NULL, *top = NULL, *key = NULL;
	json_t *o, *sig;
	int err, bad = 0;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_run_result_json: NULL argument");
	*out = NULL;
	if (!res)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_run_result_json: NULL argument");
	if (res->sig && ((err = tnorm_signature_json(res->sig, &sigjson)) < 0 ||
	                 (err = tnorm_signature_format_top(res->sig, &top)) < 0 ||
	                 (match && (err = tnorm_match_key(match, res->sig, &key)) < 0))) {
		tnorm_free(sigjson);
		tnorm_free(top);
		return err;
	}
	sig = sigjson ? json_loads(sigjson, 0, NULL) : json_null();
	tnorm_free(sigjson);
	o = json_object();
	bad |= json_object_set_new(o, "outcome", json_string(tnorm_outcome_name(res->outcome)));
	bad |= json_object_set_new(o, "exit_code", json_integer(res->exit_code));
	bad |= json_object_set_new(o, "signal", json_integer(res->signo));
	bad |= json_object_set_new(o, "wall", tnorm__json_real(res->wall, 6));
	bad |= json_object_set_new(o, "child_cpu", tnorm__json_real(res->child_cpu, 6));
	bad |= json_object_set_new(o, "signature", sig);
	bad |= json_object_set_new(o, "kind", res->sig ? tnorm__json_str(tnorm_signature_kind(res->sig))
	                                               : json_null());
	bad |= json_object_set_new(o, "top", owned(top));
	bad |= json_object_set_new(o, "message", tnorm__json_str(res->message));
	bad |= json_object_set_new(o, "key", owned(key));
	bad |= tnorm__json_set_bytes(o, "stdout", "stdout_hex", res->out ? res->out : "",
	                             res->out ? res->out_len : 0);
	bad |= tnorm__json_set_bytes(o, "stderr", "stderr_hex", res->err ? res->err : "",
	                             res->err ? res->err_len : 0);
	return tnorm__json_dump(out, o, bad);
}

/* SPDX-License-Identifier: MIT */
/*
 * pipeline_output.c - what a front end shows of a job (pipeline.h): the default name of its
 * result file and the slipped/ folder beside it, and its result as the JSON object the CLI prints and the Python binding returns.
 *
 * Both lived in the front ends until issue 31: the CLI built the object with its own jansson
 * calls, the binding built a dict of its own whose key for the result's size was "final" where
 * the CLI's was "reduced", and the CLI and the plugins' Python each spelled TEST.min, TEST.norm
 * and TEST.gen.  One function each now, so the front ends cannot drift apart again.  The JSON's
 * keys and their order are the CLI's --json output as it was (docs/commands/reduce.md): scripts
 * read it, and the tests compare it.
 */
#include <string.h>

#include "json.h"
#include "tnorm/pipeline.h"

int tnorm_pipeline_default_output(char **out, const char *test, tnorm_mode mode)
{
	static const char *const suffix[] = {[TNORM_MODE_MINIMIZE] = ".norm",
	                                     [TNORM_MODE_REDUCE] = ".min",
	                                     [TNORM_MODE_NORMALIZE] = ".norm",
	                                     [TNORM_MODE_GENERALIZE] = ".gen"};
	tnorm__buf b = TNORM__BUF_INIT;
	int err;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_default_output: NULL argument");
	*out = NULL;
	if (!test)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_default_output: NULL test");
	if ((unsigned)mode > TNORM_MODE_GENERALIZE)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_default_output: unknown mode %d",
		                        (int)mode);
	if ((err = tnorm__buf_printf(&b, "%s%s", test, suffix[mode])) < 0)
		return err;
	return (*out = tnorm__buf_detach(&b)) ? 0 : TNORM_ENOMEM;
}

int tnorm_pipeline_slipped_dir(char **out, const char *out_path)
{
	tnorm__buf b = TNORM__BUF_INIT;
	const char *slash;
	int err;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_slipped_dir: NULL argument");
	*out = NULL;
	if (!out_path)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_slipped_dir: NULL path");
	slash = strrchr(out_path, '/');
	err = slash ? tnorm__buf_printf(&b, "%.*s/slipped", (int)(slash - out_path), out_path)
	            : tnorm__buf_printf(&b, "./slipped");
	if (err < 0)
		return err;
	return (*out = tnorm__buf_detach(&b)) ? 0 : TNORM_ENOMEM;
}

static json_t *slipped_json(const tnorm_pipeline_result *r)
{
	json_t *a = json_array();
	size_t k;
	int bad = !a;
	for (k = 0; k < r->nslipped && !bad; k++) {
		json_t *o = json_object();
		bad |= json_object_set_new(o, "signature", tnorm__json_str(r->slipped[k].signature));
		bad |= json_object_set_new(o, "path", tnorm__json_str(r->slipped[k].path));
		bad |= json_object_set_new(o, "size", json_integer((json_int_t)r->slipped[k].size));
		bad |= json_array_append_new(a, o);
	}
	return tnorm__json_done(a, bad);
}

static json_t *log_json(const tnorm_pipeline_rewrite *log, size_t n)
{
	json_t *a = json_array();
	size_t k;
	int bad = !a;
	for (k = 0; k < n && !bad; k++) {
		json_t *o = json_object();
		bad |= json_object_set_new(o, "rule", json_string(tnorm_rule_name(log[k].rule)));
		bad |= json_object_set_new(o, "what", tnorm__json_str(log[k].what));
		bad |= json_array_append_new(a, o);
	}
	return tnorm__json_done(a, bad);
}

int tnorm_pipeline_result_json(char **out, const tnorm_pipeline_options *o,
                               const tnorm_pipeline_result *r, const tnorm_pipeline_rewrite *log,
                               size_t nlog)
{
	json_t *j, *replay;
	const char *rules;
	int bad = 0;
	if (!out)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_result_json: NULL argument");
	*out = NULL;
	if (!o || !r || (!log && nlog))
		return tnorm__error_set(TNORM_EINVALID, "tnorm_pipeline_result_json: NULL argument");
	rules = o->mode == TNORM_MODE_REDUCE || o->mode == TNORM_MODE_GENERALIZE ? "none"
	        : r->normalize.paper                                             ? "paper"
	                                                                         : "calls";
	j = json_object();
	replay = json_object();
	bad |= json_object_set_new(replay, "recorded", json_integer((json_int_t)r->replay_len));
	bad |= json_object_set_new(replay, "replayed", json_integer((json_int_t)r->replayed));
	bad |= json_object_set_new(j, "output", tnorm__json_str(o->out));
	bad |= json_object_set_new(j, "original", json_integer((json_int_t)r->original));
	bad |= json_object_set_new(j, "reduced", json_integer((json_int_t)r->final));
	bad |= json_object_set_new(j, "unit", tnorm__json_str(r->unit));
	bad |= json_object_set_new(j, "runs", json_integer((json_int_t)r->stats.runs));
	bad |= json_object_set_new(j, "accepted", json_integer((json_int_t)r->stats.accepted));
	bad |= json_object_set_new(j, "cache_hits", json_integer((json_int_t)r->stats.cache_hits));
	bad |= json_object_set_new(j, "skipped", json_integer((json_int_t)r->reduce.skipped));
	bad |= json_object_set_new(j, "slice_level", json_integer(r->reduce.slice_level));
	bad |= json_object_set_new(j, "rewrites", json_integer((json_int_t)r->normalize.rewrites));
	bad |= json_object_set_new(j, "rules", json_string(rules));
	bad |= json_object_set_new(j, "capped", json_integer((json_int_t)r->normalize.capped));
	bad |= json_object_set_new(j, "known_normal_form", json_boolean(r->known));
	bad |= json_object_set_new(j, "seconds", tnorm__json_real(r->stats.elapsed, 3));
	bad |= json_object_set_new(j, "complete", json_boolean(r->complete));
	bad |= json_object_set_new(j, "replay", replay);
	bad |= json_object_set_new(j, "signature", tnorm__json_str(r->signature));
	bad |= json_object_set_new(j, "slipped", slipped_json(r));
	bad |= json_object_set_new(j, "log", log_json(log, nlog));
	bad |= json_object_set_new(j, "generalization",
	                           r->generalization ? json_loads(r->generalization, 0, NULL)
	                                             : json_null());
	return tnorm__json_dump(out, j, bad);
}

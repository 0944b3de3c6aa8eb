/* SPDX-License-Identifier: MIT */
/*
 * options.h (internal) - the options structs' defaults, resolved where the library reads them.
 *
 * In every public options struct 0 means "the default" and a negative number turns off what is
 * on by default (docs/architecture.md, "Options structs"); *_INIT sets only the version.  Each
 * function below fills one struct's defaults in place, into what the library's internals read:
 * explicit values, with 0 for off or none (a run's unwind and fork_server 0 or 1, its timeout 0
 * for no limit).  So a resolved struct is the library's own copy: never hand it to a public
 * function again (which would take its 0s for defaults).  `*_versions` functions only give the
 * structs held in another their version when it is 0 (the current one): they may run any number
 * of times.  None of them checks versions: the public functions do, first.
 */
#ifndef TNORM_OPTIONS_H
#define TNORM_OPTIONS_H

#include "tnorm/tnorm.h"

/* timeout 0: 10 s, negative: 0 (none); output_cap 0: 65536; unwind, fork_server: 1 unless
 * negative.  A session's timeout of 0 is its own (derived from the confirm runs): it resolves
 * the copy it hands its runners, not its own. */
void tnorm__run_options_resolve(tnorm_run_options *o);
/* confirm 0: 3. */
void tnorm__session_options_resolve(tnorm_session_options *o);
/* The deletion's algorithm and seed, as both the reduce and the generic options hold them:
 * TNORM_ALGO_DEFAULT is `dflt`, seed 0 is 1. */
void tnorm__deletion_resolve(tnorm_reduce_algo *algo, uint64_t *seed, tnorm_reduce_algo dflt);
/* algo TNORM_ALGO_DEFAULT: `algo` (adaptive, ddmin in normalization); prefix, slice: 1 unless
 * negative; seed 0: 1. */
void tnorm__reduce_options_resolve(tnorm_reduce_options *o, tnorm_reduce_algo algo);
/* algo TNORM_ALGO_DEFAULT: adaptive; seed 0: 1; views 0: all; chunks: 1 unless negative; rules
 * 0: all. */
void tnorm__generic_options_resolve(tnorm_generic_options *o);
/* max_alternatives 0: 256; max_reduce_alternatives 0: 16; rewire: 1 unless negative; reduce:
 * its version, and its TNORM_ALGO_DEFAULT is ddmin (the rest is tnorm_reduce_test's). */
void tnorm__normalize_options_resolve(tnorm_normalize_options *o);
/* max_alternatives 0: 4096; fresh: 1 unless negative; sample 0: 16, negative: 0 (all). */
void tnorm__generalize_options_resolve(tnorm_generalize_options *o);
/* The versions of run, session, reduce, normalize (and its reduce) and generic. */
void tnorm__pipeline_options_versions(tnorm_pipeline_options *o);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * triage_report.h - a triage's report, rendered from its result (triage.h): report.json for
 * programs, report.html for people, and SARIF 2.1.0 for code-scanning tools (sarif.c).
 * report.html is a bug list (issue 40, item 1): one self-contained page, an overview table, a
 * histogram of tests per bucket and one of test lengths (both on log scales, so that they read at
 * 10 and at 10,000 tests), then one section per bucket, the most severe first, then the one with
 * the most tests: its crash state (kind, access, the top frames without the fuzzing engines'),
 * severity class, tests, the normal form as escaped text and as hex, its generalization, the
 * bucket's other normal forms and its tests (collapsed).  Each bucket has a severity class
 * (severity.h).  Every byte a program or a file gave is escaped one way (tnorm_text_escape).
 * tnorm_triage_run writes none of them: every front end (the CLI's tnorm triage, the binding's
 * _tnorm.triage) calls tnorm_triage_report_finish once the job returns, which writes report.json
 * and report.html into OUT (tnorm_triage_report_write) and the SARIF log where --sarif says
 * (tnorm_triage_report_sarif_write) when there is a report to write; a caller may render any of
 * them again from a result it holds.
 *
 * Defined in: triage_report.c, sarif.c (the SARIF log), triage_output.c
 * (tnorm_triage_report_finish).
 */
#ifndef TNORM_TRIAGE_REPORT_H
#define TNORM_TRIAGE_REPORT_H

#include "triage.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The order in which the report shows the buckets: order[0..nbuckets) receives 0-based bucket
 * indices, the most severe first (EXPLOITABLE, PROBABLY_EXPLOITABLE, UNKNOWN, NOT_EXPLOITABLE: a
 * kind no rule knows may still be serious), then more tests first, then the lower number.
 * `order` has room for r->nbuckets entries (may be NULL when there are none).  0 or
 * TNORM_EINVALID.
 */
TNORM_EXTERN int tnorm_triage_report_order(const tnorm_triage_result *r, size_t *order);

/**
 * The signature a report shows for a bucket: the representative's own run's
 * (tnorm_triage_bucket.own_signature) when there is one, else its test's.  Borrowed from the
 * bucket; "" for NULL.
 */
TNORM_EXTERN const char *tnorm_triage_bucket_signature(const tnorm_triage_bucket *bk);

/**
 * The counts in words (issue 40, item 7): how many failing tests, distinct signatures and
 * buckets, and why the numbers differ (the coverage split kept buckets of one signature apart; a
 * signature none of whose tests could be minimized has no bucket; the normal forms a bucket
 * merges).  One paragraph, ASCII; what the CLI's summary prints and both reports hold.  *out is
 * freed with tnorm_free().  0, TNORM_EINVALID or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_report_counts_text(const tnorm_triage_result *r, char **out);

/**
 * report.json's text (one line and a newline, written as every JSON of tnorm: keys in a fixed
 * order, valid UTF-8): the counts, the buckets, one entry per test; then bucket_order (the
 * buckets' numbers in the report's order) and counts_explained (tnorm_triage_report_counts_text).
 * Each bucket, after its older keys: rank (its place in bucket_order, from 1), crash_state {text,
 * kind, type, access (null when the kind names none), frames, freed_frames: escaped as
 * tnorm_text_escape does}, representative_signature (the representative's own run's, or null),
 * minimized, assigned, normal_form_escaped, normal_form_bytes (hex of every byte) and
 * same_signature_buckets (the numbers of the other buckets with its key).  *out is freed with
 * tnorm_free().  0 or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_report_json(const tnorm_triage_result *r, char **out);

/**
 * The summary `tnorm triage` prints after a complete job that is not a shard, and the plugins'
 * `tnorm triage` too (the binding's result dict has it as "summary"): the counts, the counts in
 * words, the sampling and the polish, then each bucket in the report's order (its tests, its
 * signature as shown, severity, representative, --explain's lines, its normal form or annotated
 * test), the tests not triaged, and where the report is.  Every byte of a name, a message or a
 * form escaped (tnorm_text_escape).  *out is freed with tnorm_free().  0, TNORM_EINVALID or
 * TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_summary_text(const tnorm_triage_result *r, char **out);

/**
 * What follows tnorm_triage_run(o, r) in every front end, given what it returned (`err`), so that
 * the CLI and the binding cannot drift: a complete job that is not a shard (o->shards <= 1) gets
 * OUT/report.json and report.html (tnorm_triage_report_write) and, when `sarif` is not NULL, the
 * SARIF log there (tnorm_triage_report_sarif_write); a shard, whose report is the unsharded
 * job's, gets none.  Returns `err` itself when it is not 0 (nothing written), else 0 or the
 * report's error (TNORM_EIO, TNORM_ENOMEM; TNORM_EINVALID for a NULL argument).
 */
TNORM_EXTERN int tnorm_triage_report_finish(const tnorm_triage_options *o,
                                            const tnorm_triage_result *r, int err,
                                            const char *sarif);

/**
 * report.html's text: no scripts, no external files; every name, signature and test escaped.
 * *out is freed with tnorm_free().  0 or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_report_html(const tnorm_triage_result *r, char **out);

/**
 * The result as SARIF 2.1.0 (one line and a newline), for code-scanning tools: one result per
 * bucket, its rule the bucket's kind, its level and properties.severity from the bucket's severity
 * class (severity.h), its location the throwing frame's file (as DWARF names it, relative to
 * %SRCROOT%) and line, the stack from the outermost frame in as its code flow, a use-after-free's
 * free stack as related locations, and partialFingerprints["tnormSignatureKey/v1"] a hash of the
 * bucket's signature key (the same bug keeps it across triages).  A frame without a line has a
 * logical location only.  *out is freed with tnorm_free().  0, TNORM_EINVALID or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_report_sarif(const tnorm_triage_result *r, char **out);

/** tnorm_triage_report_sarif written to `path`, atomically.  0, TNORM_EINVALID, TNORM_EIO,
 *  TNORM_ENOMEM. */
TNORM_EXTERN int tnorm_triage_report_sarif_write(const tnorm_triage_result *r, const char *path);

/**
 * Write both into r->out (report.json, report.html), each atomically.  0, TNORM_EIO,
 * TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_report_write(const tnorm_triage_result *r);

#ifdef __cplusplus
}
#endif
#endif

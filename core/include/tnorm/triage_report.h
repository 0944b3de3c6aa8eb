/* SPDX-License-Identifier: MIT */
/*
 * triage_report.h - a triage's report, rendered from its result (triage.h): report.json for
 * programs, report.html for people (one self-contained page: the bucket table, a chart of test
 * length original -> reduced -> normalized, each bucket's annotated test), and SARIF 2.1.0 for
 * code-scanning tools (sarif.c).  Each bucket has a severity class (severity.h).  tnorm_triage_run
 * writes none of them: the caller (the CLI's tnorm triage, the binding's _tnorm.triage) writes
 * report.json and report.html into OUT with tnorm_triage_report_write once the job returns (and
 * the SARIF log where --sarif says, tnorm_triage_report_sarif_write), and may render any of them
 * again from a result it holds.
 *
 * Defined in: triage_report.c, sarif.c (the SARIF log).
 */
#ifndef TNORM_TRIAGE_REPORT_H
#define TNORM_TRIAGE_REPORT_H

#include "triage.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * report.json's text (one line and a newline, written as every JSON of tnorm: keys in a fixed
 * order, valid UTF-8): the counts, the buckets, one entry per test.  *out is freed with
 * tnorm_free().  0 or TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_report_json(const tnorm_triage_result *r, char **out);

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

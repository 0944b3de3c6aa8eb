/* SPDX-License-Identifier: MIT */
/*
 * triage_report.h - a triage's report, rendered from its result (triage.h): report.json for
 * programs, report.html for people (one self-contained page: the bucket table, a chart of test
 * length original -> reduced -> normalized, each bucket's annotated test).  tnorm_triage_run
 * writes both; a front end may render them again from a result it holds.
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
 * Write both into r->out (report.json, report.html), each atomically.  0, TNORM_EIO,
 * TNORM_ENOMEM.
 */
TNORM_EXTERN int tnorm_triage_report_write(const tnorm_triage_result *r);

#ifdef __cplusplus
}
#endif
#endif

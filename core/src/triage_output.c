/* SPDX-License-Identifier: MIT */
/*
 * triage_output.c - what follows tnorm_triage_run in every front end (triage_report.h): the
 * report of a complete job that is not a shard, and its SARIF log when asked for.
 *
 * The CLI's `tnorm triage` and the binding's `_tnorm.triage` wrote the report each on its own
 * (issue 42, item 1: a policy in two places drifts); this is the one place that decides when
 * there is a report.  It sits above triage_report.c and sarif.c (it calls both, neither calls
 * it) and calls nothing of the job's files: tnorm_triage_run writes no report, so that a
 * caller may render the result again, or not at all.
 */
#include "tnorm/triage_report.h"

#include "common.h"

int tnorm_triage_report_finish(const tnorm_triage_options *o, const tnorm_triage_result *r,
                               int err, const char *sarif)
{
	if (err != 0)
		return err; /* stopped or failed: no report, the job's error stays the caller's */
	if (!o || !r)
		return tnorm__error_set(TNORM_EINVALID, "tnorm_triage_report_finish: NULL argument");
	if (o->shards > 1 || !r->complete)
		return 0; /* a shard's report is the unsharded job's */
	if ((err = tnorm_triage_report_write(r)) < 0)
		return err;
	return sarif ? tnorm_triage_report_sarif_write(r, sarif) : 0;
}

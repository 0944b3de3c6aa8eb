/* SPDX-License-Identifier: MIT */
/*
 * tnorm.h - the umbrella header: include this to get the whole public API of libtnorm.
 */
#ifndef TNORM_TNORM_H
#define TNORM_TNORM_H

#include "common.h"
#include "errors.h"
#include "harness.h"
#include "order.h"
#include "test.h"
#include "signature.h"
#include "runner.h"
#include "reduce.h"
#include "generic.h"
#include "session.h"
#include "normalize.h"
#include "db.h"
#include "generalize.h"
#include "pipeline.h"
#include "version.h"
#include "triage.h"
#include "triage_report.h"
#include "severity.h"
#include "sanitizer.h"
#include "why.h"
#include "fuzz.h"
#include "export.h"
#include "pools.h"
#include "policy.h"

#endif

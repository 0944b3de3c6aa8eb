#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 27's property test on a crash corpus: for every normal form a triage found (each
# bucket's, and the others it lists), no single-place lowering and no one-byte deletion still
# fails with the same signature.  Runs bench_nfcheck (bench/nfcheck.c) on them.
#   property.sh REPORT.json -- CMD ARGS @@
# Needs BUILD (default: build) with bench_nfcheck built.  Exit 1 when a form has a counterexample.
set -eu
report=$1
shift
[ "$1" = -- ] && shift
B=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tnorm-property-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
python3 - "$report" "$tmp" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
k = 0
seen = set()
for b in r["buckets"]:
    forms = b.get("normal_forms") or []
    if not isinstance(forms, list):
        forms = []
    forms = [b] + forms
    for f in forms:
        data = bytes.fromhex(f["normal_form_hex"]) if "normal_form_hex" in f else f["normal_form"].encode()
        if data in seen:
            continue
        seen.add(data)
        k += 1
        open("%s/b%d-nf%d" % (sys.argv[2], b["id"], k), "wb").write(data)
PY
"$B/bench/bench_nfcheck" --timeout 10 "$tmp"/* -- "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Issue 27's property test on a crash corpus: for every normal form a triage found (each
# bucket's, and the others it lists) that its polish finished (report.json's results[].polished:
# docs/commands/triage.md, "The polish"), no single-place lowering and no one-byte deletion still
# fails with the same signature.  Runs bench_nfcheck (bench/nfcheck.c) on them; ALL=1 checks the
# forms the polish did not reach too (the budget), which need not hold.
#   property.sh REPORT.json -- CMD ARGS @@
# FIRST=N: only the first N forms that qualify (a sample of a corpus of many).
# Needs BUILD (default: build) with bench_nfcheck built.  Exit 1 when a form has a counterexample.
set -eu
report=$1
shift
[ "$1" = -- ] && shift
B=${BUILD:-build}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tnorm-property-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
python3 - "$report" "$tmp" "${ALL:-0}" "${FIRST:-0}" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
polished = {t["test"] for t in r["results"] if t.get("polished")}
k = 0
seen = set()
skipped = 0
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
        first = f.get("first") or f.get("representative")
        if (sys.argv[3] != "1" and first not in polished) or (int(sys.argv[4]) and k >= int(sys.argv[4])):
            skipped += 1
            continue
        k += 1
        open("%s/b%d-nf%d" % (sys.argv[2], b["id"], k), "wb").write(data)
print("%d normal forms to check; %d left out (not polished: the polish's budget, ALL=1 checks "
      "them too; or past FIRST)" % (k, skipped))
if not k:
    sys.exit(3)
PY
rc=$?
[ $rc = 3 ] && exit 0
[ $rc = 0 ] || exit $rc
"$B/bench/bench_nfcheck" --timeout 10 "$tmp"/* -- "$@"

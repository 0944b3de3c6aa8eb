#!/bin/bash
# SPDX-License-Identifier: MIT
# tnorm triage --sarif (issue 40, items 2 and 3): a crash folder of a binary command reader with
# two planted bugs (tests/suts/opcodes.c: A a stack-buffer-overflow WRITE, B a heap-buffer-overflow
# READ).  Each bucket's severity class in the summary, report.json and report.html; the SARIF file
# valid against the official SARIF 2.1.0 schema (tests/data/sarif-schema-2.1.0.json, from
# github:oasis-tcs/sarif-spec, sarif-2.1/schema/) and holding what GitHub code scanning requires
# of an upload ("SARIF support for code scanning"); its fingerprints the same in a second triage of
# the folder with one more crash file (other names, other counts).
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT, TNORM_SUT_DIR (set by meson test), and
# python3-jsonschema.
. "$(dirname "$0")/lib.sh"
S=$TNORM_SUT_DIR
cd "$W" || exit 1

libfuzzer() { # DIR CONTENT (printf format): a libFuzzer crash file, named by its SHA-1
	printf -- "$2" >"$1/tmp"
	mv "$1/tmp" "$1/crash-$(sha1sum <"$1/tmp" | cut -c1-40)"
}
mkdir c
libfuzzer c '\x01\x02\x80\x90\x07\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c\x8d\x8e\x8f\x90\x91\x92\x00\x03'
libfuzzer c '\x07\xf0\xf1\xf2\xf3\xf4\xf5\xf6\xf7\xf8\xf9\xfa\xfb\xfc\xfd\xfe\xc0\xc1\xc2\xc3'
libfuzzer c '\x05\x05\xa0\xff\x06\x00\x02'
libfuzzer c '\xee\xff\x05\x00\xff'

"$T" triage c -j 2 --no-db -o out1 --sarif one.sarif -- "$S/sut_opcodes" @@ >one.out 2>one.err; rc=$?
expect "triage --sarif exits 0 with two buckets" \
	sh -c "[ $rc = 0 ] && grep -q '^c: 4 tests, 4 failing, 2 distinct signatures, .*: 2 buckets$' one.out"
expect "the summary's bucket lines give the severity: the overflowing write EXPLOITABLE" \
	grep -q '^== bucket [12]: 2 tests[^;]*; asan:stack-buffer-overflow:WRITE at .*; severity EXPLOITABLE (out-of-bounds write' one.out
expect "... the overflowing read NOT_EXPLOITABLE" \
	grep -q '^== bucket [12]: 2 tests[^;]*; asan:heap-buffer-overflow:READ at .*; severity NOT_EXPLOITABLE (out-of-bounds read' one.out
expect "report.json: each bucket's severity, class and reason" \
	python3 -c "
import json, sys
r = json.load(open('out1/report.json'))
got = sorted((b['signature'].split(' ')[0], b['severity']['class'], bool(b['severity']['reason'])) for b in r['buckets'])
sys.exit(got != [('asan:heap-buffer-overflow:READ', 'NOT_EXPLOITABLE', True), ('asan:stack-buffer-overflow:WRITE', 'EXPLOITABLE', True)])"
expect "report.html: the severity in the table and in each bucket's section" \
	sh -c "grep -q '<th>severity</th>' out1/report.html && [ \$(grep -c '<p class=\"severity\">Severity: <strong>' out1/report.html) = 2 ] && grep -q '>EXPLOITABLE</td>' out1/report.html"

# Valid against the official schema; what GitHub code scanning requires of an upload.
check_sarif() { # FILE
	python3 - "$1" "$SRC/tests/data/sarif-schema-2.1.0.json" "$SRC/tests/suts" <<'PYEOF'
import json, os, sys
import jsonschema
log = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
srcroot = sys.argv[3]
jsonschema.Draft4Validator.check_schema(schema)
jsonschema.Draft4Validator(schema).validate(log)
def need(cond, what):
    if not cond:
        sys.exit("SARIF: " + what)
need(log.get("version") == "2.1.0", "version is not 2.1.0")
need(log.get("$schema", "").endswith("sarif-schema-2.1.0.json"), "no $schema")
need(len(log["runs"]) == 1, "one run")
run = log["runs"][0]
driver = run["tool"]["driver"]
need(driver.get("name") == "tnorm", "tool.driver.name")
rules = driver.get("rules", [])
ids = [r["id"] for r in rules]
need(len(ids) == len(set(ids)), "rule ids are not unique")
for r in rules:
    need(r["shortDescription"]["text"], "a rule without a short description")
    sev = r.get("properties", {}).get("security-severity")
    need(sev is not None and 0.0 <= float(sev) <= 10.0, "security-severity 0.0 to 10.0")
    need("security" in r["properties"].get("tags", []), "a security-severity needs the security tag")
need(len(run["results"]) == 2, "one result per bucket")
for res in run["results"]:
    need(res["ruleId"] in ids, "ruleId %r is no rule of tool.driver.rules" % res["ruleId"])
    need(ids[res["ruleIndex"]] == res["ruleId"], "ruleIndex points at another rule")
    need(res["message"]["text"].strip(), "an empty message")
    need(res.get("level") in ("error", "warning", "note", "none"), "level")
    locs = res.get("locations", [])
    need(1 <= len(locs), "a result without a location")
    phys = locs[0]["physicalLocation"]
    uri = phys["artifactLocation"]["uri"]
    need(not os.path.isabs(uri) and "://" not in uri, "uri %r is not relative" % uri)
    need(phys["artifactLocation"].get("uriBaseId") in run.get("originalUriBaseIds", {}),
         "uriBaseId not in originalUriBaseIds")
    need(os.path.isfile(os.path.join(srcroot, uri)), "%r is not a file of the source root" % uri)
    need(phys["region"]["startLine"] >= 1, "startLine")
    need(res.get("partialFingerprints"), "no partialFingerprints")
    flow = res["codeFlows"][0]["threadFlows"][0]["locations"]
    need(flow[-1]["location"]["physicalLocation"] == phys, "the flow does not end at the location")
    need(flow[0]["location"]["logicalLocations"][0]["name"] == "main", "the flow does not start at main")
    need(res["properties"]["severity"]["class"] in ("EXPLOITABLE", "NOT_EXPLOITABLE"), "severity")
PYEOF
}
expect "the SARIF file is valid SARIF 2.1.0 and what GitHub code scanning takes" check_sarif one.sarif
expect "the SARIF file is one line and a newline, written atomically (no temporary file left)" \
	sh -c "[ \$(wc -l <one.sarif) = 1 ] && ! ls -a | grep -q '\\.tmp\\.'"

# A second triage of the folder grown by one file of bug B: other names, other counts, the same
# fingerprints.
libfuzzer c '\x01\xffa\x00'
"$T" triage c -j 2 --no-db -o out2 --sarif two.sarif -- "$S/sut_opcodes" @@ >two.out 2>two.err; rc=$?
fingerprints() { # FILE: rule and fingerprint of each result, sorted
	python3 -c "import json,sys; print(sorted((r['ruleId'], r['partialFingerprints']['tnormSignatureKey/v1']) for r in json.load(open(sys.argv[1]))['runs'][0]['results']))" "$1"
}
expect "a second triage of the folder with one more file: the same fingerprints" \
	sh -c "[ $rc = 0 ] && grep -q '^c: 5 tests' two.out && [ \"\$(fingerprints one.sarif)\" = \"\$(fingerprints two.sarif)\" ] && ! cmp -s one.sarif two.sarif"
expect "two fingerprints, one per bug, 32 hex digits each" \
	python3 -c "import json,re,sys; f=[r['partialFingerprints']['tnormSignatureKey/v1'] for r in json.load(open('two.sarif'))['runs'][0]['results']]; sys.exit(not (len(set(f)) == 2 and all(re.fullmatch('[0-9a-f]{32}', x) for x in f)))"
expect "the second SARIF file is valid too" check_sarif two.sarif

# Bad input: one clear line, non-zero, nothing written.
"$T" triage c --sarif >bad.out 2>bad.err; rc=$?
expect "--sarif without a file: usage error" sh -c "[ $rc = 2 ] && [ \$(wc -l <bad.err) -ge 1 ] && grep -q -- '--sarif' bad.err"
"$T" triage c --no-db -o out3 --sarif nodir/x.sarif -- "$S/sut_opcodes" @@ >nd.out 2>nd.err; rc=$?
expect "--sarif into a folder that does not exist: an error, not a crash" sh -c "[ $rc != 0 ] && [ $rc -lt 128 ] && [ ! -e nodir ]"

echo "$pass passed, $fail failed"
[ $fail = 0 ]

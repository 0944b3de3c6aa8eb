#!/bin/bash
# SPDX-License-Identifier: MIT
# An uncaught C++ exception is a kind (issue 40, item 5): `uncaught TYPE ("what() text") at` the
# throw site, so that two exception types thrown from one line are two bugs.  tests/suts/
# exceptions.cc built with g++ and clang++, -O0 and -O2: each command's signature as `tnorm run`
# prints it and as JSON has it, the two types of one line in two triage buckets, the what() text
# shown but not compared (two messages of one type at one line: one bucket).
# Needs TNORM_EXE, TNORM_SOURCE_ROOT, TNORM_BUILD_ROOT (set by meson test), g++ and clang++.
. "$(dirname "$0")/lib.sh"
cd "$W" || exit 1
src=$SRC/tests/suts/exceptions.cc
printf 'a k1\n' >a1.t
printf 'a other key\n' >a2.t
printf 'o k1\n' >o1.t
printf 'o x\n' >o2.t
printf 'r\n' >r.t
printf 'i\n' >i.t
printf 'u\n' >u.t
printf 'n\n' >n.t
printf 'c caught\na last\n' >ca.t
printf 'l 10\n' >l.t

# The throw site: gcc names a C++ function by its name, clang by its name and parameters.
site='lookup(\(char, .*\))? \(exceptions\.cc:24\) <- main \(exceptions\.cc:43\)'
# One case a line, FILE|WHAT IT CHECKS|the signature `tnorm run` prints, an ERE ($site: the site).
cat >cases <<'EOF'
a1.t|std::invalid_argument with its what() at the throw site|uncaught std::invalid_argument \("bad key k1"\) at $site
o1.t|std::out_of_range thrown from the same line|uncaught std::out_of_range \("no slot k1"\) at $site
r.t|std::runtime_error, its quotes and tab escaped|uncaught std::runtime_error \("runtime \\"quoted\\"\\tand tabbed"\) at main \(exceptions\.cc:46\)
i.t|throw 42|uncaught int at main \(exceptions\.cc:48\)
u.t|a class overriding what(): the terminate handler's text|uncaught own_error \("own error text"\) at main \(exceptions\.cc:50\)
n.t|thrown inside a noexcept function|uncaught std::logic_error \("thrown through noexcept"\) at must_not_throw(\(char const\*\))? \(exceptions\.cc:30\) <- main \(exceptions\.cc:65\)
ca.t|the uncaught one, not the one caught before it|uncaught std::invalid_argument \("bad key last"\) at $site
EOF
for cxx in g++ clang++; do
	for opt in O0 O2; do
		v=$cxx-$opt exe=$W/ex-$cxx-$opt
		if ! "$cxx" -g -"$opt" -w -o "$exe" "$src" >"$v.log" 2>&1; then
			bad "$v: builds"; sed 's/^/#   /' "$v.log" | head -5; continue
		fi
		while IFS='|' read -r -u 3 file what ere; do
			s=$("$T" run "$file" -- "$exe" {} 2>&1 | sed -n 's/^signature: //p')
			expect "$v: $what ($s)" grep -Eq "^${ere//\$site/$site}\$" <<<"$s"
		done 3<cases
		out=$("$T" run l.t -- "$exe" {} 2>&1)
		expect "$v: caught exceptions are no failure" grep -q '^outcome: pass' <<<"$out"
		"$T" run --json a2.t -- "$exe" {} >"$v.json" 2>&1
		expect "$v: the JSON's kind is the type, its what the text" \
			grep -q '"kind": "uncaught std::invalid_argument", "text": "uncaught std::invalid_argument (\\"bad key other key\\") at [^"]*", "what": "bad key other key"' "$v.json"
	done
done

# Two types thrown from one line are two buckets; two messages of one type there are one.
mkdir tri
cp a1.t a2.t o1.t o2.t tri/
"$T" triage --no-db -j 1 -o tri-out tri -- "$W/ex-g++-O2" {} >triage.log 2>&1
expect "triage: two types from one line, two buckets" grep -q ': 4 tests, 4 failing, 2 distinct signatures.*: 2 buckets$' triage.log
expect "triage: invalid_argument's two messages in one bucket" \
	grep -q '^== bucket [12]: 2 tests; uncaught std::invalid_argument ' triage.log
expect "triage: out_of_range's two messages in one bucket" \
	grep -q '^== bucket [12]: 2 tests; uncaught std::out_of_range ' triage.log
grep '^==\|buckets$' triage.log | sed 's/^/# /'
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]

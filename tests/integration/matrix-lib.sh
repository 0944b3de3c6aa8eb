# SPDX-License-Identifier: MIT
# The test matrix of issue 12, shared by tests/integration/matrix.sh (the test) and
# bench/matrix.sh (the table): which variants exist, how each is built, and how one reduction is
# judged.  Sourced; the caller sets T (the tnorm executable), SRC (the source root) and W (a
# scratch folder).  Bash.
#
# The programs (tests/suts/matrix/*.c, and exc.cc, built with g++ and clang++) each have two
# bugs, A and B; each prints "BUG-A" or "BUG-B" on stderr right before its bug fires.  inputs/NAME.txt fails with A and has B's (smaller)
# trigger too; inputs/NAME-b.txt fails with B only.  A variant is "COMPILER-OPT-MODE[-RUNTIME]
# [-stripped] PROGRAM", e.g. "gcc-O2-asan-static heap".
#
# The matrix (what is built, and what is left out and why):
#   compiler gcc, clang  x  -O0, -O2  x  mode:
#   - plain:  inline, thread, helper, exc (two C++ exception types thrown from one line: only
#             the kind, `uncaught TYPE`, tells them apart).  heap, uaf and uafrw are left out:
#             without ASan their bugs do not fault at all (a silent overflow, reads of freed memory); ubsan.c likewise
#             (its UB does not fault without UBSan).
#   - asan:   every program but ubsan.c, with the compiler's default runtime (gcc: shared libasan;
#             clang: static, linked into the executable) and with the other one (gcc
#             -static-libasan at both levels; clang -shared-libasan once, at -O2).  Always
#             -fno-omit-frame-pointer, as the ASan documentation asks (its allocation and free
#             stacks use the frame-pointer unwinder).
#   - ubsan:  ubsan.c, and inline.c (its NULL dereference is a UBSan `null` report), with
#             -fno-sanitize-recover=undefined; the default runtime (gcc: shared libubsan; clang:
#             static), and gcc -static-libubsan once, at -O2 (ubsan.c only).
#   - stripped (`strip` after linking): at -O2 only, with each compiler's default runtime: plain,
#             asan (all its programs) and ubsan (ubsan.c).  -O0 stripped adds nothing: the
#             engine sees no symbols either way.
#   Every build has -g (a stripped one loses it); thread.c gets -pthread.

MX_SRC=$SRC/tests/suts/matrix
MX_PLAIN="inline thread helper exc"
MX_ASAN="heap uaf uafrw inline thread helper exc"

# Print the variants, one "VARIANT PROGRAM" a line.
mx_variants() {
	local cc opt p
	for cc in gcc clang; do
		for opt in O0 O2; do
			for p in $MX_PLAIN; do echo "$cc-$opt-plain $p"; done
			if [ $cc = gcc ]; then
				for p in $MX_ASAN; do echo "gcc-$opt-asan-shared $p"; done
				for p in $MX_ASAN; do echo "gcc-$opt-asan-static $p"; done
				for p in ubsan inline; do echo "gcc-$opt-ubsan-shared $p"; done
			else
				for p in $MX_ASAN; do echo "clang-$opt-asan-static $p"; done
				[ $opt = O2 ] && for p in $MX_ASAN; do echo "clang-O2-asan-shared $p"; done
				for p in ubsan inline; do echo "clang-$opt-ubsan-static $p"; done
			fi
		done
		local asan=asan-static ubsan=ubsan-static
		[ $cc = gcc ] && asan=asan-shared ubsan=ubsan-shared
		for p in $MX_PLAIN; do echo "$cc-O2-plain-stripped $p"; done
		for p in $MX_ASAN; do echo "$cc-O2-$asan-stripped $p"; done
		echo "$cc-O2-$ubsan-stripped ubsan"
	done
	echo "gcc-O2-ubsan-static ubsan"
}

# mx_build VARIANT PROGRAM EXE: compile tests/suts/matrix/PROGRAM.c into EXE.
mx_build() {
	local v=$1 p=$2 exe=$3 cc opt flags=() src=$MX_SRC/$p.c driver
	cc=${v%%-*}
	driver=$cc
	if [ -f "$MX_SRC/$p.cc" ]; then # C++: the compiler's C++ driver (g++, clang++)
		src=$MX_SRC/$p.cc
		driver=${cc/gcc/g++}
		[ "$cc" = clang ] && driver=clang++
	fi
	opt=${v#*-}; opt=${opt%%-*}
	flags=(-"$opt" -g -w)
	[ "$p" = thread ] && flags+=(-pthread)
	case $v in
	*-asan-*) flags+=(-fsanitize=address -fno-omit-frame-pointer) ;;
	*-ubsan-*) flags+=(-fsanitize=undefined -fno-sanitize-recover=undefined) ;;
	esac
	case $cc-${v#*-*-} in
	gcc-asan-static*) flags+=(-static-libasan) ;;
	gcc-ubsan-static*) flags+=(-static-libubsan) ;;
	clang-asan-shared*) # the shared runtime is not on the loader's path: say where it is
		flags+=(-shared-libasan "-Wl,-rpath,$(dirname "$(clang -print-file-name=libclang_rt.asan-x86_64.so)")") ;;
	esac
	"$driver" "${flags[@]}" -o "$exe" "$src" || return 1
	case $v in *-stripped) strip "$exe" || return 1 ;; esac
}

# mx_bug EXE FILE: which bug EXE meets on FILE, run directly (not under tnorm): A, B, or "-"
# when it does not fail with a marker.
mx_bug() {
	local err
	err=$(ASAN_OPTIONS=detect_leaks=0 timeout 10 "$1" "$2" 2>&1 >/dev/null) && { echo -; return; }
	case $err in
	*BUG-A*) echo A ;;
	*BUG-B*) echo B ;;
	*) echo - ;;
	esac
}

# mx_keys_differ DIR EXE [--match P]: do A's and B's inputs give different keys under the policy
# (the part of the signature it compares)?  Then the guard tells them apart even where the
# reducer never produced a B-only candidate (it found A's smallest test without one).
mx_keys_differ() {
	local d=$1 exe=$2 policy=line ka kb
	[ "${3:-}" = --match ] && policy=$4
	ka=$("$T" run --match "$policy" "$d/in.txt" -- "$exe" {} 2>/dev/null | sed -n 's/^key: //p')
	kb=$("$T" run --match "$policy" "$d/in-b.txt" -- "$exe" {} 2>/dev/null | sed -n 's/^key: //p')
	echo "'$ka' / '$kb'" >"$d/keys"
	[ -n "$ka" ] && [ -n "$kb" ] && [ "$ka" != "$kb" ]
}

mx_sig() { # FILE: the signature line `tnorm run` or `reduce` printed
	sed -n 's/^signature: //p; s/.*"signature": "\([^"]*\)".*/\1/p' "$1" | head -1
}

# mx_one VARIANT PROGRAM DIR [TNORM-REDUCE-OPTIONS...]: build, reduce inputs/PROGRAM.txt with
# the default policy (or the options given) and judge the result.  Prints one line
# "VARIANT PROGRAM|OUTCOME|RUNS" and then, for anything but "held", indented diagnosis lines.
# OUTCOME: held   the reduced test still fails with A, and B was filed in slipped/
#          slipped   the reduced test fails with B or not with A: the guard let the bug change
#          held-nob   A held; the reduction never produced a B-only candidate (it found A's
#                 smallest test without one), but A's and B's keys under the policy differ, so
#                 the guard tells them apart: counts as held
#          no-B   A held, B never met, and A's and B's keys are equal: B was never told apart
#          split  A held and B was filed, but a test in slipped/ also meets A: one bug counted
#                 as two (e.g. one fault in two copies of unrolled code in a stripped binary):
#                 the guard held, at the cost of a duplicate; counts as held
#          no-frames   A held and B was filed, but A's signature has no frame at all (a crash in
#                 an untraced thread): it held only because B's signature has frames, and any
#                 other crash of the same kind in any thread would have been taken for A
#          build / sut / no-fail / error   the variant could not be judged (compiler, program,
#                 tnorm run, tnorm reduce)
mx_one() {
	local v=$1 p=$2 d=$3 exe out runs f a b o bug got=
	shift 3
	exe=$d/$p
	mkdir -p "$d"
	if ! mx_build "$v" "$p" "$exe" >"$d/build.log" 2>&1; then
		echo "$v $p|build|0"; sed 's/^/#   /' "$d/build.log" | head -5; return
	fi
	a=$(mx_bug "$exe" "$MX_SRC/inputs/$p.txt")
	b=$(mx_bug "$exe" "$MX_SRC/inputs/$p-b.txt")
	if [ "$a$b" != AB ]; then
		echo "$v $p|sut|0"; echo "#   the program itself meets '$a' on $p.txt and '$b' on $p-b.txt"; return
	fi
	cp "$MX_SRC/inputs/$p.txt" "$d/in.txt"
	cp "$MX_SRC/inputs/$p-b.txt" "$d/in-b.txt"
	"$T" run "$d/in.txt" -- "$exe" {} >"$d/run-a.out" 2>&1
	"$T" run "$d/in-b.txt" -- "$exe" {} >"$d/run-b.out" 2>&1
	if ! grep -q '^outcome: fail' "$d/run-a.out"; then
		echo "$v $p|no-fail|0"; sed 's/^/#   /' "$d/run-a.out" | head -5; return
	fi
	"$T" reduce --no-db --quiet --json -o "$d/out.t" "$@" "$d/in.txt" -- "$exe" {} \
		>"$d/reduce.json" 2>"$d/reduce.err"
	runs=$(sed -n 's/.*"runs": \([0-9][0-9]*\).*/\1/p' "$d/reduce.json")
	if [ ! -f "$d/out.t" ]; then
		echo "$v $p|error|${runs:-0}"; sed 's/^/#   /' "$d/reduce.err" | head -5; return
	fi
	out=$(mx_bug "$exe" "$d/out.t")
	for f in "$d"/slipped/*.t; do
		[ -f "$f" ] || continue
		bug=$(mx_bug "$exe" "$f")
		case $bug in A) got=${got}A ;; B) got=${got}B ;; esac
	done
	if [ "$out" != A ]; then
		o=slipped
	elif ! mx_sig "$d/run-a.out" | grep -q ' at '; then
		o=no-frames
	elif [ "${got#*A}" != "$got" ]; then
		o=split
	elif [ "${got#*B}" != "$got" ]; then
		o=held
	elif mx_keys_differ "$d" "$exe" "$@"; then
		o=held-nob
	else
		o=no-B
	fi
	echo "$v $p|$o|${runs:-0}"
	[ $o = held ] && return
	[ $o = held-nob ] && { echo "#   B never met (the reducer did not produce it); A and B keys differ: $(cat "$d/keys")"; return; }
	echo "#   A ($p.txt):   $(mx_sig "$d/run-a.out")"
	echo "#   B ($p-b.txt): $(mx_sig "$d/run-b.out")"
	"$T" run "$d/out.t" -- "$exe" {} >"$d/run-out.out" 2>&1
	echo "#   reduced to '$(tr '\n' ';' <"$d/out.t")', meets '$out': $(mx_sig "$d/run-out.out")"
	for f in "$d"/slipped/*.sig; do
		[ -f "$f" ] && echo "#   slipped $(basename "$f" .sig) (meets '$(mx_bug "$exe" "${f%.sig}.t")'): $(head -1 "$f")"
	done
	return 0
}

# mx_all DIR [TNORM-REDUCE-OPTIONS...]: run mx_one on every variant that matches $MATRIX_ONLY
# (an extended regex on "VARIANT PROGRAM"), $MATRIX_JOBS at a time (default 2), and print their
# results in the matrix's order.
mx_all() {
	local dir=$1 i=0 n v p
	shift
	mkdir -p "$dir"
	while read -r v p; do
		if [ -n "${MATRIX_ONLY:-}" ] && ! [[ "$v $p" =~ $MATRIX_ONLY ]]; then continue; fi
		if [ -n "${MX_EXCLUDE:-}" ] && [[ "$v $p" =~ $MX_EXCLUDE ]]; then continue; fi
		i=$((i + 1))
		mx_one "$v" "$p" "$dir/$i" "$@" >"$dir/$i.res" 2>&1 &
		while [ "$(jobs -rp | wc -l)" -ge "${MATRIX_JOBS:-2}" ]; do wait -n; done
	done < <(mx_variants)
	wait
	for ((n = 1; n <= i; n++)); do cat "$dir/$n.res"; done
}

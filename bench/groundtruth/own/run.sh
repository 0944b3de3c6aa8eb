#!/bin/bash
# run.sh [fuzz]: ground truth from our own multi-bug programs (kvmap.c, merged.c, tok.c).
#
#   ./run.sh          build the runners, label the committed crash files
#                     (crashes/PROG/), bucket them with tnorm triage, the stack
#                     hash and the crash line, score, print one table per program
#   ./run.sh fuzz     first fuzz every program again (libFuzzer, FUZZ_TIME s each,
#                     one fuzzer at a time) into $OUT/crashes/PROG/, and use those
#                     files instead of the committed ones (copy them to crashes/
#                     by hand to commit them)
#
# Environment: OUT (default $TMPDIR/gt-own), TNORM (the tnorm binary, default
# build/core/cli/tnorm of this checkout), PROGS (default "kvmap merged tok"),
# FUZZ_TIME (300), MAXFILES (300: crash files kept per program, the first by name),
# LIMIT (0: all; N: score only the first N crash files of each program, for a quick run).
#
# Label of a file = the first k such that the build with FIX_1..FIX_k defined no
# longer crashes on it ("ERROR:" on stderr, or death by a signal; the runners
# run with ASAN_OPTIONS=handle_abort=1).  Files whose crash at level 0 is not at
# the crash site of level label-1 (ASan bug type, crash line and first stderr line: another
# bug masked it), or that crash again
# at a level past their label, are listed in $OUT/PROG/label-notes.tsv.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
GT=$(dirname "$HERE")
OUT=${OUT:-${TMPDIR:-/tmp}/gt-own}
TNORM=${TNORM:-$(cd "$GT/../.." && pwd)/build/core/cli/tnorm}
PROGS=${PROGS:-"kvmap merged tok"}
FUZZ_TIME=${FUZZ_TIME:-300}
MAXFILES=${MAXFILES:-300}
CC=${CC:-clang}
RUNNER_FLAGS="-g -O2 -fsanitize=address -fno-omit-frame-pointer"
FUZZER_FLAGS="-g -O1 -fsanitize=address,fuzzer -DFUZZER_BUILD"
# frames the stack hash and the crash line skip besides stackbuckets.py's own list (which
# has main, LLVMFuzzerTestOneInput, abort, raise, __GI_*): the failure helper fail() of kvmap.c
# and merged.c, and glibc 2.36's abort path as symbolized with its debug info
# (__pthread_kill_implementation nptl/pthread_kill.c, __assert_fail_base assert/assert.c)
export GT_SKIP_FUNC='fail$|__pthread_kill_implementation$|__assert_fail'

nfix() { case $1 in kvmap) echo 3 ;; merged) echo 4 ;; tok) echo 3 ;; esac; }

mkdir -p "$OUT/bin"
[ -x "$TNORM" ] || { echo "run.sh: no tnorm at $TNORM (set TNORM=)" >&2; exit 2; }

# ---- build: PROG-fixK = FIX_1..FIX_K (K = 0..n); merged-gcc-O0 = gcc -O0 level 0
for p in $PROGS; do
    defs=""
    for k in $(seq 0 "$(nfix $p)"); do
        [ "$k" = 0 ] || defs="$defs -DFIX_$k"
        b="$OUT/bin/$p-fix$k"
        if [ ! -x "$b" ] || [ "$HERE/$p.c" -nt "$b" ]; then
            $CC $RUNNER_FLAGS $defs -o "$b" "$HERE/$p.c"
        fi
    done
done
if [[ " $PROGS " == *" merged "* ]]; then
    b="$OUT/bin/merged-gcc-O0"
    if [ ! -x "$b" ] || [ "$HERE/merged.c" -nt "$b" ]; then
        gcc -g -O0 -fsanitize=address -o "$b" "$HERE/merged.c"
    fi
fi
echo "runners in $OUT/bin"
if [[ " $PROGS " == *" merged "* ]]; then
    # merged.c's point: clang -O2 inlines run() and every fail() into LLVMFuzzerTestOneInput
    # and merges the fail() tails: one call to abort (and one to fputs/fwrite) for 3 checks
    for b in merged-fix0 merged-gcc-O0; do
        objdump -d --no-show-raw-insn "$OUT/bin/$b" | awk '/^[0-9a-f]+ <[^>]*>:$/ {fn=$2} /call.*<abort@plt>/ && fn !~ /__sanitizer/ {n[fn]++} END {for (f in n) printf "   %s: %d call(s) to abort in %s\n", "'$b'", n[f], f}' | sort
    done
fi

# ---- fuzz (only with the argument "fuzz")
seeds() {
    local d=$1
    mkdir -p "$d"
    case $2 in
    kvmap)
        printf 'put ab 1\nput ba 2\ndel ab\nget ba\n' >"$d/s1"
        printf 'put key 5\nget key\ndel key\nput x 7\n' >"$d/s2"
        printf 'put abcdefghijklmno 1\nget abcdefghijklmno\n' >"$d/s3"
        printf 'p a 1\np b 2\np c 3\nd a\ng b\n' >"$d/s4"
        printf '\001\000\002ab\001\000\002ba\002\001\002ab' >"$d/s5" ;;
    merged)  # PUSH 3, PUSH 4, ADD, DUP, JZ +2, SWAP...; loops; LOAD/STORE
        printf '\000\003\000\004\002\000\005\000\010\002\000\001\006\000' >"$d/s1"
        printf '\000\005\000\001\003\000\005\000\010\376\001\000' >"$d/s2"
        printf '\000\007\013\003\012\003\000\002\004\000\007\000' >"$d/s3"
        printf '\000\001\000\002\000\003\006\000\007\000\011\002\014\000' >"$d/s4" ;;
    tok)
        printf 'see [the docs](http://x.org) and [<a b>](<c d> )\n' >"$d/s1"
        printf 'run `ls -l` or ``a`b`` now\n' >"$d/s2"
        printf 'fish &amp; chips &lt;3 &#169; \\* not \\a\n' >"$d/s3"
        printf '[`code` &copy;](u) text\n' >"$d/s4" ;;
    esac
}
CRASHES=$HERE/crashes
if [ "${1:-}" = fuzz ]; then
    CRASHES=$OUT/crashes
    for p in $PROGS; do
        F=$OUT/fuzz/$p
        rm -rf "$F" "$CRASHES/$p"
        mkdir -p "$F/corpus" "$F/artifacts" "$CRASHES/$p"
        clang $FUZZER_FLAGS -o "$F/fuzzer" "$HERE/$p.c"
        seeds "$F/seeds" $p
        echo "fuzzing $p for $FUZZ_TIME s ..."
        (cd "$F" && ./fuzzer -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
            -max_total_time="$FUZZ_TIME" -timeout=10 -max_len=512 \
            -artifact_prefix="$F/artifacts/" corpus seeds >fuzz.log 2>&1) || true
        n=$(find "$F/artifacts" -name 'crash-*' | wc -l)
        find "$F/artifacts" -name 'crash-*' -printf '%f\n' | sort | head -n "$MAXFILES" |
            while read -r f; do cp "$F/artifacts/$f" "$CRASHES/$p/"; done
        echo "$p: $n crash files, kept $(ls "$CRASHES/$p" | wc -l) in $CRASHES/$p"
    done
fi

# ---- label
label() { # PROG FILES_DIR OUT_TSV NOTES_TSV
    python3 - "$GT" "$OUT/bin/$1" "$(nfix $1)" "$2" "$3" "$4" <<'EOF'
import concurrent.futures, os, re, subprocess, sys
gt, binprefix, n, d, out, notes = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5], sys.argv[6]
sys.path.insert(0, gt)
import stackbuckets
ENV = dict(os.environ, ASAN_OPTIONS="handle_abort=1:symbolize=0")
def crashes(level, f):
    try:
        p = subprocess.run([binprefix + "-fix%d" % level, f], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=30, env=ENV)
    except subprocess.TimeoutExpired:
        return False
    return b"ERROR:" in p.stderr or p.returncode < 0
def site(level, f):
    """ASan bug type @ crash line, plus the first line on stderr (a fail() or assert message:
    merged.c's three fail() calls share one crash line at -O2)"""
    btype, top, line = stackbuckets.analyze(binprefix + "-fix%d" % level, f)
    p = subprocess.run([binprefix + "-fix%d" % level, f], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=30, env=ENV)
    first = (p.stderr.decode("utf-8", "replace").splitlines() or [""])[0]
    first = "" if first.startswith("=") else re.sub(r"^[^ :]+: ", "", first)
    return "%s@%s %s" % (btype, line, first)
def one(name):
    f = os.path.join(d, name)
    c = [crashes(k, f) for k in range(n + 1)]
    if not c[0]:
        return name, "noreproduce", None
    lab = next((k for k in range(1, n + 1) if not c[k]), None)
    if lab is None:
        return name, "unfixed", None
    note = []
    if any(c[lab:]):
        note.append("crashes again at level %s" % ",".join(str(k) for k in range(lab, n + 1) if c[k]))
    if lab > 1:
        s0, s1 = site(0, f), site(lab - 1, f)
        if s1 != s0:
            note.append("level 0 crash %s, level %d crash %s" % (s0, lab - 1, s1))
    return name, "fix%d" % lab, "; ".join(note) if note else None
names = sorted(x for x in os.listdir(d) if not x.startswith("."))
if os.environ.get("LIMIT", "0") != "0":
    names = names[:int(os.environ["LIMIT"])]
with concurrent.futures.ThreadPoolExecutor(2) as ex:
    rows = list(ex.map(one, names))
with open(out, "w") as o, open(notes, "w") as nt:
    for name, lab, note in rows:
        o.write("%s\t%s\n" % (name, lab))
        if note:
            nt.write("%s\t%s\t%s\n" % (name, lab, note))
EOF
}

table_row() { # PROG METHOD LABELS BUCKETS RUNS CPU
    local s
    s=$(python3 "$GT/score.py" "$3" "$4")
    local g; g() { awk -F'\t' -v k="$1" '$1==k{print $2}' <<<"$s"; }
    local missed; missed=$(g missed); [ -n "$(g missed_labels)" ] && missed="$missed ($(g missed_labels))"
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$1" "$(g files)" "$(g bugs)" "$2" \
        "$(g buckets)" "$(g impure)" "$missed" "$5" "$6"
}

report_json_buckets() { # REPORT.json OUT_TSV -> prints total runs
    python3 - "$1" "$2" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as o:
    for b in r["buckets"]:
        for t in b["tests"]:
            o.write("%s\ttnorm-%d\n" % (t, b["id"]))
print(sum(x.get("runs", 0) for x in r["results"]) + r.get("polish", {}).get("runs", 0))
EOF
}

cputime() { awk '{printf "%.1f", $1 + $2}' "$1"; }

for p in $PROGS; do
    W=$OUT/$p
    mkdir -p "$W"
    rm -rf "$W/corpus" && mkdir -p "$W/corpus"
    if [ "${LIMIT:-0}" != 0 ]; then
        ls "$CRASHES/$p" | sort | head -n "$LIMIT" | while read -r f; do cp "$CRASHES/$p/$f" "$W/corpus/"; done
    else
        cp "$CRASHES/$p"/* "$W/corpus/"
    fi
    echo "== $p: labelling $(ls "$W/corpus" | wc -l) files"
    t0=$(date +%s)
    label $p "$W/corpus" "$W/labels.tsv" "$W/label-notes.tsv"
    echo "   labels: $(cut -f2 "$W/labels.tsv" | sort | uniq -c | awk '{printf "%s%s:%s", (NR > 1 ? " " : ""), $2, $1}') ($(( $(date +%s) - t0 )) s)"
    if [ "$CRASHES" = "$HERE/crashes" ] && [ "${LIMIT:-0}" = 0 ] && [ -f "$HERE/labels/$p.tsv" ]; then
        cmp -s "$W/labels.tsv" "$HERE/labels/$p.tsv" && echo "   labels: as committed (labels/$p.tsv)" ||
            echo "   labels: DIFFER from labels/$p.tsv (see diff $W/labels.tsv $HERE/labels/$p.tsv)"
    fi
    # keep only files that reproduce
    awk -F'\t' '$2 ~ /^fix/ {print $1}' "$W/labels.tsv" >"$W/files.txt"
    awk -F'\t' '$2 ~ /^fix/' "$W/labels.tsv" >"$W/labels-used.tsv"
    rm -rf "$W/set" && mkdir -p "$W/set"
    while read -r f; do cp "$W/corpus/$f" "$W/set/"; done <"$W/files.txt"
    [ -s "$W/label-notes.tsv" ] && echo "   $(wc -l <"$W/label-notes.tsv") label notes in $W/label-notes.tsv"
    runners="$p-fix0"
    [ $p = merged ] && runners="$runners merged-gcc-O0"
    rows=()
    slips=()
    rm -f "$W/buckets.txt.new"
    for r in $runners; do
        tag=""; [ "$r" = merged-gcc-O0 ] && tag=" (gcc -O0)"
        echo "   stack hash / crash line with $r"
        /usr/bin/time -f '%U %S' -o "$W/$r.sb.time" python3 "$GT/stackbuckets.py" "$OUT/bin/$r" \
            "$W/$r.stackhash.tsv" "$W/$r.crashline.tsv" "$W/set"/*
        nfiles=$(wc -l <"$W/files.txt")
        echo "   tnorm triage with $r"
        rm -rf "$W/$r.triage"
        /usr/bin/time -f '%U %S' -o "$W/$r.tnorm.time" "$TNORM" triage "$W/set" --no-db -j 2 \
            -o "$W/$r.triage" -- "$OUT/bin/$r" @@ >"$W/$r.tnorm.out" 2>"$W/$r.tnorm.err" || {
            echo "tnorm triage failed, see $W/$r.tnorm.err" >&2; exit 1; }
        echo "   ($(( $(date +%s) - t0 )) s since labelling began)"
        truns=$(report_json_buckets "$W/$r.triage/report.json" "$W/$r.tnorm.tsv")
        # slips: a normal form whose label (same labelling, clang runners) is not its file's
        label $p "$W/$r.triage/norm" "$W/$r.norm-labels.tsv" "$W/$r.norm-label-notes.tsv"
        sed 's/\.norm\t/\t/' "$W/$r.norm-labels.tsv" |
            awk -F'\t' 'NR==FNR {lab[$1]=$2; next} ($1 in lab) && lab[$1] != $2 {print $1 "\t" $2 "\t" lab[$1]}' \
                - "$W/labels-used.tsv" >"$W/$r.slips.tsv"
        slips+=("$p, tnorm with $r: $(wc -l <"$W/$r.slips.tsv") of $nfiles normal forms have another label than their file$(
            [ -s "$W/$r.slips.tsv" ] && printf ' (file -> normal form: %s)' "$(awk -F'\t' '{print $2 "->" $3}' "$W/$r.slips.tsv" | sort | uniq -c | awk '{printf "%s%s x%s", (NR > 1 ? ", " : ""), $2, $1}')" || true)")
        rows+=("$(table_row $p "tnorm triage$tag" "$W/labels-used.tsv" "$W/$r.tnorm.tsv" "$truns" "$(cputime "$W/$r.tnorm.time")")")
        rows+=("$(table_row $p "stack hash$tag" "$W/labels-used.tsv" "$W/$r.stackhash.tsv" "$nfiles" "$(cputime "$W/$r.sb.time")")")
        rows+=("$(table_row $p "crash line$tag" "$W/labels-used.tsv" "$W/$r.crashline.tsv" "$nfiles (same runs)" "(same)")")
        for m in tnorm stackhash crashline; do
            { echo "== $m ($r)"; python3 "$GT/score.py" -v "$W/labels-used.tsv" "$W/$r.$m.tsv" | sed -n '/^  /p'; } >>"$W/buckets.txt.new"
        done
    done
    mv "$W/buckets.txt.new" "$W/buckets.txt"
    echo
    echo "| program | files | bugs | method | buckets | impure | missed | runs | CPU s |"
    echo "|---|---|---|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
    echo
    printf '%s\n' "${slips[@]}"
    echo
    cat "$W/buckets.txt"
    echo
done

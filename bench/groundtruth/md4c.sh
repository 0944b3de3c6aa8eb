#!/usr/bin/env bash
# Ground-truth crash corpus for tnorm from md4c (github:mity/md4c).
#   1. clone md4c, 2. build OLD as a libFuzzer target + a plain ASan runner,
#   3. fuzz OLD for FUZZ_SECONDS, 4. label each crash file by the first later
#   first-parent commit whose runner no longer crashes on it,
#   5. bucket the crash files (tnorm triage / stack hash / crash line) and score.
# Idempotent: every stage is skipped when its output exists (rm -rf $GT to redo).
# Usage: md4c.sh [all|clone|fuzzer|fuzz|label|buckets|score|build-runner SHA]
set -euo pipefail

OLD=3478ec69c1196766a49325edd355656eb660214e   # 2021-02-23 "Added fuzzer for oss-fuzz integration. (#151)"
NEW=c4be8625eb11725d604232b028df10c2ddf9b577   # newest master commit in the mirror (2026-08-06)
MIRROR=${MIRROR:-/work/.mirror/mity+md4c/repo}  # bare git dir from the `fetch` tool (github:mity/md4c)
GT=${GT:-/tmp/gt-md4c}
FUZZ_SECONDS=${FUZZ_SECONDS:-600}
JOBS=${JOBS:-2}
TNORM=${TNORM:-/work/main/build/core/cli/tnorm}
HERE=$(cd "$(dirname "$0")" && pwd)

export TMPDIR=$GT/tmp
export ASAN_SYMBOLIZER_PATH=${ASAN_SYMBOLIZER_PATH:-/usr/bin/llvm-symbolizer}
mkdir -p "$TMPDIR"
CC=${CC:-clang}
CFLAGS="-g -O1 -DDEBUG -fno-omit-frame-pointer"   # DEBUG = md4c's MD_ASSERT on

log() { echo "[md4c.sh $(date +%T)] $*" >&2; }

stage_clone() {
    if [ ! -d "$GT/src/.git" ]; then
        log "clone $MIRROR -> $GT/src"
        git clone -q "$MIRROR" "$GT/src"
    fi
    git -C "$GT/src" cat-file -e "$OLD^{commit}"
    git -C "$GT/src" cat-file -e "$NEW^{commit}"
    git -C "$GT/src" rev-list --first-parent --reverse "$OLD^..$NEW" > "$GT/commits.txt"
    [ "$(head -1 "$GT/commits.txt")" = "$OLD" ] || { log "OLD is not on NEW's first-parent line"; exit 1; }
    # the fuzz target, taken from OLD and kept fixed for every build
    git -C "$GT/src" show "$OLD:test/fuzzers/fuzz-mdhtml.c" > "$GT/fuzz-mdhtml.c"
}

# build_lib DIR SANFLAGS: compile md4c at DIR/src into DIR/*.o (md4c.o with exit->abort shim)
build_lib() {
    local d=$1 san=$2
    for f in md4c md4c-html entity; do
        $CC $CFLAGS $san -I"$d/src" -c "$d/src/$f.c" -o "$d/$f.o"
    done
    objcopy --redefine-sym exit=gt_md_assert_exit "$d/md4c.o"
    $CC $CFLAGS $san -I"$d/src" -c "$GT/fuzz-mdhtml.c" -o "$d/fuzz-mdhtml.o"
    $CC $CFLAGS $san -c "$HERE/assert-shim.c" -o "$d/assert-shim.o"
}

# build-runner SHA: prints the path of the ASan runner for SHA (cached in $GT/builds/SHA)
build_runner() {
    local c d
    c=$(git -C "$GT/src" rev-parse "$1")
    d=$GT/builds/$c
    if [ ! -x "$d/runner" ] && [ ! -e "$d/FAILED" ]; then
        rm -rf "$d"; mkdir -p "$d"
        git -C "$GT/src" archive "$c" src | tar -x -C "$d"
        if ( build_lib "$d" "-fsanitize=address" &&
             $CC $CFLAGS -fsanitize=address -c "$HERE/runner-main.c" -o "$d/runner-main.o" &&
             $CC -fsanitize=address "$d"/*.o -o "$d/runner" ) > "$d/build.log" 2>&1; then
            rm -f "$d"/*.o; rm -rf "$d/src"
        else
            touch "$d/FAILED"
        fi
    fi
    [ -x "$d/runner" ] && echo "$d/runner"
}

stage_fuzzer() {
    local d=$GT/fuzzer
    if [ ! -x "$d/md4c-fuzzer" ]; then
        log "build libFuzzer target at OLD"
        rm -rf "$d"; mkdir -p "$d"
        git -C "$GT/src" archive "$OLD" src | tar -x -C "$d"
        build_lib "$d" "-fsanitize=address,fuzzer"
        $CC -fsanitize=address,fuzzer "$d"/*.o -o "$d/md4c-fuzzer"
    fi
    build_runner "$OLD" > /dev/null || { log "runner at OLD does not build"; exit 1; }
}

stage_fuzz() {
    [ -e "$GT/fuzz.done" ] && return 0
    log "fuzz OLD for ${FUZZ_SECONDS}s"
    rm -rf "$GT/seeds" "$GT/corpus" "$GT/crashes"
    mkdir -p "$GT/seeds" "$GT/corpus" "$GT/crashes"
    # seed = 4 bytes parser flags + 4 bytes renderer flags (little endian) + markdown
    local i=0 flags md
    for flags in '\x00\x00\x00\x00\x00\x00\x00\x00' '\xff\x0f\x00\x00\x00\x00\x00\x00' '\x00\x1f\x00\x00\x01\x00\x00\x00'; do
        for md in '# Title\n\nSome *emph* and **strong** text with `code`.\n' \
                  '| a | b |\n|---|:-:|\n| 1 | 2 |\n' \
                  '- [ ] task\n- [x] done\n  1. nested\n\n> quote\n' \
                  '[link](http://x.org "t") ![img](a.png) <http://auto.link> www.example.com\n\n[ref]: /url\n' \
                  '```c\nint x;\n```\n\n    indented\n\n<div>\nhtml\n</div>\n' \
                  '~~strike~~ $math$ $$display$$ [[wiki|link]] _under_ &amp; &#123;\n'; do
            printf "$flags$md" > "$GT/seeds/seed-$i"; i=$((i+1))
        done
    done
    local t0=$(date +%s)
    ( cd "$GT" && "$GT/fuzzer/md4c-fuzzer" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
        -max_total_time="$FUZZ_SECONDS" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
        -artifact_prefix="$GT/crashes/" "$GT/corpus" "$GT/seeds" ) > "$GT/fuzz.log" 2>&1 || true
    echo "$(( $(date +%s) - t0 ))" > "$GT/fuzz.seconds"
    log "fuzzing took $(cat "$GT/fuzz.seconds")s; $(ls "$GT/crashes" | grep -c '^crash-' || true) crash files"
    touch "$GT/fuzz.done"
}

stage_label() {
    [ -s "$GT/labels.tsv" ] && return 0
    log "label crash files (bisect over $(wc -l < "$GT/commits.txt") first-parent commits)"
    python3 "$HERE/label.py" --commits "$GT/commits.txt" --build "$HERE/md4c.sh build-runner" \
        "$GT/labels-all.tsv" "$GT"/crashes/crash-* 2> "$GT/label.log"
    # the triage corpus: crash files that reproduce with the runner at OLD
    rm -rf "$GT/corpus-triage"; mkdir -p "$GT/corpus-triage"
    awk -F'\t' '$2 != "noreproduce"' "$GT/labels-all.tsv" > "$GT/labels.tsv"
    cut -f1 "$GT/labels.tsv" | while read -r f; do cp "$GT/crashes/$f" "$GT/corpus-triage/"; done
}

stage_buckets() {
    local runner; runner=$(build_runner "$OLD")
    if [ ! -s "$GT/buckets-tnorm.tsv" ]; then
        log "tnorm triage"
        rm -rf "$GT/corpus-triage/triage" "$GT/corpus-triage/.tnorm"
        local t0=$(date +%s.%N)
        "$TNORM" triage "$GT/corpus-triage" --no-db -j "$JOBS" -- "$runner" @@ > "$GT/tnorm.out" 2> "$GT/tnorm.err"
        awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f\n", b-a}' > "$GT/tnorm.seconds"
        python3 - "$GT/corpus-triage/triage/report.json" "$GT/tnorm.runs" > "$GT/buckets-tnorm.tsv" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
for b in r["buckets"]:
    for t in b["tests"]:
        print("%s\ttnorm-%s" % (t, b["id"]))
res = r.get("results", [])
st = collections.Counter(x.get("status") for x in res)
open(sys.argv[2], "w").write("%d runs; statuses %s\n" % (sum(x.get("runs", 0) for x in res), dict(st)))
PY
    fi
    if [ ! -s "$GT/buckets-stackhash.tsv" ]; then
        log "stack hash / crash line buckets"
        python3 "$HERE/stackbuckets.py" "$runner" "$GT/buckets-stackhash.tsv" "$GT/buckets-crashline.tsv" \
            "$GT"/corpus-triage/crash-*
    fi
}

stage_score() {
    local m
    for m in tnorm stackhash crashline; do
        echo "== $m"
        python3 "$HERE/score.py" -v "$GT/labels.tsv" "$GT/buckets-$m.tsv"
    done | tee "$GT/score.txt"
    echo "== tnorm: $(cat "$GT/tnorm.runs"), $(cat "$GT/tnorm.seconds") s wall"
    grep -E 'tests, .* buckets' "$GT/tnorm.out" || true
}

case "${1:-all}" in
    clone) stage_clone ;;
    fuzzer) stage_fuzzer ;;
    fuzz) stage_fuzz ;;
    label) stage_label ;;
    buckets) stage_buckets ;;
    score) stage_score ;;
    build-runner) build_runner "$2" ;;
    all) stage_clone; stage_fuzzer; stage_fuzz; stage_label; stage_buckets; stage_score ;;
    *) echo "usage: $0 [all|clone|fuzzer|fuzz|label|buckets|score|build-runner SHA]" >&2; exit 2 ;;
esac

#!/bin/sh
# SPDX-License-Identifier: MIT
# run.sh TARGET SECONDS CRASHES - run a libFuzzer target for SECONDS on a temporary copy of its
# seed corpus (seeds.sh; the source tree is never written); a crash, leak, timeout or broken
# invariant exits non-zero and leaves the input in CRASHES.  The 'fuzz' meson suite runs this.
set -eu
target=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") seconds=$2 crashes=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/tnorm-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$crashes"
sh "$(dirname "$0")/seeds.sh" "$(basename "$target")" "$work/corpus"
cd "$work"
status=0
# libFuzzer's own exit codes for a crash (77) and a timeout (70) would read as "skipped" and
# "ok" to meson: ask for 1.
"$target" -max_total_time="$seconds" -rss_limit_mb=1024 -timeout=10 -print_final_stats=1 \
	-error_exitcode=1 -timeout_exitcode=1 -artifact_prefix="$crashes/" corpus || status=$?
if [ "$status" -ne 0 ]; then
	echo "run.sh: $(basename "$target") failed (exit $status); reproduce with: $target $crashes/<file>"
fi
exit "$status"

#!/bin/bash
# SPDX-License-Identifier: MIT
# One shard of a tnorm triage: the K-th of N parts of a folder of failing tests, triaged on this
# machine, with the results in a database that every shard shares.  Each scheduler gives K its
# own way, and this script takes it from any of them:
#   GNU parallel               shard.sh K -- PROG ARGS {}          (parallel.sh)
#   Slurm job array            $SLURM_ARRAY_TASK_ID, N from $SLURM_ARRAY_TASK_COUNT (slurm.sbatch)
#   Kubernetes indexed Job     $JOB_COMPLETION_INDEX                 (k8s-job.yaml)
# Settings, from the environment:
#   TNORM_DB       the shared database: postgresql://USER@HOST/DB?... (required)
#   TNORM_CORPUS   the folder of tests, at the same path on every machine (required)
#   TNORM_SHARDS   N (required unless Slurm sets it)
#   TNORM_HARNESS  the harness file (unset: the tests are plain files, e.g. a fuzzer's crashes)
#   TNORM_OUT      where this shard's copy of the results goes (default: $TNORM_CORPUS/triage)
#   TNORM_JOBS     worker threads (default: the cores this process may use)
#   TNORM          the tnorm program (default: tnorm on the PATH)
# A shard that is killed and started again (a requeued array task, a restarted pod) redoes
# nothing that is finished: what it had not finished is taken over once its lease runs out.
set -euo pipefail
K=${SLURM_ARRAY_TASK_ID:-${JOB_COMPLETION_INDEX:-}}
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
	K=$1
	shift
fi
[ "${1:-}" = "--" ] && shift
N=${TNORM_SHARDS:-${SLURM_ARRAY_TASK_COUNT:-}}
for v in K N TNORM_DB TNORM_CORPUS; do
	if [ -z "${!v:-}" ]; then
		echo "shard.sh: $v is not set (see the comment at the top of $0)" >&2
		exit 2
	fi
done
if [ $# -eq 0 ]; then
	echo "shard.sh: the program to run follows --, e.g. shard.sh -- ./parse {}" >&2
	exit 2
fi
out=${TNORM_OUT:-$TNORM_CORPUS/triage}
mkdir -p "$out"
harness=()
[ -n "${TNORM_HARNESS:-}" ] && harness=(--harness "$TNORM_HARNESS")
# K is the scheduler's index, from 0; tnorm's --shard counts from 1 (1/N .. N/N).
exec "${TNORM:-tnorm}" triage "$TNORM_CORPUS" "${harness[@]}" --shard "$((K + 1))/$N" --db "$TNORM_DB" \
	-o "$out/shard-$K" -j "${TNORM_JOBS:-$(nproc)}" --quiet -- "$@"

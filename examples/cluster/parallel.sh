#!/bin/bash
# SPDX-License-Identifier: MIT
# A triage over several machines with GNU parallel: N shards over the hosts of $HOSTS (parallel's
# --sshlogin list; ":" is this machine), then the report, here, from what the shards stored.
#   TNORM_DB=postgresql://tnorm@db.example.com/triage TNORM_CORPUS=/shared/crashes \
#   HOSTS=4/node1,4/node2 parallel.sh 8 -- /opt/sut/parse {}
# Every host needs tnorm, the program and the corpus at the same paths, and the database's URL
# must reach the server from every host.  The other settings are shard.sh's (TNORM_HARNESS,
# TNORM_OUT, TNORM_JOBS, TNORM); they are passed to the hosts with --env.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ $# -lt 3 ] || [ "$2" != "--" ]; then
	echo "usage: parallel.sh N -- PROG ARGS {}   (settings in the environment: see the top of $0)" >&2
	exit 2
fi
N=$1
shift 2
export TNORM_SHARDS=$N
# -I@K@: the shard number is @K@, so that the program's {} is left to tnorm.  -q: the words
# are quoted for the remote shells.  Each host runs one shard at a time (the shard uses its
# cores itself); a shard that fails is reported and the others go on.
seq 0 $((N - 1)) | parallel -q -I@K@ --sshlogin "${HOSTS:-:}" --jobs 1 --halt never \
	--env TNORM_DB --env TNORM_CORPUS --env TNORM_SHARDS --env TNORM_HARNESS --env TNORM_OUT \
	--env TNORM_JOBS --env TNORM \
	"$here/shard.sh" @K@ -- "$@"
# Every shard is done: the report.  It finds every test finished in the database.
harness=()
[ -n "${TNORM_HARNESS:-}" ] && harness=(--harness "$TNORM_HARNESS")
exec "${TNORM:-tnorm}" triage "$TNORM_CORPUS" "${harness[@]}" --db "$TNORM_DB" \
	-o "${TNORM_OUT:-$TNORM_CORPUS/triage}" -- "$@"

#!/bin/bash
# SPDX-License-Identifier: MIT
# The result database's throughput, SQLite file against a PostgreSQL server on this machine
# (a throwaway server, as in tests/integration/pg.sh).  usage: bench/db.sh BUILD_DIR [N]
set -u
B=${1:?usage: bench/db.sh BUILD_DIR [N]}
N=${2:-2000}
SRC=$(cd "$(dirname "$0")/.." && pwd)
. "$SRC/tests/integration/pg-lib.sh"
W=$(mktemp -d)
trap 'pg_stop; rm -rf "$W"' EXIT
pg_start || exit 1
pg_createdb bench || exit 1
echo "| backend    | operation          | processes | ops/s |"
echo "| ---------- | ------------------ | --------- | ----- |"
"$B/bench/bench_db" sqlite "$W/bench.db" "$N" || exit 1
"$B/bench/bench_db" postgresql "$(pg_url bench)" "$N" || exit 1

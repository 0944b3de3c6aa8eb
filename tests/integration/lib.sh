# SPDX-License-Identifier: MIT
# Shared by the integration scripts (sourced): the environment meson test sets, a scratch folder
# removed on exit, and a tiny TAP-like reporter ending in "N passed, N failed".
set -u
T=$TNORM_EXE
SRC=$TNORM_SOURCE_ROOT
B=$TNORM_BUILD_ROOT
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# The cross-test database of this run only: the source tree stays clean and runs stay independent.
export TNORM_DB="$W/tests-cache.db"
pass=0
fail=0
ok() { pass=$((pass + 1)); echo "ok - $*"; }
bad() { fail=$((fail + 1)); echo "FAIL - $*"; }
expect() { # DESCRIPTION COMMAND...: the command must succeed
	local d=$1; shift
	if "$@"; then ok "$d"; else bad "$d"; fi
}

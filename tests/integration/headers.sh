#!/bin/sh
# SPDX-License-Identifier: MIT
# Every public header compiles on its own as C99 (-pedantic -Werror) and as C++, and every
# symbol the shared library exports carries the tnorm_ prefix.
# usage: headers.sh SOURCE_ROOT LIBTNORM_SO
set -u
src=$1
so=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for h in "$src"/core/include/tnorm/*.h; do
	name=$(basename "$h")
	printf '#include "tnorm/%s"\n#include "tnorm/%s"\n' "$name" "$name" >"$tmp/t.c"
	if ! cc -std=c99 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$src/core/include" "$tmp/t.c"; then
		echo "FAIL: $name does not compile alone as C99"; fail=1
	fi
	cp "$tmp/t.c" "$tmp/t.cpp"
	if ! c++ -std=c++11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I"$src/core/include" "$tmp/t.cpp"; then
		echo "FAIL: $name does not compile alone as C++"; fail=1
	fi
	n=$((n + 1))
done
echo "checked $n public headers"
bad=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | grep -v -E '^tnorm_' | grep -v -E '^(_init|_fini|_edata|_end|__bss_start)$')
if [ -n "$bad" ]; then
	echo "FAIL: exported symbols without the tnorm_ prefix:"; echo "$bad"; fail=1
fi
internal=$(nm -D --defined-only "$so" | awk '{print $3}' | grep -E '^tnorm__' || true)
if [ -n "$internal" ]; then
	echo "FAIL: internal tnorm__ symbols are exported:"; echo "$internal"; fail=1
fi
echo "exported: $(nm -D --defined-only "$so" | grep -c ' T tnorm_') functions"
exit $fail

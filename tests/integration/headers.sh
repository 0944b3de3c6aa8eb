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
# Every options initializer works as documented, in C and in C++11 (warnings as errors): a
# struct with its version set and every other field zero.
inits=$(grep -ho '^#define TNORM_[A-Z_]*_OPTIONS_INIT\b' "$src"/core/include/tnorm/*.h | awk '{print $2}')
{
	echo '#include "tnorm/tnorm.h"'
	echo 'int main(void) {'
	echo '	int bad = 0;'
	k=0
	for m in $inits; do
		t=$(echo "$m" | sed 's/^TNORM_\(.*\)_OPTIONS_INIT$/\1/' | tr 'A-Z' 'a-z')
		echo "	tnorm_${t}_options o$k = $m;"
		echo "	bad |= o$k.version != TNORM_$(echo "$t" | tr 'a-z' 'A-Z')_OPTIONS_VERSION;"
		k=$((k + 1))
	done
	echo '	return bad;'
	echo '}'
} >"$tmp/init.c"
sed 's/(void)/()/' "$tmp/init.c" >"$tmp/init.cpp"
ninit=$(echo "$inits" | wc -w)
if [ "$ninit" -lt 10 ]; then
	echo "FAIL: found only $ninit options initializers"; fail=1
fi
if ! cc -std=c99 -pedantic -Wall -Wextra -Werror -I"$src/core/include" -c -o "$tmp/init-c.o" "$tmp/init.c"; then
	echo "FAIL: the options initializers do not compile as C99"; fail=1
fi
if ! c++ -std=c++11 -pedantic -Wall -Wextra -Werror -I"$src/core/include" -c -o "$tmp/init-cpp.o" "$tmp/init.cpp"; then
	echo "FAIL: the options initializers do not compile as C++11"; fail=1
fi
for o in "$tmp/init-c.o" "$tmp/init-cpp.o"; do
	[ -f "$o" ] || continue
	if ! c++ -o "$tmp/init" "$o" || ! "$tmp/init"; then
		echo "FAIL: an options initializer does not set its version ($(basename "$o"))"; fail=1
	fi
done
echo "checked $ninit options initializers in C and C++"
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

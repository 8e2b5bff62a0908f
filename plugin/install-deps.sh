#!/bin/sh
# Installs what lisa needs to build and test on Debian/Ubuntu: as root with
# apt-get; otherwise prints the exact command. Does nothing when all is there.
PKGS="tmux make gcc pkg-config libbsd-dev libjsmn-dev libcmocka-dev python3 strace mandoc openssh-client"

missing=""
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'ok installed'; }
for p in $PKGS; do
	have_pkg "$p" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "lisa: missing packages:$missing (install them with your package manager)" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "lisa: missing packages:$missing" >&2
	echo "run: sudo apt-get install -y$missing" >&2
	exit 1
fi
echo "lisa: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null || exit 1
apt-get install -y -qq $missing >/dev/null || exit 1

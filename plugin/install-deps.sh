#!/bin/sh
# Installs what lisa needs to build and test on Debian/Ubuntu: as root with
# apt-get; otherwise prints the exact command. Does nothing when all is there.
# On macOS it says what to run (Xcode's command line tools, Homebrew).
DIR=$(cd "$(dirname "$0")/.." && pwd)

if [ "$(uname -s)" = Darwin ]; then
	need=""
	command -v cc >/dev/null 2>&1 && command -v make >/dev/null 2>&1 ||
	    need="$need
  xcode-select --install            # the compiler, make, git"
	brew=""
	command -v tmux >/dev/null 2>&1 || brew="$brew tmux"
	pkg-config --exists cmocka 2>/dev/null || brew="$brew cmocka"
	command -v pkg-config >/dev/null 2>&1 || brew="$brew pkg-config"
	[ -n "$brew" ] && need="$need
  brew install$brew"
	[ -f "$DIR/plugin/jsmn/jsmn.h" ] || need="$need
  cd '$DIR' && git submodule update --init   # jsmn (TPM does this)"
	[ -z "$need" ] && exit 0
	echo "lisa on macOS needs (README: macOS):$need" >&2
	exit 1
fi

# openssh-server: the fleet's tests run their own sshd on a loopback port.
PKGS="tmux make gcc pkg-config libbsd-dev libjsmn-dev libcmocka-dev python3 strace mandoc openssh-client openssh-server curl busybox"

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
# The tests want sshd, the program, not the system's SSH service: where we
# install it, Debian's own switch keeps that service from ever starting
# (its unit and init script check for this file; delete it to run one).
case " $missing " in
*" openssh-server "*)
	mkdir -p /etc/ssh && : >>/etc/ssh/sshd_not_to_be_run &&
	    echo "lisa: the system's sshd stays off (/etc/ssh/sshd_not_to_be_run)" ;;
esac
apt-get update -qq >/dev/null || exit 1
apt-get install -y -qq $missing >/dev/null || exit 1

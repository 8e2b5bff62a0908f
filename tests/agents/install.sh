#!/bin/sh
# Installs the real agent CLIs the conformance tests drive, with npm, into a
# cache directory (never the repository, never global):
#
#   sh tests/agents/install.sh [pinned|latest] [claude] [codex] [gemini] [qwen]
#       [opencode] [kilo] [grok] [copilot] [pi] [cline] [continue]
#       [open-codex]
#
# pinned (default): the versions below, installed once and kept.
# (qwen only when named: 0.24.4 asks for node 22, given below;
# opencode only when named: a minute of CPU for each start; copilot only
# when named: a 200 MB download; cline only when named: 430 MB; kilo
# only when named: 290 MB, and 7.8.1 has no linux-x64 package; continue
# only when named: its command is "cn"; open-codex only when named.) An
# agent whose package asks for a newer node than the machine's (pi,
# open-codex: 22) gets npm's "node" package of that major in its prefix
# too, whose .bin the conformance puts first on the agent's PATH.
# latest: the newest published versions, checked against the registry on
# every run - how a maintainer learns that an agent changed.
# Cache: $LISA_AGENTS_CACHE, default ${XDG_CACHE_HOME:-$HOME/.cache}/lisa-agents.
# Prints "NAME VERSION LAUNCHER" per agent on stdout; exits 3 when npm or
# the registry cannot be reached (the caller skips, loudly), 1 on failure.
set -u

PINS="claude @anthropic-ai/claude-code 2.1.332
codex @openai/codex 0.171.0
gemini @google/gemini-cli 0.61.0
qwen @qwen-code/qwen-code 0.24.4
opencode opencode-ai 1.18.33
kilo @kilocode/cli 7.7.7
grok @vibe-kit/grok-cli 0.0.34
copilot @github/copilot 1.0.102
pi @earendil-works/pi-coding-agent 1.6.0
cline cline 3.0.65
continue @continuedev/cli 1.5.47 cn
open-codex open-codex 0.1.31"

mode=pinned
want=
for a in "$@"; do
	case "$a" in
	pinned|latest) mode=$a ;;
	claude|codex|gemini|qwen|opencode|kilo|grok|copilot|pi|cline|continue|\
	open-codex)
		want="$want $a" ;;
	*) echo "install.sh: unknown argument: $a" >&2; exit 2 ;;
	esac
done
[ -n "$want" ] || want="claude codex gemini pi"

cache=${LISA_AGENTS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lisa-agents}

for tool in node npm; do
	command -v $tool >/dev/null 2>&1 || {
		echo "install.sh: $tool not found" >&2
		exit 3
	}
done
major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$major" -lt 18 ]; then
	echo "install.sh: node >= 18 needed, found $(node --version)" >&2
	exit 3
fi

installed() {	# prefix package
	node -e 'try { console.log(require(process.argv[1]).version) } catch (e) {}' \
	    "$1/node_modules/$2/package.json" 2>/dev/null
}

for name in $want; do
	# shellcheck disable=SC2046	# (its words: name, package, version)
	set -- $(printf '%s\n' "$PINS" | grep "^$name ")
	pkg=$2 ver=$3 cmd=${4:-$name}
	prefix=$cache/$mode/$name
	bin=$prefix/node_modules/.bin/$cmd
	if [ "$mode" = latest ]; then
		ver=$(npm view "$pkg" version 2>/dev/null) || {
			echo "install.sh: npm registry not reachable" \
			    "(npm view $pkg failed)" >&2
			exit 3
		}
	fi
	if [ "$(installed "$prefix" "$pkg")" != "$ver" ] || [ ! -x "$bin" ]; then
		echo "install.sh: installing $pkg@$ver into $prefix" >&2
		mkdir -p "$prefix"
		# Install scripts must run: Claude Code's puts its native binary
		# in place.
		# A newer node than the machine's where the package asks for
		# one (pi 1.6.0: >= 22.19, open-codex, Qwen Code 0.24): npm's
		# node@N beside it, first on its PATH (the conformance's).
		extra=
		need=$(npm view "$pkg@$ver" engines.node 2>/dev/null |
		    sed -n 's/^[^0-9]*\([0-9][0-9]*\).*/\1/p' | head -n 1)
		[ -n "$need" ] && [ "$need" -gt "$major" ] && extra=node@$need
		if ! npm install --prefix "$prefix" --save-exact --no-fund \
		    --no-audit --loglevel=error "$pkg@$ver" ${extra:+"$extra"} >&2; then
			if ! npm view "$pkg" version >/dev/null 2>&1; then
				echo "install.sh: npm registry not reachable" >&2
				exit 3
			fi
			echo "install.sh: npm install $pkg@$ver failed" >&2
			exit 1
		fi
		have=$(installed "$prefix" "$pkg")
		if [ "$have" != "$ver" ] || [ ! -x "$bin" ]; then
			echo "install.sh: $pkg: wanted $ver, got '$have'" >&2
			exit 1
		fi
	fi
	echo "$name $ver $bin"
done

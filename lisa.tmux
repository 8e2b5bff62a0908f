#!/bin/sh
# TPM entry point: build lisa if needed (in the background, so tmux start-up
# never waits for a compiler), then start the helper for this tmux server.
# TPM discards our output, so problems are reported with display-message.
DIR="$(cd "$(dirname "$0")" && pwd)"
LOGDIR="${XDG_CACHE_HOME:-$HOME/.cache}/lisa"

# The clients a human uses (not control clients, the helper's). None
# while tmux has no session yet (TPM run from tmux.conf as tmux starts),
# and then not asked: list-clients would log "no current target".
clients() {
	[ -n "$(tmux list-sessions -F x 2>/dev/null)" ] || return 0
	tmux list-clients -F '#{?client_control_mode,,#{client_name}}' 2>/dev/null
}

# To every client a human uses, for SAY_MS (0: until a key or the next
# message). Without -c tmux picks the most recently active client, which
# once the helper runs can be one of its control clients; 3.2a's
# display-message takes no client (then: tmux's pick).
SAY_MS=4000
say() {
	said=
	some=
	for c in $(clients); do
		some=1
		tmux display-message -c "$c" -d "$SAY_MS" "lisa: $*" 2>/dev/null && said=1
	done
	# (for as long: tmux's display-time, 750 ms, was gone before a
	# human looked, on 3.2a where this is the way; with no client at
	# all there is nobody to tell: tmux would log "no current target")
	[ -n "$said" ] || [ -z "$some" ] ||
	    tmux display-message -d "$SAY_MS" "lisa: $*"
}

# Text inside a tmux command's double quotes, shown by display-message as
# it is (its # would start a format).
tq() { printf '%s' "$1" | sed -e 's/[\\"$~]/\\&/g' -e 's/#/##/g'; }

# lisa's hooks live at this index of tmux's hook arrays (plugin/shared).
HOOK=5472

# Said while the first build runs, until "ready" replaces it: on every
# client there now, and on each that comes while it builds, however it
# comes: tmux attach (client-attached), tmux new-session, which TPM's
# run at tmux's start comes before and which fires no client-attached,
# and switch-client (client-session-changed). Those hooks go when the
# build ends.
BUILD_HOOKS="client-attached client-session-changed"
say_building() {
	msg="building in the background (a few seconds; log: $LOGDIR/build.log)"
	for h in $BUILD_HOOKS; do
		tmux set-hook -g "${h}[$HOOK]" "display-message -d 0 \"lisa: $(tq "$msg")\""
	done
	if [ -n "$(clients)" ]; then
		SAY_MS=0
		say "$msg"
		SAY_MS=4000
	fi
}

stale() {
	[ -x "$DIR/bin/lisad" ] && [ -x "$DIR/bin/lisa" ] || return 0
	[ -n "$(find "$DIR/Makefile" "$DIR/control" "$DIR/plugin" -newer "$DIR/bin/lisad" \
	    \( -name '*.c' -o -name '*.h' -o -name Makefile \) 2>/dev/null | head -n 1)" ]
}

missing_tools() {
	m=""
	for t in make cc pkg-config; do command -v "$t" >/dev/null 2>&1 || m="$m $t"; done
	pkg-config --exists libbsd-overlay 2>/dev/null || m="$m libbsd-dev"
	# (where cc finds it, else the submodule's: as make looks)
	printf '#include <jsmn.h>\n' | cc -E -x c - >/dev/null 2>&1 ||
	    [ -f "$DIR/plugin/jsmn/jsmn.h" ] || m="$m libjsmn-dev"
	echo "$m"
}

start() { "$DIR/bin/lisa" start >/dev/null 2>&1 || { say "helper did not start; run: $DIR/bin/lisa doctor"; return 1; }; }

# lisa needs tmux 3.2 (control-mode flags, formats and hooks it relies on).
# On an older one it says so once, at load, and starts and binds nothing.
too_old() {
	v=$(tmux -V 2>/dev/null) || return 1
	v=${v#tmux }
	case "$v" in
	[0-2].*|3.[01]|3.[01][a-z]) return 0 ;;
	esac
	return 1
}

# tmux 3.2a: display-message -c takes no client, and without one tmux
# tells the most recently active client, maybe one of the helper's.
no_client_flag() {
	case "$(tmux display-message -p '#{version}' 2>/dev/null)" in
	3.2|3.2[a-z]) return 0 ;;
	esac
	return 1
}

# lisa(1): "man lisa" once installed (make install), else the page here.
man_hint() {
	if man -w lisa >/dev/null 2>&1; then
		echo "man lisa"
	else
		echo "man $DIR/docs/lisa.1"
	fi
}

ready_hint() {
	k=$(tmux show -gqv @lisa-menu-key 2>/dev/null)
	case "${k:-a}" in
	none) echo "lisa list shows the agents; $(man_hint) for more" ;;
	*) echo "prefix + ${k:-a} for the agents menu; $(man_hint) for more" ;;
	esac
}

main() {
	if too_old; then
		# (no -d: display-message takes it from 3.2)
		tmux display-message "lisa: tmux $v is too old: lisa needs tmux 3.2 or later, and does nothing"
		return
	fi
	if ! stale; then
		start
		return
	fi
	m=$(missing_tools)
	if [ -n "$m" ]; then
		say "cannot build, missing:$m (apt-get install$m, then prefix + I)"
		return
	fi
	mkdir -p "$LOGDIR" && chmod 700 "$LOGDIR"
	# The first build takes a while: say so, and say when it is done.
	say_building
	(
		# bin/ whatever BUILD or BIN the environment has (make takes
		# both from it); on every core, once.
		j=$(getconf _NPROCESSORS_ONLN 2>/dev/null) || j=2
		ok=
		make -j"${j:-2}" -C "$DIR" BUILD=build BIN=bin \
		    >"$LOGDIR/build.log" 2>&1 && ok=1
		# Built: nothing left behind.
		for h in $BUILD_HOOKS; do
			tmux set-hook -gu "${h}[$HOOK]" 2>/dev/null
		done
		if [ -n "$ok" ]; then
			if no_client_flag; then
				# Before the helper's control clients exist,
				# or tmux may pick one of them to tell.
				say "ready: $(ready_hint)"
				start
			else
				start && say "ready: $(ready_hint)"
			fi
		else
			say "build failed, see $LOGDIR/build.log"
		fi
	) </dev/null >/dev/null 2>&1 &
}
main

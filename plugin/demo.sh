#!/bin/sh
# make demo: lisa on a private tmux server of its own (tmux -L
# lisa-demo-XXXXXX), loaded the way TPM loads it (run-shell lisa.tmux from
# the config), watching stand-in agents (tests/fake: they behave like
# Claude Code and Codex, offline) that a driver keeps cycling through
# states: working, waiting for permission, asking, done, crashed and
# respawned, stuck.
#
# In a terminal it attaches (prefix a: menu, prefix A: next, prefix d:
# leave). Otherwise (CI, or DEMO_SECONDS=N) it lets the agents run, then
# prints the screen an attached client shows, as text.
# DEMO_CAPTURE=DIR also saves that screen with its colours (capture-pane
# -e) for docs/render-screenshot.py: screen.ansi, menu.ansi, details.ansi.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
unset TMUX TMUX_PANE
export LANG=${LANG:-C.UTF-8}

# Everything the demo makes is its own and goes when it ends: a private
# directory (the fake agents write ~/.claude and ~/.codex; lisa's runtime
# files), and tmux servers with names no one else uses. It never touches
# a server it did not start.
DEMO_HOME=$(mktemp -d "${TMPDIR:-/tmp}/lisa-demo.XXXXXX") || exit 1
S=lisa-demo-${DEMO_HOME##*.}
V=$S-view
T() { tmux -L "$S" "$@"; }
L() { "$ROOT/bin/lisa" -L "$S" "$@"; }
export XDG_RUNTIME_DIR="$DEMO_HOME/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
DRIVERS=
STARTED=
cleanup() {
	# The drivers first (they would respawn panes), then lisa, then the
	# servers; what their processes still write is gone once they are.
	[ -n "$DRIVERS" ] && kill $DRIVERS 2>/dev/null
	for d in $DRIVERS; do wait "$d" 2>/dev/null; done
	if [ -n "$STARTED" ]; then
		L stop >/dev/null 2>&1
		T kill-server 2>/dev/null
		tmux -L "$V" kill-server 2>/dev/null
		for _ in $(seq 1 50); do
			T has-session 2>/dev/null || break
			sleep 0.1
		done
		# kill-server leaves the socket files.
		rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$S" \
		    "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$V"
	fi
	for _ in $(seq 1 50); do
		rm -rf "$DEMO_HOME" 2>/dev/null && break
		sleep 0.1
	done
	[ -e "$DEMO_HOME" ] && echo "lisa demo: could not remove $DEMO_HOME" >&2
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
FAKE="$ROOT/tests/fake"

# A user's tmux.conf: their status line with lisa's placeholders, then
# the plugin, as TPM runs it.
# DEMO_THEME=default: tmux's own green status bar, no theme of ours.
if [ "${DEMO_THEME:-dark}" = default ]; then
	THEME="set -g status-right ' #{lisa_status} #{lisa_waiting} | C-b a: menu '"
else
	THEME="set -g status-style 'bg=colour236,fg=colour250'
set -g status-left '#[bold,fg=colour81] lisa demo #[default] '
set -g status-left-length 20
set -g status-right ' #{lisa_status} #[fg=colour250]#{lisa_waiting} #[fg=colour248]| C-b a: menu '
set -g window-status-current-style 'bold,fg=colour231'
set -g pane-active-border-style 'fg=colour81'"
fi
cat >"$DEMO_HOME/tmux.conf" <<EOF
set -g default-terminal tmux-256color
$THEME
set -g status-right-length 70
set -g display-time 2500
set -g @lisa-grace 2
set -g @lisa-debounce 0.5
set -g @lisa-stale 15
set -g remain-on-exit on
set -g @lisa-notify-waiting on
set -g @lisa-notify-crashed on
set -g @lisa-notify-stuck on
set -g @lisa-notify-desktop off
set -g @lisa-notify-bell off
run-shell '$ROOT/lisa.tmux'
EOF
HOME=$DEMO_HOME tmux -L "$S" -f "$DEMO_HOME/tmux.conf" \
    new-session -d -s demo -n shell -x 160 -y 40 || exit 1
STARTED=1
T set-environment -g HOME "$DEMO_HOME"
# (lisa.tmux builds first where bin/ is missing or older than the
# sources, as TPM's first run does: that can take a minute)
for _ in $(seq 1 1200); do L list >/dev/null 2>&1 && break; sleep 0.1; done
L list >/dev/null 2>&1 || { echo "lisa: the helper did not start" >&2; exit 1; }

T send-keys -t demo:shell "clear; $ROOT/bin/lisa -L $S list" Enter
T new-window -d -t demo:1 -n api "$FAKE/claude"
T new-window -d -t demo:2 -n tests "$FAKE/codex"
T new-window -d -t demo:3 -n review "$FAKE/claude"
T split-window -d -h -t demo:3 "$FAKE/codex"
T new-window -d -t demo:4 -n migrate "$FAKE/claude"
T new-window -d -t demo:5 -n docs "$FAKE/claude"
T new-window -d -t demo:6 -n search "$FAKE/claude"

# The driver: each agent goes round its own cycle until the server goes.
k() { T send-keys -t "$1" "$2" Enter 2>/dev/null; }
cycle() {
	while T has-session -t demo 2>/dev/null; do "$@"; done
}
api() { k demo:1 'work 9'; sleep 12; k demo:1 'tool 6'; sleep 10; }
tests() { k demo:2 'work 4'; sleep 6; k demo:2 permission; sleep 14;
	k demo:2 y; sleep 6; }
review() { k demo:3.0 question; k demo:3.1 'work 20'; sleep 22; k demo:3.0 1;
	sleep 4; }
migrate() { k demo:4 'work 5'; sleep 7; k demo:4 'exit 1'; sleep 30;
	T respawn-pane -k -t demo:4 "$FAKE/claude" 2>/dev/null; sleep 4; }
docs() { k demo:5 'work 6'; sleep 8; k demo:5 /exit; sleep 30;
	T respawn-pane -k -t demo:5 "$FAKE/claude" 2>/dev/null; sleep 4; }
search() { k demo:6 'work 3'; sleep 5; k demo:6 hang; sleep 40;
	T respawn-pane -k -t demo:6 "$FAKE/claude" 2>/dev/null; sleep 4; }
sleep 2.5
for a in api tests review migrate docs search; do
	cycle "$a" >/dev/null 2>&1 &
	DRIVERS="$DRIVERS $!"
done

attached() {
	T select-window -t demo:3
	T attach -t demo
}

# Not in a terminal: a client of our own, inside another private tmux.
view() {
	tmux -L "$V" -f /dev/null new-session -d -x 160 -y 40 \
	    "env -u TMUX tmux -L $S attach -t demo:3"
	sleep 1
}
shot() { tmux -L "$V" capture-pane -p ${1:+-e}; }

if [ -t 0 ] && [ -t 1 ] && [ -z "${CI:-}" ] && [ -z "${DEMO_SECONDS:-}" ]; then
	attached
	exit 0
fi
secs=${DEMO_SECONDS:-30}
[ -n "${DEMO_CAPTURE:-}" ] && secs=$((secs - 3))
view
sleep "$secs"
if [ -n "${DEMO_CAPTURE:-}" ]; then
	mkdir -p "$DEMO_CAPTURE"
	# The status line, without a notification over it.
	T set -g @lisa-notify-message off
	L reload >/dev/null
	sleep 2.6
	shot e >"$DEMO_CAPTURE/screen.ansi"
	T set -g @lisa-notify-message on
	L reload >/dev/null
	tmux -L "$V" send-keys C-b a
	sleep 1
	shot e >"$DEMO_CAPTURE/menu.ansi"
	tmux -L "$V" send-keys Escape
	T select-window -t demo:4
	sleep 0.5
	tmux -L "$V" send-keys C-b a
	sleep 0.5
	tmux -L "$V" send-keys d
	sleep 1.5
	shot e >"$DEMO_CAPTURE/details.ansi"
	tmux -L "$V" send-keys q
fi
echo "== what a client attached to tmux -L $S shows, after ${secs}s =="
shot
echo
echo "== lisa list =="
L list

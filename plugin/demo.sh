#!/bin/sh
# make demo: lisa on a private tmux server (tmux -L lisa-demo), loaded the
# way TPM loads it, watching stand-in agents (tests/fake: they behave like
# Claude Code and Codex, offline) that work, ask, crash and get killed.
# Prints what lisa knows; attaches when run in a terminal.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
S=lisa-demo
T() { tmux -L "$S" "$@"; }
L() { "$ROOT/bin/lisa" -L "$S" "$@"; }
unset TMUX TMUX_PANE

T kill-server 2>/dev/null
T -f /dev/null new-session -d -s demo -n shell -x 160 -y 40
T set -g remain-on-exit on
T set -g status-right ' lisa demo | prefix+d to leave '
# As TPM does: run the plugin's *.tmux from inside the server.
T run-shell "$ROOT/lisa.tmux"
for i in $(seq 1 100); do L list >/dev/null 2>&1 && break; sleep 0.05; done

# Stand-in agents (tests/fake: behave like Claude Code and Codex, offline).
FAKE="$ROOT/tests/fake"
DEMO_HOME=$(mktemp -d)
T set-environment -g HOME "$DEMO_HOME"
T set -g @lisa-grace 2
T set -g @lisa-debounce 0.5
"$ROOT/bin/lisa" -L "$S" reload >/dev/null 2>&1
T new-window -d -n claude-work "$FAKE/claude"
T new-window -d -n codex-asks "$FAKE/codex"
T new-window -d -n claude-asks "$FAKE/claude"
T new-window -d -n codex-crash "$FAKE/codex"
T new-window -d -n claude-killed "$FAKE/claude"
T new-window -d -n lisa "sh -c 'while :; do clear; $ROOT/bin/lisa -L $S list; echo; $ROOT/bin/lisa -L $S events | tail -n 12; sleep 1; done'"
sleep 2.5
T send-keys -t demo:claude-work 'work 60' Enter
T send-keys -t demo:codex-asks permission Enter
T send-keys -t demo:claude-asks question Enter
T send-keys -t demo:codex-crash 'exit 3' Enter
T send-keys -t demo:claude-killed 'work 60' Enter
sleep 1.5
kill -9 "$(T display -p -t demo:claude-killed '#{pane_pid}')"
sleep 1.5

echo "== lisa list (tmux -L $S) =="
L list
echo
echo "== lisa events =="
L events
echo
L doctor | tail -n 4

if [ -t 0 ] && [ -t 1 ] && [ -z "$CI" ]; then
	printf '\nAttaching (window "lisa" shows the table live); prefix+d leaves.\n'
	sleep 1
	T select-window -t demo:lisa
	T attach -t demo
fi
L stop >/dev/null
T kill-server 2>/dev/null
rm -rf "$DEMO_HOME"

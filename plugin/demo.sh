#!/bin/sh
# make demo: lisa on a private tmux server (tmux -L lisa-demo), loaded the
# way TPM loads it, watching a few stand-in agents that work, finish, crash
# and get killed. Prints what lisa knows; attaches when run in a terminal.
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

T new-window -d -n worker "sh -c 'i=0; while [ \$i -lt 20 ]; do echo working \$i; i=\$((i+1)); sleep 0.5; done'"
T new-window -d -n done "sh -c 'echo task finished; exit 0'"
T new-window -d -n crash "sh -c 'echo starting; sleep 1; echo fatal: out of tokens >&2; exit 3'"
T new-window -d -n killed "sh -c 'sleep 2; kill -9 \$\$'"
T new-window -d -n lisa "sh -c 'while :; do clear; $ROOT/bin/lisa -L $S list; echo; $ROOT/bin/lisa -L $S events | tail -n 8; sleep 1; done'"
sleep 3

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

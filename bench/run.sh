#!/bin/sh
# make bench: the numbers, printed as tables (nothing here is asserted).
#   B1  %output decode throughput (bench/lisa-bench.c, >= 100 MB stream)
#   S1  helper RSS and idle wakeups with 50 panes
#   S2  pane death -> helper knows it (pidfd route, then hook route)
# Runs on private tmux servers; needs python3 for precise timing.
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
unset TMUX TMUX_PANE
export XDG_RUNTIME_DIR=$(mktemp -d)
chmod 700 "$XDG_RUNTIME_DIR"
S=lb$$
cleanup() {
	tmux -L "$S" kill-server 2>/dev/null
	[ -n "$HP" ] && kill "$HP" 2>/dev/null && wait "$HP" 2>/dev/null
	rm -rf "$XDG_RUNTIME_DIR"
}
trap cleanup EXIT
T() { tmux -L "$S" -f /dev/null "$@"; }

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(tmux -V); kernel $(uname -r)"
echo
"$ROOT/build/bench/lisa-bench" -m 128 -r 5 || exit 1
echo

# S1: 50 panes in 5 sessions of 10 windows.
for s in 0 1 2 3 4; do
	T new-session -d -s "s$s" -x 120 -y 40 'sleep 3600'
	for w in 1 2 3 4 5 6 7 8 9; do T new-window -d -t "s$s" 'sleep 3600'; done
done
"$ROOT/bin/lisad" -F -L "$S" & HP=$!
python3 "$ROOT/bench/measure.py" "$S" "$ROOT/bin/lisa" "$HP" idle
kill "$HP"; wait "$HP" 2>/dev/null; HP=
T kill-server
while tmux -L "$S" has-session 2>/dev/null; do sleep 0.1; done
sleep 0.3

# U1: 20 fake agents (tests/fake/claude): what lisa writes into tmux.
export HOME=$XDG_RUNTIME_DIR/home
mkdir -p "$HOME"
T new-session -d -s main -x 160 -y 40
T set -g @lisa-grace 1
T set -g @lisa-debounce 0.5
panes=
for i in $(seq 1 20); do
	T new-window -d -t "main:$i" "$ROOT/tests/fake/claude"
	panes="$panes${panes:+,}$(T display -p -t "main:$i" '#{pane_id}')"
done
"$ROOT/bin/lisad" -F -L "$S" & HP=$!
python3 "$ROOT/bench/measure.py" "$S" "$ROOT/bin/lisa" "$HP" publish "$panes"
kill "$HP"; wait "$HP" 2>/dev/null; HP=
T kill-server
while tmux -L "$S" has-session 2>/dev/null; do sleep 0.1; done
sleep 0.3

# S2: deaths, pidfd route, then with pidfd off (pane-died hook).
for mode in pidfd hook; do
	T new-session -d -s main -x 120 -y 40
	T set -g remain-on-exit on
	if [ $mode = hook ]; then
		LISAD_NO_PIDFD=1 "$ROOT/bin/lisad" -F -L "$S" & HP=$!
	else
		"$ROOT/bin/lisad" -F -L "$S" & HP=$!
	fi
	python3 "$ROOT/bench/measure.py" "$S" "$ROOT/bin/lisa" "$HP" deaths $mode
	kill "$HP"; wait "$HP" 2>/dev/null; HP=
	T kill-server
	while tmux -L "$S" has-session 2>/dev/null; do sleep 0.1; done
	sleep 0.3
done

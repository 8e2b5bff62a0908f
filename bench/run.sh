#!/bin/sh
# make bench: the numbers, printed as tables (nothing here is asserted).
#   B1  %output decode (+ classification) throughput (bench/lisa-bench.c)
#   S1  helper RSS and idle wakeups with 50 panes
#   U1  option writes into tmux with 20 agents
#   S2  pane death -> helper knows it (pidfd route, then hook route)
#   B2  idle cost of 20 agents against a polling baseline (B2_PHONE=1:
#       with the phone's buttons on)
#   B3  latencies until tmux shows a verdict
#   B4  100 agents x 10 KB/s
#   B5  lisa's tax on tmux at B4's load, against the polling baseline
#   F1  the fleet: 10 hosts x 20 agents over sshd on loopback (root)
#   F2  the fleet: 50 hosts x 20 agents (1,000), at rest and in a burst
#   B6  500 agents x 10 KB/s: lisa's tax, as B5
#   C1  an hour of chaos over the fleet (root; only when asked: BENCH=C1,
#       C1_SEED, C1_MINUTES, C1_FAULT_S, C1_SAMPLE_S)
# Runs on private tmux servers; needs python3 for precise timing.
# BENCH="B3 B5" runs only those (make bench BENCH="B3 B5").
# LISA_BIN_DIR and LISA_BUILD_DIR (make bench sets them): the binaries
# measured, e.g. make bench OSDEP=generic BUILD=build-generic BIN=...
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
BIN=${LISA_BIN_DIR:-$ROOT/bin}
BLD=$ROOT/${LISA_BUILD_DIR:-build}
unset TMUX TMUX_PANE
XDG_RUNTIME_DIR=$(mktemp -d)
export XDG_RUNTIME_DIR
chmod 700 "$XDG_RUNTIME_DIR"
S=lb$$
cleanup() {
	tmux -L "$S" kill-server 2>/dev/null
	[ -n "$HP" ] && kill "$HP" 2>/dev/null && wait "$HP" 2>/dev/null
	rm -rf "$XDG_RUNTIME_DIR"
}
trap cleanup EXIT
T() { tmux -L "$S" -f /dev/null "$@"; }
want() { case " ${BENCH:-B1 S1 U1 S2 B2 B3 B4 B5 B6 F1 F2} " in *" $1 "*) return 0 ;; esac; return 1; }
gone() {
	T kill-server
	while tmux -L "$S" has-session 2>/dev/null; do sleep 0.1; done
	sleep 0.3
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); $(tmux -V); kernel $(uname -r); $("$BIN/lisa" version)"
echo
if want B1; then
	"$BLD/bench/lisa-bench" -m 128 -r 5 || exit 1
	echo
fi


export HOME=$XDG_RUNTIME_DIR/home
mkdir -p "$HOME/.config/lisa" "$XDG_RUNTIME_DIR/bin"
helper() { "$BIN/lisad" -F -L "$S" & HP=$!; }
unhelper() { kill "$HP"; wait "$HP" 2>/dev/null; HP=; }

# S1: 50 panes in 5 sessions of 10 windows.
if want S1; then
	for s in 0 1 2 3 4; do
		T new-session -d -s "s$s" -x 120 -y 40 'sleep 3600'
		for _ in 1 2 3 4 5 6 7 8 9; do T new-window -d -t "s$s" 'sleep 3600'; done
	done
	helper
	python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" "$HP" idle
	unhelper
	gone
fi

# U1: 20 fake agents (tests/fake/claude): what lisa writes into tmux.
if want U1; then
	T new-session -d -s main -x 160 -y 40
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g message-limit 100000
	panes=
	for i in $(seq 1 20); do
		T new-window -d -t "main:$i" "$ROOT/tests/fake/claude"
		panes="$panes${panes:+,}$(T display -p -t "main:$i" '#{pane_id}')"
	done
	helper
	python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" "$HP" publish "$panes"
	unhelper
	gone
fi

# S2: deaths, pidfd route, then with pidfd off (pane-died hook).
if want S2; then
	for mode in pidfd hook; do
		T new-session -d -s main -x 120 -y 40
		T set -g remain-on-exit on
		if [ $mode = hook ]; then
			LISAD_NO_PIDFD=1 "$BIN/lisad" -F -L "$S" & HP=$!
		else
			helper
		fi
		python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" "$HP" deaths $mode
		unhelper
		gone
	done
fi

# B2: 20 agents idle at their prompt, 60 s: the helper, then the polling
# baseline (bench/poll-baseline.py) on the same panes with no helper.
# B2_PHONE=1: with phone buttons on (ntfy and a Telegram bot, issue 47),
# no ask open: nothing may be read or held meanwhile.
if want B2; then
	T new-session -d -s main -x 160 -y 40
	T set -g @lisa-grace 1
	if [ -n "${B2_PHONE:-}" ]; then
		T set -g @lisa-notify-asks on
		T set -g @lisa-notify-url http://127.0.0.1:9/lisa-b2
		T set -g @lisa-telegram-token 1:b2
		T set -g @lisa-telegram-chat 1
		T set -g @lisa-telegram-api http://127.0.0.1:9
	fi
	for i in $(seq 1 20); do T new-window -d -t "main:$i" "$ROOT/tests/fake/claude"; done
	helper
	python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" "$HP" b2 "$XDG_RUNTIME_DIR/b2.json" || exit 1
	unhelper
	python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" - b2poll "$XDG_RUNTIME_DIR/b2.json" "$ROOT/bench/poll-baseline.py" || exit 1
	gone
fi

# B3: latencies until tmux shows the verdict. "claude" here is sleep (it
# only has to die); "bursty" an agent known by output and prompt alone.
if want B3; then
	ln -sf "$(command -v sleep)" "$XDG_RUNTIME_DIR/bin/claude"
	# (it notes when it wrote its prompt: the quiet starts there)
	export BURSTY_LAST="$XDG_RUNTIME_DIR/bursty.last"
	printf '#!/bin/sh\nprintf "> "\nwhile read x; do i=0; while [ $i -lt 20 ]; do echo "working $i"; sleep 0.05; i=$((i+1)); done; printf "> "; date +%%s%%3N >"$BURSTY_LAST"; done\n' >"$XDG_RUNTIME_DIR/bin/bursty"
	chmod +x "$XDG_RUNTIME_DIR/bin/bursty"
	echo '{"agents":[{"name":"bursty","comm":["bursty"],"screen":{"prompt":"^> *$"}}]}' >"$HOME/.config/lisa/agents.json"
	export FAKE_AGENT_LOG="$XDG_RUNTIME_DIR/agent.log"
	T new-session -d -s main -x 160 -y 40
	T set -g @lisa-grace 1
	helper
	python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" "$HP" b3 "$ROOT/tests/fake/claude" "$XDG_RUNTIME_DIR/bin/claude" "$XDG_RUNTIME_DIR/bin/bursty" || exit 1
	rm -f "$HOME/.config/lisa/agents.json"
	unhelper
	gone
fi

# B4: 100 agents (bench/trickle as "claude") writing 10 KB/s each; B5:
# lisa's tax on the same panes: tmux alone (before and after), with the
# helper, and polled (bench/poll-baseline.py), B5_SECONDS (30) each.
if want B4 || want B5; then
	ln -sf "$BLD/bench/trickle" "$XDG_RUNTIME_DIR/bin/claude"
	T new-session -d -s main -x 160 -y 40
	panes=
	for i in $(seq 1 100); do
		T new-window -d -t "main:$i" "$XDG_RUNTIME_DIR/bin/claude 10240"
		panes="$panes${panes:+,}$(T display -p -t "main:$i" '#{pane_id}')"
	done
	if want B4; then
		helper
		python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" "$HP" b4 "$panes" || exit 1
		unhelper
	fi
	if want B5; then
		python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" - b5 "$panes" "$ROOT/bench/poll-baseline.py" "${B5_SECONDS:-30}" || exit 1
	fi
	gone
fi

# B6: B5 at 500 agents (B6_AGENTS), the same way.
if want B6; then
	ln -sf "$BLD/bench/trickle" "$XDG_RUNTIME_DIR/bin/claude"
	T new-session -d -s main -x 160 -y 40
	panes=
	for i in $(seq 1 "${B6_AGENTS:-500}"); do
		T new-window -d -t "main:$i" "$XDG_RUNTIME_DIR/bin/claude 10240"
		panes="$panes${panes:+,}$(T display -p -t "main:$i" '#{pane_id}')"
	done
	python3 "$ROOT/bench/measure.py" "$S" "$BIN/lisa" - b5 "$panes" "$ROOT/bench/poll-baseline.py" "${B5_SECONDS:-30}" B6 || exit 1
	gone
fi

# F1: the fleet, on its own servers (bench/fleet.py).
if want F1; then
	python3 "$ROOT/bench/fleet.py" F1 "$BIN/lisa" "$ROOT/tests/fake/claude" \
	    10 20 "${F1_SECONDS:-30}" 200 2>/dev/null
	echo
fi

# F2: a thousand agents over the fleet (F2_HOSTS x F2_AGENTS).
if want F2; then
	python3 "$ROOT/bench/fleet.py" F2 "$BIN/lisa" "$BLD/bench/agentlet" \
	    "${F2_HOSTS:-50}" "${F2_AGENTS:-20}" "${F2_SECONDS:-30}" 100 2>/dev/null
	echo
fi

# C1: the fleet through an hour of faults (bench/chaos.py); never by default.
if [ "${BENCH:-}" != "${BENCH#*C1}" ]; then
	python3 "$ROOT/bench/chaos.py" "$BIN/lisa" "$ROOT/tests/fake/claude" \
	    "${C1_SEED:-1}" "${C1_MINUTES:-60}" 10 20 "${C1_FAULT_S:-60}" \
	    "${C1_SAMPLE_S:-10}" 2>/dev/null
	echo
fi

#!/bin/sh
# Integration test harness: sh lib.sh FILE TEST runs one test function from
# FILE against a private tmux server (tmux -L, -f /dev/null) and a private
# runtime directory, both removed by the trap whatever happens.
set -u

ROOT=${ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
LISA=${LISA_BIN_DIR:-$ROOT/bin}/lisa
LISAD=${LISA_BIN_DIR:-$ROOT/bin}/lisad
SOCK="lt$$"
HELPER_PID=
unset TMUX TMUX_PANE
# Not a make's child, as a user's tmux is not: make exports the variables
# given on its command line (make check-asan's BUILD, BIN) to the builds
# tests run (lisa.tmux, make install).
unset MAKEFLAGS MFLAGS MAKELEVEL BUILD BIN
export LANG=C.UTF-8

TESTDIR=$(mktemp -d "${TMPDIR:-/tmp}/lisa-test.XXXXXX")
chmod 700 "$TESTDIR"
export XDG_RUNTIME_DIR="$TESTDIR/run"
mkdir -m 700 "$XDG_RUNTIME_DIR"
# Nothing of the user's, nothing of another test's running beside this one
# (run.sh runs several at once): a home of its own, and with it state
# (resume records), config, cache and data where a user's default are.
export HOME="$TESTDIR/home"
unset XDG_STATE_HOME XDG_CONFIG_HOME XDG_CACHE_HOME XDG_DATA_HOME
mkdir -p "$HOME"

# The CPU milliseconds a tmux server and the processes it reaped (panes,
# run-shell's builds) used, for run.sh's figures: a daemon's are not the
# test's children's. Linux's /proc only; nothing elsewhere.
server_cpu() {
	p=$(tmux -S "$1" display -p '#{pid}' 2>/dev/null) &&
	    [ -r "/proc/$p/stat" ] || return 0
	sed 's/.*) //' "/proc/$p/stat" |
	    awk -v hz="$(getconf CLK_TCK)" '{ printf "%d\n", ($12 + $13 + $14 + $15) * 1000 / hz }'
}

cleanup() {
	[ -n "$HELPER_PID" ] && kill "$HELPER_PID" 2>/dev/null
	# kill-server leaves the socket file: 1600 of them had piled up. The
	# test's other servers ($SOCK and a letter: a remote, an outer
	# client's) go too, if the test did not end them.
	for s in "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK" \
	    "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$SOCK"[a-z]*; do
		[ -S "$s" ] || continue
		[ -z "${LISA_TEST_SERVER_CPU:-}" ] ||
		    server_cpu "$s" >>"$LISA_TEST_SERVER_CPU"
		tmux -S "$s" kill-server 2>/dev/null
		rm -f "$s"
	done
	[ -n "$HELPER_PID" ] && wait "$HELPER_PID" 2>/dev/null
	# (a pane's process may still write into it as it exits)
	rm -rf "$TESTDIR" 2>/dev/null || { sleep 0.3; rm -rf "$TESTDIR"; }
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# Timing limits on the helper's own exit are multiplied by this (valgrind:
# its leak check runs at exit).
SLOW=${LISA_SLOW:-1}

T() { tmux -L "$SOCK" -f /dev/null "$@"; }
L() { "$LISA" -L "$SOCK" "$@"; }
# What the helper said: its stderr and the log in its runtime directory.
helper_log() { cat "$TESTDIR/lisad.err" "$XDG_RUNTIME_DIR"/lisa/*.log 2>/dev/null; }
helper_said() { helper_log | grep -q -- "$1"; }

fail() {
	echo "FAIL: $*" >&2
	for f in "$XDG_RUNTIME_DIR"/lisa/*.log; do
		[ -f "$f" ] && { echo "--- helper log (tail, requests left out):"
		    grep -v " request: " "$f" | tail -n ${LISA_LOG_TAIL:-40}; } >&2
	done
	# (other helpers' logs a test names: a fleet's hosts')
	# shellcheck disable=SC2086
	for f in ${LISA_MORE_LOGS:-}; do
		[ -s "$f" ] && { echo "--- ${f##*/} (tail, requests left out):"
		    grep -v " request: " "$f" | tail -n ${LISA_LOG_TAIL:-40}; } >&2
	done
	server_gone_why >&2
	exit 1
}

# A test's tmux server that went away by itself (one did, a second into
# a test, once in CI): what the kernel said of it, if it crashed, and
# which signals the machine's other tests sent are not known here; the
# kernel log is the one witness left. Nothing when the helper did not
# see its server end.
server_gone_why() {
	_gp=$(helper_log | sed -n 's/.* tmux server \([0-9]*\) exited$/\1/p' |
	    tail -n 1)
	[ -n "$_gp" ] || return 0
	echo "--- the test's tmux server (pid $_gp) ended; the kernel's words on it:"
	dmesg 2>/dev/null | grep -E "\[${_gp}\]|[^0-9]${_gp}[^0-9]" | tail -n 5 |
	    grep . || echo "(none, or dmesg not readable)"
}
note() { echo "# $*"; }

# Milliseconds, monotonic enough for test timing.
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# until_ms's clock: milliseconds since boot in $_mono, with no process
# (a look's date was a fork and an exec, near half of what a wait cost
# beyond the look itself): /proc/uptime's hundredths, else date.
if [ -r /proc/uptime ]; then
	mono_ms() {
		read -r _up _ </proc/uptime
		_mono=$((${_up%.*} * 1000 + 1${_up#*.}0 - 1000))
	}
else
	mono_ms() { _mono=$(now_ms); }
fi

# jq-like access to JSON on stdin with a Python expression over `d`.
jget() { python3 -c 'import json,sys; d=json.load(sys.stdin); r=eval(sys.argv[1]); print(json.dumps(r) if not isinstance(r,str) else r)' "$1"; }

# Retry a command until it succeeds, for at most $1 ms: after 10 ms, 20,
# 40, 80, then every 100 ms to 2 s, every 200 ms to 8 s, then every 400
# ms. A look is a process or three (tmux, lisa, python at ~100 ms of CPU)
# and each process costs ~10 ms of a CPU here beyond its own work: the
# suite is bound by the CPU, and a make test ran 4,400 of these sleeps
# (and as many looks) when it looked every 10 ms for 20 tries, then
# every 50 ms. The waits past 8 s are lisa's clocks (grace, debounce,
# cooldowns), where 0.2 s more is nothing. What a test times is the
# helper's own clock (events, timestamps), not when a look saw it; a
# state that lasts less than a look's gap is waited for with `lisa wait`,
# which the helper answers.
until_ms() {
	limit=$1; shift
	mono_ms; _ut0=$_mono
	_gap=10
	while ! "$@" >/dev/null 2>&1; do
		mono_ms; el=$((_mono - _ut0))
		[ $el -ge "$limit" ] && return 1
		case $_gap in
		10) sleep 0.01; _gap=20 ;;
		20) sleep 0.02; _gap=40 ;;
		40) sleep 0.04; _gap=80 ;;
		80) sleep 0.08; _gap=100 ;;
		*) if [ $el -lt 2000 ]; then sleep 0.1
			elif [ $el -lt 8000 ]; then sleep 0.2
			else sleep 0.4; fi ;;
		esac
	done
	return 0
}

# tpm itself, in short: its source_plugins runs every PLUGINS/*/*.tmux.
tpm_stub() {
	mkdir -p "$1/tpm"
	cat >"$1/tpm/tpm" <<'TPM'
#!/usr/bin/env bash
for plugin in "$HOME"/.tmux/plugins/*/; do
	for file in "$plugin"*.tmux; do
		[ -x "$file" ] && "$file" >/dev/null 2>&1
	done
done
TPM
	chmod +x "$1/tpm/tpm"
}

# tmux < 3.6 built with utempter (Debian's) sometimes loses a pane's SIGCHLD
# (docs/protocol.md): the pane looks alive to tmux, with no status. The
# Linux backend still reads it from the zombie; without /proc nobody can.
tmux_lost_death() {
	[ -z "$(T display -p -t "$1" '#{?pane_dead,#{pane_dead_status}#{pane_dead_signal},}')" ]
}

# The operating system's backend the binaries were built with (make OSDEP=).
SYSTEM=$("$LISA" version | sed -n 's/.*(system: \(.*\))$/\1/p')
# A test of something only one backend has: skipped elsewhere, with the
# reason (exit 77: run.sh counts it as a skip, not a pass).
skip() { echo "SKIP: $*" >&2; exit 77; }
linux_only() { [ "$SYSTEM" = linux ] || skip "Linux backend only: $*"; }
# A process's working directory: Linux's /proc, a Mac's libproc
# (osdep-cwd-darwin.c); the generic backend elsewhere has none (Makefile).
needs_proc_cwd() {
	[ "$SYSTEM" = linux ] || [ "$(uname -s)" = Darwin ] ||
	    skip "no process directory on this backend: $*"
}
# A death tmux lost (tmux_lost_death): the Linux backend reads its status from the
# zombie in /proc; without /proc nobody can know it.
lost_death_skip() {
	[ "$SYSTEM" != linux ] || return 1
	if [ "$(T display -p -t "$1" '#{pane_dead}' 2>/dev/null)" = 1 ]; then
		tmux_lost_death "$1" || return 1
	else
		# (a pane not kept: alive to tmux, its process a zombie that
		# tmux never reaped)
		_lp=$(T display -p -t "$1" '#{pane_pid}' 2>/dev/null)
		[ -n "$_lp" ] || return 1
		case "$(ps -o stat= -p "$_lp" 2>/dev/null)" in
		Z*) ;;
		*) return 1 ;;
		esac
	fi
	skip "tmux lost the SIGCHLD of $1 (utempter, tmux < 3.6): its status is only in /proc"
}

# Is the tmux on PATH at least MAJOR.MINOR? (next-3.8 counts as 3.8)
tmux_at_least() {
	tmux -V | sed 's/^tmux //; s/^next-//' |
	    awk -F. -v M="$1" -v m="$2" '{ exit !($1 > M || ($1 == M && $2 + 0 >= m)) }'
}

start_server() { T new-session -d -s "${1:-main}" -x 200 -y 50 "${2:-sh}"; }
# Tests that make many sessions: their panes run /bin/sh, not the user's
# shell and its rc files (a bashrc running pyenv made 50 sessions take
# minutes), and not as a login shell either: /etc/profile's `id -u` and
# profile.d scripts were a third of a 1000-session test's CPU.
cheap_sessions() {
	T set -g default-shell /bin/sh \; set -g default-command 'exec /bin/sh'
}

# The helper in the foreground as our child, so we see its exit status.
start_helper() {
	"$LISAD" -F -v -L "$SOCK" "$@" 2>"$TESTDIR/lisad.err" &
	# (environment such as LISAD_NO_PIDFD passes through)
	HELPER_PID=$!
	until_ms $((20000 * SLOW)) L list ||
	    fail "helper did not come up: $(cat "$TESTDIR/lisad.err")"
	# and has attached to the sessions there were (tmux < 3.7 crashes if
	# a session is made while a control client identifies itself).
	until_ms 5000 helper_attached || fail "helper did not attach: $(info)"
}
# (at least one: every test's server has a session lisa should watch)
helper_attached() {
	_ha=$(info) || return 1
	[ "$(info_num sessions "$_ha")" = "$(info_num attached "$_ha")" ] &&
	    [ "$(info_num attached "$_ha")" -ge 1 ]
}
# The first "NAME": of lisa's JSON $2, in $_jv: a string's text (for
# strings that hold no quote: states, details, reasons, agents' names),
# else the number or word (null, true); 1 if there is none. No process:
# the waits look with it every few hundred ms (python was ~50 ms of CPU
# a look). lisa's pane JSON has its own fields before any nested object,
# and a quote inside a string is escaped, so the first match is the
# pane's own.
jstr() {
	_jv=${2#*\""$1"\":}
	[ "$_jv" != "$2" ] || { _jv=; return 1; }
	case $_jv in
	\"*) _jv=${_jv#\"}; _jv=${_jv%%\"*} ;;
	*) _jv=${_jv%%[,\}]*} ;;
	esac
}
# A top-level number of the helper's info ($2, else asked), by jstr:
# its top-level counters come before any nested object. Looked at in
# every wait for sessions. (names of its own: a test's loop may count
# in $i)
info_num() {
	_in=${2-$(info)}
	jstr "$1" "$_in"
	echo "$_jv"
}

# Wait (at most $1 ms, times SLOW) for the helper to exit; its status in
# HELPER_RC.
wait_helper_exit() {
	until_ms $(($1 * SLOW)) sh -c "! kill -0 $HELPER_PID" || return 1
	wait "$HELPER_PID"
	# shellcheck disable=SC2034 # the tests read it
	HELPER_RC=$?
	HELPER_PID=
}

# A process that has exited (a zombie too: kill -0 still finds it).
proc_gone() {
	! kill -0 "$1" 2>/dev/null || [ "$(ps -o stat= -p "$1" | cut -c1)" = Z ]
}

# (through the CLI: 4 ms of CPU where python took 40, on every look)
info() { L info --json; }

# One request to the helper socket (python: no extra tools needed).
socket_call() {
	python3 -c '
import socket, sys, glob, os
path = glob.glob(os.environ["XDG_RUNTIME_DIR"] + "/lisa/" + sys.argv[1] + "-*.sock")[0]
s = socket.socket(socket.AF_UNIX); s.connect(path)
s.sendall(sys.stdin.buffer.read())
data = b""
while not data.endswith(b"\n"):
    c = s.recv(65536)
    if not c: break
    data += c
sys.stdout.write(data.decode())' "$SOCK"
}

# The helper's timestamp (ms) of the first EVENT of PANE ("died", ...);
# fails if there is none.
event_ts() {
	L events --json | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if e["pane_id"] == sys.argv[1] and e["event"] == sys.argv[2]:
        print(e["ts_ms"]); sys.exit(0)
sys.exit(1)' "$1" "$2"
}

# How many of the helper's panes have the JSON text $1 (keys and values
# as lisa writes them, e.g. "state":"waiting_input"): each pane's keys
# are written once, its own before any nested object, and a quote inside
# a string is escaped, so the text is only ever a pane's field. No python:
# the waits over hundreds of agents looked with it, at ~200 ms of CPU a
# look at 300 panes. list_count_is TEXT N, list_count_ge TEXT N.
list_count() { echo $(($(L list --json | grep -o -- "$1" | wc -l))); }
list_count_is() { [ "$(list_count "$1")" -eq "$2" ]; }
list_count_ge() { [ "$(list_count "$1")" -ge "$2" ]; }

pane_json() { L list --json | jget "[p for p in d if p['pane_id']=='$1'][0]"; }
# (the pane's counters, flags and names of states without python: they
# are what the waits look at; agent_pid is signals.process's, the only
# one of that name)
pane_field() {
	case $2 in
	output_bytes|stream_*|resyncs|mutes|muted|tapped|dead|exit_status|\
	exit_signal|state|agent|incarnation|agent_pid)
		_pf=$(L status "$1" --json 2>/dev/null) && jstr "$2" "$_pf" &&
		    echo "$_jv" ;;
	*) L list --json | jget "[p for p in d if p['pane_id']=='$1'][0]['$2']" ;;
	esac
}
has_pane() { L list --json | grep -q "\"pane_id\":\"$1\""; }
pane_known() { has_pane "$1"; }

# A pane command that writes in raw mode (bytes pass unchanged) once it
# gets one key.
raw_writer() { echo "stty raw -echo; head -c 1 >/dev/null; $1; sleep 600"; }

# What lisa shows of a pane, a window, the server, as formats: a pane's
# fields are in its @lisa (the hidden head, plugin/shared/ui-compose.c), a
# window's worst rank and the counts are derived by lisa's own formats.
# (A field is taken with its '|', then that goes: tmux 3.3a's s/// makes
# an empty \1 into "1".)
# shellcheck disable=SC2034 # (the test files read it)
PANE_AGENT='#{s/^[^|]*[|]([^|]*[|]).*/\1/;s/[|]$//:@lisa}'
# shellcheck disable=SC2034 # (the test files read it)
PANE_STATE='#{s/^[^|]*[|][^|]*[|]([^|]*[|]).*/\1/;s/[|]$//:@lisa}'
# shellcheck disable=SC2034 # (the test files read it)
PANE_DETAIL='#{s/^[^|]*[|][^|]*[|][^|]*[|]([^|]*[|]).*/\1/;s/[|]$//:@lisa}'
# shellcheck disable=SC2034 # (the test files read it)
PANE_WD='#{s/^[^|]*[|][^|]*[|][^|]*[|][^|]*[|]([^|]*[|]).*/\1/;s/[|]$//:@lisa}'
# shellcheck disable=SC2034 # (the test files read it)
PANE_CTX='#{s/^[^|]*[|][^|]*[|][^|]*[|][^|]*[|][^|]*[|]([^|]*[|]).*/\1/;s/[|]$//:@lisa}'
# shellcheck disable=SC2034 # (the test files read it)
WINDOW_STATE='#{s/^a$/asking/;s/^b$/crashed/;s/^c$/stuck/;s/^d$/waiting_input/;s/^e$/degraded/;s/^f$/in_progress/;s/^g$/just_started/;s/^h$/completed/:#{E:@lisa_window_rank}}'

# What tmux shows for a format on a target is (within 2 s) the expected
# text: lisa writes options in batches, a few tens of ms after a verdict.
shows() { [ "$(T display -p -t "$1" "$2")" = "$3" ]; }
expect_shown() {
	until_ms 2000 shows "$1" "$2" "$3" ||
	    fail "$1: '$2' shows '$(T display -p -t "$1" "$2")', not '$3'"
}

wait_output() { [ "$(pane_field "$1" output_bytes)" -ge "$2" ]; }

# shellcheck source=/dev/null
. "$1"
"$2"

# Helpers for the tests that drive the fake agents (sourced).

FAKE="$ROOT/tests/fake"

# A fast clock for tests: grace 1 s, debounce 0.5 s, stale as given.
setup_agents() {
	# Before the server starts: panes inherit its environment.
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	start_server main
	# Under valgrind the helper can take a second to meet a new agent.
	T set -g @lisa-grace "${LISA_GRACE:-1}"
	T set -g @lisa-debounce 0.5
	T set -g @lisa-stale "${1:-120}"
	start_helper
}

# Start an agent as a pane's own process (as launchers do) in window N.
agent_window() {
	T new-window -d -t "main:$1" -n "$2" "$FAKE/$2 ${3:-}"
	T display -p -t "main:$1" '#{pane_id}'
}

# Window N runs the fake AGENT, at its prompt; its pane id.
agent_ready() {
	a=$(agent_window "$1" "$2")
	L wait "$a" --until waiting_input --timeout 30 >/dev/null ||
	    fail "no $2: $(L status "$a")"
	echo "$a"
}

# Pane $1 asks its permission; lisa read it.
ask() {
	T send-keys -t "$1" permission Enter
	until_ms 15000 state_is "$1" waiting_input permission "" ||
	    fail "$1: no dialog: $(L status "$1")"
}

# A bash with lisa's prompt marks (OSC 133) in window N, named $2.
marked_bash() {
	T new-window -d -t "main:$1" -n "${2:-shell}" "bash --norc"
	T send-keys -t "main:$1" "eval \"\$($LISA shell-init bash)\"" Enter
	T display -p -t "main:$1" '#{pane_id}'
}

# An agent in window N (named NAME, default the agent) that a test will
# crash: the pane's own process from tmux 3.3, where lisa keeps the dead
# pane (remain-on-exit failed); on 3.2a, where lisa keeps no dead pane
# (tmux #2828), run from a marked bash, so the crash stays to be shown.
crash_window() {
	if tmux_at_least 3 3; then
		T new-window -d -t "main:$1" -n "${3:-$2}" "$FAKE/$2"
		T display -p -t "main:$1" '#{pane_id}'
		return
	fi
	_p=$(marked_bash "$1" "${3:-$2}")
	T send-keys -t "$_p" "$FAKE/$2" Enter
	echo "$_p"
}

# Wait (pushed, via lisa wait) for STATE, then for DETAIL/REASON if given.
expect() {
	pane=$1 state=$2 detail=${3:-} reason=${4:-}
	L wait "$pane" --until "$state" --timeout 8 >/dev/null ||
	    lost_death_skip "$pane" ||
	    fail "$pane never reached $state: $(L status "$pane")
--- what the pane shows (last lines), and the agent's marks:
$(T capture-pane -p -t "$pane" 2>&1 | grep -v '^$' | tail -n 8)
$(tail -n 8 "${FAKE_AGENT_LOG:-/dev/null}" 2>/dev/null)
$(T list-clients -F '#{client_name} #{client_flags} #{session_name}' 2>&1)"
	[ -z "$detail$reason" ] && return 0
	until_ms 15000 state_is "$pane" "$state" "$detail" "$reason" ||
	    lost_death_skip "$pane" ||
	    fail "$pane: want $state/$detail/$reason, got: $(L status "$pane")"
}

# A state the pane passed through since epoch second $2, by the events
# log: a 3 s tool can be over before a poll of the status sees it (each
# poll starts python, slow beside CPU hogs).
passed_since() {
	L events --json --since "$(date -u -d "@$2" +%Y-%m-%dT%H:%M:%S)" |
	    python3 -c '
import json, sys
pane, state, detail, reason = sys.argv[1:5]
for line in sys.stdin:
    e = json.loads(line)
    if (e.get("pane_id") == pane and e.get("to") == state and
            (not detail or e.get("detail") == detail) and
            (not reason or e.get("reason") == reason)):
        sys.exit(0)
sys.exit(1)' "$1" "$3" "${4:-}" "${5:-}"
}
expect_passed() {
	until_ms 15000 passed_since "$@" ||
	    fail "$1 never $3/${4:-}/${5:-} since $2: $(L events --json | tail -n 5)"
}

state_is() {
	_st=$(L status "$1" --json 2>/dev/null) || return 1
	jstr state "$_st" || return 1
	s=$_jv
	# (a null as python's %s printed it, which the tests' words follow)
	for _f in detail reason; do
		jstr "$_f" "$_st" || return 1
		[ "$_jv" = null ] && _jv=None
		s="$s/$_jv"
	done
	case "$s" in
	"$2/$3/$4"|"$2/$3/"*) [ -z "$4" ] || [ "$s" = "$2/$3/$4" ] ;;
	*) return 1 ;;
	esac
}

# ms from the fake agent's last "WHAT" mark to the helper's transition into
# STATE (and DETAIL, if given) after it.
latency() {
	pane=$1 state=$2 what=$3 detail=${4:-}
	t0=$(grep " $what\$" "$FAKE_AGENT_LOG" | tail -n 1 | cut -d' ' -f1)
	[ -n "$t0" ] || { echo "?"; return; }
	L events --json --since "$(date -u -d @$((t0 / 1000)) +%Y-%m-%dT%H:%M:%S)" |
	    python3 -c "
import json, sys
t0 = $t0
for line in sys.stdin:
    e = json.loads(line)
    if e.get('pane_id') == '$pane' and e.get('to') == '$state' and e['ts_ms'] >= t0 - 5 \
       and (not '$detail' or e.get('detail') == '$detail'):
        print(e['ts_ms'] - t0); break
else:
    print('?')"
}

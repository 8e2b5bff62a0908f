# The watchdog on a compressed clock (stale 2 s, one level a second):
# levels from the time stalled, actions once each, and never against an
# agent that works (children, CPU) or is marked persistent.

. "$ROOT/tests/integration/agents.sh"

watchdog_setup() {
	setup_agents
	T set -g @lisa-watchdog on
	T set -g @lisa-watchdog-stale 2
	T set -g @lisa-watchdog-step 1
	[ -n "${1:-}" ] && T set -g @lisa-triage-command "$1"
	L reload >/dev/null
}

wd_events() {
	L events --json | python3 -c '
import json, sys
print(" ".join("%s:%s" % (e["level"], e["action"]) for e in map(json.loads, sys.stdin)
               if e["event"] == "watchdog" and e["pane_id"] == sys.argv[1]))' "$1"
}

test_watchdog_warn_nudge_triage_terminate() {
	triage="$TESTDIR/triage.sh"
	printf '#!/bin/sh\ncat > "%s/triage.in"\necho terminate\n' "$TESTDIR" >"$triage"
	chmod +x "$triage"
	watchdog_setup "$triage"
	out=$(L run --name hanger -- "$FAKE/claude")
	p=$(echo "$out" | cut -d' ' -f3)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 4000 shows "$p" '#{@lisa_watchdog}' warn || fail "no warn: $(wd_events "$p")"
	until_ms 8000 sh -c "'$LISA' -L '$SOCK' runs --json | grep -q '\"lifecycle\":\"finished\"'" ||
	    fail "not terminated: $(wd_events "$p")"
	ev=$(wd_events "$p")
	case "$ev" in
	"0:warn 1:nudge 2:triage 2:triage_decided"*) ;;
	*) fail "levels: $ev" ;;
	esac
	grep -q "Claude Code" "$TESTDIR/triage.in" || fail "triage got no screen: $(head -3 "$TESTDIR/triage.in")"
	t=$(L runs --json | jget "d[0]['termination']")
	[ "$(printf "%s\n" "$t" | jget "d['reason'] + '/' + d['terminated_by']")" = "terminated/daemon" ] ||
	    fail "termination: $t"
	note "watchdog: $ev"
}

test_watchdog_never_escalates_busy_agent() {
	watchdog_setup
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	# A tool (a child process) runs 6 s: silent, but alive.
	T send-keys -t "$p" 'tool 6' Enter
	expect "$p" in_progress tool
	sleep 5
	[ -z "$(wd_events "$p")" ] || fail "escalated a running tool: $(wd_events "$p")"
	expect "$p" waiting_input prompt
	# CPU work without a word for 6 s.
	T send-keys -t "$p" 'spin 6' Enter
	expect "$p" in_progress
	sleep 5
	[ -z "$(wd_events "$p")" ] || fail "escalated a busy CPU: $(wd_events "$p")"
	expect "$p" waiting_input
}

test_watchdog_leaves_persistent_pane_alone() {
	watchdog_setup
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T set -p -t "$p" @lisa-persistent on
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 5000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"action\":\"exempt\"'" ||
	    fail "no exempt event: $(wd_events "$p")"
	sleep 3
	ev=$(wd_events "$p")
	case "$ev" in
	*nudge*|*triage*|*terminate*) fail "acted on a persistent pane: $ev" ;;
	esac
	[ "$(T display -p -t "$p" '#{pane_dead}')" = 0 ] || fail "pane died"
}

test_watchdog_output_resets_level() {
	watchdog_setup
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 4000 shows "$p" '#{@lisa_watchdog}' warn || fail "no warn"
	# Any output is a sign of life.
	kill -WINCH "$(T display -p -t "$p" '#{pane_pid}')" 2>/dev/null
	T resize-window -t main:1 -x 150 2>/dev/null
	T send-keys -t "$p" x
	printf 'x' >"$(T display -p -t "$p" '#{pane_tty}')"
	until_ms 3000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"action\":\"reset\"'" ||
	    fail "no reset: $(wd_events "$p")"
	note "watchdog: $(wd_events "$p")"
}

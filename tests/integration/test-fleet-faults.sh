# The fleet through faults (issue 46, docs/fleet.md): stalls, sleeps and
# bad networks over the real loopback sshd (fleet.sh). After each, the
# host's agents here are its own, none lost or twice, and the events say
# what happened; while a host is not connected its agents are what we last
# saw, never shown as current.

. "$ROOT/tests/integration/fleet.sh"

# The host drops (sshd and its connections gone) and refuses for a
# minute: down, with ssh's reason; its agents kept as last seen, never as
# current (issue 46); back: connected again, resynchronised (what changed
# meanwhile, no duplicates, no stale panes), and the events say so.
test_fleet_host_down_and_back() {
	setup_fleet
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	expect_shown main '#{E:@lisa_n_waiting}' 1
	sshd_down
	t0=$(now_ms)
	until_ms 10000 hosts_are down down || fail "not down: $(L hosts)"
	# Its state and its reason from one look: a second look can fall in
	# a retry (connecting, no reason yet) once the 1 s backoff is over.
	until_ms 10000 down_with_reason ||
	    fail "down without a reason: $(cat "$TESTDIR/hosts.json")"
	reason=$(jget "d[0]['reason']" <"$TESTDIR/hosts.json")
	note "down: $reason"
	expect_shown main "#{E:@lisa_hosts_format}" "$H1:down $H2:down"
	# What we last saw of it: listed, not current, with when.
	seen=$(L list --json | jget "[(p['pane_id'], p['state'], p['current'], p['host_state'], bool(p['last_seen'])) for p in d if p['host']=='$H1' and p['state']]")
	case "$seen" in
	"[[\"$p\", \"waiting_input\", false, \"down\", true]]"|"[[\"$p\", \"waiting_input\", false, \"connecting\", true]]") ;;
	*) fail "the down host's agent: $seen" ;;
	esac
	L list | grep -E "^$p@$H1 .* last seen [0-9]+s ago: " >/dev/null ||
	    fail "lisa list: $(L list)"
	# Not counted, not among the places that wait.
	expect_shown main '#{E:@lisa_n_waiting}' ''
	case "$(T display -p '#{E:@lisa_places}')" in
	*"$p@"*) fail "a down host's agent among the places: $(T display -p '#{E:@lisa_places}')" ;;
	esac
	# A wait on it is not answered with what we last saw.
	L wait "$p@$H1" --until waiting_input --timeout 1 >/dev/null 2>&1 &&
	    fail "wait answered from a down host's last word"
	# The menu says it in a line of its own, not among those that ask.
	attach_outer
	O send-keys C-b a
	until_ms 10000 sh -c "tmux -L '$OUTER' capture-pane -p | grep -q 'Next agent'" ||
	    fail "no menu: $(O capture-pane -p)"
	screen=$(O capture-pane -p)
	printf '%s\n' "$screen" | grep -qE "$H1 (down|connecting): 1 agent last seen [0-9]+s ago" ||
	    fail "menu: $screen"
	printf '%s\n' "$screen" | grep -q "your turn\|asks you" && fail "shown as current: $screen"
	O send-keys q
	# Meanwhile the remote changes: one pane goes, another comes.
	R1 kill-pane -t "$p"
	R1 new-window -d -t work:2 -n claude "$FAKE/claude"
	q=$(R1 display -p -t work:2 '#{pane_id}')
	# sshd refuses for a minute (its port closed: refused at once).
	while [ $(($(now_ms) - t0)) -lt 60000 ]; do sleep 1; done
	L list --json | jget "[p['current'] for p in d if p['host']=='$H1' and p['state']]" |
	    grep -q true && fail "current while down: $(L list --json)"
	sshd_up
	# Backoff 1, 2, 4 ... 32 s: the try after the minute, at 63 s.
	until_ms 80000 hosts_are connected connected || fail "not back: $(L hosts)"
	expect_remote "$q" "$H1" waiting_input
	until_ms 10000 rpane_gone "$p" "$H1" || fail "the pane gone there is still here"
	n=$(L list --json | jget "len([p for p in d if p['host']=='$H1' and p['pane_id'] in ('$p', '$q')])")
	[ "$n" = 1 ] || fail "after the resync: $(L list --json | jget "[(p['pane_id'], p['host']) for p in d]")"
	[ "$(L hosts --json | jget "d[0]['connects']")" -ge 2 ] || fail "no reconnect counted"
	until_ms 10000 states_as_host r1 "$H1" ||
	    fail "states differ: the host $(host_states r1); here $(local_states "$H1")"
	# The events say what happened to the host.
	ev=$(L events)
	printf '%s\n' "$ev" | grep -q "$H1: connected -> down  " ||
	    fail "no down event: $(printf '%s\n' "$ev" | tail -n 8)"
	printf '%s\n' "$ev" | grep -q "$H1: connecting -> connected" ||
	    fail "no connected event: $(printf '%s\n' "$ev" | tail -n 8)"
}

# Issue 46: the ssh of a host stopped for a minute (a laptop's network
# stack, a debugger, kill -STOP): its agents' last states must not be
# shown as current meanwhile, and once it continues the host is checked
# (a ping through the bridge) and every state is the host's own again.
test_fleet_ssh_stopped_then_continued() {
	setup_fleet
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	expect_shown main '#{E:@lisa_n_waiting}' 1
	ssh_pid=$(host_ssh "$H1")
	[ -n "$ssh_pid" ] || fail "no ssh for $H1: $(pgrep -P "$HELPER_PID" -a)"
	t0=$(now_ms)
	kill -STOP "$ssh_pid"
	until_ms 20000 host_state_is "$H1" stalled ||
	    fail "not stalled: $(L hosts --json)"
	note "stalled $(($(now_ms) - t0)) ms after its ssh stopped"
	# Not current: not counted, said in the hosts' summary.
	expect_shown main '#{E:@lisa_n_waiting}' ''
	expect_shown main "#{E:@lisa_hosts_format}" "$H1:stalled $H2:0"
	# The agent works meanwhile, there.
	R1 send-keys -t "$p" 'work 2' Enter
	sleep 60
	kill -CONT "$ssh_pid"
	t1=$(now_ms)
	until_ms 10000 host_state_is "$H1" connected ||
	    fail "not back: $(L hosts --json)"
	note "connected again $(($(now_ms) - t1)) ms after its ssh continued"
	# Every state as the host has it, no agent lost or twice.
	until_ms 10000 states_as_host r1 "$H1" ||
	    fail "states differ: the host $(host_states r1); here $(local_states "$H1")"
	expect_shown main '#{E:@lisa_n_waiting}' 1
}

# Issue 46: the helper itself stopped (a laptop's sleep; kill -STOP here)
# checks every host as it wakes: a host whose bridge hangs (stopped
# there: sshd still answers ssh's keepalives, so ssh never gives up) is
# marked down within 5 s of the wake (4 s for the answer), with why; one
# that answers stays.
test_fleet_helper_woken_checks_every_host() {
	setup_fleet
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	bridge=$(pgrep -f -- "-L ${SOCK}r1 bridge" | head -n 1)
	[ -n "$bridge" ] || fail "no bridge for $H1: $(pgrep -a -f bridge)"
	kill -STOP "$bridge"
	kill -STOP "$HELPER_PID"
	sleep 2
	kill -CONT "$HELPER_PID"
	t0=$(now_ms)
	until_ms 8000 host_state_is "$H1" down ||
	    fail "not down after the wake: $(L hosts --json)"
	note "down $(($(now_ms) - t0)) ms after the wake: $(L hosts --json | jget "d[0]['reason']")"
	L hosts --json | jget "d[0]['reason']" | grep -q "no answer in 4 s to a check (the helper was stopped)" ||
	    fail "reason: $(L hosts --json)"
	host_state_is "$H2" connected || fail "$H2: $(L hosts --json)"
	kill -CONT "$bridge"
	# (a new connection, a new bridge: the host's agents again)
	until_ms 20000 host_state_is "$H1" connected || fail "not back: $(L hosts)"
	until_ms 10000 states_as_host r1 "$H1" ||
	    fail "states differ: the host $(host_states r1); here $(local_states "$H1")"
}

# Issue 46, bad networks: the ssh killed (an OOM killer, a user's pkill).
# Tried again at once (1 s backoff); what changed meanwhile comes back.
test_fleet_ssh_killed() {
	setup_fleet
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	ssh_pid=$(host_ssh "$H1")
	[ -n "$ssh_pid" ] || fail "no ssh for $H1"
	kill -KILL "$ssh_pid"
	R1 send-keys -t "$p" 'work 2' Enter
	fleet_agreed down
	expect_remote "$p" "$H1" waiting_input 15000
}

# What ssh (or the user's wrapper) said while it connected is no reason
# for an end an hour later: killed, the host is down because the
# connection closed, not with that old line.
test_fleet_down_reason_is_of_its_end() {
	setup_fleet
	printf '#!/bin/sh\necho "wrapper: a note while connecting" >&2\nexec ssh -F %s/config "$@"\n' \
	    "$S" >"$TESTDIR/noisy-ssh"
	chmod +x "$TESTDIR/noisy-ssh"
	old=$(host_ssh "$H1")
	T set -g @lisa-ssh-command "$TESTDIR/noisy-ssh"
	L reload >/dev/null || fail "lisa reload failed"
	new_ssh() { s=$(host_ssh "$H1"); [ -n "$s" ] && [ "$s" != "$old" ]; }
	until_ms 20000 new_ssh || fail "not connected again through the wrapper"
	until_ms 20000 hosts_are connected connected || fail "not back: $(L hosts)"
	L hosts --json | jget "d[0]['reason']" | grep -q wrapper &&
	    fail "connected, said with the wrapper's note: $(L hosts)"
	kill -KILL "$(host_ssh "$H1")"
	until_ms 10000 sh -c "$LISA -L $SOCK events | grep -q '$H1: connected -> down'" ||
	    fail "no down event: $(L events | tail -n 5)"
	ev=$(L events | grep "$H1: connected -> down" | tail -n 1)
	note "$ev"
	case "$ev" in
	*wrapper*) fail "down with what was said at its start: $ev" ;;
	*"the connection closed"*) ;;
	*) fail "down, said as: $ev" ;;
	esac
}

# The helper there killed: its bridge ends, so does the connection; the
# next bridge starts a helper, which finds the agents again.
test_fleet_remote_helper_killed() {
	setup_fleet
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	rh=$(pgrep -f -- "lisad -S .*/${SOCK}r1\$" | head -n 1)
	[ -n "$rh" ] || fail "no helper there: $(pgrep -a -f lisad)"
	kill -KILL "$rh"
	fleet_agreed down
	[ "$(pgrep -f -- "lisad -S .*/${SOCK}r1\$" | head -n 1)" != "$rh" ] ||
	    fail "the same helper"
}

# The tmux server there killed and started again: its panes are gone
# (never kept as last seen past the resync), its new agents come.
test_fleet_remote_tmux_restarted() {
	setup_fleet
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	R1 new-window -d -t work:2 -n claude "$FAKE/claude"
	p2=$(R1 display -p -t work:2 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	expect_remote "$p2" "$H1" waiting_input
	R1 kill-server
	until_ms 10000 sh -c "! $LISA -L $SOCK hosts --json | grep -q '\"connected\".*\"connected\"'" ||
	    fail "still connected: $(L hosts)"
	sleep 2	# (a few refused tries: no server there)
	R1 new-session -d -s work -x 120 -y 40 sh
	R1 set -g @lisa-grace 1
	R1 set -g @lisa-debounce 0.5
	R1 new-window -d -t work:3 -n claude "$FAKE/claude"
	q=$(R1 display -p -t work:3 '#{pane_id}')
	fleet_agreed down 40000
	expect_remote "$q" "$H1" waiting_input
	[ "$(L list --json | jget "len([p for p in d if p['host']=='$H1' and p['state']])")" = 1 ] ||
	    fail "agents of the old server kept: $(L list --json)"
}

# Issue 46: a network that drops half of a message (fleet.sh's proxy_host:
# mid-packet, mid-line). Nothing half read is taken as a pane.
test_fleet_proxy_cuts_mid_line() {
	setup_fleet
	proxy_host
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	# Cut while its agent works: the lines of its states are under way.
	: >"$TESTDIR/cut"
	R1 send-keys -t "$p" 'work 3' Enter
	until_ms 20000 test -s "$TESTDIR/cut.log" || fail "nothing cut"
	note "$(cat "$TESTDIR/cut.log")"
	fleet_agreed down
	expect_remote "$p" "$H1" waiting_input 15000
	n=$(L list --json | jget "len([p for p in d if p['host']=='$H1'])")
	[ "$n" = "$(R1 list-panes -a | wc -l)" ] ||
	    fail "panes: here $n, there $(R1 list-panes -a | wc -l): $(L list --json)"
	kill -0 "$HELPER_PID" || fail "helper died"
}

# Issue 46: the wall clock stepped (what a resume from suspend does too,
# Linux's timerfd says both): every host is checked as after a wake. Root
# sets the clock to what it is (a step of a millisecond or so, back).
test_fleet_clock_step_checks_every_host() {
	[ "$SYSTEM" = linux ] || skip "a clock step is heard on Linux only"
	[ "$(id -u)" = 0 ] || skip "setting the clock needs root"
	setup_fleet
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	bridge=$(pgrep -f -- "-L ${SOCK}r1 bridge" | head -n 1)
	[ -n "$bridge" ] || fail "no bridge for $H1"
	kill -STOP "$bridge"
	date -s "@$(date +%s.%N)" >/dev/null 2>&1 ||
	    { kill -CONT "$bridge"; skip "cannot set the clock here (no CAP_SYS_TIME)"; }
	t0=$(now_ms)
	until_ms 8000 host_state_is "$H1" down ||
	    { kill -CONT "$bridge"; fail "not down after the step: $(L hosts --json)"; }
	note "down $(($(now_ms) - t0)) ms after the step"
	L hosts --json | jget "d[0]['reason']" | grep -q "(the clock jumped" ||
	    { kill -CONT "$bridge"; fail "reason: $(L hosts --json)"; }
	host_state_is "$H2" connected || fail "$H2: $(L hosts --json)"
	kill -CONT "$bridge"
	fleet_agreed down
}

# Issue 46: a network gone silent (Wi-Fi lost: nothing closes, nothing
# arrives; fleet.sh's proxy_host holds every byte). Within 20 s of the
# stall the host is no longer shown connected and its agents are last
# seen (ssh's keepalive: 4 s, three missed); the next connection, once
# the network is back, brings the host's word again.
test_fleet_network_silent_shown_within_20s() {
	setup_fleet
	proxy_host
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	: >"$TESTDIR/hold"
	t0=$(now_ms)
	# (the agent goes on there; nothing of it arrives)
	R1 send-keys -t "$p" 'work 2' Enter
	not_connected() { ! host_state_is "$H1" connected; }
	until_ms 25000 not_connected ||
	    fail "still connected 25 s into the silence: $(L hosts)"
	ms=$(($(now_ms) - t0))
	note "not connected $ms ms into the silence: $(L hosts --json | jget "[h['state'] + ': ' + h['reason'] for h in d if h['host'] == '$H1'][0]")"
	[ "$ms" -le 21000 ] || fail "$ms ms: past 20 s"
	[ "$(rfield "$p" "$H1" current)" = false ] ||
	    fail "shown as current: $(L list --json)"
	expect_shown main '#{E:@lisa_n_waiting}' ''
	rm -f "$TESTDIR/hold"
	fleet_agreed down 40000
	expect_remote "$p" "$H1" waiting_input 15000
}

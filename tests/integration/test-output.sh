# %output: what a pane writes reaches the helper byte for byte.


# Tap the pane for N bytes, release the writer, compare.
# (stty works on its stdin everywhere; -F and -f are each one system's)
tty_raw() { stty -a <"$1" | grep -Eq '(^|[ ;])-echo([ ;]|$)'; }
is_tapped() { [ "$(pane_field "$1" tapped)" = true ]; }

tap_compare() {
	file=$1 n=$2
	p=$(T display -p -t main:0 '#{pane_id}')
	until_ms 2000 pane_known "$p" || fail "pane unknown"
	# The writer waits for a key in raw mode (no echo), and the tap is
	# in place, before the key: not after fixed sleeps, which a loaded
	# machine outran (the tap came after the 256 KB had gone).
	until_ms 10000 tty_raw "$(T display -p -t "$p" '#{pane_tty}')" ||
	    fail "the writer's tty is not raw"
	L tap "$p" --bytes "$n" >"$TESTDIR/got" &
	tap=$!
	until_ms 10000 is_tapped "$p" || fail "the tap is not in place: $(pane_json "$p")"
	T send-keys -t "$p" x
	t0=$(now_ms)
	i=0
	while kill -0 $tap 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 3000 ] && { kill $tap; fail "tap did not finish: $(wc -c <"$TESTDIR/got") of $n bytes"; }
		sleep 0.01
	done
	wait $tap
	note "$n bytes through tmux -C in $(($(now_ms) - t0)) ms"
	cmp "$file" "$TESTDIR/got" || fail "bytes differ"
}

test_output_1mb_printable_exact() {
	LC_ALL=C tr -dc '[:print:]' </dev/urandom | head -c 1048576 >"$TESTDIR/src"
	start_server main "$(raw_writer "cat $TESTDIR/src")"
	start_helper
	tap_compare "$TESTDIR/src" 1048576
}

test_output_binary_exact() {
	# Every byte value, UTF-8 cut anywhere, escape sequences split.
	head -c 262144 /dev/urandom >"$TESTDIR/src"
	start_server main "$(raw_writer "cat $TESTDIR/src")"
	start_helper
	tap_compare "$TESTDIR/src" 262144
}

# %pause: tmux stops sending a pane's output to us (it does this on its own
# once our backlog is older than pause-after). Pause it from outside, for
# lisa's client only; the helper must continue the pane and re-read its
# screen.
test_pause_continue_and_resync() {
	start_server main
	start_helper
	p=$(T display -p -t main:0 '#{pane_id}')
	until_ms 2000 pane_known "$p" || fail "pane unknown"
	client=$(T list-clients -F '#{client_name} #{client_control_mode}' | awk '$2 == 1 { print $1; exit }')
	[ -n "$client" ] || fail "no control client"
	T send-keys -t "$p" 'echo before-pause' Enter
	T refresh-client -t "$client" -A "$p:pause"
	until_ms 2000 sh -c "'$LISA' -L '$SOCK' events | grep -q '$p *resync'" ||
	    fail "no resync after %pause: $(L events)"
	# Continued: new output reaches the helper again.
	b1=$(pane_field "$p" output_bytes)
	T send-keys -t "$p" 'echo after-continue' Enter
	until_ms 2000 wait_output "$p" $((b1 + 10)) || fail "pane still paused"
	[ "$(pane_field "$p" resyncs)" = 1 ] || fail "resyncs: $(pane_field "$p" resyncs)"
}

output_beyond() { [ "$(pane_field "$1" output_bytes)" -gt "$2" ]; }

# The writer rewrites the file each loop: retry an empty read.
read_count() { c=; while [ -z "$c" ]; do c=$(cat "$1"); done; echo "$c"; }

# A helper that stalls (SIGSTOP) while a pane floods: once it runs again it
# catches up (tmux pauses and drops our backlog if it is older than 1 s, and
# the helper resyncs) and output flows. tmux 3.3a checks that age only when
# it writes to the client, so a helper that reads nothing at all can hold a
# pane watched only by control clients; lisad never stops reading.
test_flood_after_helper_stall() {
	cnt="$TESTDIR/count"
	# An agent's pane (a pane without one would be muted: pane-mute.c).
	mkdir -p "$TESTDIR/bin"
	printf '#!/bin/sh\n%s\n' "$(raw_writer "i=0; while :; do i=\$((i+1)); echo \$i >$cnt; cat /etc/services; done")" >"$TESTDIR/bin/claude"
	chmod +x "$TESTDIR/bin/claude"
	start_server main "$TESTDIR/bin/claude"
	start_helper
	p=$(T display -p -t main:0 '#{pane_id}')
	until_ms 2000 pane_known "$p" || fail "pane unknown"
	T send-keys -t "$p" x
	sleep 0.3
	kill -STOP "$HELPER_PID"
	sleep 1.5
	c1=$(read_count "$cnt")
	sleep 1
	c2=$(read_count "$cnt")
	kill -CONT "$HELPER_PID"
	sleep 0.5
	b1=$(pane_field "$p" output_bytes)
	# (muted part of each second while it floods: pane-mute.c)
	until_ms 3000 output_beyond "$p" "$b1" || fail "output not flowing after the stall"
	note "while stopped the writer looped $((c2 - c1)) times; resyncs after: $(pane_field "$p" resyncs)"
	return 0
}

# Agents that start with no word but their screen (a shell that execs
# one keeps the pane's process; here no title, no session file, no
# window rename either), drawn once, then quiet.
quiet_agent_env() {
	export HOME="$TESTDIR/home" FAKE_AGENT_LOG="$TESTDIR/agent.log"
	export FAKE_AGENT_NO_SESSION=1 FAKE_AGENT_NO_TITLE=1
	mkdir -p "$HOME"
	start_server main
	T set -g automatic-rename off
	start_helper
}
is_claude() { [ "$(pane_field "$1" agent)" = claude ]; }
drawn() { T capture-pane -p -t "$1" | grep -q 'for shortcuts'; }

# Its screen within the second after output that brought a look (at
# most one a second while output flows, for a pane with no agent): that
# look saw the shell, and the bytes after it brought none.
test_agent_exec_within_a_second_of_output_is_seen() {
	quiet_agent_env
	# (a loop of the shell's own, no child: a child is looked at again
	# when it comes of age, which would find the agent by itself)
	T new-window -d -t main:1 "until [ -e '$TESTDIR/go' ]; do sleep 0.05; done; echo tick; i=0; while [ \$i -lt 30000 ]; do i=\$((i + 1)); done; exec '$ROOT/tests/fake/claude'"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 5000 pane_known "$p" || fail "pane unknown"
	sleep 1.5	# (no longer young: no look of its own to come)
	: >"$TESTDIR/go"
	until_ms 10000 drawn "$p" || fail "no prompt drawn"
	until_ms 10000 is_claude "$p" || fail "agent not seen: $(L status "$p")"
}

# Its screen dropped by tmux (we fell behind: %pause): the resync re-read
# the screen but did not look for an agent. The pane is paused for lisa's
# client while the helper is stopped (so that it cannot continue it at
# once), then the agent draws, which tmux does not send us.
test_agent_started_while_output_dropped_is_seen() {
	quiet_agent_env
	T new-window -d -t main:1 "until [ -e '$TESTDIR/go' ]; do sleep 0.05; done; exec '$ROOT/tests/fake/claude'"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 5000 pane_known "$p" || fail "pane unknown"
	client=$(T list-clients -F '#{client_name} #{client_control_mode}' | awk '$2 == 1 { print $1; exit }')
	[ -n "$client" ] || fail "no control client"
	sleep 1.5	# (no longer young: no look of its own to come)
	kill -STOP "$HELPER_PID"
	T refresh-client -t "$client" -A "$p:pause"
	: >"$TESTDIR/go"
	until_ms 10000 drawn "$p" || { kill -CONT "$HELPER_PID"; fail "no prompt drawn"; }
	kill -CONT "$HELPER_PID"
	until_ms 10000 sh -c "'$LISA' -L '$SOCK' events | grep -q '$p *resync'" ||
	    fail "no resync: $(L events)"
	until_ms 10000 is_claude "$p" || fail "agent not seen: $(L status "$p")"
}

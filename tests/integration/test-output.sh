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

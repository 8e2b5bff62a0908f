# Faults: the server killed mid-burst, the helper killed and restarted,
# session churn, a 1 GB flood, agents' files replaced by garbage or links.

. "$ROOT/tests/integration/agents.sh"

# A pane that writes text as fast as it can, BYTES in all, then records
# how long it took (seconds) in FILE.
flood_cmd() {
	printf '%s\n' "python3 -c 'import os,time
b=(b\"x\"*79+b\"\\n\")*820
n=0;t=time.time()
while n<$1: n+=os.write(1,b)
open(\"$2.tmp\",\"w\").write(\"%.3f\"%(time.time()-t)); os.rename(\"$2.tmp\",\"$2\")
time.sleep(600)'"
}

fd_count() { ls "/proc/$1/fd" | wc -l; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }

# kill -9 of the server while four panes flood: the helper exits cleanly
# and leaves nothing that stops the next server's helper.
test_server_sigkilled_mid_burst() {
	start_server main "$(flood_cmd 4000000000 "$TESTDIR/never")"
	for i in 1 2 3; do
		T new-window -d "$(flood_cmd 4000000000 "$TESTDIR/never")"
	done
	start_helper
	p=$(T display -p -t main:0 '#{pane_id}')
	# Mid-burst: output is flowing to the helper. (Four flooders, tmux
	# and the helper share the machine with whatever else runs: beside
	# CI's three suites 1 MB took over 20 s, on an idle machine 1.1 s.)
	t0=$(now_ms)
	until_ms 60000 wait_output "$p" 262144 ||
	    fail "no burst seen in 60 s: $(pane_field "$p" output_bytes) bytes"
	note "burst after $(($(now_ms) - t0)) ms: $(pane_field "$p" output_bytes) bytes"
	kill -9 "$(T display -p '#{pid}')"
	t0=$(now_ms)
	wait_helper_exit 2000 || fail "helper still running 2 s after SIGKILL of server"
	note "helper exited $HELPER_RC, $(($(now_ms) - t0)) ms after kill -9 of the server mid-burst"
	[ $HELPER_RC -eq 0 ] || fail "exit status $HELPER_RC: $(tail -5 "$TESTDIR/lisad.err")"
	ls "$XDG_RUNTIME_DIR/lisa/"*.sock 2>/dev/null && fail "socket left behind"
	# tmux leaves its own socket file behind; the next server reuses it.
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	pkill -f "$TESTDIR/never" 2>/dev/null
	start_server again
	start_helper
	[ "$(info | jget "d['sessions']")" = 1 ] || fail "new helper: $(info)"
}

# kill -9 of the helper: a new one rebuilds every verdict from tmux and the
# agents, installs its hooks and UI once (not on top of the dead one's),
# and on stop still gives back what the user had.
test_helper_sigkilled_restarted() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g remain-on-exit on
	T set -g status-right 'mine #{lisa_status}'
	start_helper
	a=$(agent_window 1 claude)
	b=$(agent_window 2 codex)
	c=$(agent_window 3 claude)
	expect "$a" waiting_input prompt
	expect "$c" waiting_input prompt
	T send-keys -t "$b" 'work 60' Enter
	expect "$b" in_progress
	hooks1=$(T show-hooks -g; T show-hooks -gw)
	sr1=$(T show -gv status-right)
	# session-created, and pane-died from 3.3 (3.2a: none, tmux #2828).
	nhooks=1
	tmux_at_least 3 3 && nhooks=2
	[ "$(echo "$hooks1" | grep -c 5472)" -ge $nhooks ] || fail "hooks: $hooks1"

	kill -9 "$HELPER_PID"
	wait "$HELPER_PID" 2>/dev/null
	HELPER_PID=
	# While no helper runs, one agent crashes.
	T send-keys -t "$c" 'exit 3' Enter
	until_ms 3000 shows "$c" '#{pane_dead}' 1 || fail "agent did not exit"
	lost_death_skip "$c"
	start_helper
	expect "$a" waiting_input prompt
	expect "$b" in_progress
	expect "$c" crashed
	expect_shown "$a" "$PANE_STATE" waiting_input
	expect_shown "$b" "$PANE_STATE" in_progress
	expect_shown "$c" "$PANE_STATE" crashed
	L status "$c" | grep -q 'exit 3' || fail "exit code lost: $(L status "$c")"
	hooks2=$(T show-hooks -g; T show-hooks -gw)
	[ "$hooks1" = "$hooks2" ] || fail "hooks changed: $hooks1 // $hooks2"
	[ "$(T show -gv status-right)" = "$sr1" ] ||
	    fail "status-right: $(T show -gv status-right), was $sr1"
	L stop >/dev/null
	wait_helper_exit 3000 || fail "helper did not stop"
	[ "$(T show -gv status-right)" = 'mine #{lisa_status}' ] ||
	    fail "status-right not given back: $(T show -gv status-right)"
	T show-hooks -g | grep -q 5472 && fail "hooks left: $(T show-hooks -g)"
	return 0
}

# Sessions made and killed at once, 200 times: tmux 3.3a crashes if a
# session closes while a control client identifies itself, so the helper's
# clients identify through its relay (tmux-proxy.c).
# long: sessions by the hundred
test_session_churn_instant_kill() {
	start_server main
	cheap_sessions
	start_helper
	for i in $(seq 1 200); do
		T new-session -d -s "c$i" || fail "new-session $i: server gone"
		T kill-session -t "c$i" || fail "kill-session $i: server gone"
	done
	T has-session -t main || fail "server gone"
	# (10 s: beside a cold generic build the last of 200 clients was
	# still there after 3)
	until_ms 10000 one_session ||
	    fail "sessions: $(info); clients: $(pgrep -a -P "$HELPER_PID" -f -- " -C attach-session ")"
	kill -0 "$HELPER_PID" || fail "helper died"
}

one_session() { [ "$(info_num sessions)" = 1 ] &&
    [ "$(pgrep -c -P "$HELPER_PID" -f -- " -C attach-session ")" = 1 ]; }

# 700 sessions, 50 at a time: each attached by the helper (a control
# client each), then killed. Afterwards the helper holds no more file
# descriptors or memory than before.
# long: 700 sessions one after another (minutes)
test_session_churn_leaks_nothing() {
	start_server main
	cheap_sessions
	# Pane ids to four digits (the events in the ring name them), before
	# the helper: panes with no process (split-window ''), so no shell,
	# no utempter (a session each here cost 48 ms of CPU, a third of the
	# test's). Session ids are in no event.
	j=0
	while [ $j -lt 1000 ]; do
		echo "split-window -d -t main:0 '' ; kill-pane -t main:0.1"
		j=$((j + 1))
	done >"$TESTDIR/prefill.tmux"
	T source-file "$TESTDIR/prefill.tmux" || fail "prefill"
	[ "$(T split-window -d -P -F '#{pane_id}' -t main:0 '')" = %1001 ] ||
	    fail "pane ids not at four digits"
	T kill-pane -t main:0.1
	# The ring of the last 1024 events full before the churn is measured,
	# of the churn's own two kinds and sizes (its lines are loaded from
	# the file a helper before left): 512 sessions' worth written here
	# rather than churned (that was 550 sessions, half the test's time).
	# The server's key is in the line `lisa stop` leaves.
	start_helper
	L stop >/dev/null || fail "lisa stop"
	wait_helper_exit 10000 || fail "helper did not stop"
	ev=$(echo "$XDG_RUNTIME_DIR"/lisa/*.events.jsonl)
	key=$(sed -n 's/.*"event":"helper_stopped","server":"\([^"]*\)".*/\1/p' "$ev")
	[ -n "$key" ] || fail "no server key: $(cat "$ev")"
	awk -v key="$key" -v ms="$(now_ms)" 'BEGIN {
		for (i = 0; i < 512; i++) {
			h = "{\"ts\":\"2026-11-30T14:36:43.959Z\",\"ts_ms\":" ms \
			    ",\"pane_id\":\"%" (2100 + i) "\",\"event\":"
			print h "\"ended\",\"server\":\"" key "\",\"detail\":" \
			    "\"with tmux: sh (as tmux closed it)\"}"
			print h "\"closed\",\"server\":\"" key "\",\"detail\":\"sh\"}"
		}
	}' >>"$ev"
	# malloc's per-thread cache counts as in use: off, so heap_bytes is
	# exactly what the helper holds.
	export GLIBC_TUNABLES=glibc.malloc.tcache_count=0
	start_helper
	unset GLIBC_TUNABLES
	[ "$(L events --json | grep -c '"detail":"sh"}')" -ge 512 ] ||
	    fail "the ring not filled: $(L events | tail -n 3)"
	churn() {
		i=0
		while [ $i -lt "$1" ]; do
			args=
			# (names of one width, with no process: c10000-101)
			for j in $(seq 101 150); do
				args="$args new-session -d -s c$((10000 + i))-$j ;"
			done
			# shellcheck disable=SC2086
			T $args >/dev/null
			# Each new session waits for its hook (run-shell, one at a
			# time in tmux); beside builds and CPU hogs 50 took ~60 s.
			until_ms 180000 attached_are 51 || fail "not attached: $(info)"
			args=
			for j in $(seq 101 150); do
				args="$args kill-session -t c$((10000 + i))-$j ;"
			done
			# shellcheck disable=SC2086
			T $args >/dev/null
			until_ms 90000 one_session || fail "not let go: $(info)"
			i=$((i + 50))
		done
	}
	attached_are() { [ "$(info_num attached)" = "$1" ]; }
	# Each session's control client going fires the client-detached
	# hook: a `lisa _hook` connection in flight is not a leak. Counted
	# once none runs and the count holds for 300 ms.
	fds_settled() {
		! pgrep -f "_hook $XDG_RUNTIME_DIR" >/dev/null || return 1
		a=$(fd_count "$HELPER_PID"); sleep 0.3
		[ "$a" = "$(fd_count "$HELPER_PID")" ]
	}
	# Before the count: buffers grown to what 50 sessions at once take,
	# and the heap past its first slow rise (seen settled, from 100
	# sessions: +1.1 kB in the next 250, +0.5 kB in the 250 after; from
	# 200: +0.9 and +0.2; then under a byte a session, not understood).
	churn 200
	until_ms 30000 fds_settled || fail "hooks still running: $(pgrep -fa _hook)"
	fd0=$(fd_count "$HELPER_PID") rss0=$(rss_kb "$HELPER_PID")
	heap0=$(info | jget "d['heap_bytes']")
	start=$(now_ms)
	# Two halves of 250 (1050 sessions in all): beside a second suite the
	# whole took 7.6 minutes with halves of 500.
	churn 250
	# (settled, as the two ends are: hooks and commands in flight at a
	# batch's end hold ~6 kB, more than a leak of 8 bytes a session)
	until_ms 30000 fds_settled || fail "hooks still running: $(pgrep -fa _hook)"
	heapm=$(info | jget "d['heap_bytes']") rssm=$(rss_kb "$HELPER_PID")
	churn 250
	until_ms 30000 fds_settled || fail "hooks still running: $(pgrep -fa _hook)"
	# A leak stays; a hook's connection or a command in flight (tmux runs
	# the hooks one at a time, late on a busy machine) goes: the count
	# comes back to what it was.
	# (the count read again until it is back: a hook's connection can
	# come between a look that saw it back and the next)
	t1=$(now_ms)
	fd1=$(fd_count "$HELPER_PID")
	while [ "$fd1" -gt "$fd0" ] && [ $(($(now_ms) - t1)) -lt 30000 ]; do
		sleep 0.2
		fd1=$(fd_count "$HELPER_PID")
	done
	rss1=$(rss_kb "$HELPER_PID")
	heap1=$(info | jget "d['heap_bytes']")
	note "500 sessions (after 200) attached and let go in $(($(now_ms) - start)) ms: fds $fd0 -> $fd1, heap in use $heap0 -> $heapm -> $heap1 bytes, RSS $rss0 -> $rssm -> $rss1 kB"
	[ "$fd1" -le "$fd0" ] || fail "fds grew: $fd0 -> $fd1 ($(ls -l /proc/$HELPER_PID/fd))"
	# A leak of even 8 bytes a session would show as 2 kB in each half.
	# A buffer that grows once (by a doubling, on some tmux versions: the
	# helper starts from a different size) shows in one half only. (Under
	# ASan heap_bytes is 0 and LeakSanitizer checks at exit instead.)
	if [ "$heapm" -gt $((heap0 + 1536)) ] && [ "$heap1" -gt $((heapm + 1536)) ]; then
		fail "heap grew in both halves: $heap0 -> $heapm -> $heap1 bytes"
	fi
	[ "$heap1" -le $((heap0 + 65536)) ] || fail "heap grew: $heap0 -> $heap1 bytes"
	# RSS also counts the allocator's fragmentation: bounded, not zero.
	# (ASan's allocator quarantines freed memory: no bound there.) Where
	# the heap in use is not known (-1: no mallinfo2, the generic
	# backend) RSS is all there is: a leak grows it in both halves.
	if [ "$heap0" = -1 ]; then
		# RSS alone cannot tell a leak from the allocator's high
		# water (ps snapshots sized by how many processes there were):
		# said, not judged. (The same code's heap is checked on Linux.)
		note "no heap figure on this backend: RSS $rss0 -> $rssm -> $rss1 kB, not judged"
	elif [ "$heap0" != 0 ]; then
		# The allocator's high water moves by a burst's worth, and a
		# busier machine reads bigger bursts (seen: +20 to +540 kB in
		# the first half, +36 in the second; beside builds +212 then
		# +164, the heap in use +976 and +464 bytes): it rises less
		# each time. A leak grows RSS in both halves, and no less in
		# the second (the heap in use, above, is the leak's own
		# measure: 8 bytes a session shows there).
		if [ "$rssm" -gt $((rss0 + 128)) ] &&
		    [ $((rss1 - rssm)) -ge $((rssm - rss0)) ]; then
			fail "RSS grew in both halves: $rss0 -> $rssm -> $rss1 kB"
		fi
		[ "$rss1" -le $((rss0 + 2048)) ] || fail "RSS grew: $rss0 -> $rss1 kB"
	fi
	kill -0 "$HELPER_PID" || fail "helper died"
}

# A pane writes 256 MiB as fast as it can, nobody attached: in a plain
# pane, then in an agent's pane, on lisa's server, while the same flood
# runs at the same time on a second server without lisa - so a busy
# machine slows both alike and the two times compare within one run. With
# only control clients attached, tmux 3.3a reads a pane no faster than it
# can printf each byte to them; the helper mutes floods (pane-mute.c), so
# the writer keeps its pace, and keeps answering while it decodes.
# It compares two writers' times, and beside other tests that do not
# hold: with five others on Linux the plain writer was faster with lisa
# (17.5 s against 25.1) and the agent's slower (23.0 against 13.2); on the
# generic backend beside four others one answer took 3.8 s. It runs
# alone, after the others (itself two CPU hogs for a minute).
# serial: its figures are two writers' times, which other tests bend
# long: a flood for a minute
test_flood_detached() {
	# (1 GiB took 6 minutes of CI beside the suite under ASan)
	gib=268435456
	bare="${SOCK}b"
	trap 'tmux -L "$bare" kill-server 2>/dev/null; cleanup' EXIT
	mkdir -p "$TESTDIR/bin"
	# (not exec: the agent stays, its flood is its tool)
	printf '#!/bin/sh\npython3 -c "$(cat "$0.py")" "$@"\n' >"$TESTDIR/bin/claude"
	cat >"$TESTDIR/bin/claude.py" <<'PY'
import os, sys, time
b = (b"x" * 79 + b"\n") * 820
n = 0; t = time.time(); total = int(sys.argv[1]); f = sys.argv[2]
while n < total:
    n += os.write(1, b)
open(f + ".tmp", "w").write("%.3f" % (time.time() - t)); os.rename(f + ".tmp", f)
time.sleep(600)
PY
	chmod +x "$TESTDIR/bin/claude"
	start_server main
	tmux -L "$bare" -f /dev/null new-session -d -s bare -x 200 -y 50
	# The flood lasts 6-8 s: inside the default 10 s grace a new agent is
	# rightly just_started throughout (and the check below had nothing to
	# see); 2 s leaves it time to be judged while it floods.
	T set -g @lisa-grace 2
	start_helper
	# A second try where the first was slowed: beside CI's other suites
	# (ASan's and valgrind's on the two CPUs) the plain writer with lisa
	# took 17.65 s against 10.32 s once, when the CPUs that tmux's extra
	# work for a control client takes were not free at that moment. A
	# cost of lisa's slows every try; a neighbour's burst passes.
	for kind in plain agent plain-again agent-again; do
		case $kind in
		*-again) [ -f "$TESTDIR/slowed-${kind%-again}" ] || continue ;;
		esac
		if [ ${kind%-again} = plain ]; then
			T new-window -d -t main:1 "$(flood_cmd $gib "$TESTDIR/t-$kind")"
		else
			T new-window -d -t main:1 "$TESTDIR/bin/claude $gib $TESTDIR/t-$kind"
		fi
		tmux -L "$bare" new-window -d -t bare:1 "$(flood_cmd $gib "$TESTDIR/t0-$kind")"
		p=$(T display -p -t main:1 '#{pane_id}')
		status_latencies "$TESTDIR/t-$kind" >"$TESTDIR/lat-$kind" ||
		    fail "status requests: $(cat "$TESTDIR/lat-$kind")"
		test -s "$TESTDIR/t-$kind" || fail "$kind flood with lisa did not end"
		until_ms 400000 test -s "$TESTDIR/t0-$kind" ||
		    fail "$kind flood without lisa did not end"
		t=$(cat "$TESTDIR/t-$kind")
		t_without=$(cat "$TESTDIR/t0-$kind")
		read -r n p50 p99 max states <"$TESTDIR/lat-$kind"
		note "256 MiB, $kind pane, both at once: $t_without s without lisa, $t s with; lisa list: $n requests, p50 $p50 p99 $p99 max $max ms; $(pane_field "$p" mutes) flood mutes, $(pane_field "$p" stream_mutes) stream mutes; agent states seen: $states"
		if ! python3 -c "import sys; sys.exit(0 if float(sys.argv[2]) <= float(sys.argv[1]) * 1.5 + 2 else 1)" "$t_without" "$t"; then
			case $kind in
			*-again) fail "${kind%-again}: the writer was slowed twice: $(cat "$TESTDIR/slowed-${kind%-again}"), then $t_without s -> $t s" ;;
			esac
			echo "$t_without s -> $t s" >"$TESTDIR/slowed-$kind"
			note "$kind: the writer was slowed ($t_without s -> $t s): once more"
		fi
		# Never blocked: a helper stuck on the flood (a full pipe, a
		# read loop that never yields) would answer seconds late or not
		# at all. How fast it answers is make bench's (B4): beside a
		# second suite under ASan the p99 here was 632 ms, alone 4 ms.
		python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 2000 else 1)" "$p99" ||
		    fail "$kind: status p99 $p99 ms (at most 2000)"
		if [ ${kind%-again} = agent ]; then
			case "$states" in
			in_progress|just_started,in_progress|in_progress,just_started) ;;
			*) fail "agent while flooding: $states" ;;
			esac
		fi
		T kill-window -t main:1
		tmux -L "$bare" kill-window -t bare:1
	done
}

# Ask for the pane list over the socket every 20 ms until FILE appears:
# "count p50 p99 max states-of-main:1's-agent".
status_latencies() {
	python3 - "$SOCK" "$1" <<'PY'
import glob, json, os, socket, sys, time
path = glob.glob(os.environ["XDG_RUNTIME_DIR"] + "/lisa/" + sys.argv[1] + "-*.sock")[0]
lat, states = [], set()
end = time.time() + 400
while not os.path.exists(sys.argv[2]) and time.time() < end:
    t = time.monotonic()
    s = socket.socket(socket.AF_UNIX); s.connect(path)
    s.sendall(b'{"cmd":"list"}\n')
    data = b""
    while not data.endswith(b"\n"):
        c = s.recv(65536)
        if not c: raise SystemExit("connection closed")
        data += c
    s.close()
    lat.append((time.monotonic() - t) * 1000)
    for p in json.loads(data).get("panes", []):
        if p.get("window") == 1 and p.get("agent") and len(lat) > 100:
            states.add(p.get("state"))
    time.sleep(0.02)
lat.sort()
print(len(lat), "%.2f" % lat[len(lat) // 2], "%.2f" % lat[int(len(lat) * 0.99)],
      "%.2f" % lat[-1], ",".join(sorted(states)) or "-")
PY
}

# The agent's session file replaced by garbage, cut short, or made a
# symlink to a secret file; its transcript too. (The secret is a stand-in
# for /etc/shadow: tests run as root, and a fake agent that appended to a
# planted link once wrote into the real one.) Refused, the signal marked
# failed (degraded, as no other signal is there), nothing else hurt; the
# agent's next good write is believed again.
test_agent_files_garbage_truncated_symlinked() {
	export FAKE_AGENT_NO_TITLE=1
	setup_agents
	printf 'root:$6$secret:19000:0:99999:7:::\n' >"$TESTDIR/secret"
	chmod 600 "$TESTDIR/secret"
	sum=$(cksum <"$TESTDIR/secret")
	p=$(agent_window 1 claude)
	q=$(agent_window 2 codex)
	expect "$p" waiting_input prompt claude_session_idle
	pid=$(T display -p -t "$p" '#{pane_pid}')
	f="$HOME/.claude/sessions/$pid.json"
	[ -f "$f" ] || fail "no session file"
	for bad in garbage truncated symlink; do
		case $bad in
		garbage) head -c 3000 /dev/urandom >"$f.new" ;;
		truncated) head -c 17 "$f" >"$f.new" ;;
		symlink) ln -s "$TESTDIR/secret" "$f.new" ;;
		esac
		mv -f "$f.new" "$f"
		# Without file events lisa reads it when it next wakes: a key
		# echoed and erased wakes it.
		[ "$SYSTEM" = linux ] || T send-keys -t "$p" x BSpace
		expect "$p" degraded "" session_file_unreadable
		L status "$p" --json | grep -q '"failed":true' ||
		    fail "$bad: signal not marked failed"
		# The agent writes a good file again: believed again.
		T send-keys -t "$p" 'work 3' Enter
		expect "$p" in_progress
		expect "$p" waiting_input prompt claude_session_idle
	done
	until_ms 10000 helper_said "$pid.json: a symlink: refused" ||
	    fail "symlink not refused by name"

	# A transcript (the only file signal here): a link to the secret,
	# then 70 kB of garbage. No event is taken from either.
	if [ "$SYSTEM" != linux ]; then
		note "SKIPPED the transcript part: without a session file its directory is the agent's cwd, from /proc"
		return 0
	fi
	mkdir -p "$TESTDIR/proj"
	T new-window -d -t main:3 -c "$TESTDIR/proj" -e FAKE_AGENT_NO_SESSION=1 \
	    -e FAKE_AGENT_TRANSCRIPT=1 "$FAKE/claude"
	r=$(T display -p -t main:3 '#{pane_id}')
	sleep 1.5
	T send-keys -t "$r" 'work 3' Enter
	expect "$r" in_progress
	expect "$r" waiting_input prompt claude_transcript_turn_done
	tr=$(ls "$HOME/.claude/projects/"*/0000fa4e-*.jsonl)
	ln -s "$TESTDIR/secret" "$tr.new" && mv -f "$tr.new" "$tr"
	T send-keys -t "$r" 'work 5' Enter
	expect "$r" in_progress
	# The agent is stopped at once, its turn 5 s long, while the symlink
	# and then the garbage are there: on a busy machine a 2 s turn, with
	# the stop after the symlink's check, ended into a new file between
	# the rm and the garbage (a CI rehearsal, and beside three CPU hogs;
	# how it wrote past the stop is not known), and lisa rightly read it.
	apid=$(T display -p -t "$r" '#{pane_pid}')
	kill -STOP "$apid"
	# (Read when its directory's event comes: under valgrind that can
	# be after the output that says in_progress.)
	until_ms 10000 helper_said "$(basename "$tr"): a symlink: refused" ||
	    fail "transcript symlink not refused"
	case "$(L status "$r" --json | jget "d['reason']")" in
	claude_transcript_*) fail "an event read through the symlink" ;;
	esac
	rm -f "$tr"
	head -c 70000 /dev/urandom >"$tr"
	garbage_read() { helper_log | grep -q "$(basename "$tr"): event 0 (65536 bytes read)"; }
	until_ms 10000 garbage_read || fail "the garbage was not read"
	case "$(L status "$r" --json | jget "d['reason']")" in
	claude_transcript_*) fail "an event read from garbage" ;;
	esac
	kill -CONT "$apid"
	# The agent appends good lines after the garbage: those count.
	T send-keys -t "$r" 'work 3' Enter
	expect "$r" in_progress
	expect "$q" waiting_input prompt
	kill -0 "$HELPER_PID" || fail "helper died"
	[ "$(cksum <"$TESTDIR/secret")" = "$sum" ] || fail "the secret was written"
	note "$(L status "$r")"
}

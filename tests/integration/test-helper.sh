# The helper's life: one per server, gone with the server, tidy when stopped.

test_server_killed_helper_exits() {
	start_server main
	start_helper
	spid=$(T display -p '#{pid}')
	T kill-server
	# tmux exits only once its clients have gone, ours among them: on a
	# loaded machine that alone may take a second. The helper's part is
	# timed from the server's exit.
	until_ms 10000 proc_gone "$spid" ||
	    fail "the server still runs 10 s after kill-server"
	t0=$(now_ms)
	wait_helper_exit 1000 || fail "helper still running 1 s after the server exited"
	note "helper exited $HELPER_RC, $(($(now_ms) - t0)) ms after the server did"
	[ $HELPER_RC -eq 0 ] || fail "exit status $HELPER_RC"
}

# Without pidfd (kernels before 5.3, valgrind) the clients' %exit is the
# word, and it comes before the server is gone: the helper looks again.
test_server_killed_helper_exits_without_pidfd() {
	start_server main
	LISAD_NO_PIDFD=1 start_helper
	T kill-server
	wait_helper_exit 3000 || fail "helper still running 3 s after kill-server"
	[ $HELPER_RC -eq 0 ] || fail "exit status $HELPER_RC"
}

no_sessions() { [ "$(info_num sessions)" = 0 ]; }

# The server (pid $1) exits within $2 ms; the helper within 3 s after it.
helper_follows_server() {
	until_ms "$2" proc_gone "$1" || fail "the server still runs"
	t0=$(now_ms)
	wait_helper_exit 3000 ||
	    fail "helper still running 3 s after the server exited"
	note "helper exited $(($(now_ms) - t0)) ms after the server did"
	[ $HELPER_RC -eq 0 ] || fail "exit status $HELPER_RC"
}

# A server that outlives our last session (a command client's run-shell
# holds it, as any job or client can) and exits later: without pidfd no
# event says so, and the helper must not give up looking after 3 s. It
# waits in a "tmux wait-for" that tmux ends when it is about to exit.
test_server_held_then_exits_helper_exits_without_pidfd() {
	start_server main
	LISAD_NO_PIDFD=1 start_helper
	spid=$(T display -p '#{pid}')
	T run-shell "sleep 6; : $SOCK" &
	until_ms 5000 sh -c "ps -eo args= | grep -q '^sh -c sleep 6; : $SOCK'" ||
	    fail "run-shell did not start"
	T kill-session -t main
	until_ms 5000 no_sessions || fail "the helper still has a session: $(info)"
	proc_gone "$spid" && fail "the server did not wait for its client"
	helper_follows_server "$spid" 20000
}

# A server none of whose sessions lisa watches (all ignored): no control
# client of ours hears it go. Without pidfd the helper goes with it all
# the same (CI's generic run once saw a helper stay on after a server that
# ended while the helper was starting).
test_server_unwatched_helper_exits_without_pidfd() {
	start_server main
	T set -g @lisa-ignore-sessions main
	LISAD_NO_PIDFD=1 "$LISAD" -F -v -L "$SOCK" 2>"$TESTDIR/lisad.err" &
	HELPER_PID=$!
	until_ms 20000 L list || fail "helper did not come up"
	no_sessions || fail "an ignored session attached: $(info)"
	spid=$(T display -p '#{pid}')
	T kill-server
	helper_follows_server "$spid" 10000
}

test_server_sigkilled_helper_exits() {
	start_server main
	T new-session -d -s other
	start_helper
	kill -9 "$(T display -p '#{pid}')"
	wait_helper_exit 1000 || fail "helper still running 1 s after SIGKILL of server"
	[ $HELPER_RC -eq 0 ] || fail "exit status $HELPER_RC"
	# No stale lock: a new server gets a new helper.
	rm -f "/tmp/tmux-$(id -u)/$SOCK"
	start_server again
	start_helper
}

test_second_helper_refused() {
	start_server main
	start_helper
	"$LISAD" -F -L "$SOCK" 2>"$TESTDIR/second.err"
	rc=$?
	[ $rc -eq 1 ] || fail "second helper exit $rc"
	grep -q "already running (pid $HELPER_PID)" "$TESTDIR/second.err" ||
	    fail "message: $(cat "$TESTDIR/second.err")"
	# And lisa start says so without starting another.
	L start | grep -q "already running (pid $HELPER_PID)" || fail "lisa start"
}

# A helper killed (kill -9) while a child it forked had not exec'd yet:
# the child holds the lock a moment longer, and the pid the file names is
# gone. A new helper waits for the lock then (a second at most), rather
# than saying "already running" of a dead one.
test_lock_left_by_a_dead_helper_child() {
	start_server main
	start_helper
	old=$HELPER_PID
	lock=$(echo "$XDG_RUNTIME_DIR"/lisa/*.lock)
	L stop >/dev/null || fail "lisa stop"
	wait_helper_exit 10000 || fail "helper did not stop"
	# The lock held 600 ms by "a child", the dead helper's pid in it.
	python3 -c '
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR)
fcntl.flock(fd, fcntl.LOCK_EX)
os.ftruncate(fd, 0); os.write(fd, b"%s\n" % sys.argv[2].encode())
open(sys.argv[3], "w").close()
time.sleep(0.6)' "$lock" "$old" "$TESTDIR/held" &
	holder=$!
	until_ms 5000 test -f "$TESTDIR/held" || fail "lock not taken"
	start_helper
	wait "$holder"
	[ "$HELPER_PID" != "$old" ] || fail "no new helper"
}

test_stop_removes_hooks_and_socket() {
	start_server main
	start_helper
	if tmux_at_least 3 3; then
		T show-hooks -gw | grep -q 'pane-died\[5472\]' ||
		    fail "pane-died hook missing"
	else
		# 3.2a: no pane-died hook (tmux #2828)
		T show-hooks -g | grep -q 'pane-died\[5472\]' &&
		    fail "pane-died hook on $(tmux -V)"
	fi
	T show-hooks -g | grep -q 'session-created\[5472\]' || fail "session-created hook missing"
	# The user's own hooks at other indexes stay.
	T set-hook -g 'pane-died[0]' 'display-message mine'
	# (its children: the generic backend's guard of its control clients)
	kids=$(pgrep -P "$HELPER_PID")
	L stop | grep -q stopped || fail "stop"
	wait_helper_exit 3000 || fail "helper did not stop"
	for k in $kids; do
		until_ms 3000 sh -c "! kill -0 $k 2>/dev/null" ||
		    fail "child left: $(ps -o pid,ppid,args -p "$k")"
	done
	T show-hooks -gw | grep -q '5472' && fail "hook left behind: $(T show-hooks -gw)"
	T show-hooks -g | grep -q '5472' && fail "hook left behind"
	T show-hooks -gw | grep -q 'pane-died\[0\] display-message mine' || fail "user hook lost"
	ls "$XDG_RUNTIME_DIR/lisa/"*.sock 2>/dev/null && fail "socket left behind"
	return 0
}

test_runtime_files_private() {
	start_server main
	start_helper
	d="$XDG_RUNTIME_DIR/lisa"
	[ "$(stat -c %a "$d")" = 700 ] || fail "dir mode $(stat -c %a "$d")"
	for f in "$d"/*; do
		m=$(stat -c %a "$f")
		[ "$m" = 600 ] || [ "$m" = 755 -a -S "$f" ] || fail "$f mode $m"
	done
	# A world-readable runtime dir is refused with a clear message.
	L stop >/dev/null
	wait_helper_exit 3000 || fail "helper did not stop"
	chmod 755 "$d"
	"$LISAD" -F -L "$SOCK" 2>"$TESTDIR/err" && fail "started in an open dir"
	grep -q "mode 755, want 0700" "$TESTDIR/err" || fail "message: $(cat "$TESTDIR/err")"
}

test_doctor() {
	start_server main
	L doctor >"$TESTDIR/out" && fail "doctor ok without helper"
	grep -q "FAIL  helper" "$TESTDIR/out" || fail "$(cat "$TESTDIR/out")"
	start_helper
	L doctor >"$TESTDIR/out" || fail "doctor failed: $(cat "$TESTDIR/out")"
	if tmux_at_least 3 3; then
		grep -q "ok    hooks *pane-died\[5472\] installed" "$TESTDIR/out" ||
		    fail "$(cat "$TESTDIR/out")"
	else
		grep -q "ok    hooks *session-created only installed" \
		    "$TESTDIR/out" || fail "$(cat "$TESTDIR/out")"
	fi
	grep -Eq "ok    tmux *tmux (next-)?3" "$TESTDIR/out" || fail "$(cat "$TESTDIR/out")"
	# Which backend, and on the generic one what its users do without.
	grep -Eq "^ok    system +linux backend|^warn  system +generic backend .*deaths come from tmux" \
	    "$TESTDIR/out" || fail "no word of the system backend: $(cat "$TESTDIR/out")"
	# The identify crash (tmux GitHub issue 4980) is named below 3.7 only.
	v=$(tmux -V)
	if ! tmux_at_least 3 7; then
		grep -q "warn  tmux bug .*issue 4980" "$TESTDIR/out" ||
		    fail "no word of the identify crash on tmux $v: $(cat "$TESTDIR/out")"
	else
		grep -q "4980" "$TESTDIR/out" && fail "tmux $v has no identify crash"
	fi
	# So is the SIGCHLD that utempter's builds drop, below 3.6 only.
	if ! tmux_at_least 3 6; then
		grep -q "warn  tmux bug .*utempter" "$TESTDIR/out" ||
		    fail "no word of the lost SIGCHLD on tmux $v: $(cat "$TESTDIR/out")"
	else
		grep -q "utempter" "$TESTDIR/out" && fail "tmux $v reaps every pane"
	fi
	note "$(grep 'tmux' "$TESTDIR/out" | head -n 3)"
}

# Nothing due within 4 s: the next timer's, none (null) or further.
helper_idle() {
	_hi=$(info) && jstr next_timer_ms "$_hi" &&
	    { [ "$_jv" = null ] || [ "$_jv" -gt 4000 ]; }
}

test_no_periodic_work_when_idle() {
	start_server main
	T new-window -t main
	start_helper
	# Its first looks at the new panes wake it again a few times (a
	# young pane's shell may be about to exec an agent): deadlines, not a
	# poll, and on a busy machine still due past 0.5 s (CI's generic run
	# counted 9). Measured once nothing is due within the 3 s.
	sleep 0.5
	until_ms 10000 helper_idle || fail "a timer stays due: $(info)"
	w0=$(info_num wakeups "$_hi")
	sleep 3
	w1=$(info | jget "d['wakeups']")
	# The second info request wakes it (accept, read, close: 3), and a
	# session's tmux may say something (%client-session-changed: 1 more).
	note "helper wakeups in 3 s idle: $((w1 - w0))"
	[ $((w1 - w0)) -le 5 ] || fail "$((w1 - w0)) wakeups in 3 s of nothing"
}

test_doctor_reports_broken_agents_json() {
	export XDG_CONFIG_HOME="$TESTDIR/config"
	mkdir -p "$XDG_CONFIG_HOME/lisa"
	echo '{"agents": [ {"name": ' >"$XDG_CONFIG_HOME/lisa/agents.json"
	start_server main
	start_helper
	L doctor >"$TESTDIR/out" && fail "doctor ok with a broken agents.json"
	grep -q "FAIL  agents.json.*invalid JSON.*ignored, built-in profiles in use" "$TESTDIR/out" ||
	    fail "$(cat "$TESTDIR/out")"
	# The helper runs on with the built-in profiles.
	L reload 2>"$TESTDIR/err" && fail "reload hid the problem"
	grep -q "built-in profiles in use" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	# A good file adds its one profile to the built-ins, however many
	# lisa ships (counted here, with no file).
	rm "$XDG_CONFIG_HOME/lisa/agents.json"
	L reload >/dev/null || fail "reload without a file"
	n=$(L doctor | sed -n 's/^ok    agents.json *\([0-9]*\) agent profiles.*none, built-in only.*/\1/p')
	[ -n "$n" ] || fail "no built-in count: $(L doctor)"
	echo '{"agents": [{"name": "mybot", "comm": ["mybot"]}]}' >"$XDG_CONFIG_HOME/lisa/agents.json"
	L reload >/dev/null || fail "reload of a good file"
	L doctor | grep -q "ok    agents.json *$((n + 1)) agent profiles" ||
	    fail "not $((n + 1)) profiles: $(L doctor)"
}

# The events log is bounded and rotated; every line is whole JSON.
test_events_file_bounded_and_rotated() {
	start_server main
	T set -g @lisa-events-max-lines 20
	start_helper
	# Panes that live long enough to be seen, then die: died (where a
	# pidfd tells) and closed, 30 events or more.
	for i in $(seq 1 30); do
		T new-window -d 'sleep 0.3'
	done
	f=$(ls "$XDG_RUNTIME_DIR"/lisa/*.events.jsonl)
	# (what is tested is the bound and the rotation, not how fast: the
	# generic backend's looks run ps, 0.4 to 0.7 s each beside other
	# tests, and 30 deaths took it more than 5 s)
	until_ms $((20000 * SLOW)) test -f "$f.1" || fail "not rotated"
	[ "$(wc -l <"$f")" -le 20 ] || fail "$(wc -l <"$f") lines"
	cat "$f.1" "$f" | python3 -c '
import json, sys
for line in sys.stdin:
    json.loads(line)' || fail "a torn line"
	[ "$(stat -c %a "$f")" = 600 ] || fail "mode"
}

# A helper that cannot read tmux's replies is not silent about it: a tmux
# that claims to be 3.4 (escaped replies) but sends them raw, as 3.6+
# does, made the helper attach nothing while doctor said all was well.
test_blind_helper_is_never_silent() {
	start_server main
	mkdir -p "$TESTDIR/wrap"
	real=$(command -v tmux)
	# A version whose replies are not what this tmux sends: 3.4 (escaped)
	# to a raw one, 3.6 (raw) to 3.4 and 3.5, which escape.
	lie=3.4
	tmux_at_least 3 4 && ! tmux_at_least 3 6 && lie=3.6
	cat >"$TESTDIR/wrap/tmux" <<WRAP
#!/bin/sh
case "\$*" in
*"#{version} #{pid}"*) "$real" "\$@" | sed 's/^[^ ]* /$lie /' ;;
*) exec "$real" "\$@" ;;
esac
WRAP
	chmod +x "$TESTDIR/wrap/tmux"
	PATH="$TESTDIR/wrap:$PATH" "$LISAD" -F -v -L "$SOCK" 2>"$TESTDIR/lisad.err" &
	HELPER_PID=$!
	until_ms 20000 L list || fail "helper did not come up"
	until_ms 5000 sh -c "[ \"\$(printf '{\"cmd\":\"info\"}\n' | python3 -c '
import socket,sys,glob,os
p=glob.glob(os.environ[\"XDG_RUNTIME_DIR\"]+\"/lisa/$SOCK-*.sock\")[0]
s=socket.socket(socket.AF_UNIX); s.connect(p); s.sendall(sys.stdin.buffer.read())
import json; print(json.loads(s.recv(65536))[\"unparsed_replies\"] > 0)')\" = True ]" ||
	    fail "no unparsed reply counted: $(info)"
	L doctor >"$TESTDIR/out" && fail "doctor ok while blind: $(cat "$TESTDIR/out")"
	grep -q "FAIL  helper .*attached to none" "$TESTDIR/out" ||
	    fail "doctor: $(cat "$TESTDIR/out")"
	grep -q "FAIL  replies" "$TESTDIR/out" || fail "doctor: $(cat "$TESTDIR/out")"
	# Said in tmux: in #{lisa_status} (no client is there to be told).
	T show -gv @lisa_error | grep -q "lisa: cannot read tmux" ||
	    fail "nothing said in tmux: $(T show -g | grep lisa_error)"
	T set -g status-right '#{E:@lisa_status_format}'
	T display -p '#{E:status-right}' | grep -q "cannot read tmux $lie" ||
	    fail "status line: $(T display -p '#{E:status-right}')"
	note "$(grep 'FAIL' "$TESTDIR/out" | head -2)"
}

# The command line behaves like tmux's: help, -h on every command,
# --version, a usage error is exit 2 with that command's usage line, and
# no server is said as such.
test_cli_help_usage_and_exit_codes() {
	L help >"$TESTDIR/out" || fail "help: $?"
	grep -q "^  wait \[TARGET\]" "$TESTDIR/out" || fail "help: $(cat "$TESTDIR/out")"
	# (man lisa once installed, else the page in lisa's own tree)
	grep -Eq "man (lisa|/.*/docs/lisa\.1)$" "$TESTDIR/out" ||
	    fail "help does not name the man page: $(tail -n 1 "$TESTDIR/out")"
	[ "$(L help tap)" = "usage: lisa tap PANE [--bytes N]
  copy a pane's output as the helper decodes it" ] || fail "help tap: $(L help tap)"
	for c in start stop list status explain details run runs nudge kill retry \
	    dismiss key wait events reload shell-init hooks notify doctor tap version; do
		out=$(L "$c" -h) || fail "$c -h: exit $?"
		case "$out" in "usage: lisa $c"*) ;; *) fail "$c -h: $out" ;; esac
	done
	case "$(L --version)" in "lisa "[0-9]*) ;; *) fail "--version: $(L --version)" ;; esac
	"$LISA" -L 2>"$TESTDIR/err"; [ $? = 2 ] || fail "-L alone: not exit 2"
	grep -q -- "-L needs a socket name" "$TESTDIR/err" || fail "-L: $(cat "$TESTDIR/err")"
	L tap 2>"$TESTDIR/err"; [ $? = 2 ] || fail "tap alone: not exit 2"
	[ "$(tail -n 1 "$TESTDIR/err")" = "usage: lisa tap PANE [--bytes N]" ] ||
	    fail "tap alone: $(cat "$TESTDIR/err")"
	L list --bogus 2>"$TESTDIR/err"; [ $? = 2 ] || fail "unknown option: not exit 2"
	grep -q "unknown option: --bogus" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	L frobnicate 2>"$TESTDIR/err"; [ $? = 2 ] || fail "unknown command: not exit 2"
	L dismiss %1 %2 2>/dev/null; [ $? = 2 ] || fail "too many arguments: not exit 2"
	# No server: said as such, exit 1, and none started (-N).
	L status %0 2>"$TESTDIR/err" >/dev/null; [ $? = 1 ] || fail "no server: not exit 1"
	grep -q "no tmux server at" "$TESTDIR/err" || fail "no server: $(cat "$TESTDIR/err")"
	T has-session 2>/dev/null && fail "a server was started"
	return 0
}

# lisa's death is visible: SIGKILL the helper and its control clients go,
# which fires the client-detached hook it left; `lisa _hook` finds nobody
# and the status line says lisa is not running (event-driven: no timer).
# The next start clears it; a stop after a death leaves nothing behind.
# A human's client stays on the one session: the hook runs for a session
# left with no client of lisa's, whoever else is there.
status_says() { T display -p "#{T:status-right}" | grep -q "$1"; }
test_helper_death_shown_on_status_line() {
	start_server main
	T set -g status-right '#{lisa_status}|'
	. "$ROOT/tests/integration/agents.sh"
	. "$ROOT/tests/integration/client.sh"
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	attach main:0
	start_helper
	T new-window -d -t main:1 "$FAKE/claude"
	until_ms 15000 sh -c "[ -n \"\$(tmux -L $SOCK display -p '#{E:@lisa_n_agents}')\" ]" ||
	    fail "no count: $(L list)"
	t0=$(now_ms)
	kill -9 "$HELPER_PID"
	wait "$HELPER_PID" 2>/dev/null
	HELPER_PID=
	until_ms 10000 status_says "lisa is not running" ||
	    fail "status line: $(T display -p '#{T:status-right}'); clients: $(T list-clients -F '#{client_pid} #{client_control_mode}'); hooks: $(T show-hooks -g | grep client-detached)"
	note "shown $(($(now_ms) - t0)) ms after SIGKILL"
	[ -z "$(T display -p '#{E:@lisa_n_agents}')" ] || fail "stale counts kept"
	# The agent's border and its window's badge: no verdict, no clock.
	border=$(T display -p -t main:1 '#{T:pane-border-format}')
	case "$border" in *"claude "*" lisa is not running"*) ;;
	*) fail "border: $border" ;; esac
	case "$border" in *[0-9]s*|*waiting*|*working*) fail "stale border: $border" ;; esac
	badge=$(T display -p -t main:1 '#{T:window-status-format}')
	case "$badge" in *"?"*) ;; *) fail "badge: $badge" ;; esac
	start_helper
	until_ms 5000 sh -c "tmux -L $SOCK display -p -t main:1 '#{T:pane-border-format}' | grep -qv 'not running'" ||
	    fail "border after start: $(T display -p -t main:1 '#{T:pane-border-format}')"
	until_ms 5000 sh -c "! tmux -L $SOCK show -gqv @lisa_error | grep -q ." ||
	    fail "the notice stayed: $(T show -gqv @lisa_error)"
	# Died again, then stopped: no hook, no notice left.
	kill -9 "$HELPER_PID"
	wait "$HELPER_PID" 2>/dev/null
	HELPER_PID=
	until_ms 10000 status_says "lisa is not running" || fail "not shown twice"
	L stop >/dev/null
	[ -z "$(T show -gqv @lisa_error)" ] || fail "notice left after stop"
	T show-hooks -g | grep -q "\[5472\]" && fail "hooks left: $(T show-hooks -g)"
	return 0
}

# lisa stop is one event (helper_stopped), not a "closed" for every pane
# it lets go; and events of two tmux servers on one socket (one killed,
# the next started: the same file, the same %N) say whose they are.
test_stop_is_one_event_and_servers_are_named() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	start_helper
	T new-window -d -t main:1 "$ROOT/tests/fake/claude"
	T new-window -d -t main:2 "$ROOT/tests/fake/claude"
	p=$(T display -p -t main:1 '#{pane_id}')
	q=$(T display -p -t main:2 '#{pane_id}')
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "$p"
	L wait "$q" --until waiting_input --timeout 30 >/dev/null || fail "$q"
	L stop >/dev/null
	wait_helper_exit 5000 || fail "helper did not stop"
	start_helper
	ev=$(L events --json)
	[ "$(printf '%s\n' "$ev" | grep -c '"event":"helper_stopped"')" = 1 ] ||
	    fail "helper_stopped events: $(printf '%s\n' "$ev" | grep helper_stopped)"
	printf '%s\n' "$ev" | grep '"event":"closed"' &&
	    fail "closed events at stop: $(printf '%s\n' "$ev" | grep closed)"
	L events | grep -q 'helper_stopped *lisa stop' ||
	    fail "not in the text: $(L events | tail -n 3)"
	L events | grep -q '^-- tmux server' && fail "a server line with one server"
	first=$(T display -p '#{pid}')
	# The server killed, another on the same socket, an agent in it.
	T kill-server
	wait_helper_exit 10000 || fail "helper did not exit with its server"
	HELPER_PID=
	until_ms 10000 sh -c "! tmux -L $SOCK ls" || fail "server still up"
	start_server main
	start_helper
	T new-window -d -t main:1 "$ROOT/tests/fake/claude"
	r=$(T display -p -t main:1 '#{pane_id}')
	L wait "$r" --until waiting_input --timeout 30 >/dev/null || fail "$r"
	second=$(T display -p '#{pid}')
	L events >"$TESTDIR/ev.txt"
	grep -q "^-- tmux server $first, started " "$TESTDIR/ev.txt" ||
	    fail "no line for the first server: $(cat "$TESTDIR/ev.txt")"
	grep -q "^-- tmux server $second, started " "$TESTDIR/ev.txt" ||
	    fail "no line for the second server: $(cat "$TESTDIR/ev.txt")"
	# The first server's events under its line, the second's under its.
	awk -v f="$first" -v s="$second" '
		/^-- tmux server / { srv = $4; sub(",", "", srv); next }
		/helper_stopped/ && srv != f { bad = 1 }
		END { exit bad }' "$TESTDIR/ev.txt" ||
	    fail "helper_stopped under another server: $(cat "$TESTDIR/ev.txt")"
	note "$(grep -c '^-- tmux server' "$TESTDIR/ev.txt") server lines"
}

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

# The pane's watchdog levels ("0:warn 1:nudge ..."); with EVENTS
# "watchdog transition", its transitions among them, for a failure's message.
wd_events() {
	L events --json | python3 -c '
import json, sys
want = sys.argv[2].split()
print(" ".join("%s:%s" % (e["level"], e["action"]) if e["event"] == "watchdog"
               else "[%s/%s %s]" % (e["to"], e["detail"], e["reason"])
               for e in map(json.loads, sys.stdin)
               if e["event"] in want and e["pane_id"] == sys.argv[1]))' "$1" "${2:-watchdog}"
}
wd_history() { wd_events "$1" "watchdog transition"; }

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
	until_ms 4000 shows "$p" "$PANE_WD" warn || fail "no warn: $(wd_history "$p")"
	until_ms 8000 sh -c "'$LISA' -L '$SOCK' runs --json | grep -q '\"lifecycle\":\"finished\"'" ||
	    fail "not terminated: $(wd_history "$p")"
	ev=$(wd_events "$p")
	case "$ev" in
	"0:warn 1:nudge 2:triage 2:triage_decided 3:terminate"*) ;;
	*) fail "levels: $ev; history: $(wd_history "$p")" ;;
	esac
	grep -q "Claude Code" "$TESTDIR/triage.in" || fail "triage got no screen: $(head -3 "$TESTDIR/triage.in")"
	t=$(L runs --json | jget "d[0]['termination']")
	[ "$(printf "%s\n" "$t" | jget "d['reason'] + '/' + d['terminated_by']")" = "terminated/daemon" ] ||
	    fail "termination: $t"
	note "watchdog: $ev"
}

test_watchdog_never_escalates_busy_agent() {
	watchdog_setup
	# The generic backend has CPU time from ps, in whole seconds here
	# (procps): over a 2 s stall a spin that got less than half a core
	# beside other tests read as none (CI: "0:warn -1:reset"). There the
	# stall is 6 s, long enough for a sixth of a core to show.
	st=2
	if [ "$SYSTEM" = generic ]; then
		st=6
		T set -g @lisa-watchdog-stale $st
		L reload >/dev/null
	fi
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	# A tool (a child process) runs past the stall: silent, but alive.
	T send-keys -t "$p" "tool $((st + 4))" Enter
	expect "$p" in_progress tool
	sleep $((st + 3))
	[ -z "$(wd_events "$p")" ] || fail "escalated a running tool: $(wd_events "$p")"
	expect "$p" waiting_input prompt
	# CPU work without a word, as long.
	T send-keys -t "$p" "spin $((st + 4))" Enter
	expect "$p" in_progress
	sleep $((st + 3))
	[ -z "$(wd_events "$p")" ] || fail "escalated a busy CPU: $(wd_events "$p")"
	expect "$p" waiting_input
}

# A Mac's ps, on PATH: its time= has hundredths ("M:SS.hh"), here the
# process's own from /proc; what else it prints is procps's.
mac_ps() {
	mkdir -p "$TESTDIR/macps"
	cat >"$TESTDIR/macps/ps" <<EOF
#!/usr/bin/env python3
import os, subprocess, sys
args = sys.argv[1:]
fields = [args[i + 1] for i in range(len(args) - 1) if args[i] == "-o"]
out = subprocess.run(["$(command -v ps)"] + args, stdout=subprocess.PIPE).stdout
hz = os.sysconf("SC_CLK_TCK")
for line in out.splitlines(keepends=True):
    f = line.split(None, 3)
    if fields[:3] == ["pid=", "ppid=", "time="] and len(f) == 4:
        try:
            with open("/proc/%d/stat" % int(f[0]), "rb") as st:
                t = st.read().rsplit(b")", 1)[1].split()
            cs = (int(t[11]) + int(t[12])) * 100 // hz
            line = line.replace(f[2], b"%d:%02d.%02d" % (cs // 6000, cs // 100 % 60, cs % 100), 1)
        except (OSError, IndexError, ValueError):
            pass
    sys.stdout.buffer.write(line)
EOF
	chmod +x "$TESTDIR/macps/ps"
	export PATH="$TESTDIR/macps:$PATH"
}

# The generic backend with a ps that gives hundredths (a Mac's, the
# BSDs'): an agent at a third of a core is busy over a 2 s stall (procps's
# whole seconds show 0.6 s as nothing, or one, by where the second falls).
test_watchdog_mac_ps_sees_a_third_of_a_core() {
	[ "$SYSTEM" = generic ] || skip "the Linux backend's CPU time is /proc's"
	mac_ps
	watchdog_setup
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" "spin 9 30" Enter
	expect "$p" in_progress
	sleep 7
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
	until_ms 4000 shows "$p" "$PANE_WD" warn || fail "no warn"
	# Any output is a sign of life.
	kill -WINCH "$(T display -p -t "$p" '#{pane_pid}')" 2>/dev/null
	T resize-window -t main:1 -x 150 2>/dev/null
	T send-keys -t "$p" x
	printf 'x' >"$(T display -p -t "$p" '#{pane_tty}')"
	until_ms 3000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"action\":\"reset\"'" ||
	    fail "no reset: $(wd_events "$p")"
	note "watchdog: $(wd_events "$p")"
}

# The wall clock steps 30 s (NTP, a resumed virtual machine) while an agent
# works: the generic backend dates processes from ps's elapsed times, on
# another clock (Linux's procps: since boot). The agent stays the one met
# before, not a new run, and the watchdog goes on. (CI saw a generic run
# with no warn here once; a step is one way to it.)
test_watchdog_wall_clock_step() {
	[ "$SYSTEM" = generic ] || skip "generic backend only: Linux dates processes by the kernel's ticks"
	shim="$ROOT/${LISA_BUILD_DIR:-build}/tests/wallclock-shift.so"
	[ -f "$shim" ] || fail "no $shim (make test-bins)"
	echo 0 >"$TESTDIR/shift"
	export WALLCLOCK_SHIFT_FILE="$TESTDIR/shift"
	LD_PRELOAD=$shim
	export LD_PRELOAD
	watchdog_setup
	unset LD_PRELOAD
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	echo 30 >"$TESTDIR/shift"
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 4000 shows "$p" "$PANE_WD" warn || fail "no warn: $(wd_history "$p")"
	n=$(helper_log | grep -c "agent claude pid")
	[ "$n" = 1 ] || fail "the agent was met $n times"
	helper_log | grep -Eq "the wall clock moved (29|30|31) s" || fail "the step was not seen"
}

# procps 4.0.2 shows a process younger than its clock's tick as started
# 1.2 million years ago (441077234-00:18:40) about one time in eight: the
# generic backend once took that as its own start, saw the wall clock
# "move" by as much, and lost the step above. Here every young process
# is shown so: the agent is met once, as itself, and nothing moved.
test_watchdog_wrapped_elapsed_time_of_a_young_process() {
	[ "$SYSTEM" = generic ] || skip "generic backend only: Linux reads start times from /proc"
	mkdir -p "$TESTDIR/ps"
	real=$(command -v ps)
	cat >"$TESTDIR/ps/ps" <<EOF
#!/bin/sh
case "\$*" in
*etime=*) "$real" "\$@" | awk '\$4 == "00:00" { \$4 = "441077234-00:18:40" } { print }' ;;
*) exec "$real" "\$@" ;;
esac
EOF
	chmod +x "$TESTDIR/ps/ps"
	old=$PATH
	export PATH="$TESTDIR/ps:$PATH"
	watchdog_setup
	PATH=$old
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 4000 shows "$p" "$PANE_WD" warn || fail "no warn: $(wd_history "$p")"
	n=$(helper_log | grep -c "agent claude pid")
	[ "$n" = 1 ] || fail "the agent was met $n times"
	! helper_log | grep "the wall clock moved" || fail "a wrapped time taken for a step"
}

# The helper wakes late (here: stopped over two steps, as a suspended
# laptop or a loaded machine does): the levels still come one at a time,
# the nudge a step before the triage, not skipped.
test_watchdog_late_wakeup_skips_no_level() {
	watchdog_setup
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 4000 shows "$p" "$PANE_WD" warn || fail "no warn: $(wd_history "$p")"
	kill -STOP "$HELPER_PID"
	sleep 2.5	# the stall the helper sleeps through
	kill -CONT "$HELPER_PID"
	until_ms 10000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"action\":\"triage\"'" ||
	    fail "no triage: $(wd_history "$p")"
	ev=$(wd_events "$p")
	case "$ev" in
	"0:warn 1:nudge 2:triage"*) ;;
	*) fail "levels: $ev; history: $(wd_history "$p")" ;;
	esac
	note "watchdog: $ev"
}

# A triage command slower than the watchdog's steps: the agent is not
# killed while it is being judged; the answer (extend) decides. (Under
# valgrind a triage took more than the test's 1 s step, and the clock
# terminated the agent before it answered.)
test_watchdog_waits_for_slow_triage() {
	triage="$TESTDIR/triage.sh"
	printf '#!/bin/sh
cat >/dev/null
sleep 4
echo extend
' >"$triage"
	chmod +x "$triage"
	watchdog_setup "$triage"
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 30000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"action\":\"triage_decided\"'" ||
	    fail "no decision: $(wd_history "$p")"
	ev=$(wd_events "$p")
	case "$ev" in
	*"2:triage 2:triage_decided -1:reset"*) ;;
	*) fail "levels: $ev; history: $(wd_history "$p")" ;;
	esac
	L events --json | grep -q '"decision":"extend"' || fail "not extended: $ev"
	L events --json | grep -q '"action":"terminate"' && fail "terminated: $ev"
	[ "$(T display -p -t "$p" '#{pane_dead}')" = 0 ] || fail "the agent was killed"
	note "watchdog: $ev"
}

# A triage command that never answers (@lisa-triage-timeout, 2 s here
# and 60 by default): "extend" decides, and its processes end with it,
# the child that holds its output too, though its sh has exited (and
# been reaped: the sh's pid, signalled alone, was no longer its).
test_watchdog_triage_timeout_ends_its_processes() {
	triage="$TESTDIR/triage.sh"
	printf '#!/bin/sh
cat >/dev/null
sleep 300 &
echo $! >"%s/leftover.pid"
' "$TESTDIR" >"$triage"
	chmod +x "$triage"
	watchdog_setup "$triage"
	T set -g @lisa-triage-timeout 2
	L reload >/dev/null || fail "reload: $(L reload 2>&1)"
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 20000 test -s "$TESTDIR/leftover.pid" ||
	    fail "no triage: $(wd_history "$p")"
	left=$(cat "$TESTDIR/leftover.pid")
	until_ms 15000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"action\":\"triage_decided\"'" ||
	    { kill "$left"; fail "no decision: $(wd_history "$p")"; }
	L events --json | grep -q '"decision":"extend"' ||
	    { kill "$left"; fail "not extended: $(wd_events "$p")"; }
	until_ms 5000 proc_gone "$left" ||
	    { kill "$left"; fail "the triage's child outlived its timeout"; }
	[ "$(T display -p -t "$p" '#{pane_dead}')" = 0 ] || fail "the agent was killed"
}

# The agent shows life while the triage command decides: its "terminate"
# comes too late and is dropped; the agent lives on.
test_watchdog_late_triage_dropped() {
	triage="$TESTDIR/triage.sh"
	# (the pane's tty is where its output goes: a line there is life)
	cat >"$triage" <<EOF
#!/bin/sh
cat >/dev/null
printf 'alive\n' >"\$(tmux -L '$SOCK' display -p -t "\$LISA_PANE" '#{pane_tty}')"
# Answer once the helper has seen it (the next level is 5 s away).
i=0
until '$LISA' -L '$SOCK' events --json | grep -q '"action":"reset"'; do
	i=\$((i + 1)); [ \$i -lt 100 ] || break; sleep 0.05
done
echo terminate
EOF
	chmod +x "$triage"
	watchdog_setup "$triage"
	# A step longer than the echo of the nudge is ignored (1.5 s).
	T set -g @lisa-watchdog-step 5
	L reload >/dev/null
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 30000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"action\":\"triage_dropped\"'" ||
	    fail "no triage_dropped: $(wd_history "$p")"
	ev=$(wd_events "$p")
	case "$ev" in
	*"2:triage -1:reset"*"-1:triage_dropped"*) ;;
	*) fail "levels: $ev; history: $(wd_history "$p")" ;;
	esac
	[ "$(T display -p -t "$p" '#{pane_dead}')" = 0 ] || fail "the agent was killed"
	L events --json | grep -q '"event":"terminate"' && fail "a terminate event"
	note "watchdog: $ev"
}

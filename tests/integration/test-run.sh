# lisa run: the wrapper, the run record, the termination metadata, with
# real tmux panes and real processes.

# A command for the pane: a shell script written into the test dir.
script() {
	f="$TESTDIR/$1"
	shift
	printf '#!/bin/sh\n%s\n' "$*" >"$f"
	chmod +x "$f"
	echo "$f"
}

# The run record of the only run, as JSON, once it has finished.
finished_run() {
	L runs --json | jget "[r for r in d if r['lifecycle'] == 'finished'][0]"
}
run_field() { finished_run | jget "$1"; }
field_is() { [ "$(pane_field "$1" "$2")" = "$3" ]; }

test_stderr_head_tail_exit_code() {
	start_server main
	start_helper
	cmd=$(script errs.sh 'echo "on stdout"
i=1; while [ $i -le 200 ]; do echo "stderr line $i" >&2; i=$((i+1)); done
exit 3')
	out=$(cd "$TESTDIR" && L run --name errs -- "$cmd") || fail "lisa run: $out"
	pane=$(echo "$out" | cut -d' ' -f3)
	case "$pane" in %*) ;; *) fail "lisa run printed: $out" ;; esac
	until_ms 5000 finished_run || fail "never finished: $(L runs --json)"
	t=$(run_field "d['termination']")
	[ "$(printf "%s\n" "$t" | jget "d['reason'] + '/' + d['terminated_by'] + '/' + str(d['exit_code']) + '/' + str(d['signal'])")" = "error/agent/3/None" ] ||
	    fail "termination: $t"
	[ "$(printf "%s\n" "$t" | jget "d['stderr']['total_lines']")" = 200 ] || fail "total: $t"
	[ "$(printf "%s\n" "$t" | jget "d['stderr']['truncated']")" = true ] || fail "truncated: $t"
	# The termination metadata's shape: head and tail are strings, the
	# lines joined with newlines.
	[ "$(printf "%s\n" "$t" | jget "d['stderr']['head']")" = "$(seq 1 20 | sed 's/^/stderr line /')" ] ||
	    fail "head: $t"
	[ "$(printf "%s\n" "$t" | jget "d['stderr']['tail']")" = "$(seq 151 200 | sed 's/^/stderr line /')" ] ||
	    fail "tail: $t"
	[ "$(run_field "d['cwd']")" = "$TESTDIR" ] || fail "cwd"
	[ "$(run_field "d['name']")" = errs ] || fail "name"
	# The terminal saw both streams, the pane stayed, with the agent's status.
	screen=$(T capture-pane -p -S - -t "$pane")
	echo "$screen" | grep -q "on stdout" || fail "stdout not on the terminal"
	echo "$screen" | grep -q "stderr line 200" || fail "stderr not on the terminal"
	# (tmux 3.3a can miss the SIGCHLD and not know the status: lisa's
	# own view, from the process, is what counts.)
	[ "$(T display -p -t "$pane" '#{pane_dead}')" = 1 ] || fail "pane not kept"
	until_ms 3000 field_is "$pane" exit_status 3 ||
	    fail "pane exit status: $(pane_json "$pane")"
	# The helper made it an event, with the termination, and shows it.
	until_ms 3000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"run_finished\"'" ||
	    fail "no run_finished event: $(L events --json)"
	L events --json | grep '"run_finished"' | jget "d['termination']['stderr']['total_lines']" |
	    grep -q '^200$' || fail "event termination: $(L events --json | grep run_finished)"
	[ "$(pane_field "$pane" run | jget "d['termination']['exit_code']")" = 3 ] ||
	    fail "lisa list: $(pane_json "$pane")"
	# The record is private and complete.
	rec=$(ls "$XDG_RUNTIME_DIR"/lisa/runs/*.json)
	[ "$(stat -c %a "$rec")" = 600 ] || fail "record mode $(stat -c %a "$rec")"
	[ "$(stat -c %a "$XDG_RUNTIME_DIR/lisa/runs")" = 700 ] || fail "runs dir mode"
	note "$(L runs | tail -n 1)"
}

# A run's wrapper that leaves seconds after its record says it finished
# (it waits for the helper's answer first, and a busy machine may not run
# it), with no pidfd and no pane-died hook (tmux < 3.6 drops a SIGCHLD now
# and then, and then no hook fires): the helper's looks still see it go.
# CI's valgrind run lost one: a single look at 250 ms, the wrapper still
# there, and nothing after.
test_run_wrapper_leaving_late_is_seen() {
	[ "$(uname -s)" = Linux ] || skip "holds the wrapper with Linux's ptrace"
	start_server main
	LISAD_NO_PIDFD=1 start_helper
	T set-hook -gu 'pane-died[5472]'
	cmd=$(script late.sh "while [ ! -e '$TESTDIR/go' ]; do sleep 0.05; done; exit 3")
	out=$(L run --name late -- "$cmd") || fail "lisa run: $out"
	pane=$(echo "$out" | cut -d' ' -f3)
	until_ms 10000 pane_known "$pane" || fail "pane unknown"
	# (and its wrapper's first word, that it runs, is heard and answered)
	until_ms 10000 event_ts "$pane" run_started || fail "run never started"
	wrapper=$(T display -p -t "$pane" '#{pane_pid}')
	[ -r "/proc/$wrapper/wchan" ] || skip "no /proc/PID/wchan to see the wrapper wait"
	# Where the wrapper waits (a poll either way): for its command, with
	# no socket open; for the helper's answer, on a socket to it.
	on_socket() { ls -l "/proc/$wrapper/fd" 2>/dev/null | grep -q 'socket:'; }
	polls() { grep -q poll "/proc/$wrapper/wchan"; }
	for_command() { polls && ! on_socket; }
	until_ms 10000 for_command || fail "wrapper not waiting for its command"
	# The helper held, the command ends: the wrapper writes its record and
	# waits for the helper's answer to its word of it. It is held there
	# too (not by SIGSTOP: tmux continues a pane's process that stops).
	kill -STOP "$HELPER_PID"
	touch "$TESTDIR/go"
	waits_on_helper() {
		grep -q '"lifecycle":"finished"' "$XDG_RUNTIME_DIR"/lisa/runs/*.json &&
		    polls && on_socket
	}
	until_ms 8000 waits_on_helper ||
	    { kill -CONT "$HELPER_PID"; fail "wrapper never asked: $(cat "/proc/$wrapper/wchan"), $(ps -o stat=,args= -p "$wrapper"), $(cat "$XDG_RUNTIME_DIR"/lisa/runs/*.json)"; }
	python3 "$ROOT/tests/integration/hold.py" "$wrapper" "$TESTDIR/release" \
	    >"$TESTDIR/hold.out" 2>&1 &
	holder=$!
	until_ms 5000 grep -q . "$TESTDIR/hold.out"
	kill -CONT "$HELPER_PID"
	if ! grep -q '^held$' "$TESTDIR/hold.out"; then
		wait "$holder"
		skip "$(cat "$TESTDIR/hold.out")"
	fi
	until_ms $((5000 * SLOW)) event_ts "$pane" run_finished ||
	    { touch "$TESTDIR/release"; fail "the helper never read the end: $(L events)"; }
	# The wrapper stays well past the helper's first look (250 ms).
	ts=$(event_ts "$pane" run_finished)
	past() { [ $(($(now_ms) - ts)) -ge 1500 ]; }
	until_ms 5000 past
	[ "$(pane_field "$pane" dead)" = false ] ||
	    { touch "$TESTDIR/release"; fail "dead before its wrapper left"; }
	touch "$TESTDIR/release"
	wait "$holder"
	until_ms 10000 proc_gone "$wrapper" || fail "wrapper stayed"
	t0=$(now_ms)
	until_ms 20000 field_is "$pane" exit_status 3 ||
	    fail "its leaving never seen: $(pane_json "$pane")"
	note "seen $(($(now_ms) - t0)) ms after the wrapper left, via $(L events | grep "$pane *died" | sed 's/.*via //')"
}

test_stderr_line_cut_on_utf8_boundary() {
	start_server main
	start_helper
	# 1 + 300 x 2 bytes: byte 500 falls inside a character.
	cmd=$(script utf8.sh "python3 -c 'import sys; sys.stderr.write(\"x\" + \"\\u00e9\" * 300 + \"\\n\")'; exit 1")
	L run -- "$cmd" >/dev/null || fail "lisa run"
	until_ms 5000 finished_run || fail "never finished"
	line=$(run_field "d['termination']['stderr']['head']")
	[ "$(printf %s "$line" | wc -c)" = 499 ] || fail "cut at $(printf %s "$line" | wc -c) bytes: $line"
	[ "$line" = "x$(python3 -c 'print("\u00e9" * 249, end="")')" ] || fail "not x + 249 é"
}

test_kill_9_is_signal_9_error() {
	start_server main
	start_helper
	cmd=$(script sleeper.sh 'echo started >&2; exec sleep 600')
	out=$(L run --name sleeper -- "$cmd")
	pane=$(echo "$out" | cut -d' ' -f3)
	until_ms 5000 sh -c "'$LISA' -L '$SOCK' runs --json | grep -q '\"lifecycle\":\"running\"'" ||
	    fail "not running: $(L runs --json)"
	pid=$(L runs --json | jget "d[0]['pid']")
	kill -9 "$pid"
	until_ms 5000 finished_run || fail "never finished"
	t=$(run_field "d['termination']")
	[ "$(printf "%s\n" "$t" | jget "d['reason'] + '/' + str(d['signal']) + '/' + str(d['exit_code'])")" = "error/9/None" ] ||
	    fail "termination: $t"
	printf "%s\n" "$t" | jget "d['message']" | grep -q "SIGKILL" || fail "message: $t"
	[ "$(printf "%s\n" "$t" | jget "d['stderr']['head']")" = started ] || fail "stderr: $t"
	printf "%s\n" "$t" | jget "'tail' in d['stderr'] and exit(1)" || fail "a tail when not cut: $t"
	# The pane dies the way the agent did.
	until_ms 3000 shows "$pane" '#{pane_dead}' 1 || fail "pane alive"
	until_ms 3000 field_is "$pane" exit_signal 9 ||
	    fail "pane signal: $(pane_json "$pane")"
}

test_exit_codes_map_to_reasons() {
	start_server main
	start_helper
	for c in "0 completed agent" "130 terminated user" "127 error agent" "2 error agent"; do
		set -- $c
		rm -f "$XDG_RUNTIME_DIR"/lisa/runs/*.json
		cmd=$(script "exit$1.sh" "exit $1")
		L run -- "$cmd" >/dev/null
		until_ms 5000 finished_run || fail "exit $1: never finished"
		got=$(run_field "d['termination']['reason'] + ' ' + d['termination']['terminated_by']")
		[ "$got" = "$2 $3" ] || fail "exit $1: $got, want $2 $3"
		# Error details only for errors.
		has=$(run_field "'exit_code' in d['termination']")
		[ "$has" = "$([ "$2" = error ] && echo true || echo false)" ] ||
		    fail "exit $1: error fields $has"
	done
	# A command that is not there: 127, "could not start".
	rm -f "$XDG_RUNTIME_DIR"/lisa/runs/*.json
	L run -- "$TESTDIR/no-such-agent" >/dev/null
	until_ms 5000 finished_run || fail "never finished"
	run_field "d['termination']['message']" | grep -q "could not start" ||
	    fail "$(run_field "d['termination']")"
	run_field "d['termination']['stderr']['head']" | grep -q "cannot run" ||
	    fail "no stderr: $(run_field "d['termination']")"
}

test_nudge_arrives_literally_then_enter() {
	start_server main
	start_helper
	# A raw reader: every byte it gets, until Enter (CR), into a file.
	T new-window -d -t main:1 "python3 -c '
import os, sys, tty
tty.setraw(0)
open(\"$TESTDIR/ready\", \"w\").close()
data = b\"\"
while not data.endswith(b\"\\r\"):
    data += os.read(0, 1)
open(\"$TESTDIR/got\", \"wb\").write(data)
'"
	p=$(T display -p -t main:1 '#{pane_id}')
	# Raw before the keys come (python starts slowly on a busy machine).
	until_ms 20000 test -e "$TESTDIR/ready" || fail "reader not ready"
	text='it'"'"'s "quoted"; #{pane_id} $HOME ~ \; {x}
second line'
	# Not an agent: --force, the deliberate case.
	L nudge "$p" "$text" --force >/dev/null || fail "nudge failed"
	until_ms 3000 test -s "$TESTDIR/got" || fail "nothing arrived"
	want=$(printf '%s\r' "$text" | od -An -c)
	got=$(od -An -c "$TESTDIR/got")
	[ "$got" = "$want" ] || fail "arrived:
$got
want:
$want"
}

test_nudge_refused_while_busy() {
	. "$ROOT/tests/integration/agents.sh"
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	# Long enough to outlast a slow verdict on a busy machine (expect
	# waits up to 8 s).
	T send-keys -t "$p" 'work 20' Enter
	expect "$p" in_progress
	sleep 1
	L nudge "$p" hello 2>"$TESTDIR/err" && fail "nudged a busy agent"
	grep -q busy "$TESTDIR/err" || fail "no reason given: $(cat "$TESTDIR/err")"
	L wait "$p" --until waiting_input --timeout 40 >/dev/null
	expect "$p" waiting_input prompt
	L nudge "$p" 'work 3' >/dev/null || fail "nudge at the prompt refused"
	expect "$p" in_progress
}

# A nudge never answers a dialog: refused on a permission, a question and
# Codex's approval, whatever the verdict says yet (the screen is read at
# that moment); the dialog is still drawn and the agent got nothing.
# --force types anyway and says what Enter picked.
nudge_refused_on() {
	p=$1 want=$2
	out=$(L nudge "$p" 2>&1) && fail "nudged $p in its $want: $out"
	case "$out" in
	*"not nudged"*"$want"*"(--force to anyway)"*) ;;
	*) fail "$p: unclear refusal: $out" ;;
	esac
	note "$out"
}
dialog_drawn() { T capture-pane -p -t "$1" | grep -q -- "$2"; }
test_nudge_never_answers_a_dialog() {
	. "$ROOT/tests/integration/agents.sh"
	setup_agents
	c=$(agent_window 1 claude)
	x=$(agent_window 2 codex)
	q=$(agent_window 3 claude)
	expect "$c" waiting_input prompt
	expect "$x" waiting_input prompt
	expect "$q" waiting_input prompt
	T send-keys -t "$c" permission Enter
	T send-keys -t "$x" permission Enter
	T send-keys -t "$q" question Enter
	until_ms 8000 dialog_drawn "$c" "Do you want to proceed" || fail "no dialog in $c"
	until_ms 8000 dialog_drawn "$x" "Would you like to run" || fail "no dialog in $x"
	until_ms 8000 dialog_drawn "$q" "Enter to select" || fail "no dialog in $q"
	# At once: the verdict may not have its detail yet (Codex's never
	# comes before its screen is read), the screen has the dialog.
	nudge_refused_on "$x" "dialog"
	nudge_refused_on "$c" "dialog"
	nudge_refused_on "$q" "dialog"
	sleep 1.5	# longer than a nudge's 0.5 s before its Enter
	dialog_drawn "$c" "Do you want to proceed" || fail "$c's dialog went"
	dialog_drawn "$x" "Would you like to run" || fail "$x's dialog went"
	dialog_drawn "$q" "Enter to select" || fail "$q's dialog went"
	expect "$c" waiting_input permission
	# The helper's events say who was refused, and why.
	[ "$(L events --json | grep -c '"event":"nudge_refused"')" = 3 ] ||
	    fail "refusals not in the events: $(L events --json | tail -n 4)"
	# The deliberate case: typed into the dialog, and said so.
	out=$(L nudge "$c" --force 2>&1) || fail "forced nudge refused: $out"
	case "$out" in
	*"forced: the text went into a permission dialog and Enter picked \"1. Yes\""*) ;;
	*) fail "forced nudge did not say what it did: $out" ;;
	esac
}

# The screen is read when the nudge comes, not trusted to the verdict: a
# Claude that says nothing but its screen (no session file, no title),
# at the shipped debounce (1.5 s), nudged the moment its dialog is drawn.
test_nudge_reads_the_screen_at_that_moment() {
	. "$ROOT/tests/integration/agents.sh"
	export FAKE_AGENT_NO_SESSION=1 FAKE_AGENT_NO_TITLE=1
	setup_agents
	T set -g @lisa-debounce 1.5
	L reload >/dev/null
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" permission Enter
	until_ms 8000 dialog_drawn "$p" "Do you want to proceed" || fail "no dialog"
	verdict=$(L status "$p" --json | jget "d['state'] + '/' + d['detail']")
	nudge_refused_on "$p" "dialog"
	note "the verdict then: $verdict"
	sleep 1
	dialog_drawn "$p" "Do you want to proceed" || fail "the dialog went"
}

# A failing `lisa run` of any command, agent or not, shows in the UI as a
# failed run (only `lisa runs` knew it); a nudge into its dead pane is
# refused, forced or not.
test_failed_run_of_any_command_shows() {
	start_server main
	start_helper
	cmd=$(script bad.sh 'echo "it broke" >&2; exit 42')
	out=$(L run --name bad3 -- "$cmd")
	pane=$(echo "$out" | cut -d' ' -f3)
	L wait "$pane" --until crashed --timeout 10 >/dev/null ||
	    fail "never shown: $(L status "$pane"); $(L runs)"
	[ "$(L status "$pane" --json | jget "d['agent'] + ' ' + d['detail']")" = "run exit 42" ] ||
	    fail "status: $(L status "$pane")"
	expect_shown "$pane" "$PANE_STATE" crashed
	# The run's record may say it ended before tmux says the pane died
	# (the generic backend has no pidfd): the nudges below are into a
	# pane lisa knows is dead.
	dead() { [ "$(pane_field "$pane" dead)" = true ]; }
	until_ms 10000 dead ||
	    fail "never dead: $(L list)"
	for force in "" --force; do
		# shellcheck disable=SC2086
		out=$(L nudge "$pane" hello $force 2>&1) && fail "nudged a dead pane ($force): $out"
		case "$out" in
		*"dead"*) ;;
		*) fail "unclear ($force): $out" ;;
		esac
	done
	# Respawned by hand: the pane is not the run's any more, and a retry
	# (respawn-pane -k) would kill what runs there now.
	T respawn-pane -k -t "$pane" "sleep 300"
	until_ms 5000 shows "$pane" '#{pane_current_command}' sleep || fail "no sleep"
	out=$(L retry "$pane" 2>&1) && fail "retried over the sleep: $out"
	case "$out" in
	*"runs something else"*) ;;
	*) fail "unclear: $out" ;;
	esac
	shows "$pane" '#{pane_current_command}' sleep || fail "the sleep was touched"
	L retry "$pane" --force >/dev/null || fail "--force refused"
}

test_kill_terminates_tree_then_sigkill() {
	start_server main
	start_helper
	# The agent ignores SIGTERM; its child does not.
	cmd=$(script stubborn.sh "trap '' TERM; sleep 600 & wait; sleep 600")
	out=$(L run --name stubborn -- "$cmd")
	pane=$(echo "$out" | cut -d' ' -f3)
	until_ms 5000 sh -c "'$LISA' -L '$SOCK' runs --json | grep -q '\"lifecycle\":\"running\"'" ||
	    fail "not running"
	sleep 0.3
	t0=$(now_ms)
	L kill "$pane" >/dev/null || fail "lisa kill failed"
	until_ms 20000 finished_run || fail "never finished"
	ms=$(($(now_ms) - t0))
	t=$(run_field "d['termination']")
	[ "$(printf "%s\n" "$t" | jget "d['reason'] + '/' + d['terminated_by']")" = "terminated/user" ] ||
	    fail "termination: $t"
	[ "$(run_field "d['signal']")" = 9 ] || fail "not SIGKILLed: $(finished_run)"
	[ "$ms" -ge 1900 ] || fail "SIGKILL after ${ms} ms, before the 2 s grace"
	L events --json | grep -q '"event":"terminate"' || fail "no terminate event"
	L events --json | grep -q '"event":"terminate_kill"' || fail "no terminate_kill event"
	note "stubborn agent gone ${ms} ms after lisa kill (2 s grace)"
}

test_retry_and_fallback_names() {
	start_server main
	start_helper
	cmd=$(script crash.sh 'echo "boom" >&2; exit 3')
	out=$(L run --name crashy --fallback "echo fallback >&2; exit 4" -- "$cmd")
	id1=$(echo "$out" | cut -d' ' -f1)
	pane=$(echo "$out" | cut -d' ' -f3)
	until_ms 5000 finished_run || fail "first run never finished"
	L retry "$pane" >/dev/null || fail "retry failed"
	until_ms 5000 sh -c "[ \$('$LISA' -L '$SOCK' runs --json | python3 -c 'import json,sys; print(len([r for r in json.load(sys.stdin) if r[\"lifecycle\"] == \"finished\"]))') = 2 ]" ||
	    fail "retry never finished: $(L runs)"
	r2=$(L runs --json | jget "d[1]")
	[ "$(printf "%s\n" "$r2" | jget "'%s %s %s %s' % (d['name'], d['attempt'], d['prev'], d['pane'])")" = "crashy-r2 2 $id1 $pane" ] ||
	    fail "second run: $r2"
	[ "$(T display -p -t "$pane" '#{window_name}')" = crashy-r2 ] || fail "window not renamed"
	L retry "$pane" --fallback >/dev/null || fail "fallback retry failed"
	until_ms 5000 sh -c "'$LISA' -L '$SOCK' runs --json | grep -q '\"name\":\"crashy-fb\",.*\"lifecycle\":\"finished\"'" ||
	    fail "fallback never finished: $(L runs)"
	r3=$(L runs --json | jget "d[2]")
	[ "$(printf "%s\n" "$r3" | jget "'%s %s %s' % (d['name'], d['attempt'], d['on_fallback'])")" = "crashy-fb 1 True" ] ||
	    fail "fallback run: $r3"
	[ "$(printf "%s\n" "$r3" | jget "d['termination']['stderr']['head']")" = fallback ] ||
	    fail "fallback stderr: $r3"
	note "$(L runs)"
}

# An agent that always crashes: retries, then the fallback (its count
# started again), then the human's decision, when they choose to make it.
# Every step an event.
test_crash_retry_fallback_then_menu() {
	start_server main
	T set -g @lisa-retry-delay 0.2
	start_helper
	OUTER="${SOCK}o"
	trap 'tmux -L "$OUTER" kill-server 2>/dev/null; cleanup' EXIT
	tmux -L "$OUTER" -f /dev/null new-session -d -x 150 -y 40 "env -u TMUX tmux -L $SOCK attach -t main:0"
	until_ms 3000 sh -c "[ -n \"\$(tmux -L $SOCK list-clients -F '#{client_control_mode}' | grep 0)\" ]" ||
	    fail "client did not attach"
	cmd=$(script crash.sh 'i=1; while [ $i -le 80 ]; do echo "crash trace $i" >&2; i=$((i+1)); done; sleep 0.2; kill -SEGV $$')
	fb=$(script fallback.sh 'echo "fallback gave up" >&2; exit 2')
	out=$(L run --name crashy --retries 2 --fallback "$fb" -- "$cmd")
	pane=$(echo "$out" | cut -d' ' -f3)
	until_ms 20000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"run_escalate\"'" ||
	    fail "never escalated: $(L runs)"
	names=$(L runs --json | jget "' '.join(r['name'] for r in d)")
	[ "$names" = "crashy crashy-r2 crashy-r3 crashy-fb crashy-fb-r2 crashy-fb-r3" ] ||
	    fail "runs: $names"
	counts=$(L runs --json | jget "' '.join('%d/%d' % (r['crashes'], r['failures']) for r in d)")
	[ "$counts" = "0/0 1/0 2/0 0/0 0/1 0/2" ] || fail "crash/failure counts: $counts"
	steps=$(L events --json | python3 -c '
import json, sys
print(" ".join(e["event"] for e in map(json.loads, sys.stdin) if e["event"] in ("run_retry", "run_fallback", "run_escalate")))')
	[ "$steps" = "run_retry run_retry run_fallback run_retry run_retry run_escalate" ] ||
	    fail "steps: $steps"
	# Each retry waits longer: 0.2 s times the attempt that failed.
	delays=$(L events --json | python3 -c '
import json, sys
print(" ".join(str(e["delay_ms"]) for e in map(json.loads, sys.stdin) if e["event"] in ("run_retry", "run_fallback")))')
	[ "$delays" = "200 400 200 200 400" ] || fail "delays: $delays"
	first=$(L runs --json | jget "d[0]['termination']")
	[ "$(printf "%s\n" "$first" | jget "str(d['signal']) + ' ' + str(d['stderr']['total_lines'])")" = "11 80" ] ||
	    fail "first termination: $first"
	# Nothing opens by itself (a menu there took the next key pressed):
	# the run waits in `lisa runs` and first in lisa's menu.
	sleep 2
	screen=$(tmux -L "$OUTER" capture-pane -p)
	echo "$screen" | grep -qE "Retry|Abort|failed" && fail "something opened by itself:
$screen"
	L runs | grep -q "crashy-fb-r3.*waits for your decision" || fail "runs: $(L runs)"
	[ "$(L runs --json | jget "d[-1].get('escalated')")" = true ] || fail "not escalated in JSON"
	tmux -L "$OUTER" send-keys C-b a
	until_ms 5000 sh -c "tmux -L $OUTER capture-pane -p | grep -q 'needs your decision'" ||
	    fail "not in lisa's menu: $(tmux -L "$OUTER" capture-pane -p)"
	tmux -L "$OUTER" capture-pane -p | grep -q "crashy-fb-r3 failed after its retries ($pane)" ||
	    fail "menu entry: $(tmux -L "$OUTER" capture-pane -p)"
	tmux -L "$OUTER" send-keys Enter	# the first entry
	# Its menu: what failed, stderr, the choices.
	until_ms 5000 sh -c "tmux -L $OUTER capture-pane -p | grep -q 'lisa: crashy-fb-r3 failed'" ||
	    fail "no menu: $(tmux -L "$OUTER" capture-pane -p)"
	screen=$(tmux -L "$OUTER" capture-pane -p)
	for want in "exit 2" "fallback gave up" "Retry" "Fallback retry" "Skip (leave it" "Abort (close the pane)"; do
		echo "$screen" | grep -qF "$want" || fail "menu lacks '$want':
$screen"
	done
	note "menu: $(echo "$screen" | grep -F 'exit 2')"
	# "a" (lisa's own menu key) is no shortcut there: the pane stays.
	tmux -L "$OUTER" send-keys a
	sleep 0.5
	T display -p -t "$pane" '#{pane_id}' | grep -qx "$pane" || fail "'a' closed the pane"
	echo "$screen" | grep -F "Abort (close the pane)" | grep -q "(a)" && fail "Abort has a shortcut: $screen"
	# Retry from the menu: one more run of the fallback; it waits no more.
	tmux -L "$OUTER" send-keys r
	until_ms 5000 sh -c "'$LISA' -L '$SOCK' runs --json | grep -q 'crashy-fb-r4'" ||
	    fail "menu retry did nothing: $(L runs)"
	L runs | grep -q "crashy-fb-r3 .*waits for your decision" && fail "still waits: $(L runs)"
	# The next-agent key goes to what waits for a decision, and opens
	# its choices there (asked for by the key).
	until_ms 10000 sh -c "'$LISA' -L '$SOCK' runs | grep -q 'crashy-fb-r4 .*waits for your decision'" ||
	    fail "the retry did not come back to the human: $(L runs)"
	tmux -L "$OUTER" send-keys C-b A
	until_ms 5000 sh -c "tmux -L $OUTER capture-pane -p | grep -q 'lisa: crashy-fb-r4 failed'" ||
	    fail "prefix A: $(tmux -L "$OUTER" capture-pane -p; tmux -L "$OUTER" list-panes -a; T list-clients; T list-keys -T prefix | grep lisa)"
	tmux -L "$OUTER" send-keys q
	L runs --json >"$TESTDIR/runs.json"
	# tmux 3.2 (#2828): every kept pane was drained before it died.
	if ! tmux_at_least 3 3; then
		[ "$(helper_log | grep -c "drained in 1 clients")" -ge 6 ] ||
		    fail "not drained on $(tmux -V): $(helper_log | grep drain)"
	fi
	note "$(L runs)"
}

# tmux 3.2 crashes when a pane kept by remain-on-exit dies while output of
# it is still queued for a control client (tmux #2828). There, lisa run's
# wrapper has the helper pause the pane in its clients before it leaves,
# and the pane is heard again once respawned. Forced here on any tmux (on
# 3.2a the wrapper does it by itself): a loud run that fails, its retry in
# the same pane, whose output must reach lisa again.
test_run_drains_kept_pane_before_it_dies() {
	start_server main
	T set-environment -g LISA_RUN_DRAIN 1
	T set -g @lisa-retry-delay 0.2
	start_helper
	cmd=$(script loud.sh "if [ -e '$TESTDIR/again' ]; then
	while [ ! -e '$TESTDIR/go' ]; do sleep 0.05; done
	echo second-run-output; exec sleep 30
fi
touch '$TESTDIR/again'; i=0; while [ \$i -lt 3000 ]; do echo \"line \$i\"; i=\$((i+1)); done; exit 3")
	out=$(L run --name loud --retries 1 -- "$cmd")
	pane=$(echo "$out" | cut -d' ' -f3)
	until_ms $((8000 * SLOW)) helper_said "pane $pane: drained in 1 clients" ||
	    fail "not drained: $(helper_log | grep drain)"
	until_ms $((8000 * SLOW)) sh -c "'$LISA' -L '$SOCK' runs --json | grep -q '\"name\":\"loud-r2\",.*\"lifecycle\":\"running\"'" ||
	    fail "no retry: $(L runs)"
	# Kept: the retry runs in the same pane, and lisa hears it again.
	[ "$(L runs --json | jget "d[1]['pane']")" = "$pane" ] || fail "retry elsewhere: $(L runs)"
	helper_said "pane $pane: drain over" || fail "still paused"
	bytes() { L list --json | jget "[p['output_bytes'] for p in d if p['pane_id'] == '$pane'][0]"; }
	b1=$(bytes)
	touch "$TESTDIR/go"
	until_ms $((5000 * SLOW)) sh -c "[ \$('$LISA' -L '$SOCK' list --json | python3 -c '
import json, sys
print([p[\"output_bytes\"] for p in json.load(sys.stdin) if p[\"pane_id\"] == \"$pane\"][0])') -gt $b1 ]" ||
	    fail "the retry is not heard: $b1 bytes, then $(bytes)"
	T capture-pane -p -t "$pane" | grep -q second-run-output || fail "retry not on screen"
	note "$(helper_log | grep -o "pane $pane: drain.*" | tr '\n' ';')"
}

# An agent lisa did not start: the exit from tmux, the screen for stderr.
test_termination_of_pane_not_started_by_lisa() {
	. "$ROOT/tests/integration/agents.sh"
	if ! tmux_at_least 3 3; then
		note "SKIPPED on $(tmux -V): no dead pane to take a termination from (lisa sets no remain-on-exit there: tmux #2828)"
		return 0
	fi
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'exit 3' Enter
	if ! L wait "$p" --until crashed --timeout 8 >/dev/null; then
		tmux_lost_death "$p" || fail "$p never crashed: $(L status "$p")"
		note "SKIPPED: tmux lost the SIGCHLD of $p (no status in tmux either)"
		return 0
	fi
	expect "$p" crashed "exit 3"
	until_ms 3000 sh -c "'$LISA' -L '$SOCK' events --json | grep -q '\"event\":\"terminated\"'" ||
	    fail "no terminated event: $(L events --json | tail -3)"
	t=$(L events --json | grep '"event":"terminated"' | jget "d['termination']")
	[ "$(printf "%s\n" "$t" | jget "d['reason'] + '/' + d['terminated_by'] + '/' + str(d['exit_code'])")" = "error/agent/3" ] ||
	    fail "termination: $t"
	printf "%s\n" "$t" | jget "d['screen_tail']" | grep -q "exit 3" || fail "screen tail: $t"
	[ "$(pane_field "$p" termination | jget "d['exit_code']")" = 3 ] ||
	    fail "lisa list: $(pane_json "$p")"
	# Once per death.
	sleep 1
	[ "$(L events --json | grep -c '"event":"terminated"')" = 1 ] || fail "reported twice"
}

# Run records live in a private directory: a symlink there is refused,
# and a record that is a symlink is not followed.
test_runs_dir_and_records_not_followed() {
	start_server main
	start_helper
	mkdir -p "$TESTDIR/elsewhere"
	ln -s "$TESTDIR/elsewhere" "$XDG_RUNTIME_DIR/lisa/runs"
	L run -- true 2>"$TESTDIR/err" && fail "lisa run used a symlinked runs dir"
	grep -q "not a private directory" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	[ -z "$(ls "$TESTDIR/elsewhere")" ] || fail "wrote through the symlink"
	rm "$XDG_RUNTIME_DIR/lisa/runs"
	mkdir -m 700 "$XDG_RUNTIME_DIR/lisa/runs"
	printf '{"id":"rdeadbeef","argv":["x"],"server":"x"}' >"$TESTDIR/elsewhere/r.json"
	ln -s "$TESTDIR/elsewhere/r.json" "$XDG_RUNTIME_DIR/lisa/runs/rdeadbeef.json"
	[ "$(L runs --json)" = "[]" ] || fail "followed a symlinked record: $(L runs --json)"
	printf '{"cmd":"run","id":"rdeadbeef"}\n' | socket_call | grep -q '"ok":false' ||
	    fail "helper read a symlinked record"
	printf '{"cmd":"run","id":"../../etc/passwd"}\n' | socket_call | grep -q 'bad run id' ||
	    fail "helper took a path as a run id"
}

# The classifier end to end: real tmux, the fake agent (tests/fake), lisa's
# verdicts as a user reads them (lisa wait / lisa status, @lisa_* options).

. "$ROOT/tests/integration/agents.sh"

test_claude_states_from_title_and_screen() {
	export FAKE_AGENT_NO_SESSION=1
	setup_agents
	t=$(date +%s)
	p=$(agent_window 1 claude)
	expect_passed "$p" "$t" just_started "" grace_period
	expect "$p" waiting_input prompt title_idle
	expect_shown "$p" "$PANE_AGENT $PANE_STATE $PANE_DETAIL" "claude waiting_input prompt"

	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress generating title_busy
	expect "$p" waiting_input prompt title_idle

	t=$(date +%s)
	T send-keys -t "$p" 'tool 3' Enter
	expect_passed "$p" "$t" in_progress tool
	expect "$p" waiting_input prompt

	T send-keys -t "$p" 'permission' Enter
	expect "$p" waiting_input permission title_idle_screen_dialog
	note "quiet -> waiting_input: $(latency "$p" waiting_input "title idle") ms after the title went idle; -> permission: $(latency "$p" waiting_input "title idle" permission) ms (debounce 500 ms + capture)"
	expect_shown "$p" "$PANE_DETAIL" permission
	# One that asks, told from one at its prompt: its window says
	# "asking", and the status line counts it apart.
	expect_shown main:1 "$WINDOW_STATE" asking
	expect_shown main '#{E:@lisa_n_asks}/#{E:@lisa_n_waiting}' 1/
	T send-keys -t "$p" y Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt

	T send-keys -t "$p" 'question' Enter
	expect "$p" waiting_input question title_idle_screen_dialog
	T send-keys -t "$p" 1 Enter
	expect "$p" waiting_input prompt

	T send-keys -t "$p" 'retry 4' Enter
	expect "$p" in_progress retrying title_busy
	expect "$p" waiting_input prompt

	# A crash: the title and screen stay frozen "busy"; the pane's death
	# (kept by lisa's remain-on-exit failed) says what happened.
	T send-keys -t "$p" 'work 60' Enter
	expect "$p" in_progress
	if ! tmux_at_least 3 3; then
		# 3.2a: lisa sets no remain-on-exit (tmux #2828); the pane goes
		# with its agent, and the events say so.
		[ -z "$(T show -pv -t "$p" remain-on-exit)" ] ||
		    fail "remain-on-exit set on $(tmux -V)"
		kill -9 "$(T display -p -t "$p" '#{pane_pid}')"
		until_ms 5000 closed_event "$p" ||
		    fail "no closed event: $(L events --json | tail -n 3)"
		note "SKIPPED on $(tmux -V): no dead pane to show crashed in (no remain-on-exit)"
		return 0
	fi
	[ "$(T show -pv -t "$p" remain-on-exit)" = failed ] || fail "remain-on-exit not set"
	kill -9 "$(T display -p -t "$p" '#{pane_pid}')"
	expect "$p" crashed
	if ! until_ms 5000 state_is "$p" crashed "signal 9" pane_dead_signal; then
		tmux_lost_death "$p" ||
		    fail "want crashed/signal 9, got: $(L status "$p")"
		note "crashed, no signal: tmux lost the SIGCHLD (no status in tmux either)"
		return 0
	fi
	expect_shown "$p" "$PANE_STATE $PANE_DETAIL" "crashed signal 9"
}

closed_event() { L events --json | grep -q "\"pane_id\":\"$1\",\"event\":\"closed\""; }

test_claude_exit_codes_and_trust() {
	setup_agents
	p=$(agent_window 1 claude --trust)
	expect "$p" waiting_input trust
	T send-keys -t "$p" 1 Enter
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'exit 3' Enter
	if tmux_at_least 3 3; then
		expect "$p" crashed "exit 3" pane_dead_status
	else
		note "3.2a: the pane of an agent that exits 3 closes (no remain-on-exit)"
	fi
	# Exit 0 closes a pane kept only on failure; with remain-on-exit on
	# the pane stays and shows completed.
	T new-window -d -t main:2 -n claude2
	T set -p -t main:2 remain-on-exit on
	T respawn-pane -k -t main:2 "$FAKE/claude"
	q=$(T display -p -t main:2 '#{pane_id}')
	expect "$q" waiting_input prompt
	T send-keys -t "$q" /exit Enter
	expect "$q" completed "exit 0" pane_dead_exit0
}

test_claude_print_mode() {
	setup_agents
	T set -g remain-on-exit on
	p=$(agent_window 1 claude -p)
	expect "$p" completed "exit 0" pane_dead_exit0
	q=$(agent_window 2 claude "-p --fail")
	expect "$q" crashed "exit 1" pane_dead_status
}

# An agent's first words can come before tmux's list of the new window's
# panes (on a busy machine they did: Codex says it is idle once, at boot).
# The helper is stopped while the window is made and Codex speaks, so the
# words are in its pipe before the list reply; they are the pane's still.
# At shipped defaults.
test_codex_first_words_before_its_pane_is_listed() {
	export HOME="$TESTDIR/home" FAKE_AGENT_LOG="$TESTDIR/agent.log"
	mkdir -p "$HOME"
	start_server main
	start_helper
	kill -STOP "$HELPER_PID"
	T new-window -d -t main:1 -n codex "$FAKE/codex"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 20000 grep -q " osc7501 state=idle" "$FAKE_AGENT_LOG" ||
	    { kill -CONT "$HELPER_PID"; fail "codex said nothing"; }
	kill -CONT "$HELPER_PID"
	L wait "$p" --until waiting_input --timeout 30 >/dev/null ||
	    fail "never waiting: $(L status "$p")"
	until_ms 15000 state_is "$p" waiting_input prompt codex_osc_idle ||
	    fail "its first words lost: $(L status "$p")"
	helper_said "pane $p: output before its listing, held" ||
	    fail "listed before it spoke: not the case of this test"
}

test_codex_states_from_osc7501() {
	setup_agents
	p=$(agent_window 1 codex)
	expect "$p" waiting_input prompt codex_osc_idle
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress generating codex_osc_working
	note "codex OSC 7501 working -> in_progress: $(latency "$p" in_progress "osc7501 state=working") ms"
	expect "$p" waiting_input prompt codex_osc_done
	note "codex OSC 7501 done -> waiting_input: $(latency "$p" waiting_input "osc7501 state=done") ms"
	T send-keys -t "$p" permission Enter
	expect "$p" waiting_input permission codex_osc_blocked
	note "codex OSC 7501 blocked -> waiting_input: $(latency "$p" waiting_input "osc7501 state=blocked") ms"
	T send-keys -t "$p" n Enter
	expect "$p" waiting_input prompt codex_osc_idle
	T send-keys -t "$p" 'retry 4' Enter
	expect "$p" in_progress retrying codex_osc_working
	expect "$p" waiting_input prompt codex_osc_done
	T send-keys -t "$p" error Enter
	expect "$p" waiting_input error codex_osc_error
	t=$(date +%s)
	T send-keys -t "$p" 'tool 3' Enter
	expect_passed "$p" "$t" in_progress tool codex_osc_working
	expect "$p" waiting_input prompt
	# Under a shell with OSC 133 marks, the exit code is known.
	T new-window -d -t main:2 "bash --norc"
	q=$(T display -p -t main:2 '#{pane_id}')
	T send-keys -t "$q" "eval \"\$('$LISA' shell-init bash)\"; clear" Enter
	sleep 0.3
	T send-keys -t "$q" "$FAKE/codex" Enter
	expect "$q" waiting_input prompt
	T send-keys -t "$q" 'exit 4' Enter
	# The shell's D;4 mark, or the pidfd when it beats bash to the zombie.
	expect "$q" crashed "exit 4"
	until_ms 2000 sh -c "'$LISA' -L '$SOCK' status '$q' --json | grep -q '\"osc133_exit\":{\"value\":4'" ||
	    fail "no OSC 133 mark seen: $(L status "$q" --json)"
	# Never "completed" on the way: Codex says clear just before it exits.
	L events | grep "$q" | grep -q completed && fail "flapped: $(L events | grep "$q")"
	return 0
}

# With its session file, Claude's state comes from it (title in step).
test_claude_states_from_session_file() {
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt claude_session_idle
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress generating claude_session_busy
	note "session file busy -> in_progress: $(latency "$p" in_progress "session busy") ms"
	expect "$p" waiting_input prompt claude_session_idle
	T send-keys -t "$p" permission Enter
	expect "$p" waiting_input permission claude_session_waiting
	note "session file waiting -> waiting_input: $(latency "$p" waiting_input "session waiting") ms"
	T send-keys -t "$p" n Enter
	expect "$p" waiting_input prompt claude_session_idle
	T send-keys -t "$p" question Enter
	expect "$p" waiting_input question claude_session_waiting
	T send-keys -t "$p" 1 Enter
	expect "$p" waiting_input prompt claude_session_idle
}

# An agent met in the middle of its execve (its name set, its environment
# not yet: seen on a busy CI machine) has its files under its own HOME,
# not lisa's. The fake holds that moment for 0.4 s (lisa looks again
# while the process is young), then for 1.5 s (past that window, as a
# slow start under load does: lisa takes it, and its HOME once it has one).
test_claude_met_mid_exec_finds_its_own_home() {
	linux_only "the agent's HOME is in its environment, from /proc"
	setup_agents
	other="$TESTDIR/other-home"
	mkdir -p "$other"
	T new-window -d -t main:1 -n claude \
	    "env -i $FAKE/claude --late-env 0.4 HOME=$other PATH=/usr/bin:/bin"
	T new-window -d -t main:2 -n slow \
	    "env -i $FAKE/claude --late-env 1.5 HOME=$other PATH=/usr/bin:/bin"
	q=$(T display -p -t main:2 '#{pane_id}')
	expect "$q" waiting_input prompt claude_session_idle
	pid=$(L status "$q" --json | jget "d['signals']['process']['agent_pid']")
	[ -e "$other/.claude/sessions/$pid.json" ] ||
	    fail "the slow one's session file is not in its HOME"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt claude_session_idle
	pid=$(L status "$p" --json | jget "d['signals']['process']['agent_pid']")
	[ -e "$other/.claude/sessions/$pid.json" ] ||
	    fail "the session file is not in the agent's HOME"
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress generating claude_session_busy
}

# SIGKILL leaves the session file "busy" and the title frozen busy.
test_claude_sigkill_leaves_stale_busy_file() {
	setup_agents
	T new-window -d -t main:1 "bash --norc"
	p=$(T display -p -t main:1 '#{pane_id}')
	T send-keys -t "$p" "$FAKE/claude" Enter
	expect "$p" waiting_input prompt claude_session_idle
	T send-keys -t "$p" 'work 60' Enter
	expect "$p" in_progress generating claude_session_busy
	pid=$(L status "$p" --json | jget "d['signals']['process']['agent_pid']")
	# Killed when the spinner line is longer than the line under it (the
	# cursor's column): bash's "Killed" lands inside its text on screen
	# ("tokensKilled"), and right after a cursor move in the bytes
	# ("\033[1AKilled"). (A load that made this test slower made it fail.)
	until_ms 20000 sh -c "tmux -L '$SOCK' capture-pane -p -t '$p' | grep -q '[0-9]\{3\} tokens'" ||
	    fail "no long spinner line: $(T capture-pane -p -t "$p" | grep tokens)"
	kill -9 "$pid"
	expect "$p" crashed "signal 9"
	T capture-pane -p -t "$p" | grep -q "[a-z]Killed" ||
	    fail "the report is not inside the spinner's text: $(T capture-pane -p -t "$p" | grep Killed)"
	grep -q '"status": "busy"' "$HOME/.claude/sessions/$pid.json" ||
	    fail "the stale file is not there to mislead"
	note "$(L status "$p"); file left: status busy"
}

# A corrupt session file and no title: the signal is named as failing.
test_degraded_when_session_file_corrupt() {
	export FAKE_AGENT_NO_TITLE=1
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt claude_session_idle
	T send-keys -t "$p" corrupt Enter
	expect "$p" degraded "" session_file_unreadable
	L status "$p" --json | grep -q '"failed":true' || fail "signal not marked failed"
	# The helper is fine, and so are the other panes.
	q=$(agent_window 2 codex)
	expect "$q" waiting_input prompt codex_osc_idle
}

test_stuck_when_silent_and_idle_cpu() {
	setup_agents 3
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" hang Enter
	expect "$p" in_progress
	expect "$p" stuck "" stale_despite_working_state
	note "stuck after the 3 s test threshold: $(L status "$p")"
	# Any output brings it back.
	T send-keys -t "$p" x
	expect "$p" in_progress
}

test_agent_killed_under_shell() {
	setup_agents
	T new-window -d -t main:1 "bash --norc"
	p=$(T display -p -t main:1 '#{pane_id}')
	T send-keys -t "$p" "$FAKE/claude" Enter
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'work 60' Enter
	expect "$p" in_progress
	pid=$(L status "$p" --json | jget "d['signals']['process']['agent_pid']")
	kill -9 "$pid"
	# Title and screen frozen busy; bash says "Killed".
	expect "$p" crashed "signal 9"
	note "$(L status "$p")"
}

# A wrapper that outlives its agent and says how it died (Copilot's node
# loader: "... was terminated by signal SIGKILL.", then exit 1): crashed,
# and never "completed" on the way, though the words came while the
# wrapper lived (only a screen read finds them then).
test_wrapper_reports_its_childs_death() {
	setup_agents
	mkdir -p "$TESTDIR/bin"
	cat >"$TESTDIR/bin/copilot" <<SH
#!/bin/sh
sleep 60 &
echo \$! >"$TESTDIR/child.pid"
printf 'working\n'
wait \$!
# Drawn as a TUI draws: a cursor move for the space, so the words are
# whole on the screen only.
[ \$? = 137 ] && printf 'native binary at /x was terminated by\033[Csignal SIGKILL.\n' >&2
sleep 0.5
exit 1
SH
	chmod +x "$TESTDIR/bin/copilot"
	T new-window -d -t main:1 "bash --norc"
	p=$(T display -p -t main:1 '#{pane_id}')
	T send-keys -t "$p" "$TESTDIR/bin/copilot" Enter
	until_ms 10000 sh -c "$LISA -L $SOCK status $p --json | grep -q '\"agent\": *\"copilot\"'" ||
	    fail "not seen as copilot: $(L status "$p")"
	until_ms 5000 test -s "$TESTDIR/child.pid" || fail "no child"
	since=$(date +%s)
	kill -9 "$(cat "$TESTDIR/child.pid")"
	# The wrapper's own exit code may be read first (exit 1): crashed,
	# either way.
	expect "$p" crashed
	seen=$(L events --json | python3 -c '
import json, sys
print(" ".join(e["to"] for e in map(json.loads, sys.stdin)
               if e.get("pane_id") == sys.argv[1] and e.get("to")))' "$p")
	case "$seen" in
	*completed*) fail "completed on the way: $seen" ;;
	esac
	note "$seen: $(L status "$p")"
}

test_status_targets_not_found_and_wait_timeout() {
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	# Targets as tmux reads them.
	[ "$(L status main:1 --json | jget "d['pane_id']")" = "$p" ] || fail "main:1"
	[ "$(L status main:1.0 --json | jget "d['state']")" = waiting_input ] || fail "main:1.0"
	L status %9999 --json >"$TESTDIR/out" && fail "status of a missing pane exited 0"
	grep -q '"state":"not_found"' "$TESTDIR/out" || fail "$(cat "$TESTDIR/out")"
	L status nosuchsession >/dev/null && fail "missing session"
	# wait: timeout is exit 1 with the current status; not_found is 2
	# unless asked for.
	L wait "$p" --until crashed --timeout 0.5 >"$TESTDIR/out"
	[ $? -eq 1 ] || fail "wait timeout exit code"
	grep -q '"state":"waiting_input"' "$TESTDIR/out" || fail "$(cat "$TESTDIR/out")"
	L wait %9999 --until in_progress --timeout 1 >/dev/null
	[ $? -eq 2 ] || fail "wait on a missing pane"
	L wait %9999 --until not_found >/dev/null || fail "until not_found"
	L wait "$p" --until bogus >/dev/null 2>"$TESTDIR/err"
	[ $? -eq 2 ] || fail "unknown state accepted"
	# The error names the bad value and the good ones.
	grep -q "unknown state: bogus (use .*waiting_input.*working" "$TESTDIR/err" ||
	    fail "error: $(cat "$TESTDIR/err")"
	# The status line's words work as well as the JSON's state names.
	L wait "$p" --until waiting --timeout 5 >/dev/null || fail "until waiting"
	L wait "$p" --until done,working --timeout 0.3 >/dev/null
	[ $? -eq 1 ] || fail "until done,working did not time out"
	L wait %9999 --until gone >/dev/null || fail "until gone"
	# A pane that goes away while waited for.
	L wait "$p" --until in_progress --timeout 5 >"$TESTDIR/out" &
	w=$!
	sleep 0.3
	T kill-window -t main:1
	wait $w
	[ $? -eq 2 ] || fail "wait on a pane that closed"
	grep -q not_found "$TESTDIR/out" || fail "$(cat "$TESTDIR/out")"
	# The output rate is a signal.
	q=$(agent_window 2 claude)
	expect "$q" waiting_input prompt
	T send-keys -t "$q" 'work 3' Enter
	expect "$q" in_progress
	sleep 1.5
	r=$(L status "$q" --json | jget "d['signals']['output']['rate_bps']")
	[ "$r" -gt 0 ] || fail "rate $r while working"
	note "output rate of a working (fake) Claude: $r bytes/s"
}

# No title, no session file, no hooks: the transcript tail alone.
test_claude_states_from_transcript() {
	# (with a session file its cwd names the directory on any system)
	needs_proc_cwd "a transcript without a session file: its directory is the agent's cwd"
	export FAKE_AGENT_NO_SESSION=1 FAKE_AGENT_NO_TITLE=1 FAKE_AGENT_TRANSCRIPT=1
	setup_agents
	mkdir -p "$TESTDIR/proj"
	T new-window -d -t main:1 -c "$TESTDIR/proj" "$FAKE/claude"
	p=$(T display -p -t main:1 '#{pane_id}')
	sleep 1.5
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt claude_transcript_turn_done
	note "transcript turn done -> waiting_input: $(latency "$p" waiting_input "transcript turn_duration") ms"
	T send-keys -t "$p" error Enter
	expect "$p" in_progress
	expect "$p" waiting_input error claude_transcript_api_error
	# A dialog leaves no entry: the screen tells.
	T send-keys -t "$p" permission Enter
	expect "$p" waiting_input permission screen_dialog
	T send-keys -t "$p" n Enter
	expect "$p" waiting_input prompt claude_transcript_interrupted
	ls "$HOME/.claude/projects/"*/0000fa4e-*.jsonl >/dev/null || fail "no transcript written"
}

# Alive but stopped: an agent whose API said 429 sits at its prompt,
# perhaps for hours. Claude says so in its transcript (error rate_limit)
# and in StopFailure; Codex only on its screen, after OSC 7501's error.
test_limit_is_not_a_prompt() {
	export FAKE_AGENT_TRANSCRIPT=1
	mkdir -p "$TESTDIR/bin"
	printf '#!/bin/sh\necho "$@" >> "%s/desktop.log"\n' "$TESTDIR" >"$TESTDIR/bin/notify-send"
	chmod +x "$TESTDIR/bin/notify-send"
	export PATH="$TESTDIR/bin:$PATH"
	setup_agents
	T set -g @lisa-notify-crashed on
	T set -g @lisa-notify-cooldown 0
	L reload >/dev/null
	c=$(agent_window 1 claude)
	x=$(agent_window 2 codex)
	expect "$c" waiting_input prompt
	expect "$x" waiting_input
	T send-keys -t "$c" limit Enter
	T send-keys -t "$x" limit Enter
	expect "$c" waiting_input limit
	expect "$x" waiting_input limit screen_limit
	L status "$c" --json | jget "d['reason']" | grep -q "claude_transcript_limit\|claude_session_idle" ||
	    fail "claude's reason: $(L status "$c")"
	[ "$(L status "$c" --json | jget "d['activity']")" = idle ] || fail "activity: $(L status "$c")"
	# Told as a crash is (@lisa-notify-crashed on, no client: the desktop).
	until_ms 5000 grep -q "claude hit a limit main:1" "$TESTDIR/desktop.log" ||
	    fail "no notification: $(cat "$TESTDIR/desktop.log" 2>/dev/null)"
	until_ms 5000 grep -q "codex hit a limit main:2" "$TESTDIR/desktop.log" ||
	    fail "no notification: $(cat "$TESTDIR/desktop.log" 2>/dev/null)"
	# The user types again: it is a prompt once more.
	T send-keys -t "$c" 'work 3' Enter
	expect "$c" in_progress
	expect "$c" waiting_input prompt
	note "claude: $(L status "$c"); codex: $(L status "$x")"
}

# A title set before the agent started (here by the shell) is not the
# agent's: an agent that sets none is judged by its output, not by it.
test_title_from_before_the_agent_is_not_its() {
	export FAKE_AGENT_NO_SESSION=1 FAKE_AGENT_NO_TITLE=1
	setup_agents
	printf '%s\n' "printf '\\033]2;\\342\\234\\263 old title\\033\\\\'" \
	    "sleep 1.5" "exec '$FAKE/claude'" >"$TESTDIR/pre.sh"
	T new-window -d -t main:1 "sh '$TESTDIR/pre.sh'"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 5000 sh -c "'$LISA' -L '$SOCK' status '$p' --json | grep -q claude" ||
	    fail "agent not seen: $(L status "$p")"
	sleep 1.5
	T send-keys -t "$p" 'work 4' Enter
	expect "$p" in_progress
	sleep 1.5
	[ "$(L status "$p" --json | jget "d['state']")" = in_progress ] ||
	    fail "left in_progress while working: $(L status "$p")"
	L status "$p" --json | grep -q '"agent_set":false' ||
	    fail "old title taken as the agent's: $(L status "$p" --json)"
	return 0
}

# The same title, set by a wrapper before the agent began and by the agent
# itself once it runs: the second is the agent's. (lisa took an unchanged
# title for no news, and the agent's own went unread: the generic suite's
# idle agent left in_progress among 300.)
test_title_the_agent_sets_again_is_its() {
	export FAKE_AGENT_NO_SESSION=1
	setup_agents
	printf '%s\n' "printf '\\033]0;\\342\\234\\263 Claude Code\\007'" \
	    "sleep 1.5" "exec '$FAKE/claude'" >"$TESTDIR/pre.sh"
	T new-window -d -t main:1 "sh '$TESTDIR/pre.sh'"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt title_idle
	L status "$p" --json | grep -q '"agent_set":true' ||
	    fail "the agent's own title not taken: $(L status "$p" --json)"
}

# An agent already running when the helper starts: its title, known only
# through tmux, is trusted.
test_title_of_an_agent_running_before_the_helper() {
	export FAKE_AGENT_NO_SESSION=1 HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T new-window -d -t main:1 "$FAKE/claude"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 5000 sh -c "tmux -L '$SOCK' display -p -t '$p' '#{pane_title}' | grep -q Claude" ||
	    fail "the fake agent set no title"
	sleep 1
	start_helper
	expect "$p" waiting_input prompt title_idle
	L status "$p" --json | grep -q '"agent_set":true' ||
	    fail "title not taken as the agent's: $(L status "$p" --json)"
}

# A new pane whose agent set its title before tmux listed the pane for the
# helper: that output is not the helper's to read (it comes before the
# pane is known), so the title is known only from the list, and it is the
# agent's. (The stream tests lost their first verdict to this under load:
# in_progress/output_quiet for 8 s at a prompt.) The helper is held while
# the title is set. Set by the agent's wrapper (a sh that execs it): the
# fake's own title would come after the list.
test_title_of_a_new_pane_set_before_it_was_listed() {
	export FAKE_AGENT_NO_SESSION=1 FAKE_AGENT_NO_TITLE=1
	setup_agents
	printf '%s\n' "printf '\\033]2;\\342\\234\\263 Claude Code\\033\\\\'" \
	    "exec '$FAKE/claude'" >"$TESTDIR/wrap.sh"
	kill -STOP "$HELPER_PID"
	T new-window -d -t main:1 "sh '$TESTDIR/wrap.sh'"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 2000 sh -c "tmux -L '$SOCK' display -p -t '$p' '#{pane_title}' | grep -q Claude"
	rc=$?
	kill -CONT "$HELPER_PID"
	[ $rc = 0 ] || fail "no title"
	expect "$p" waiting_input prompt title_idle
	L status "$p" --json | grep -q '"agent_set":true' ||
	    fail "title not taken as the agent's: $(L status "$p" --json)"
}

# lisa reload frees every agent profile and loads them again: each pane
# must find its agent's anew (the helper once kept the freed one, and hung
# in regexec on its screen patterns after TPM's prefix-I).
test_reload_keeps_agents() {
	setup_agents
	p=$(agent_window 1 claude)
	q=$(agent_window 2 codex)
	expect "$p" waiting_input prompt
	L reload >/dev/null || fail "reload"
	L reload >/dev/null || fail "second reload"
	T send-keys -t "$p" 'permission' Enter
	expect "$p" waiting_input permission
	T send-keys -t "$p" n Enter
	T send-keys -t "$q" 'work 3' Enter
	expect "$q" in_progress
	expect "$q" waiting_input prompt
	[ "$(pane_field "$p" agent)" = claude ] || fail "agent: $(pane_field "$p" agent)"
}

# A helper started while an agent shows a question: lisa says question
# once it has read the screen, and never a guessed "permission" on the way
# (the detail stays empty until the screen is read).
test_restart_on_a_question_no_detail_flip() {
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" question Enter
	expect "$p" waiting_input question
	L stop >/dev/null
	wait_helper_exit 10000 || fail "helper did not stop"
	restart=$(now_ms)	# (the wall clock, as ts_ms)
	start_helper
	until_ms 10000 state_is "$p" waiting_input question "" ||
	    fail "after the restart: $(L status "$p")"
	details=$(L events --json | python3 -c "
import json, sys
print(' '.join('%s/%s' % (e.get('to'), e.get('detail')) for e in map(json.loads, sys.stdin)
      if e.get('event') == 'transition' and e.get('pane_id') == '$p'
      and e.get('ts_ms', 0) >= $restart))")
	[ -n "$details" ] || fail "no transition after the restart: $(L events)"
	case "$details" in
	*permission*) fail "a guessed detail on the way: $details" ;;
	esac
	note "after the restart: $details"
}

# A turn that leaves a background shell running is not done. Claude 2.1.332
# says so in its session file ("shell"); an older Claude only in its
# transcript (the tool_result, then its own <task-notification>). lisa says
# in_progress/background: no waiting notification, never stuck however
# silent; when the shell ends and Claude's next turn does, a prompt.
test_background_work_is_not_done() {
	export FAKE_AGENT_TRANSCRIPT=1
	mkdir -p "$TESTDIR/bin"
	printf '#!/bin/sh\necho "$(date +%%s.%%N)" "$@" >> "%s/desktop.log"\n' "$TESTDIR" >"$TESTDIR/bin/notify-send"
	chmod +x "$TESTDIR/bin/notify-send"
	export PATH="$TESTDIR/bin:$PATH"
	setup_agents 2	# @lisa-stale 2 s, shorter than the background work
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	L reload >/dev/null
	c=$(agent_window 1 claude)
	o=$(T new-window -d -P -F '#{pane_id}' -t main:2 -n old \
	    "env FAKE_AGENT_OLD_SESSION=1 $FAKE/claude")
	expect "$c" waiting_input prompt
	expect "$o" waiting_input prompt
	# The work runs until the checks are done (they took 8 s once under
	# ASan beside CPU hogs), and at least 4 s: longer than @lisa-stale.
	bg0=$(now_ms)
	T send-keys -t "$c" "background $TESTDIR/bg-done" Enter
	T send-keys -t "$o" "background $TESTDIR/bg-done" Enter
	expect "$c" in_progress background claude_session_shell
	expect "$o" in_progress background claude_background_tasks
	expect_shown "$c" "$PANE_DETAIL" background
	until_ms 10000 sh -c "[ \$((\$(date +%s%N) / 1000000 - $bg0)) -ge 4000 ]"
	touch "$TESTDIR/bg-done"
	# The shell ends; Claude reads it in a turn of its own; then a prompt.
	expect "$c" waiting_input prompt
	expect "$o" waiting_input prompt
	# Never stuck, never a prompt while the shell ran (from the second
	# the work was asked for: a start slowed by a loaded machine may be
	# "stuck" for a moment under this test's 2 s @lisa-stale).
	for p in "$c" "$o"; do
		seen=$(L events --json --since "$(date -u -d "@$((bg0 / 1000))" +%Y-%m-%dT%H:%M:%S)" | python3 -c '
import json, sys
print(" ".join(e["to"] + "/" + (e.get("detail") or "")
               for e in map(json.loads, sys.stdin)
               if e.get("pane_id") == sys.argv[1] and e.get("to")))' "$p")
		case "$seen" in
		*in_progress/background*) ;;
		*) fail "$p: never background: $seen" ;;
		esac
		case "$seen" in
		*stuck*) fail "$p: stuck while its shell ran: $seen" ;;
		esac
		if echo "$seen" | grep -q 'waiting_input/prompt in_progress/background'; then
			# What lisa read, and when, for that pane.
			helper_log | grep -E "pane ${p}: .*(->|task|transcript|session)" >&2
			fail "$p: a prompt just before background: $seen"
		fi
	done
	# Told once, at the real end of each turn: not when the shell started.
	until_ms 5000 sh -c "[ \$(grep -c 'claude waits' '$TESTDIR/desktop.log') -ge 2 ]" ||
	    fail "not notified at the end: $(cat "$TESTDIR/desktop.log" 2>/dev/null)"
	if [ "$(grep -c 'claude waits' "$TESTDIR/desktop.log")" != 2 ]; then
		# Which moment was told: every verdict and notice of both.
		helper_log | grep -E "pane %(${c#%}|${o#%}): .*(->|notified|task)" >&2
		fail "notified while background work ran: $(cat "$TESTDIR/desktop.log")"
	fi
	note "events: $seen"
}

# Gemini CLI's chat log (the fake writes it as 0.61.0 does): its tokens,
# and the daily quota it gives up on. The quota dialog keeps a Working
# title over a silent pane; once stopped, the error line stays on screen
# but only the log's last record says "limit".
test_gemini_context_and_limit() {
	needs_proc_cwd "the log's project is the agent's cwd"
	setup_agents
	mkdir -p "$TESTDIR/gproj"
	T new-window -d -t main:1 -c "$TESTDIR/gproj" "$FAKE/gemini"
	g=$(T display -p -t main:1 '#{pane_id}')
	expect "$g" waiting_input prompt
	T send-keys -t "$g" 'usage 524288' Enter
	expect "$g" waiting_input prompt
	until_ms 5000 sh -c "$LISA -L $SOCK status $g --json | grep -q '\"percent\": *50'" ||
	    fail "context: $(L status "$g" --json)"
	ctx=$(L status "$g" --json | jget "'%(used)d/%(window)d/%(percent)d' % d['context']")
	[ "$ctx" = "524288/1048576/50" ] || fail "context: $ctx"
	expect_shown "$g" "$PANE_CTX" 50
	# The quota: the dialog, then the error it leaves.
	T send-keys -t "$g" limit Enter
	expect "$g" waiting_input limit title_busy_screen_limit
	T send-keys -t "$g" 2 Enter
	expect "$g" waiting_input limit gemini_chat_limit
	# A new turn is no limit, though the error is still on the screen.
	T send-keys -t "$g" 'work 3' Enter
	expect "$g" in_progress
	expect "$g" waiting_input prompt title_idle
	T capture-pane -p -t "$g" | grep -q "exhausted your daily quota" ||
	    fail "the old error should still be on screen"
	# "Keep trying" that succeeds: no limit either.
	T send-keys -t "$g" limit Enter
	expect "$g" waiting_input limit title_busy_screen_limit
	T send-keys -t "$g" 1 Enter
	expect "$g" waiting_input prompt
	note "gemini: $(L status "$g")"
}

# Qwen Code (the fake, as 0.15.10 behaves): a title that never changes,
# so its screen tells; its chat log gives the tokens, of its own 128k
# window for a model it does not know.
test_qwen_states_and_context() {
	needs_proc_cwd "the log's directory is the agent's cwd"
	setup_agents
	mkdir -p "$TESTDIR/qproj"
	T new-window -d -t main:1 -c "$TESTDIR/qproj" "$FAKE/qwen"
	q=$(T display -p -t main:1 '#{pane_id}')
	expect "$q" waiting_input prompt screen_prompt
	T send-keys -t "$q" 'work 3' Enter
	expect "$q" in_progress generating
	expect "$q" waiting_input prompt screen_prompt
	T send-keys -t "$q" permission Enter
	expect "$q" waiting_input permission screen_dialog
	T send-keys -t "$q" 1 Enter
	expect "$q" in_progress
	expect "$q" waiting_input prompt
	T send-keys -t "$q" permission Enter
	expect "$q" waiting_input permission
	T send-keys -t "$q" 4 Enter
	expect "$q" waiting_input prompt
	T send-keys -t "$q" 'usage 100000' Enter
	until_ms 8000 sh -c "$LISA -L $SOCK status $q --json | grep -q '\"percent\": *76'" ||
	    fail "context: $(L status "$q" --json)"
	ctx=$(L status "$q" --json | jget "'%(used)d/%(window)d/%(percent)d' % d['context']")
	[ "$ctx" = "100000/131072/76" ] || fail "context: $ctx"
	note "qwen: $(L status "$q")"
}

# A limit an agent waits out by itself (Codex given a long retry-after:
# "Server is busy, reconnecting", 429 on its screen) is shown as a limit
# once it has lasted @lisa-limit-wait (here 3 s, an option users have;
# the default is a minute); a short retry stays "retrying".
test_long_limit_wait_is_a_limit() {
	setup_agents
	T set -g @lisa-limit-wait 3
	L reload >/dev/null
	p=$(agent_window 1 codex)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'limitwait 12' Enter
	expect "$p" in_progress retrying
	expect "$p" waiting_input limit limit_waited_out
	L status "$p" --json | jget "d['activity']" | grep -qx idle ||
	    fail "a limit waited out is not work: $(L status "$p")"
	# Over: at its prompt again.
	L wait "$p" --until waiting_input --timeout 20 >/dev/null
	expect "$p" waiting_input prompt
	# A short retry stays a retry.
	T send-keys -t "$p" 'retry 2' Enter
	expect "$p" in_progress retrying
	passed_since "$p" "$(date +%s)" waiting_input limit && fail "a short retry called a limit"
	return 0
}

# A process's name and its arguments are both free text, and a name may
# hold spaces and numbers (anyone may write /proc/self/comm): a wrapper
# named "claude 7 x" is not Claude, and the Codex it runs under python3
# (named by its arguments) is the pane's agent. The generic backend reads
# both from one line of ps (name, pid again, arguments): a split at the
# first number would make the wrapper Claude; and it keeps to one run.
test_names_with_spaces_and_numbers() {
	setup_agents
	T new-window -d -t main:1 -n wrap "python3 -c 'import subprocess, sys
open(\"/proc/self/comm\", \"w\").write(\"claude 7 x\")
sys.exit(subprocess.call([\"python3\", sys.argv[1]]))' $FAKE/codex"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt
	[ "$(L status "$p" --json | jget "d['agent']")" = codex ] ||
	    fail "the agent: $(L status "$p" --json)"
	[ "$(cat "/proc/$(T display -p -t "$p" '#{pane_pid}')/comm")" = "claude 7 x" ] ||
	    fail "the wrapper's name was not set"
	T send-keys -t "$p" 'work 1' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	[ "$(L status "$p" --json | jget "d['agent']")" = codex ] ||
	    fail "the agent after a turn: $(L status "$p" --json)"
	helper_said "no pid after the name" && fail "ps split a line in two runs"
	return 0
}

# Cline CLI (the fake, as 3.0.65 behaves): its session file names no
# process of the pane's (its pid is Cline's daemon's) and says "running",
# "pending" or "idle"; its spinner turns over its dialogs, so output never
# stops while it asks.

. "$ROOT/tests/integration/agents.sh"

# A Cline window N in directory DIR of the test's own; prints the pane.
cline_window() {
	mkdir -p "$TESTDIR/$2"
	T new-window -d -t "main:$1" -n "cline$1" -c "$TESTDIR/$2" "$FAKE/cline"
	T display -p -t "main:$1" '#{pane_id}'
}

# Its session file, taken by the pane working in its directory; its
# states; a permission answered through lisa (token, key, once); a
# question under a turning spinner.
test_cline_session_file_and_dialogs() {
	needs_proc_cwd "a session is matched by its directory"
	setup_agents
	p=$(cline_window 1 cproj)
	expect "$p" waiting_input prompt
	[ "$(L status "$p" --json | jget "d['agent']")" = cline ] ||
	    fail "not cline: $(L status "$p" --json)"
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress generating cline_session_busy
	expect "$p" waiting_input prompt cline_session_idle
	sid=$(L status "$p" --json | jget "d['agent_session']")
	[ -f "$HOME/.cline/data/sessions/$sid/$sid.json" ] ||
	    fail "agent_session $sid is not its file's"
	T send-keys -t "$p" permission Enter
	expect "$p" waiting_input permission cline_session_waiting
	until_ms 8000 sh -c "'$LISA' -L '$SOCK' status $p --json | grep -q '\"token\"'" ||
	    fail "no question read: $(L status "$p" --json)"
	q=$(L status "$p" --json)
	tok=$(echo "$q" | jget "d['question']['token']")
	[ "$(echo "$q" | jget "d['question']['subject']")" = "touch cline-ran" ] ||
	    fail "subject: $q"
	L answer "$p" allow --expect "$tok" >/dev/null || fail "answer refused"
	until_ms 5000 test -f "$TESTDIR/cproj/cline-ran" || fail "the tool never ran"
	# Once: the same token again is refused, nothing typed.
	L answer "$p" allow --expect "$tok" >/dev/null 2>&1 && fail "a replay answered"
	[ "$(grep -c ' cline approved' "$FAKE_AGENT_LOG")" = 1 ] ||
	    fail "approved $(grep -c ' cline approved' "$FAKE_AGENT_LOG") times"
	expect "$p" waiting_input prompt
	# Its question leaves the file "running" and its spinner turning.
	T send-keys -t "$p" question Enter
	expect "$p" waiting_input question screen_dialog_spinner
	T send-keys -t "$p" Escape
	expect "$p" waiting_input prompt cline_session_idle
	grep -q ' cline dismissed' "$FAKE_AGENT_LOG" || fail "the question stayed"
}

# Two Clines in two directories, one daemon's pid in both files: each
# pane takes the session of its own directory, and /clear's new one.
test_cline_sessions_by_directory() {
	needs_proc_cwd "a session is matched by its directory"
	setup_agents
	a=$(cline_window 1 one)
	b=$(cline_window 2 two)
	expect "$a" waiting_input prompt
	expect "$b" waiting_input prompt
	T send-keys -t "$b" 'work 1' Enter
	T send-keys -t "$a" 'work 1' Enter
	expect "$a" waiting_input prompt cline_session_idle
	expect "$b" waiting_input prompt cline_session_idle
	sa=$(L status "$a" --json | jget "d['agent_session']")
	sb=$(L status "$b" --json | jget "d['agent_session']")
	[ "$sa" != "$sb" ] || fail "both panes named $sa"
	grep -q "\"cwd\": \"$TESTDIR/one\"" "$HOME/.cline/data/sessions/$sa/$sa.json" ||
	    fail "pane one has the other's session"
	T send-keys -t "$a" /clear Enter
	T send-keys -t "$a" 'work 1' Enter
	until_ms 8000 sh -c "[ \"\$('$LISA' -L '$SOCK' status $a --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"agent_session\"])')\" != '$sa' ]" ||
	    fail "after /clear still $sa"
	[ "$(L status "$b" --json | jget "d['agent_session']")" = "$sb" ] ||
	    fail "/clear in one moved two's session"
}

# A full-screen agent killed while it streams: its shell's "Killed" is
# written over what the agent left on its input line ("Killedything..."),
# and lisa may not have heard it in the stream, paused for the flow
# (pane-mute.c): the screen tmux is asked for at the death, colours kept,
# tells it. Three times, so that a paused stream is among them.
cline_killed_mid_stream() {
	mkdir -p "$TESTDIR/k"
	p=$(T new-window -d -P -F '#{pane_id}' -t main:1 -c "$TESTDIR/k" \
	    "PS1='$ ' bash --norc --noprofile -i")
	for i in 1 2 3; do
		T send-keys -t "$p" "$FAKE/cline" Enter
		expect "$p" waiting_input prompt
		T send-keys -t "$p" 'stream 30' Enter
		expect "$p" in_progress
		sleep 1
		pid=$(pgrep -P "$(T display -p -t "$p" '#{pane_pid}')" -f cline)
		[ -n "$pid" ] || fail "no cline under $p"
		kill -9 "$pid"
		expect "$p" crashed "signal 9"
		T send-keys -t "$p" clear Enter
		until_ms 5000 sh -c "! pgrep -P $(T display -p -t "$p" '#{pane_pid}') -f cline >/dev/null" ||
		    fail "cline still there"
	done
	note "$(helper_log | grep -c 'reports signal 9') reports: $(helper_log | grep -o '[a-z]* reports signal 9' | sort | uniq -c | tr '\n' ' ')"
}

# Its exit told by a pidfd (Linux), the shell having reaped it.
test_cline_killed_mid_stream() {
	setup_agents
	cline_killed_mid_stream
}

# The same death found by a look at the process tree (no pidfd: the
# generic backend; or a look that came before the pidfd's word, as on a
# busy CI machine where it was "completed"): tmux is asked the same way.
test_cline_killed_mid_stream_tree_look() {
	LISAD_NO_PIDFD=1 setup_agents
	cline_killed_mid_stream
	helper_log | grep -q 'agent gone from the tree' ||
	    fail "its death was not found by a look"
}

# Killed while it works and started again at once in the same pane: the
# killed one's session file still says "running", and was begun within a
# second or two of the new one's start (the slack a start time read from
# ps in whole seconds needs: the generic backend's CI run had the new
# Cline shown working at its prompt). It is the last run's, not the new
# one's: the new Cline is at its prompt.
test_cline_killed_and_started_again_at_once() {
	setup_agents
	mkdir -p "$TESTDIR/k"
	p=$(T new-window -d -P -F '#{pane_id}' -t main:1 -c "$TESTDIR/k" \
	    "PS1='$ ' bash --norc --noprofile -i")
	T send-keys -t "$p" "$FAKE/cline" Enter
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'stream 30' Enter
	expect "$p" in_progress
	until_ms 5000 sh -c "grep -rqs running '$HOME/.cline/data/sessions'" ||
	    fail "no running session: $(find "$HOME/.cline" -name '*.json' | head -3)"
	pid=$(pgrep -P "$(T display -p -t "$p" '#{pane_pid}')" -f cline)
	kill -9 "$pid"
	T send-keys -t "$p" "$FAKE/cline" Enter
	expect "$p" waiting_input prompt
	# (for as long as its files are looked at: it once went "working")
	busy() { [ "$(pane_field "$p" state)" = in_progress ]; }
	until_ms 4000 busy && fail "the new Cline shown working: $(L status "$p")"
	L status "$p" --json >"$TESTDIR/st"
	[ "$(jget "d['state']" <"$TESTDIR/st")" = waiting_input ] ||
	    fail "$(cat "$TESTDIR/st")"
}

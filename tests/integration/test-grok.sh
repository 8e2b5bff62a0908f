# Grok CLI (the fake, as 0.0.34 behaves): numbered options that only the
# arrows and Enter pick, the selected one in colour alone; a failed turn's
# error right over its input box.

. "$ROOT/tests/integration/agents.sh"

# A token read from its screen; each answer by arrows to the option the
# user named, Enter once the screen shows it selected, never a digit; the
# conversation's quoted "3. No" (coloured) above the dialog fools nothing.
test_grok_dialog_answered_with_arrows() {
	setup_agents
	mkdir -p "$TESTDIR/g"
	T new-window -d -t main:1 -n grok -c "$TESTDIR/g" "$FAKE/grok"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt
	[ "$(L status "$p" --json | jget "d['agent']")" = grok ] ||
	    fail "not grok: $(L status "$p" --json)"
	for want in deny allow always; do
		T send-keys -t "$p" permission Enter
		expect "$p" waiting_input permission
		until_ms 8000 sh -c "'$LISA' -L '$SOCK' status $p --json | grep -q '\"token\"'" ||
		    fail "no question read: $(L status "$p" --json)"
		q=$(L status "$p" --json)
		[ "$(echo "$q" | jget "d['question']['subject']")" = "touch grok-ran" ] ||
		    fail "subject: $q"
		tok=$(echo "$q" | jget "d['question']['token']")
		n=$(grep -c ' grok chose ' "$FAKE_AGENT_LOG" 2>/dev/null)
		L answer "$p" "$want" --expect "$tok" >"$TESTDIR/out" 2>&1 ||
		    fail "answer $want: $(cat "$TESTDIR/out")"
		until_ms 5000 sh -c "[ \$(grep -c ' grok chose ' '$FAKE_AGENT_LOG') -gt ${n:-0} ]" ||
		    fail "$want: nothing chosen: $(cat "$TESTDIR/out")"
		got=$(grep ' grok chose ' "$FAKE_AGENT_LOG" | tail -n 1 | sed 's/.* grok chose //')
		case "$want:$got" in
		"deny:3. No"|"allow:1. Yes"|"always:2. Yes, and don't ask again this session") ;;
		*) fail "$want chose '$got'" ;; esac
		expect "$p" waiting_input prompt
		# Once: the same token again is refused.
		L answer "$p" "$want" --expect "$tok" >/dev/null 2>&1 && fail "a replay answered"
	done
	grep -q ' grok digit' "$FAKE_AGENT_LOG" && fail "a digit was sent"
	[ "$(grep -c ' grok chose ' "$FAKE_AGENT_LOG")" = 3 ] ||
	    fail "chose $(grep -c ' grok chose ' "$FAKE_AGENT_LOG") times"
}

# Its error over its input box ends the turn: an error, a 429 a limit;
# a turn after it is at its prompt again (the old error still on screen).
test_grok_error_and_limit_over_its_box() {
	setup_agents
	T new-window -d -t main:1 -n grok "$FAKE/grok"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt
	T send-keys -t "$p" error Enter
	expect "$p" waiting_input error screen_error
	T send-keys -t "$p" 'work 0.5' Enter
	expect "$p" waiting_input prompt screen_prompt
	T send-keys -t "$p" limit Enter
	expect "$p" waiting_input limit
}

# Continue's CLI (the fake, as 1.5.47 behaves): a dialog whose options
# have no numbers, a pointer on the selected one, its busy row turning
# over it; a failed turn's error right over its input box.

. "$ROOT/tests/integration/agents.sh"

# The dialog's token, once read; an answer by its place in the list.
cn_token() {
	until_ms 8000 sh -c "'$LISA' -L '$SOCK' status $1 --json | grep -q '\"token\"'" ||
	    fail "no question read: $(L status "$1" --json)"
	L status "$1" --json | jget "d['question']['token']"
}

cn_chosen() {
	grep -c ' cn chose \| cn cancelled' "$FAKE_AGENT_LOG" 2>/dev/null
}

# Each answer moves the pointer to the option the user named, one arrow
# a read, and presses Enter there, with its busy row turning all along;
# the conversation's quoted "> No, ..." above the dialog fools nothing;
# a token answers once.
test_continue_dialog_answered_by_its_pointer() {
	setup_agents
	mkdir -p "$TESTDIR/c"
	T new-window -d -t main:1 -n cn -c "$TESTDIR/c" "$FAKE/cn"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt
	[ "$(L status "$p" --json | jget "d['agent']")" = continue ] ||
	    fail "not continue: $(L status "$p" --json)"
	for want in deny allow always 3; do
		T send-keys -t "$p" permission Enter
		expect "$p" waiting_input permission
		tok=$(cn_token "$p")
		q=$(L status "$p" --json)
		[ "$(echo "$q" | jget "d['question']['subject']")" = "touch cn-ran" ] ||
		    fail "subject: $q"
		n=$(cn_chosen)
		L answer "$p" "$want" --expect "$tok" >"$TESTDIR/out" 2>&1 ||
		    fail "answer $want: $(cat "$TESTDIR/out")"
		until_ms 6000 sh -c "[ \$(grep -c ' cn chose ' '$FAKE_AGENT_LOG') -gt ${n:-0} ]" ||
		    fail "$want: nothing chosen: $(cat "$TESTDIR/out")"
		got=$(grep ' cn chose ' "$FAKE_AGENT_LOG" | tail -n 1 | sed 's/.* cn chose //')
		case "$want:$got" in
		"deny:No, and tell Continue what to do differently (esc)"|\
		"3:No, and tell Continue what to do differently (esc)"|\
		"allow:Continue (tab)"|\
		"always:Continue + don't ask again (shift+tab)") ;;
		*) fail "$want chose '$got'" ;; esac
		expect "$p" waiting_input prompt
		L answer "$p" "$want" --expect "$tok" >/dev/null 2>&1 && fail "a replay answered"
	done
	grep -q ' cn key ' "$FAKE_AGENT_LOG" && fail "a stray key: $(grep ' cn key ' "$FAKE_AGENT_LOG")"
	[ "$(cn_chosen)" = 4 ] || fail "chose $(cn_chosen) times"
}

# Two alike dialogs one after the other: the answer takes the first
# alone; the second waits for its own (its token the same dialog's, used).
test_continue_alike_dialogs_answered_once() {
	setup_agents
	mkdir -p "$TESTDIR/c"
	T new-window -d -t main:1 -n cn -c "$TESTDIR/c" "$FAKE/cn"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt
	T send-keys -t "$p" twice Enter
	expect "$p" waiting_input permission
	tok=$(cn_token "$p")
	L answer "$p" allow --expect "$tok" >"$TESTDIR/out" 2>&1 ||
	    fail "answer: $(cat "$TESTDIR/out")"
	until_ms 6000 sh -c "grep -q ' cn chose ' '$FAKE_AGENT_LOG'" || fail "nothing chosen"
	# The second is drawn, and stays unanswered.
	expect "$p" waiting_input permission
	L answer "$p" allow --expect "$tok" >/dev/null 2>&1 && fail "a replay answered the second"
	sleep 2
	[ "$(cn_chosen)" = 1 ] || fail "chose $(cn_chosen) times"
	T send-keys -t "$p" Escape
	expect "$p" waiting_input prompt
}

# Its error over its input box ends the turn; a turn after it is at its
# prompt again, the old error still on screen.
test_continue_error_over_its_box() {
	setup_agents
	T new-window -d -t main:1 -n cn "$FAKE/cn"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt
	T send-keys -t "$p" error Enter
	expect "$p" waiting_input error screen_error
	T send-keys -t "$p" 'work 0.5' Enter
	expect "$p" waiting_input prompt
}

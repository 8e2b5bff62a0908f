# lisa's own commands in tmux's message log (show-messages, prefix ~):
# tmux logs every command any client runs, control clients included, so
# lisa cannot reach zero, but it writes as few as it can: nothing while
# nothing changes, and few commands for each change a user can see.

. "$ROOT/tests/integration/agents.sh"

# The message log's lines from lisa's control clients.
lisa_lines() {
	T show-messages | grep -E "^[^ ]+ ($(T list-clients \
	    -F '#{?client_control_mode,#{client_name},}' | grep . |
	    paste -sd '|' -)) command: "
}
transitions() { L events --json | grep -c '"transition"'; }

# At lisa's defaults: three agents take a turn each; the lines per
# transition are counted, then a quiet spell must add none. A new agent
# pane costs no unsets (no helper wrote to it before).
test_message_log_lines_per_transition() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	start_server main
	T set -g message-limit 100000
	start_helper
	a1=$(agent_window 1 claude)
	a2=$(agent_window 2 claude)
	a3=$(agent_window 3 codex)
	for p in $a1 $a2 $a3; do
		L wait "$p" --until waiting_input --timeout 30 >/dev/null ||
		    fail "$p never waited: $(L status "$p")"
	done
	# Past the start: what the helper published of it is in tmux (its
	# batch goes out up to 200 ms after the verdict), then the turns alone.
	for p in $a1 $a2 $a3; do
		until_ms 5000 shows "$p" "$PANE_STATE/$PANE_DETAIL" waiting_input/prompt ||
		    fail "$p: $(T display -p -t "$p" "$PANE_STATE/$PANE_DETAIL")"
	done
	until_ms 5000 shows main:0 '#{E:@lisa_n_waiting}' 3 || fail "the count"
	n0=$(lisa_lines | wc -l)
	e0=$(transitions)
	for p in $a1 $a2 $a3; do
		T send-keys -t "$p" 'work 2' Enter
		L wait "$p" --until in_progress --timeout 10 >/dev/null ||
		    fail "$p never worked"
		L wait "$p" --until waiting_input --timeout 15 >/dev/null ||
		    fail "$p never came back"
	done
	# (the last batch goes out within 200 ms of its change; a negative
	# can only be waited out)
	sleep 2
	n1=$(lisa_lines | wc -l)
	e1=$(transitions)
	n=$((n1 - n0)) t=$((e1 - e0))
	[ "$t" -ge 6 ] || fail "only $t transitions"
	note "$n message-log lines for $t transitions: $(awk "BEGIN { printf \"%.2f\", $n / $t }") each"
	# Nothing changes: nothing written (a spell of the debounce and more).
	sleep 4
	n2=$(lisa_lines | wc -l)
	[ "$n2" = "$n1" ] || fail "$((n2 - n1)) lines while nothing changed:
$(T show-messages | tail -n $((n2 - n1)))"
	# A turn's start or end writes one option, the pane's @lisa: the
	# badges, counts and places are formats over those (issue 45). lisa
	# 0.1.0 wrote 7.8 to 8.0 a transition, the reason among them; the
	# per-field options, 6.8 to 7.0; @lisa alone, 1.00 here.
	[ "$n" -le "$t" ] ||
	    fail "$n lines for $t transitions, more than one each:
$(lisa_lines | head -n "$n")
$(L events --json | tail -n 12)"
}

# @lisa-fields on: the per-field options of earlier versions for the
# formats of users who read them (a window's and a session's state too),
# at their price in the log; off again, they go, and @lisa stays.
test_fields_option_writes_and_takes_back_the_old_options() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-fields on
	start_helper
	a=$(agent_window 1 claude)
	L wait "$a" --until waiting_input --timeout 30 >/dev/null ||
	    fail "never at its prompt: $(L status "$a")"
	T send-keys -t "$a" permission Enter
	expect "$a" waiting_input permission
	expect_shown "$a" '#{@lisa_agent} #{@lisa_state} #{@lisa_detail}' \
	    "claude waiting_input permission"
	expect_shown main:1 '#{@lisa_window_state}' asking
	expect_shown main '#{@lisa_session_state}/#{@lisa_count_asks}' asking/1
	# (the same as the formats say)
	expect_shown "$a" "$PANE_STATE/#{E:@lisa_n_asks}" waiting_input/1
	T set -g @lisa-fields off
	L reload >/dev/null
	until_ms 5000 shows "$a" '#{@lisa_state}#{@lisa_window_state}' '' ||
	    fail "left: $(T show -p -t "$a"; T show -w -t main:1)"
	[ -z "$(T show -gqv @lisa_count_asks)" ] || fail "a count left"
	expect_shown "$a" "$PANE_STATE" waiting_input
}

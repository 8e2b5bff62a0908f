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
		until_ms 5000 shows "$p" '#{@lisa_state}/#{@lisa_detail}' waiting_input/prompt ||
		    fail "$p: $(T display -p -t "$p" '#{@lisa_state}/#{@lisa_detail}')"
	done
	until_ms 5000 shows main:0 '#{@lisa_count_waiting}' 3 || fail "the count"
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
	# A turn's start or end writes the pane's state, detail and since, its
	# window's state, two counts and where agents wait: 7 commands, 6.8 to
	# 7.0 a transition here. (lisa 0.1.0 wrote 7.8 to 8.0: the reason too,
	# which changes while nothing a user sees does.)
	[ $((n * 2)) -le $((t * 15)) ] ||
	    fail "$n lines for $t transitions, more than 7.5 each:
$(lisa_lines | head -n "$n")
$(L events --json | tail -n 12)"
}

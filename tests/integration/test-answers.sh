# Answers that say enough: what the CLI prints about panes without an
# agent, about events, and what it shows of a pane made after the helper
# started. At lisa's defaults.

. "$ROOT/tests/integration/agents.sh"

start_plain() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	start_server main
	start_helper
}

title_is() { [ "$(pane_field "$1" title)" = "$2" ]; }

# lisa list's TITLE is tmux's #{pane_title}, for a pane made later too,
# and its STATE is in the status line's words.
test_list_title_and_words_of_a_later_pane() {
	start_plain
	T new-window -d -t main:1 "printf '\\033]2;set later\\007'; exec sleep 600"
	until_ms 5000 sh -c "[ \"\$(tmux -L $SOCK display -p -t main:1 '#{pane_title}')\" = 'set later' ]" ||
	    fail "tmux has title '$(T display -p -t main:1 '#{pane_title}')'"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 5000 title_is "$p" 'set later' || fail "lisa list: $(L list)"
	L list | grep -q "^main:1.0 .*set later$" || fail "lisa list: $(L list)"
	a=$(agent_window 2 claude)
	L wait "$a" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	L list | grep -E "^main:2.0 +$a .* claude +your turn \(prompt\)" ||
	    fail "lisa list's state, not in the status line's words: $(L list)"
}

# lisa wait on a pane with no agent says so at once, and still waits (an
# agent typed into the shell may not be seen yet).
test_wait_on_a_plain_pane_says_so() {
	start_plain
	p=$(T display -p -t main:0 '#{pane_id}')
	"$LISA" -L "$SOCK" wait "$p" --timeout 6 >"$TESTDIR/out" 2>"$TESTDIR/err" &
	w=$!
	until_ms 3000 grep -q "$p has no agent (yet): waiting for one to start" "$TESTDIR/err" ||
	    fail "nothing said: $(cat "$TESTDIR/err")"
	kill -0 "$w" 2>/dev/null || fail "it did not wait"
	wait "$w"
	[ $? = 1 ] || fail "a timeout is exit 1"
}

# The details of a pane without an agent say so, not "last events: none".
test_details_of_a_plain_pane() {
	start_plain
	p=$(T display -p -t main:0 '#{pane_id}')
	out=$(L details "$p") || fail "lisa details: $out"
	case "$out" in
	*"last events"*) fail "a plain pane's details: $out" ;;
	esac
	printf '%s\n' "$out" | grep -q "no agent has run here" || fail "details: $out"
}

# lisa events tells who asked and how a thing ended: a run's exit, a kill
# and who sent it, an agent's termination.
test_events_say_who_and_how() {
	start_plain
	out=$(L run --name r -- sh -c 'exit 3') || fail "lisa run: $out"
	until_ms 10000 sh -c "$LISA -L $SOCK events | grep -q run_finished" ||
	    fail "no run_finished: $(L events)"
	L events | grep -E "run_finished +name r, attempt 1: .*exit 3" ||
	    fail "run_finished: $(L events | grep run_)"
	T set -g remain-on-exit on
	a=$(agent_window 5 claude)
	L wait "$a" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	L kill "$a" >/dev/null || fail "lisa kill"
	until_ms 10000 sh -c "$LISA -L $SOCK events | grep -q terminate" ||
	    fail "no terminate: $(L events)"
	L events | grep -E "terminate +by you, SIGTERM to [0-9]+ process" ||
	    fail "terminate: $(L events | grep termin)"
}

# What a waiting agent asks, as data: the fake Claude's and Codex's
# permission dialogs read off the screen, in status --json and explain.
test_question_as_data() {
	start_plain
	c=$(agent_window 1 claude)
	x=$(agent_window 2 codex)
	for p in $c $x; do
		L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
		T send-keys -t "$p" permission Enter
	done
	for p in $c $x; do
		until_ms 15000 state_is "$p" waiting_input permission "" ||
		    fail "$p: $(L status "$p")"
		until_ms 5000 sh -c "$LISA -L $SOCK status $p --json | grep -q fingerprint" ||
		    fail "no question: $(L status "$p" --json)"
	done
	L status "$c" --json | python3 -c '
import json, sys
q = json.load(sys.stdin)["question"]
assert q["kind"] == "permission" and q["tool"] == "Bash", q
assert q["subject"] == "touch x" and q["text"] == "Do you want to proceed?", q
assert q["options"] == ["1. Yes", "2. Yes, and always allow access to fake/ from this project", "3. No"], q
assert q["selected"] == 0, q
assert q["source"] == "screen" and len(q["fingerprint"]) == 64, q
assert q["subject_lines"] == 1 and q["lines"] == 6 and q["whole"], q
assert q["token"].startswith("v1:" + q["fingerprint"] + ":"), q' ||
	    fail "claude: $(L status "$c" --json)"
	L status "$x" --json | python3 -c '
import json, sys
q = json.load(sys.stdin)["question"]
assert q["tool"] == "shell" and q["subject"] == "touch x", q
assert q["text"] == "Would you like to run the following command?", q' ||
	    fail "codex: $(L status "$x" --json)"
	L explain "$c" | grep -q "asks: Bash: Do you want to proceed?" &&
	    L explain "$c" | grep -q "^      touch x$" ||
	    fail "explain: $(L explain "$c")"
	# Answered: the question goes with the dialog.
	T send-keys -t "$c" y Enter
	L wait "$c" --until in_progress --timeout 10 >/dev/null || fail "no work"
	[ "$(L status "$c" --json | jget "d['question']")" = null ] ||
	    fail "a question while it works: $(L status "$c" --json)"
}

# A pane id the helper knows is taken as it is: lisa status, wait and
# details by id start no tmux client (the suites ask by id hundreds of
# times a minute, each a tmux process). Any other target, and an id the
# helper does not know, are tmux's to resolve, in tmux's words.
test_pane_id_resolved_without_a_tmux_client() {
	start_plain
	mkdir -p "$TESTDIR/shim"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' \
	    "$TESTDIR/tmux.log" "$(command -v tmux)" >"$TESTDIR/shim/tmux"
	chmod +x "$TESTDIR/shim/tmux"
	p=$(T display -p -t main:0 '#{pane_id}')
	until_ms 10000 sh -c "$LISA -L $SOCK status $p | grep -qv not_found" ||
	    fail "the helper never knew $p: $(L status "$p")"
	: >"$TESTDIR/tmux.log"
	(
		PATH="$TESTDIR/shim:$PATH"
		L status "$p" >/dev/null || fail "status $p"
		L wait "$p" --timeout 1 >/dev/null 2>&1
		L details "$p" >/dev/null || fail "details $p"
	)
	[ ! -s "$TESTDIR/tmux.log" ] ||
	    fail "tmux clients started: $(cat "$TESTDIR/tmux.log")"
	(
		PATH="$TESTDIR/shim:$PATH"
		L status main:0 | grep -q "^$p" || fail "main:0: $(L status main:0)"
		L status %99 2>"$TESTDIR/err" && fail "status %99: exit 0"
		grep -q "can't find pane: %99" "$TESTDIR/err" ||
		    fail "%99: $(cat "$TESTDIR/err")"
	)
	[ "$(grep -c "capture-pane" "$TESTDIR/tmux.log")" = 2 ] ||
	    fail "main:0 and %99 not tmux's to resolve: $(cat "$TESTDIR/tmux.log")"
}

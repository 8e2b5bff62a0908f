# What needs you, first (issue 41): an agent that asks (a dialog, a
# question) is told apart from one at its prompt, and never hidden behind
# agents that are idle: the status line counts it apart, the menu and
# prefix + A put it first. At lisa's shipped defaults, on a 24-line client.

. "$ROOT/tests/integration/agents.sh"

. "$ROOT/tests/integration/client.sh"

# N idle Claude stand-ins at their prompt (its idle title, then nothing),
# windows b0..b(N-1) of session main.
idle_agents() {
	mkdir -p "$TESTDIR/qbin"
	printf '#!/bin/sh\nprintf "\\033]2;\\342\\234\\263 Claude Code\\007"\nwhile :; do sleep 1000; done\n' \
	    >"$TESTDIR/qbin/claude"
	chmod +x "$TESTDIR/qbin/claude"
	# (one tmux client for them all: a client each was 300 processes)
	i=0
	while [ "$i" -lt "$1" ]; do
		echo "new-window -d -t main: -n b$i '$TESTDIR/qbin/claude'"
		i=$((i + 1))
	done >"$TESTDIR/idle.tmux"
	T source-file "$TESTDIR/idle.tmux" || fail "idle agents"
}

# How many agents are in STATE (and DETAIL, if given), by lisa list.
count_in() {
	L list --json | python3 -c '
import json, sys
st, det = sys.argv[1], sys.argv[2]
print(len([p for p in json.load(sys.stdin) if p["state"] == st and
           (not det or p["detail"] == det)]))' "$1" "${2:-}"
}

# The line number of the first line of the screen matching RE (0: none).
line_of() { screen | grep -n -E -m 1 -- "$1" | cut -d: -f1 | grep . || echo 0; }

test_asks_first_never_hidden_behind_idle_agents() {
	export HOME="$TESTDIR/home" FAKE_AGENT_LOG="$TESTDIR/agent.log"
	mkdir -p "$HOME"
	start_server main
	T new-session -d -s other
	start_helper
	idle_agents 40
	T new-window -d -t other:1 -n asker "$FAKE/claude"
	a=$(T display -p -t other:1 '#{pane_id}')
	c=$(crash_window 50 codex crashy)
	L wait "$a" --until waiting_input --timeout 30 >/dev/null || fail "no asker"
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "no codex"
	T send-keys -t "$a" permission Enter
	T send-keys -t "$c" 'exit 3' Enter
	until_ms 60000 list_count_is '"state":"waiting_input","detail":"prompt"' 40 ||
	    fail "not 40 at their prompt: $(count_in waiting_input prompt)"
	L wait "$a" --until waiting_input --timeout 30 >/dev/null
	until_ms 15000 state_is "$a" waiting_input permission "" || fail "asker: $(L status "$a")"
	# (where tmux lost the exit status, not Linux's backend: skipped)
	expect "$c" crashed "exit 3"

	# The status line's counts: one asks, forty wait their turn.
	expect_shown main '#{E:@lisa_n_asks}' 1
	expect_shown main '#{E:@lisa_n_waiting}' 40
	expect_shown main '#{E:@lisa_n_crashed}' 1
	# The places that need you: the asking one first, then the crash.
	w=$(T display -p '#{E:@lisa_places}')
	case "$w" in
	"other:1 main:50 "*) ;;
	*) fail "@lisa_places: $w" ;;
	esac

	# The first menu on a 24-line client: the asking one first, named
	# with its session (not the client's), then the crashed one.
	attach main:0 150 24
	O send-keys C-b a
	expect_screen "asks you"
	s=$(screen)
	la=$(line_of "asks you")
	lp=$(line_of "claude +other:asker +permission")
	lc=$(line_of "crashed")
	lx=$(line_of "codex +(main:)?crashy +exit 3")
	[ "$la" -gt 0 ] && [ "$lp" = $((la + 1)) ] ||
	    fail "the asking one is not first: $s"
	[ "$lc" -gt "$lp" ] && [ "$lx" = $((lc + 1)) ] ||
	    fail "the crashed one is not next: $s"
	# Idle ones are a count that opens them.
	printf '%s\n' "$s" | grep -qE "your turn: 40" || fail "no your-turn line: $s"
	[ "$(printf '%s\n' "$s" | grep -c '└')" -ge 1 ] || fail "menu cut: $s"
	O send-keys Escape
	menu_closed 'asks you'

	# Those at their prompt, as a human sorts names: b2 before b10.
	T run-shell -b "'$LISA' -L '$SOCK' key menu '$CLIENT' state:waiting"
	expect_screen "lisa: waiting"
	s=$(screen)
	names=$(printf '%s\n' "$s" | sed -nE 's/.*claude +(main:)?b([0-9]+) .*/\2/p' | tr '\n' ' ')
	[ "$(echo "$names" | wc -w)" -ge 5 ] || fail "few shown: $s"
	# (text order would be b0 b1 b10 b11 ...)
	k=$(echo "$names" | wc -w)
	[ "$names" = "$(seq 0 $((k - 1)) | tr '\n' ' ')" ] ||
	    fail "not in natural order: $names"
	O send-keys Escape
	menu_closed 'lisa: waiting'

	# prefix + A: the asking one, then the crashed one.
	O send-keys C-b A
	until_ms 5000 client_at "$a" || fail "next went to $(client_pane), not $a"
	O send-keys C-b A
	until_ms 5000 client_at "$c" || fail "next went to $(client_pane), not $c"
}

# long: 300 agents' windows
# 300 agents at their prompt and 5 that ask, on a 24-line client: the
# first menu cannot hold every one that asks, and holds a way to each:
# those that fit, then "N more asking…", which opens the rest.
test_asks_all_reachable_among_300() {
	export HOME="$TESTDIR/home" FAKE_AGENT_LOG="$TESTDIR/agent.log"
	mkdir -p "$HOME"
	start_server main
	start_helper
	idle_agents 300
	for i in 1 2 3 4 5; do
		T new-window -d -t "main:$((400 + i))" -n "ask$i" "$FAKE/claude"
	done
	for i in 1 2 3 4 5; do
		p=$(T display -p -t "main:$((400 + i))" '#{pane_id}')
		L wait "$p" --until waiting_input --timeout 60 >/dev/null ||
		    fail "ask$i never at its prompt: $(L status "$p")"
		T send-keys -t "$p" permission Enter
	done
	until_ms 120000 sh -c "[ \"\$(tmux -L $SOCK display -p '#{E:@lisa_n_asks}/#{E:@lisa_n_waiting}')\" = 5/300 ]" ||
	    fail "counts: $(T display -p 'asks #{E:@lisa_n_asks} waiting #{E:@lisa_n_waiting}')"
	# (what they ask comes with the screen's read, after the asking)
	for i in 1 2 3 4 5; do
		p=$(T display -p -t "main:$((400 + i))" '#{pane_id}')
		until_ms 15000 state_is "$p" waiting_input permission "" ||
		    fail "ask$i: $(L status "$p")"
	done
	attach main:0 150 24
	O send-keys C-b a
	expect_screen "more asking"
	s=$(screen)
	[ "$(printf '%s\n' "$s" | grep -c '└')" -ge 1 ] || fail "menu cut: $s"
	shown=$(printf '%s\n' "$s" | grep -cE "claude +ask[1-5] +permission")
	more=$(printf '%s\n' "$s" | sed -nE 's/.* ([0-9]+) more asking.*/\1/p')
	[ "$shown" -ge 1 ] && [ $((shown + more)) = 5 ] ||
	    fail "$shown shown and $more more, not 5: $s"
	printf '%s\n' "$s" | grep -qE "your turn: 300" || fail "no your-turn line: $s"
	note "first menu: $shown asking shown, $more more behind one line"
	O send-keys Escape
	menu_closed 'more asking'
	# What that line runs: every one that asks.
	T run-shell -b "'$LISA' -L '$SOCK' key menu '$CLIENT' state:asks"
	expect_screen "lisa: asks"
	[ "$(screen | grep -cE "claude +ask[1-5] +permission")" = 5 ] ||
	    fail "not the five: $(screen)"
}

# prefix a and prefix A start no tmux client (issue 41, "instant"): what
# lisa makes of the key is sourced by the pressing client itself. A tmux
# on the server's PATH that notes each start is the proof. With the
# helper gone, the key says so on the message line and no pane is put in
# a mode (run-shell shows a command's output or failure there: lisa's
# client-detached hook, run as the dead helper's clients went, did).
test_keys_start_no_tmux_client() {
	export HOME="$TESTDIR/home" FAKE_AGENT_LOG="$TESTDIR/agent.log"
	mkdir -p "$HOME" "$TESTDIR/shim"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' \
	    "$TESTDIR/tmux.log" "$(command -v tmux)" >"$TESTDIR/shim/tmux"
	chmod +x "$TESTDIR/shim/tmux"
	PATH="$TESTDIR/shim:$PATH" start_server main
	start_helper
	idle_agents 3
	T new-window -d -t main: -n asker "$FAKE/claude"
	a=$(T display -p -t main:asker '#{pane_id}')
	L wait "$a" --until waiting_input --timeout 30 >/dev/null || fail "no asker"
	T send-keys -t "$a" permission Enter
	until_ms 15000 state_is "$a" waiting_input permission "" || fail "asker: $(L status "$a")"
	attach main:0 150 24
	: >"$TESTDIR/tmux.log"
	O send-keys C-b a
	expect_screen "asks you"
	O send-keys Escape
	menu_closed "asks you"
	O send-keys C-b A
	until_ms 5000 client_at "$a" || fail "prefix A went to $(client_pane), not $a"
	[ ! -s "$TESTDIR/tmux.log" ] ||
	    fail "tmux clients started by the keys: $(cat "$TESTDIR/tmux.log")"
	# The helper gone (killed: its keys stay bound).
	kill -9 "$HELPER_PID"
	wait "$HELPER_PID" 2>/dev/null
	HELPER_PID=
	O send-keys C-b a
	expect_screen "no answer from lisa's helper"
	[ "$(T display -p -t "$a" '#{pane_in_mode}')" = 0 ] ||
	    fail "a pane put in a mode: $(T display -p -t "$a" "#{pane_mode}"; screen)"
}

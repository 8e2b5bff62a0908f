# What a human sees: an outer tmux runs `tmux -L inner attach` in a pane,
# and the tests read the rendered screen with capture-pane (status line,
# window list, pane border, menu, popup), plus option-level checks.

. "$ROOT/tests/integration/agents.sh"

. "$ROOT/tests/integration/client.sh"
status_line() { screen | tail -n 1; }
border_has() { screen | head -n 1 | grep -F -q -- "$1"; }

# Three agents: one works, one waits for permission, one crashed.
three_agents() {
	setup_agents
	T set -g status-right '#{lisa_status} | #{lisa_waiting} '
	T set -g status-right-length 80
	L reload >/dev/null
	a1=$(agent_window 1 claude)
	a2=$(agent_window 2 claude)
	a3=$(crash_window 3 codex)
	expect "$a1" waiting_input
	expect "$a2" waiting_input
	expect "$a3" waiting_input
	T send-keys -t "$a1" 'work 60' Enter
	T send-keys -t "$a2" permission Enter
	T send-keys -t "$a3" 'exit 3' Enter
	expect "$a1" in_progress
	expect "$a2" waiting_input permission
	expect "$a3" crashed "exit 3"
}

pane_gone() { ! T list-panes -a -F '#{pane_id}' | grep -qx "$1"; }

test_status_line_badges_and_border_on_screen() {
	three_agents
	attach main:2
	# The status line: counts per state, only non-zero, in the set order
	# (the agent that asks first, its own glyph); then the places that
	# need you, the asking one first.
	expect_screen "⚑ 1 ● 1 ✖ 1 | main:2 main:3"
	# Window badges, worst state of each window.
	status=$(status_line)
	case "$status" in
	*"0:sh- 1:claude ● 2:claude* ⚑ 3:codex ✖"*) ;;
	*) fail "window badges: $status" ;;
	esac
	# The agent pane's border: agent, state, detail, age.
	expect_screen "claude · ⚑ asks · permission · "
	note "status line: $(status_line)"
	note "border: $(screen | head -n 1 | sed 's/─*$//')"
	# Borders only on agent windows: window 0 (a shell) has none.
	[ -z "$(T show -wv -t main:0 pane-border-status)" ] || fail "border on the shell's window"
	[ "$(T show -wv -t main:2 pane-border-status)" = top ] || fail "no border on the agent window"
	# The counts and the list the formats read.
	expect_shown main "#{E:@lisa_n_working}/#{E:@lisa_n_asks}/#{E:@lisa_n_waiting}/#{E:@lisa_n_crashed}/#{E:@lisa_n_agents}" "1/1//1/3"
	expect_shown main "#{E:@lisa_places}" "main:2 main:3"
	# Permission given, a new turn: nothing waits.
	T send-keys -t "$a2" y Enter
	expect "$a2" waiting_input prompt
	T send-keys -t "$a2" 'work 30' Enter
	expect "$a2" in_progress
	expect_screen "● 2 ✖ 1 |"
	[ "$(T display -p '#{E:@lisa_places}')" = "main:3" ] || fail "still listed as asking"
}

# How full an agent's context is, from what Claude's transcript records:
# on its border, in its pane option, and in lisa status --json, the same
# numbers; a message written once per content block counted once.
test_context_on_border_from_transcript() {
	export FAKE_AGENT_TRANSCRIPT=1
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	attach main:1
	# 12 new + 125000 cache read + 999 cache written of a 200k window.
	T send-keys -t "$p" 'usage 12 340 125000 999' Enter
	expect_screen_re "claude · .* · 63% "
	expect_shown "$p" "$PANE_CTX" 63
	ctx=$(L status "$p" --json | jget "'%(used)d/%(window)d/%(percent)d' % d['context']")
	[ "$ctx" = "126011/200000/63" ] || fail "context: $ctx"
	T send-keys -t "$p" 'usage 5 60 126011 100' Enter
	expect_shown "$p" "$PANE_CTX" 63
	until_ms 5000 sh -c "'$LISA' -L '$SOCK' status '$p' --json | grep -q '\"output\": *400'" ||
	    fail "tokens: $(L status "$p" --json | jget "d['tokens']")"
	tok=$(L status "$p" --json | jget "'%(input)d %(output)d %(cache_read)d %(cache_write)d' % d['tokens']")
	[ "$tok" = "17 400 251011 1099" ] || fail "tokens: $tok"
	L explain "$p" | grep -q "context: 63% (126116 of 200000 tokens)" ||
	    fail "explain: $(L explain "$p")"
	note "border: $(screen | head -n 1 | sed 's/─*$//')"
	# The window of a model lisa does not know, as the user says it.
	T set -g @lisa-context-windows 'other=5 claude-fake=252232'
	L reload >/dev/null
	T send-keys -t "$p" 'usage 1 1 126115 0' Enter
	expect_shown "$p" "$PANE_CTX" 50
	# A pane whose agent records nothing shows no context at all.
	q=$(agent_window 2 codex)
	expect "$q" waiting_input
	[ "$(L status "$q" --json | jget "str(d['context'])")" = None ] ||
	    fail "codex context: $(L status "$q" --json)"
	[ -z "$(T display -p -t "$q" "$PANE_CTX")" ] || fail "codex's context shown: $(T show -pv -t "$q" @lisa)"
}

test_menu_next_and_details_from_keys() {
	three_agents
	attach main:0
	# prefix + A ranks as the menu and the badges do: the agent that
	# asks first, then the crashed one.
	O send-keys C-b A
	until_ms 2000 client_at "$a2" ||
	    fail "next went to $(client_pane) first, not the asking pane"
	O send-keys C-b a
	expect_screen "lisa: 3 agents"
	# A table: agent, window by name (index.pane where two share a
	# name), detail, age; the columns line up.
	expect_screen_re "codex +codex +exit 3 +[0-9]+s"
	expect_screen_re "claude +claude \(2\.0\) +permission +[0-9]+s"
	expect_screen "Next agent that needs you"
	c1=$(screen | grep -E "codex +codex +exit 3" | sed 's/exit 3.*//' | wc -m)
	c2=$(screen | grep -E "claude \(2\.0\) +permission" | sed 's/permission.*//' | wc -m)
	[ "$c1" = "$c2" ] || fail "detail column not aligned ($c1, $c2):
$(screen)"
	note "menu: $(screen | grep -F '(2.0)')"
	# Items are worst first: asks (1), crashed (2), working (3).
	O send-keys 2
	until_ms 2000 client_at "$a3" || fail "menu item 2 went to $(client_pane)"
	# prefix + A from the crashed pane: around to the asking one.
	O send-keys C-b A
	until_ms 2000 client_at "$a2" || fail "next: did not cycle, at $(client_pane)"
	# The details popup from the menu: the why, and the pane's events.
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	O send-keys d
	expect_screen "waiting_input (permission)"
	expect_screen "last events:"
	expect_screen "in_progress -> waiting_input"
	O send-keys q
	until_ms 2000 sh -c "! tmux -L $OUTER capture-pane -p | grep -q 'last events:'" ||
	    fail "popup did not close"
}

test_hostile_names_shown_as_text() {
	setup_agents
	T set -g status-right '#{lisa_waiting}'
	T set -g status-right-length 80
	L reload >/dev/null
	# Formats and styles in names must reach the screen as text (no
	# '.' in the name: tmux would change it).
	pw=/tmp/lisapw$$
	name="x#[bg=red]#(touch $pw)"
	# (new-session expands its -s: '##(' makes '#(', '#[' stays)
	T new-session -d -s "x#[bg=red]##(touch $pw)" -x 150 -y 30
	[ "$(T list-sessions -F '#{session_name}' | grep '^x')" = "$name" ] ||
	    fail "session name: $(T list-sessions -F '#{session_name}')"
	T new-window -d -t "$name:1" -n 'w#{pane_pid}' "$FAKE/claude"
	p=$(T display -p -t "$name:1" '#{pane_id}')
	expect "$p" waiting_input
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	attach main:0
	# (#{lisa_waiting} shows its first 20 columns: the name, as text;
	# tmux 3.2a counts the ellipsis in them, later ones do not)
	if tmux_at_least 3 3; then
		expect_screen "x#[bg=red]#(touch /t…"
	else
		expect_screen "x#[bg=red]#(touch /…"
	fi
	[ -e "$pw" ] && { rm -f "$pw"; fail "a session name ran a command"; }
	O send-keys C-b a
	# The menu names the window (one session has agents): as text too.
	wname=$(T display -p -t "$name:1" '#{window_name}')
	expect_screen "claude  $wname"
	O send-keys Escape
	[ -e "$pw" ] && { rm -f "$pw"; fail "the menu ran a command"; }
	return 0
}

# What an agent asks reaches the border inside the pane's @lisa, which
# tmux expands (#{E:@lisa}): a hostile repository's command, holding a
# shell command in #(), a style, strftime's %s and a '|' (the head's own
# separator), must be drawn as the text it is, run nothing, and leave the
# pane's rank and fields as they were. At lisa's defaults.
test_agent_text_on_border_runs_nothing() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	pw=/tmp/lp$$
	rm -f "$pw"
	# (40 characters at most: the border shows no more of it)
	export FAKE_AGENT_COMMAND="a|b #(touch $pw) #[bg=red]%s 5%"
	start_server main
	start_helper
	p=$(agent_window 1 claude)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null ||
	    fail "never at its prompt: $(L status "$p")"
	T send-keys -t "$p" permission Enter
	expect "$p" waiting_input permission
	attach main:1
	# (the pane draws the dialog too: the border's line, the first)
	until_ms 10000 border_has "claude · ⚑ asks · permission · $FAKE_AGENT_COMMAND ·" ||
	    fail "border: $(screen | head -n 1)"
	expect_shown "$p" "$PANE_AGENT|$PANE_STATE|$PANE_DETAIL" \
	    "claude|waiting_input|permission"
	expect_shown main:1 "$WINDOW_STATE" asking
	[ -e "$pw" ] && { rm -f "$pw"; fail "the agent's text ran a command"; }
	note "border: $(screen | head -n 1 | sed 's/─*$//')"
}

# #{lisa_waiting} reads every window's place in one loop and keeps each
# group's by substitutions on that text, a literal inside a format: a
# session named with a '}' (which would end the literal), a '%' (which
# strftime would read) or a '#' must neither spill out nor run, nor hide
# the windows listed after it. (Such characters show as '_' there.)
test_places_survive_hostile_session_names() {
	setup_agents
	pw=/tmp/lq$$
	rm -f "$pw"
	# (new-session expands its -s: "##{" makes "#{"; tmux makes ':' '_')
	T new-session -d -s "a}##{T_x}%s"
	T new-window -d -t "a}#{T_x}%s:1" "$FAKE/claude"
	T new-session -d -s "b##(touch $pw)"
	T new-window -d -t "b#(touch $pw):1" "$FAKE/claude"
	p1=$(T display -p -t "a}#{T_x}%s:1" '#{pane_id}')
	p2=$(T display -p -t "b#(touch $pw):1" '#{pane_id}')
	q=$(agent_window 1 claude)
	for p in $p1 $p2 $q; do expect "$p" waiting_input; done
	T send-keys -t "$p2" permission Enter
	expect "$p2" waiting_input permission
	# (asks first; then, in tmux's order, the others at their prompt;
	# display -p shows the '#'s doubled for the drawing, as #{q/h:})
	expect_shown main '#{E:@lisa_places}' \
	    "b##(touch $pw):1 a_##{T_x__s:1 main:1"
	expect_shown main '#{E:@lisa_n_asks}/#{E:@lisa_n_waiting}' 1/2
	[ -e "$pw" ] && { rm -f "$pw"; fail "a session name ran a command"; }
	return 0
}

# A window named longer than the client is wide: the menu still opens
# (tmux before 3.3 draws no menu wider than its client, and the key did
# nothing), the name cut with an ellipsis, its key still there.
test_menu_on_a_narrow_client_with_a_long_name() {
	setup_agents
	long=$(printf 'long-window-name-%.0s' 1 2 3 4 5 6 7)
	T new-window -d -t main:1 -n "$long" "$FAKE/claude"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input
	attach main:0 80 24
	O send-keys C-b a
	expect_screen "lisa: 1 agent"
	expect_screen_re "claude +long-window-name-long-window.*…"
	screen | grep -F -- "$long" && fail "not cut: $(screen)"
	O send-keys 1
	until_ms 5000 client_at "$p" || fail "its key: at $(client_pane)"
}

test_user_keys_kept_and_everything_restored_on_stop() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	T bind-key a display-message mine
	T set -g status-right '#{lisa_status}!'
	wsf=$(T show -gwv window-status-format)
	pbf=$(T show -gwv pane-border-format)
	T set -g @lisa-grace 1
	start_helper
	prefix_key a | grep -q 'display-message mine' || fail "user's prefix a replaced"
	prefix_key A | grep -q ' key next ' || fail "prefix A not bound"
	info | jget "d['ui_warning']" | grep -q "prefix a is bound already" ||
	    fail "no warning about prefix a: $(info)"
	case "$(T show -gv status-right)" in
	*@lisa_status_format*) ;;
	*) fail "status-right not interpolated: $(T show -gv status-right)" ;;
	esac
	p=$(agent_window 1 claude)
	expect "$p" waiting_input
	expect_shown main:1 '#{pane-border-status}' top
	# A user change after lisa started is theirs: kept on stop.
	T set -gw window-status-current-format 'mine #I'
	L stop >/dev/null
	until_ms 3000 sh -c "! kill -0 $HELPER_PID" || fail "helper still running"
	[ "$(T show -gv status-right)" = '#{lisa_status}!' ] || fail "status-right: $(T show -gv status-right)"
	[ "$(T show -gwv window-status-format)" = "$wsf" ] || fail "window-status-format not restored"
	[ "$(T show -gwv window-status-current-format)" = 'mine #I' ] || fail "user's change undone"
	[ "$(T show -gwv pane-border-format)" = "$pbf" ] || fail "pane-border-format not restored"
	[ -z "$(T show -wv -t main:1 pane-border-status)" ] || fail "window border left on"
	[ -z "$(prefix_key A)" ] || fail "prefix A still bound"
	prefix_key a | grep -q 'display-message mine' || fail "user's key lost"
	left=$(T show -g | grep '^@lisa_'; T show -p -t "$p" | grep '^@lisa_')
	[ -z "$left" ] || fail "options left behind: $left"
	return 0
}

test_notifications_message_bell_desktop_command() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME/bin"
	printf '#!/bin/sh\necho "$@" >> "%s/desktop.log"\n' "$TESTDIR" >"$HOME/bin/notify-send"
	chmod +x "$HOME/bin/notify-send"
	export PATH="$HOME/bin:$PATH"
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-crashed on
	T set -g @lisa-on-transition "cat >> '$TESTDIR/transitions.log'"
	T set -g display-time 4000
	# Two waits in a row below: no cooldown between them.
	T set -g @lisa-notify-cooldown 0
	start_helper
	p=$(agent_window 1 claude)
	expect "$p" waiting_input
	attach main:0
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	# A client that is not looking at the pane gets a message (not on
	# 3.2a, where display-message -c takes no client: bell only)...
	if tmux_at_least 3 3; then
		expect_screen "lisa: claude in main:1 waits (prompt)"
		sent=1
	else
		sent=0
	fi
	# ...the window gets a bell, the desktop a notification.
	expect_shown main:1 '#{window_bell_flag}' 1
	until_ms 3000 grep -q "claude waits main:1 · prompt" "$TESTDIR/desktop.log" ||
	    fail "no desktop notification: $(cat "$TESTDIR/desktop.log" 2>/dev/null)"
	# The hook got every transition as JSON.
	until_ms 3000 grep -q '"to":"waiting_input"' "$TESTDIR/transitions.log" ||
	    fail "on-transition: $(cat "$TESTDIR/transitions.log" 2>/dev/null)"
	python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$TESTDIR/transitions.log" ||
	    fail "on-transition input is not JSON lines"
	# Looking at it: no message, no bell, no desktop notification.
	T select-window -t main:1
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	# (the helper's log says when it has decided)
	log="$XDG_RUNTIME_DIR/lisa/*.log"
	until_ms 10000 sh -c "[ \$(cat $log | grep -c 'pane $p: notified') = 2 ]" ||
	    fail "second notification not decided: $(cat $log | grep notified)"
	cat $log | grep -q "pane $p: notified (in view)" ||
	    fail "not seen as in view: $(cat $log | grep notified)"
	note "notify: $(info | jget "d['notify']")"
	n=$(info | jget "d['notify']['messages']")
	[ "$n" = $sent ] || fail "$n messages; the second went to a client looking at the pane"
	[ "$(grep -c waits "$TESTDIR/desktop.log")" = 1 ] ||
	    fail "desktop notified while in view: $(cat "$TESTDIR/desktop.log")"
}

test_menu_actions_nudge_and_kill() {
	setup_agents
	# The feedback stays until the next key: on a busy machine the
	# agent's answer may come after the default 750 ms.
	T set -g display-time 20000
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	attach main:1
	O send-keys C-b a
	expect_screen "Nudge (this pane)"
	O send-keys u
	# The agent got "continue" and Enter (its answer is in the pane: on a
	# starved machine tmux 3.3a drew it on the client only with the
	# pane's next output, 3 runs in 8 beside three CPU hogs); the client
	# is told.
	until_ms 10000 pane_has "$p" 'unknown command: continue' ||
	    fail "the agent never answered the nudge: $(T capture-pane -p -t "$p")"
	expect_screen "lisa: nudged $p"
	O send-keys C-b a
	expect_screen "Kill (this pane)"
	O send-keys k
	expect_screen "lisa: kill this pane's agent? (y/n)"
	O send-keys y
	# Kept dead from 3.3 (remain-on-exit failed); on 3.2a lisa sets no
	# remain-on-exit (tmux #2828) and the pane goes.
	if tmux_at_least 3 3; then
		until_ms 10000 shows "$p" '#{pane_dead}' 1 || fail "pane not killed"
		# The user's own kill is its own ending, not a crash.
		expect "$p" completed "killed by you" killed_by_user
		expect_shown main '#{E:@lisa_n_crashed}' ''
	else
		# (3.2a's display -t falls back to another pane when it is gone)
		until_ms 10000 pane_gone "$p" || fail "pane not killed"
	fi
	L events --json | grep -q '"event":"terminate"' || fail "no terminate event"
}

# No Nudge in the menu of an agent that waits on a dialog: it would
# answer it. The same agent at its prompt is offered one.
test_menu_no_nudge_on_a_dialog() {
	setup_agents
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" permission Enter
	expect "$p" waiting_input permission
	attach main:1
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	screen_has "Kill (this pane)" || fail "no Kill: $(screen)"
	screen_has "Nudge" && fail "a dialog's menu offers Nudge:
$(screen)"
	O send-keys q
	T send-keys -t "$p" n Enter
	expect "$p" waiting_input prompt
	O send-keys C-b a
	expect_screen "Nudge (this pane)"
}

# Run records and events outlive their tmux server; the pane ids of a
# server started again at the same socket are others' panes. Old runs are
# listed as the old server's, and nothing acts on a pane that reuses
# their ids: retry, kill, the menu, details.
test_restarted_server_old_runs_touch_nothing() {
	start_server main
	start_helper
	printf '#!/bin/sh\necho "it broke" >&2\nexit 3\n' >"$TESTDIR/bad.sh"
	chmod +x "$TESTDIR/bad.sh"
	for n in 1 2 3; do
		L run --name "bad$n" -- "$TESTDIR/bad.sh" >/dev/null || fail "run $n"
	done
	until_ms 10000 sh -c "[ \$('$LISA' -L '$SOCK' runs --json | grep -o '\"lifecycle\":\"finished\"' | wc -l) = 3 ]" ||
	    fail "runs did not finish: $(L runs)"
	old=$(L runs --json | jget "' '.join(r['pane'] for r in d)")
	T kill-server
	wait_helper_exit 5000 || fail "helper stayed"
	start_server main
	T new-window -d -t main:1 "sleep 300"
	T new-window -d -t main:2 "sleep 300"
	T new-window -d -t main:3 "bash --norc"
	start_helper
	s1=$(T display -p -t main:1 '#{pane_id}')
	sh3=$(T display -p -t main:3 '#{pane_id}')
	note "old run panes: $old; new panes: $(T list-panes -a -F '#{pane_id}:#{pane_current_command}' | tr '\n' ' ')"
	case " $old " in
	*" $s1 "*) ;;
	*) fail "the new panes do not reuse the old ids ($old / $s1)" ;;
	esac
	L runs | grep -q "earlier tmux server" || fail "runs: $(L runs)"
	[ "$(L runs --json | jget "[r['current'] for r in d]")" = "[false, false, false]" ] ||
	    fail "old runs taken for this server's: $(L runs --json)"
	out=$(L retry "$s1" 2>&1) && fail "retried over $s1: $out"
	out=$(L kill "$s1" 2>&1) && fail "killed $s1 without --force: $out"
	sleep 0.5
	shows "$s1" '#{pane_current_command}' sleep || fail "$s1 was touched"
	shows "$s1" '#{pane_dead}' 0 || fail "$s1 died"
	L details "$s1" | grep -qE "run_|died" && fail "old events in details: $(L details "$s1")"
	[ -z "$(L events "$s1" --json)" ] || fail "old events in events $s1: $(L events "$s1")"
	L events --json | grep -q '"run_finished"' || fail "the log lost the old events"
	attach main:3
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	for item in Retry Kill Dismiss Nudge "needs your decision"; do
		screen_has "$item" && fail "a plain shell's menu offers $item:
$(screen)"
	done
	O send-keys q
	[ "$(T display -p -t "$sh3" '#{pane_dead}')" = 0 ] || fail "$sh3 died"
}

# The menu's actions act on the agent the menu showed: Kill chosen, and
# before "y" that agent ends and another starts in the same pane (a shell
# runs it again): the kill is refused, the new agent lives.
agent_pid_of() { L status "$1" --json | jget "d['incarnation']"; }
test_menu_kill_refused_when_the_agent_changed() {
	setup_agents
	p=$(marked_bash 1)
	T send-keys -t "$p" "$FAKE/claude" Enter
	expect "$p" waiting_input prompt
	first=$(agent_pid_of "$p")
	attach main:1
	O send-keys C-b a
	expect_screen "Kill (this pane)"
	O send-keys k
	expect_screen "lisa: kill this pane's agent? (y/n)"
	# Meanwhile, the agent leaves and the user starts it again.
	T send-keys -t "$p" 'exit 0' Enter
	expect "$p" completed
	T send-keys -t "$p" "$FAKE/claude" Enter
	expect "$p" waiting_input prompt
	new_one() { _inc=$(pane_field "$p" incarnation) && [ -n "$_inc" ] &&
	    [ "$_inc" != "$first" ]; }
	until_ms 10000 new_one ||
	    fail "the new agent is not a new incarnation: $first"
	O send-keys y
	expect_screen "not what it was when you chose"
	sleep 2.5	# (a kill would end it within 2 s)
	state_is "$p" waiting_input prompt "" || fail "the new agent was hit: $(L status "$p")"
	L events --json | grep -q '"event":"terminate"' && fail "a terminate was sent"
	# And from the CLI: a stale --expect is refused, the current one not.
	L kill "$p" --expect "$first" 2>/dev/null && fail "killed with a stale --expect"
	L nudge "$p" --expect "$first" 2>/dev/null && fail "nudged with a stale --expect"
	return 0
}

# The menu offers an action only where it applies: nothing but "Why?" on a
# plain shell; Dismiss, not Nudge or Kill, where an agent has crashed.
test_menu_offers_only_what_applies() {
	setup_agents
	T new-window -d -t main:1 -n shell "bash --norc"
	T send-keys -t main:1 "eval \"\$($LISA shell-init bash)\"" Enter
	p=$(T display -p -t main:1 '#{pane_id}')
	T send-keys -t "$p" "$FAKE/claude" Enter
	expect "$p" waiting_input
	T send-keys -t "$p" 'exit 2' Enter
	expect "$p" crashed "exit 2"
	attach main:0
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	for item in Nudge Kill Retry Dismiss; do
		screen_has "$item" && fail "a plain shell's menu offers $item:
$(screen)"
	done
	O send-keys q
	until_ms 3000 sh -c "! tmux -L $OUTER capture-pane -p | grep -q 'Why? (this pane)'" ||
	    fail "the menu did not close"
	# Its details popup is as big as what it says, not most of the
	# screen (the client is 150 columns wide).
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	O send-keys d
	expect_screen ": no agent"
	top=$(screen | grep -F " lisa: %" | head -n 1)
	w=$(printf '%s' "$top" | sed 's/^ *//; s/ *$//' | wc -m)
	[ "$w" -le 60 ] || fail "popup $w columns wide for one line:
$(screen)"
	O send-keys q
	until_ms 3000 sh -c "! tmux -L $OUTER capture-pane -p | grep -q ': no agent'" ||
	    fail "the popup did not close"
	T select-window -t main:1
	O send-keys C-b a
	expect_screen "Dismiss (this pane)"
	for item in Nudge Kill Retry; do
		screen_has "$item" && fail "a crashed agent's menu offers $item:
$(screen)"
	done
	O send-keys x
	expect_shown "$p" "$PANE_STATE" ''
	expect_screen "lisa: dismissed $p"
}

# Below tmux 3.2 lisa.tmux says so once, in tmux, and does nothing else:
# no build, no helper, no option, no key. A shim answers `tmux -V` with
# 3.1c; every other command reaches the real server.
test_too_old_tmux_says_so_and_does_nothing() {
	start_server main
	attach main:0
	shim="$TESTDIR/shim"
	mkdir -p "$shim" "$TESTDIR/plugin"
	printf '#!/bin/sh\n[ "$1" = -V ] && { echo "tmux 3.1c"; exit 0; }\nexec %s "$@"\n' \
	    "$(command -v tmux)" >"$shim/tmux"
	chmod +x "$shim/tmux"
	# A copy with nothing to build: if the check let it through, it
	# would say "cannot build" or "build failed" instead.
	cp "$ROOT/lisa.tmux" "$TESTDIR/plugin/"
	keys=$(T list-keys | wc -l)
	opts=$(T show -g | wc -l)
	T run-shell "PATH='$shim':\$PATH '$TESTDIR/plugin/lisa.tmux'"
	expect_screen "tmux 3.1c is too old: lisa needs tmux 3.2 or later"
	[ "$(T list-keys | wc -l)" = "$keys" ] || fail "keys bound"
	[ "$(T show -g | wc -l)" = "$opts" ] || fail "options set: $(T show -g | grep lisa)"
	L list >/dev/null 2>&1 && fail "a helper answers"
	[ ! -e "$TESTDIR/plugin/bin" ] || fail "something was built"
	return 0
}

# README's status-right snippet, as written there, at lisa's defaults:
# with more windows waiting than fit, the clock stays on screen.
test_readme_status_right_keeps_the_clock() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	sed -n '/^## In tmux/,/^## /p' "$ROOT/README.md" |
	    sed -n '/^```tmux$/,/^```$/p' | grep '^set ' >"$TESTDIR/snippet.conf"
	grep -q "status-right '#{lisa_status}" "$TESTDIR/snippet.conf" ||
	    fail "no snippet in README: $(cat "$TESTDIR/snippet.conf")"
	T source-file "$TESTDIR/snippet.conf"
	start_helper
	for i in 1 2 3 4 5; do
		agent_window "$i" claude >>"$TESTDIR/panes"
	done
	for p in $(cat "$TESTDIR/panes"); do
		L wait "$p" --until waiting_input --timeout 30 >/dev/null ||
		    fail "$p never waited"
	done
	attach main:0 120
	# (the longest waiting first: on a busy machine they may not begin
	# to wait in the order they started)
	expect_screen_re "◐ 5 main:[1-5] main:[1-5] main:[1-5]…"
	status_line | grep -Eq '\| [0-9][0-9]:[0-9][0-9] *$' ||
	    fail "the clock is gone: $(status_line)"
}

# Many agents in one tmux, no fleet: past the client's lines the menu
# shows those that wait, each, then a line per state (no "by host": there
# is one), and a state's line opens a menu of that state's agents. At
# lisa's defaults.
test_menu_many_local_by_state() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME" "$TESTDIR/qbin"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	ln -s "$(command -v sleep)" "$TESTDIR/qbin/claude"
	start_server main
	start_helper
	for i in $(seq 1 40); do
		echo "new-window -d -t main: -n q$i '$TESTDIR/qbin/claude 1000000'"
	done >"$TESTDIR/quiet.tmux"
	T source-file "$TESTDIR/quiet.tmux" || fail "quiet agents"
	for i in 1 2 3; do
		T new-window -d -t main: -n "w$i" "$FAKE/claude"
	done
	until_ms 60000 list_count_is '"state":"waiting_input"' 3 ||
	    fail "not 3 waiting: $(L list)"
	until_ms 30000 list_count_is '"agent":"claude","state":"' 43 ||
	    fail "not 43 agents: $(L list)"
	attach main:0 150 24
	O send-keys C-b a
	expect_screen "by state"
	s=$(screen)
	printf '%s\n' "$s" | grep -qE "lisa: 43 agents" || fail "title: $s"
	printf '%s\n' "$s" | grep -q "by host" && fail "a host section with one host: $s"
	printf '%s\n' "$s" | grep -qE "your turn: 3( |│|$)" || fail "your turn line: $s"
	sum=$(printf '%s\n' "$s" | sed -nE 's/.*(asks you|crashed|your turn|stuck|degraded|working|done): ([0-9]+).*/\2/p' |
	    awk '{ n += $1 } END { print n }')
	[ "$sum" = 43 ] || fail "the states' lines add up to $sum: $s"
	[ "$(printf '%s\n' "$s" | grep -c '└')" -ge 1 ] || fail "menu cut: $s"
	O send-keys Escape
	menu_closed 'by state'
	# What the waiting line runs (as it does: display-menu waits for the
	# menu to close): that state's agents, each.
	T run-shell -b "'$LISA' -L '$SOCK' key menu '$CLIENT' state:waiting"
	expect_screen "lisa: waiting"
	s=$(screen)
	[ "$(printf '%s\n' "$s" | grep -cE "claude +w[1-3] ")" = 3 ] || fail "the three: $s"
	printf '%s\n' "$s" | grep -qE "claude +q[0-9]+ " && fail "another state's: $s"
	O send-keys Escape
	# (closed before the message: a key read after it, Escape's own
	# escape-time later on a busy machine, would clear the message)
	menu_closed 'lisa: waiting'
	# (a message stays for the user's display-time, tmux's 750 ms here:
	# longer than a look of this test's takes on a busy machine)
	T set -g display-time 5000
	L key menu "$CLIENT" state:nonesuch
	expect_screen "lisa: no such state"
}

# Names that are not one column a byte (issue 45): a window named with
# accents, CJK and an emoji beside a plain one. The menu's columns and
# lisa list's line up as the client draws them (wcwidth).
test_menu_columns_by_display_width() {
	setup_agents
	wide='ünï 日本 🚀'
	T new-window -d -t main:1 -n "$wide" "$FAKE/claude"
	T new-window -d -t main:2 -n plain "$FAKE/claude"
	p1=$(T display -p -t main:1 '#{pane_id}')
	p2=$(T display -p -t main:2 '#{pane_id}')
	expect "$p1" waiting_input
	expect "$p2" waiting_input
	attach main:0 120 30
	O send-keys C-b a
	expect_screen "lisa: 2 agents"
	screen >"$TESTDIR/screen"
	# The column (as drawn: East Asian wide is two) where WORD starts, in
	# each line that has it.
	cols_of() {
		python3 - "$1" "$2" <<'PY'
import sys, unicodedata
def w(c):
    if unicodedata.combining(c):
        return 0
    return 2 if unicodedata.east_asian_width(c) in "WF" else 1
word = sys.argv[2]
for line in open(sys.argv[1], encoding="utf-8"):
    if "claude" in line:
        i = line.find(word)
        if i >= 0:
            print(sum(w(c) for c in line[:i]))
PY
	}
	[ "$(cols_of "$TESTDIR/screen" prompt | sort -u | wc -l)" = 1 ] ||
	    fail "the menu's columns do not line up ($(cols_of "$TESTDIR/screen" prompt | tr '\n' ' ')):
$(cat "$TESTDIR/screen")"
	[ "$(cols_of "$TESTDIR/screen" prompt | wc -l)" = 2 ] || fail "rows: $(cat "$TESTDIR/screen")"
	O send-keys Escape
	# lisa list's targets: a session named so too.
	T new-session -d -s 'ünï日本' "$FAKE/claude"
	p3=$(T display -p -t 'ünï日本:0' '#{pane_id}')
	expect "$p3" waiting_input
	L list >"$TESTDIR/list"
	[ "$(cols_of "$TESTDIR/list" "your turn" | wc -l)" = 3 ] &&
	    [ "$(cols_of "$TESTDIR/list" "your turn" | sort -u | wc -l)" = 1 ] ||
	    fail "lisa list's columns do not line up:
$(cat "$TESTDIR/list")"
}

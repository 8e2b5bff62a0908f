# Answering a waiting agent's dialog on purpose (lisa answer): the key is
# the agent's own, sent only when the dialog on screen is the one the
# user saw, never "always" unless named; what the agent did is reported.
# The fake Claude and Codex read one key in a dialog, as the real ones do,
# and log which (FAKE_AGENT_LOG). At lisa's defaults.

. "$ROOT/tests/integration/agents.sh"
. "$ROOT/tests/integration/client.sh"

start_dialogs() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	start_server main
	start_helper
}

# start_dialogs, with lisa's Claude hooks installed in the test's HOME
# (FAKE_* set before: the server's environment is the agents').
start_dialogs_hooked() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	L hooks install claude >/dev/null || fail "install"
	start_dialogs
}

# Pane $1's question has taken its hook's command.
from_the_hook() {
	until_ms 5000 sh -c "$LISA -L $SOCK status $1 --json | grep -q '\"source\":\"hook\"'" ||
	    fail "not from the hook: $(L status "$1" --json | jget "d['question']")"
}

# Pane $1 asks its permission; lisa has read the question: its token.
ask_permission() {
	ask "$1"
	question_token "$1"
}

# The token lisa shows for pane $1's dialog, once it has read one.
question_token() {
	until_ms 5000 sh -c "$LISA -L $SOCK status $1 --json | grep -q '\"token\"'" ||
	    fail "no question read: $(L status "$1" --json)"
	L status "$1" --json | jget "d['question']['token']"
}

drawn() { T capture-pane -p -t "$1" | grep -q -- "$2"; }
answers_logged() { grep -c " answer " "$FAKE_AGENT_LOG" 2>/dev/null || true; }

# allow: Claude's "1. Yes" by its number, Codex's "(y)"; the CLI says
# what was asked, what it chose and what the agent does now; an event.
test_answer_allow_claude_and_codex() {
	start_dialogs
	c=$(agent_ready 1 claude)
	x=$(agent_ready 2 codex)
	fc=$(ask_permission "$c")
	fx=$(ask_permission "$x")
	out=$(L answer "$c" allow --expect "$fc") || fail "claude: $out"
	case "$out" in
	*"\"Do you want to proceed?\" (touch x) answered \"1. Yes\" (key 1); now "*) ;;
	*) fail "claude's answer: $out" ;;
	esac
	out=$(L answer "$x" allow) || fail "codex: $out"
	case "$out" in
	*"answered \"1. Yes, proceed (y)\" (key y); now "*) ;;
	*) fail "codex's answer: $out" ;;
	esac
	grep -q "answer yes '1'" "$FAKE_AGENT_LOG" || fail "claude got: $(grep answer "$FAKE_AGENT_LOG")"
	grep -q "answer yes 'y'" "$FAKE_AGENT_LOG" || fail "codex got: $(grep answer "$FAKE_AGENT_LOG")"
	for p in $c $x; do
		until_ms 15000 drawn "$p" "Ran it." ||
		    fail "$p did not run it: $(T capture-pane -p -t "$p" | tail -n 5)"
	done
	L events "$c" | grep -E "answer +.*chose 1\. Yes" ||
	    fail "no answer event: $(L events "$c")"
	fp=$(echo "$fc" | cut -d: -f2)
	[ ${#fp} = 64 ] || fail "not a SHA-256 fingerprint: $fc"
	L events --json | grep -q "\"fingerprint\":\"$fp\"" ||
	    fail "the event has no fingerprint: $(L events --json | grep answer)"
}

# deny: Claude's "3. No", Codex's "(esc)" sent as Escape; always only when
# named: Codex's "(p)".
test_answer_deny_and_always() {
	start_dialogs
	c=$(agent_ready 1 claude)
	x=$(agent_ready 2 codex)
	ask_permission "$c" >/dev/null
	ask_permission "$x" >/dev/null
	out=$(L answer "$c" deny) || fail "claude: $out"
	case "$out" in *"answered \"3. No\" (key 3)"*) ;; *) fail "claude: $out" ;; esac
	out=$(L answer "$x" deny) || fail "codex: $out"
	case "$out" in *"(esc)\" (key esc)"*) ;; *) fail "codex: $out" ;; esac
	grep -q "answer no '3'" "$FAKE_AGENT_LOG" || fail "claude got: $(grep answer "$FAKE_AGENT_LOG")"
	grep -q "answer no '.x1b'" "$FAKE_AGENT_LOG" || fail "codex got: $(grep answer "$FAKE_AGENT_LOG")"
	until_ms 10000 drawn "$x" "Conversation interrupted" || fail "codex not denied"
	L wait "$x" --until waiting_input --timeout 10 >/dev/null
	until_ms 15000 state_is "$x" waiting_input prompt "" || fail "codex: $(L status "$x")"
	ask_permission "$x" >/dev/null
	out=$(L answer "$x" always) || fail "codex always: $out"
	case "$out" in *"don't ask again"*"(key p)"*) ;; *) fail "always: $out" ;; esac
	grep -q "answer always 'p'" "$FAKE_AGENT_LOG" || fail "codex got: $(grep answer "$FAKE_AGENT_LOG")"
}

# The guards: a token whose dialog is not on screen, a part of a token, a
# token of another incarnation, server or pane, a pane that waits at its
# prompt, an option the dialog does not have: refused, exit 1, nothing
# sent, the dialog still drawn.
test_answer_refused_without_a_key() {
	start_dialogs
	c=$(agent_ready 1 claude)
	out=$(L answer "$c" allow 2>&1) && fail "answered a prompt: $out"
	case "$out" in *"does not wait on a dialog (it is waiting_input/prompt)"*) ;;
	*) fail "at its prompt: $out" ;; esac
	tok=$(ask_permission "$c")
	fp=$(echo "$tok" | cut -d: -f2)
	rest=$(echo "$tok" | cut -d: -f3-)
	stale="v1:$(echo "$fp" | tr 0-9a-f 1-9a-f0):$rest"
	out=$(L answer "$c" allow --expect "$stale" 2>&1) && fail "stale: $out"
	case "$out" in *"not the one you saw"*"nothing sent"*) ;;
	*) fail "stale fingerprint: $out" ;; esac
	# A prefix, the fingerprint alone, its first 12 digits: not a token.
	for part in "${tok%:*}" "$fp" "$(echo "$fp" | cut -c1-12)" \
	    "$(echo "$fp" | cut -c1-12):${tok##*:}" "${tok}:x" "x$tok"; do
		out=$(L answer "$c" allow --expect "$part" 2>&1) &&
		    fail "a part of a token answered: $part: $out"
		case "$out" in *"not a token lisa printed"*) ;;
		*) fail "part $part: $out" ;; esac
	done
	out=$(L answer "$c" allow --expect "${tok%:*}:1.2.3" 2>&1) &&
	    fail "other agent: $out"
	case "$out" in *"not what it was when you chose"*) ;; *) fail "incarnation: $out" ;; esac
	other=$(echo "$tok" | awk -F: -v OFS=: '{ $4 = "1-2"; print }')
	out=$(L answer "$c" allow --expect "$other" 2>&1) && fail "server: $out"
	case "$out" in *"another tmux server's"*) ;; *) fail "server: $out" ;; esac
	other=$(echo "$tok" | awk -F: -v OFS=: '{ $5 = $5 + 1000; print }')
	out=$(L answer "$c" allow --expect "$other" 2>&1) && fail "pane: $out"
	case "$out" in *"another pane's"*) ;; *) fail "pane: $out" ;; esac
	out=$(L answer "$c" 7 2>&1) && fail "option 7: $out"
	case "$out" in *"no option for \"7\""*) ;; *) fail "option 7: $out" ;; esac
	[ "$(answers_logged)" = 0 ] || fail "a key reached the dialog: $(grep answer "$FAKE_AGENT_LOG")"
	drawn "$c" "Do you want to proceed?" || fail "the dialog went"
	L events --json "$c" | grep -c answer_refused | grep -q '^1[0-9]' ||
	    fail "refusals not in the events: $(L events "$c")"
}

# The words a person types: yes and y allow, no and n deny; anything else
# is a usage error (exit 2) that lists the choices and sends nothing.
test_answer_words() {
	start_dialogs
	c=$(agent_ready 1 claude)
	x=$(agent_ready 2 codex)
	ask_permission "$c" >/dev/null
	ask_permission "$x" >/dev/null
	for word in Yes "yes please" sure 0 allow-once; do
		out=$(L answer "$c" "$word" 2>&1)
		[ $? = 2 ] || fail "$word: not a usage error: $out"
		case "$out" in *"not a choice"*"allow, yes, y, deny, no, n, always"*"--reply"*) ;;
		*) fail "$word: $out" ;; esac
	done
	out=$(L answer "$c" allow --reply "no" 2>&1)
	[ $? = 2 ] || fail "allow with a reply: $out"
	[ "$(answers_logged)" = 0 ] || fail "a key reached a dialog: $(grep answer "$FAKE_AGENT_LOG")"
	out=$(L answer "$c" yes) || fail "yes: $out"
	case "$out" in *'answered "1. Yes" (key 1)'*) ;; *) fail "yes: $out" ;; esac
	out=$(L answer "$x" n) || fail "n: $out"
	case "$out" in *"(key esc)"*) ;; *) fail "n: $out" ;; esac
	grep -q "answer yes '1'" "$FAKE_AGENT_LOG" || fail "claude: $(grep answer "$FAKE_AGENT_LOG")"
	grep -q "answer no '.x1b'" "$FAKE_AGENT_LOG" || fail "codex: $(grep answer "$FAKE_AGENT_LOG")"
	L wait "$c" --until waiting_input --timeout 20 >/dev/null
	until_ms 15000 state_is "$c" waiting_input prompt "" || fail "$(L status "$c")"
	ask_permission "$c" >/dev/null
	out=$(L answer "$c" no) || fail "no: $out"
	case "$out" in *'answered "3. No" (key 3)'*) ;; *) fail "no: $out" ;; esac
	L wait "$x" --until waiting_input --timeout 20 >/dev/null
	until_ms 15000 state_is "$x" waiting_input prompt "" || fail "$(L status "$x")"
	ask_permission "$x" >/dev/null
	out=$(L answer "$x" y) || fail "y: $out"
	case "$out" in *"(key y)"*) ;; *) fail "y: $out" ;; esac
	[ "$(answers_logged)" = 4 ] || fail "keys: $(grep answer "$FAKE_AGENT_LOG")"
}

# A reply: the dialog declined, then the text typed at the prompt that
# comes back (the fake says "unknown command" to it: it arrived whole).
test_answer_reply_declines_then_types() {
	start_dialogs
	x=$(agent_ready 2 codex)
	ask_permission "$x" >/dev/null
	out=$(L answer "$x" --reply "use mkdir; then stop") || fail "reply: $out"
	case "$out" in *"(key esc), then typed \"use mkdir; then stop\""*) ;;
	*) fail "reply: $out" ;; esac
	until_ms 10000 drawn "$x" "unknown command: use" ||
	    fail "the reply did not arrive: $(T capture-pane -p -t "$x" | tail -n 5)"
}

# "always" is never what allow picks, whatever the order of the options:
# the fake Claude's "2. Yes, and always allow" is left for "always" alone;
# a dialog without such an option refuses "always".
test_answer_always_only_by_name() {
	start_dialogs
	c=$(agent_ready 1 claude)
	T send-keys -t "$c" question Enter
	until_ms 15000 state_is "$c" waiting_input question "" || fail "$(L status "$c")"
	question_token "$c" >/dev/null
	out=$(L answer "$c" always 2>&1) && fail "always on a choice: $out"
	case "$out" in *"no option for \"always\""*) ;; *) fail "always: $out" ;; esac
	out=$(L answer "$c" 2) || fail "option 2: $out"
	case "$out" in *"answered \"2. Option B\" (key 2)"*) ;; *) fail "2: $out" ;; esac
}

# prefix a on a dialog: what it asks, then "Allow once", "Deny" and
# "Reply..." (never Nudge, never always). y allows with the agent's key; a
# reply typed into tmux's prompt, quotes, $ and ; in it, arrives whole.
test_menu_answers_the_dialog_shown() {
	start_dialogs
	T set -g display-time 20000
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	attach main:1
	O send-keys C-b a
	expect_screen "asks to run: touch x"
	screen_has "Allow once" && screen_has "Deny" && screen_has "Reply" ||
	    fail "no answers in the menu: $(screen)"
	screen_has "Nudge" && fail "Nudge on a dialog: $(screen)"
	# (the menu's column: the agent's own dialog beside it says always)
	screen | sed -n 's/.*│ \(.*\)│$/\1/p' | grep -q lways &&
	    fail "always offered: $(screen)"
	O send-keys y
	until_ms 10000 grep -q "answer yes '1'" "$FAKE_AGENT_LOG" ||
	    fail "the agent got no 1: $(grep answer "$FAKE_AGENT_LOG"; screen)"
	expect_screen 'answered "1. Yes" (key 1)'
	L wait "$c" --until waiting_input --timeout 20 >/dev/null
	until_ms 15000 state_is "$c" waiting_input prompt "" || fail "$(L status "$c")"
	ask_permission "$c" >/dev/null
	O send-keys C-b a
	expect_screen "Reply"
	O send-keys t
	expect_screen "lisa: reply (declines the dialog):"
	O send-keys -l 'say "hi" $HOME; ~ ok'
	O send-keys Enter
	until_ms 15000 pane_has "$c" 'unknown command: say' ||
	    fail "no reply: $(T capture-pane -p -t "$c" | tail -n 4)"
	pane_has "$c" 'say "hi" $HOME; ~ ok' ||
	    fail "the reply changed on the way: $(T capture-pane -p -t "$c" | tail -n 4)"
	grep -q "answer no '3'" "$FAKE_AGENT_LOG" || fail "not declined: $(grep answer "$FAKE_AGENT_LOG")"
	[ -z "$(T list-buffers -F '#{buffer_name}' | grep lisa-reply)" ] ||
	    fail "the reply's buffer stayed: $(T list-buffers)"
}

# The details popup of a waiting agent answers too, with the menu's keys:
# x denies the dialog it showed.
test_details_popup_denies() {
	start_dialogs
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	attach main:1
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	O send-keys d
	expect_screen "y allow once"
	screen_has "asks: Bash: Do you want to proceed?" && screen_has "touch x" ||
	    fail "the popup does not say what it asks: $(screen)"
	screen_has "x deny" || fail "not the menu's keys: $(screen)"
	O send-keys x
	until_ms 10000 grep -q "answer no '3'" "$FAKE_AGENT_LOG" ||
	    fail "not denied: $(grep answer "$FAKE_AGENT_LOG"; screen)"
	expect_screen 'answered "3. No" (key 3)'
}

# The border says what the dialog asks, as written: a '%' is not a time
# format there, '#{...}' not a tmux format; gone once it is answered.
test_border_says_what_it_asks() {
	export FAKE_AGENT_COMMAND='echo 100% #{pane_id} done'
	start_dialogs
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	attach main:1
	expect_screen "permission · echo 100% #{pane_id} done"
	L answer "$c" allow >/dev/null || fail "not answered"
	until_ms 10000 sh -c "! tmux -L $OUTER capture-pane -p | grep -q 'echo 100'" ||
	    fail "the border still asks: $(screen | head -n 2)"
}

# With lisa's Claude hooks, the command comes from PermissionRequest's
# tool_input, exact (the screen's agreed with it): source "hook"; the
# fingerprint covers both, and answers with them.
test_question_command_from_the_hook() {
	export FAKE_AGENT_COMMAND='git push --force-with-lease origin "main"   '
	start_dialogs_hooked
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	from_the_hook "$c"
	fp=$(question_token "$c")
	[ "$(L status "$c" --json | jget "repr(d['question']['hook_subject'])")" = \
	    "'git push --force-with-lease origin \"main\"   '" ] ||
	    fail "hook_subject: $(L status "$c" --json | jget "d['question']")"
	[ "$(L status "$c" --json | jget "repr(d['question']['subject'])")" = \
	    "'git push --force-with-lease origin \"main\"'" ] ||
	    fail "subject: $(L status "$c" --json | jget "d['question']")"
	out=$(L answer "$c" deny --expect "$fp") || fail "answer: $out"
	grep -q "answer no '3'" "$FAKE_AGENT_LOG" || fail "not denied"
}

# Claude's Notification hook (permission_prompt) comes 6 s after its
# dialog, as the real one's: the same dialog still, so the token read
# before it answers it, and the hook's whole command is still shown.
test_answer_after_the_permission_notification() {
	export FAKE_AGENT_COMMAND='touch y   '
	start_dialogs_hooked
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	from_the_hook "$c"
	tok=$(question_token "$c")
	until_ms 15000 sh -c "$LISA -L $SOCK status $c --json | grep -q 'Notification permission_prompt'" ||
	    fail "no notification: $(L status "$c" --json | jget "d['signals']")"
	[ "$(L status "$c" --json | jget "repr(d['question']['hook_subject'])")" = \
	    "'touch y   '" ] ||
	    fail "the hook's command lost: $(L status "$c" --json | jget "d['question']")"
	out=$(L answer "$c" allow --expect "$tok") || fail "refused: $out"
	until_ms 5000 grep -q "answer yes '1'" "$FAKE_AGENT_LOG" || fail "not allowed"
}

# Claude's PermissionRequest hook after lisa read its dialog (a loaded
# machine): a hook that says what the screen shows leaves the dialog the
# one the user read, and the token read before it answers; a hook that
# says more than the screen (a second line) makes the token read before
# it name less than the dialog asks: refused, nothing sent, until the
# token that names the whole.
test_answer_token_before_the_hook() {
	export FAKE_CLAUDE_HOOK_LATE="$TESTDIR/hook-now"
	start_dialogs_hooked
	c=$(agent_ready 1 claude)
	tok=$(ask_permission "$c")
	[ "$(L status "$c" --json | jget "d['question']['source']")" = screen ] ||
	    fail "the hook came first: $(L status "$c" --json | jget "d['question']")"
	touch "$FAKE_CLAUDE_HOOK_LATE"
	from_the_hook "$c"
	[ "$(question_token "$c")" = "$tok" ] ||
	    fail "another token: $tok, now $(question_token "$c")"
	out=$(L answer "$c" allow --expect "$tok") || fail "refused: $out"
	until_ms 5000 grep -q "answer yes '1'" "$FAKE_AGENT_LOG" || fail "not allowed"
	rm -f "$FAKE_CLAUDE_HOOK_LATE"
	T set-environment -g FAKE_CLAUDE_HOOK_COMMAND 'touch x
rm -rf lisa-victim'
	d=$(agent_ready 2 claude)
	tok=$(ask_permission "$d")
	touch "$FAKE_CLAUDE_HOOK_LATE"
	until_ms 5000 sh -c "$LISA -L $SOCK status $d --json | grep -q lisa-victim" ||
	    fail "the hook's command not shown: $(L status "$d" --json | jget "d['question']")"
	out=$(L answer "$d" allow --expect "$tok" 2>&1) && fail "allowed: $out"
	case "$out" in *"not the one you saw"*"nothing sent"*) ;; *) fail "said: $out" ;; esac
	[ "$(answers_logged)" = 1 ] || fail "keys: $(grep answer "$FAKE_AGENT_LOG")"
	tok2=$(question_token "$d")
	[ "$tok2" != "$tok" ] || fail "the same token"
	out=$(L answer "$d" deny --expect "$tok2") || fail "deny: $out"
	until_ms 5000 grep -q "answer no '3'" "$FAKE_AGENT_LOG" || fail "not denied"
}

# An agent whose dialog's numbers move the pointer (Copilot CLI: its
# profile's answer_enter; here the fake Claude so, through agents.json):
# Enter goes only once the same dialog has the pointer on the option.
test_answer_enter_after_the_pointer() {
	export FAKE_AGENT_POINTER=1
	export XDG_CONFIG_HOME="$TESTDIR/config"
	mkdir -p "$XDG_CONFIG_HOME/lisa"
	cat >"$XDG_CONFIG_HOME/lisa/agents.json" <<'JSON'
{"agents": [{"name": "claude", "comm": ["claude"], "claude_files": true,
  "title": {"busy": "^[\u2800-\u28ff] ", "idle": "^\u2733 "},
  "screen": {"permission": "Do you want to proceed\\?"},
  "answer_enter": true}]}
JSON
	start_dialogs
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	out=$(L answer "$c" deny) || fail "deny: $out"
	case "$out" in *'answered "3. No" (key 3 Enter)'*) ;; *) fail "deny said: $out" ;; esac
	grep -q "pointer 3" "$FAKE_AGENT_LOG" || fail "the pointer never moved"
	grep -q "answer no '.r'\|answer no '.n'" "$FAKE_AGENT_LOG" ||
	    fail "not picked by Enter: $(grep answer "$FAKE_AGENT_LOG")"
}

# A dialog that loses its first key (the agent still drawing): nothing at
# all moved in the pane since the key (no output, no hook, the screen the
# same), so lisa presses once more; never more than that.
test_answer_again_when_a_key_is_lost() {
	export FAKE_AGENT_LOSE_KEY=1
	start_dialogs
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	out=$(L answer "$c" allow) || fail "allow: $out"
	case "$out" in *'answered "1. Yes" (key 1, again: the first was not taken)'*) ;;
	*) fail "said: $out" ;; esac
	grep -q "lost key '1'" "$FAKE_AGENT_LOG" || fail "no key lost: $(grep key "$FAKE_AGENT_LOG")"
	grep -q "answer yes '1'" "$FAKE_AGENT_LOG" || fail "not taken: $(grep answer "$FAKE_AGENT_LOG")"
	[ "$(grep -c "lost key\|answer yes" "$FAKE_AGENT_LOG")" = 2 ] ||
	    fail "keys: $(grep "key\|answer" "$FAKE_AGENT_LOG")"
}

# Two queued tool calls whose commands share their first line (a heredoc,
# then a harmful body): one allow approves exactly the one the user read.
# The next dialog, drawn at once and alike on its first line, is not
# pressed; the first token does not answer it; its own token does.
test_answer_queued_dialogs_alike() {
	cat >"$TESTDIR/queue.json" <<'JSON'
["python3 - <<'EOF'\nprint('harmless')\nEOF",
 "python3 - <<'EOF'\nimport shutil; shutil.rmtree('lisa-victim')\nEOF"]
JSON
	export FAKE_AGENT_QUEUE="$TESTDIR/queue.json"
	start_dialogs
	c=$(agent_ready 1 claude)
	tok=$(ask_permission "$c")
	[ "$(L status "$c" --json | jget "d['question']['subject']")" = \
	    "python3 - <<'EOF'
print('harmless')
EOF" ] || fail "not the whole command: $(L status "$c" --json | jget "d['question']")"
	out=$(L answer "$c" allow --expect "$tok" 2>&1)
	echo "# the answer said: $out"
	grep -q "dialog 1 answered yes" "$FAKE_AGENT_LOG" ||
	    fail "the first was not approved: $(cat "$FAKE_AGENT_LOG")"
	until_ms 5000 drawn "$c" "shutil.rmtree" || fail "no second dialog"
	grep -q "dialog 2 answered" "$FAKE_AGENT_LOG" &&
	    fail "one allow approved two dialogs: $(grep dialog "$FAKE_AGENT_LOG")"
	[ "$(answers_logged)" = 1 ] || fail "keys: $(grep answer "$FAKE_AGENT_LOG")"
	# The first token names the first dialog, answered: not the second.
	out=$(L answer "$c" allow --expect "$tok" 2>&1) && fail "replayed: $out"
	case "$out" in *"not the one you saw"*"nothing sent"*) ;; *) fail "replay: $out" ;; esac
	until_ms 5000 sh -c "$LISA -L $SOCK status $c --json | grep -q rmtree" ||
	    fail "the second not read: $(L status "$c" --json)"
	tok2=$(question_token "$c")
	[ "$tok2" != "$tok" ] || fail "the same token for another dialog"
	grep -q "dialog 2 answered" "$FAKE_AGENT_LOG" && fail "answered: $(cat "$FAKE_AGENT_LOG")"
	out=$(L answer "$c" deny --expect "$tok2") || fail "deny: $out"
	until_ms 5000 grep -q "dialog 2 answered no" "$FAKE_AGENT_LOG" ||
	    fail "the second: $(grep dialog "$FAKE_AGENT_LOG")"
}

# The same dialog twice (the same command queued twice): its second
# drawing is another dialog, with another token, never answered by the
# first answer nor by its token.
test_answer_same_dialog_twice() {
	printf '["touch same", "touch same"]' >"$TESTDIR/queue.json"
	export FAKE_AGENT_QUEUE="$TESTDIR/queue.json"
	start_dialogs
	c=$(agent_ready 1 claude)
	tok=$(ask_permission "$c")
	out=$(L answer "$c" allow --expect "$tok" 2>&1)
	rc=$?
	echo "# the answer said ($rc): $out"
	grep -q "dialog 1 answered yes" "$FAKE_AGENT_LOG" || fail "$(cat "$FAKE_AGENT_LOG")"
	until_ms 5000 drawn "$c" "touch same" || fail "no second dialog"
	[ "$(answers_logged)" = 1 ] || fail "pressed again: $(grep answer "$FAKE_AGENT_LOG")"
	out=$(L answer "$c" allow --expect "$tok" 2>&1) && fail "replayed: $out"
	[ "$(answers_logged)" = 1 ] || fail "the token answered twice: $(grep answer "$FAKE_AGENT_LOG")"
}

# A multi-line command differing after its first line: another
# fingerprint, and lisa shows it whole.
test_answer_multiline_differs_after_line_one() {
	export FAKE_AGENT_COMMAND="python3 - <<'EOF'
print(1)
EOF"
	start_dialogs
	c=$(agent_ready 1 claude)
	tok=$(ask_permission "$c")
	[ "$(L status "$c" --json | jget "d['question']['subject_lines']")" = 3 ] ||
	    fail "not whole: $(L status "$c" --json | jget "d['question']")"
	L explain "$c" | grep -q "print(1)" || fail "explain: $(L explain "$c")"
	T setenv -g FAKE_AGENT_COMMAND "python3 - <<'EOF'
print(2)
EOF"
	d=$(agent_ready 2 claude)
	tok2=$(ask_permission "$d")
	[ "$(echo "$tok" | cut -d: -f2)" != "$(echo "$tok2" | cut -d: -f2)" ] ||
	    fail "the same fingerprint for another command"
}

# An agent replaced by another showing the identical dialog: the token
# of the one the user saw answers nothing.
test_answer_replaced_agent() {
	start_dialogs
	T new-window -d -t main:1 -n claude "sh -c 'while :; do $FAKE/claude; done'"
	c=$(T display -p -t main:1 '#{pane_id}')
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "no claude"
	tok=$(ask_permission "$c")
	old=$(echo "$tok" | cut -d: -f6)
	kill "$(echo "$old" | cut -d. -f2)"
	until_ms 20000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"state\": *\"waiting_input\"'" ||
	    fail "no new agent"
	until_ms 15000 state_is "$c" waiting_input prompt "" || fail "$(L status "$c")"
	tok2=$(ask_permission "$c")
	[ "$(echo "$tok" | cut -d: -f2)" = "$(echo "$tok2" | cut -d: -f2)" ] ||
	    fail "not the identical dialog: $tok / $tok2"
	out=$(L answer "$c" allow --expect "$tok" 2>&1) && fail "answered: $out"
	case "$out" in *"not what it was when you chose"*) ;; *) fail "said: $out" ;; esac
	[ "$(answers_logged)" = 0 ] || fail "a key reached it: $(grep answer "$FAKE_AGENT_LOG")"
}

# A dialog taller than the pane: its first lines scroll into the pane's
# history, where lisa reads them. Two commands that differ only there
# have two fingerprints; the whole command is what lisa shows.
test_answer_dialog_taller_than_the_pane() {
	python3 -c '
import json
body = "\n".join("echo line %d" % i for i in range(70))
print(json.dumps(["rm -rf lisa-victim-a\n" + body, "touch lisa-b\n" + body]))' \
	    >"$TESTDIR/queue.json"
	export FAKE_AGENT_QUEUE="$TESTDIR/queue.json"
	start_dialogs
	c=$(agent_ready 1 claude)
	tok=$(ask_permission "$c")
	q=$(L status "$c" --json | jget "'%s %s %s' % (d['question']['whole'], d['question']['subject_lines'], d['question']['subject'].split(chr(10))[0])")
	[ "$q" = "True 71 rm -rf lisa-victim-a" ] ||
	    fail "not read whole: $q ($(T display -p -t "$c" '#{pane_height}') rows)"
	cat "$XDG_RUNTIME_DIR"/lisa/*.log | grep -q "pane $c: a dialog's top is not on screen" ||
	    fail "its history was not read"
	out=$(L answer "$c" allow --expect "$tok") || fail "allow: $out"
	until_ms 5000 sh -c "$LISA -L $SOCK status $c --json | grep -q 'touch lisa-b'" ||
	    fail "the second not read: $(L status "$c" --json | jget "d['question']")"
	tok2=$(question_token "$c")
	[ "$(echo "$tok" | cut -d: -f2)" != "$(echo "$tok2" | cut -d: -f2)" ] ||
	    fail "alike but for a scrolled line, and the same fingerprint"
	[ "$(answers_logged)" = 1 ] || fail "keys: $(grep answer "$FAKE_AGENT_LOG")"
}

# An agent that redraws a clock while its dialog waits (Copilot CLI
# counts its tool's seconds; here the fake Claude so, with its profile's
# dialog_clock through agents.json): the wait stands for as long as the
# dialog is drawn, at lisa's defaults, and is answered; without
# dialog_clock the same output reads as work (what Copilot's verdict was).
test_dialog_with_a_clock_stays_a_wait() {
	# (no session file, no title: the screen and the output alone, as
	# Copilot CLI's pane without hooks)
	export FAKE_AGENT_DIALOG_CLOCK=1 FAKE_AGENT_NO_SESSION=1 FAKE_AGENT_NO_TITLE=1
	export XDG_CONFIG_HOME="$TESTDIR/config"
	mkdir -p "$XDG_CONFIG_HOME/lisa"
	cat >"$XDG_CONFIG_HOME/lisa/agents.json" <<'JSON'
{"agents": [{"name": "claude", "comm": ["claude"],
  "screen": {"permission": "Do you want to proceed\\?",
             "prompt": "\u276f $", "busy": "esc to interrupt"},
  "dialog_clock": true}]}
JSON
	start_dialogs
	c=$(agent_ready 1 claude)
	since=$(date +%s)
	tok=$(ask_permission "$c")
	until_ms 5000 drawn "$c" "waited [2-9]s" || fail "no clock: $(T capture-pane -p -t "$c" | head -n 2)"
	# Six seconds of a clock: never working meanwhile.
	t0=$(date +%s)
	while [ $(($(date +%s) - t0)) -lt 6 ]; do
		state_is "$c" waiting_input permission "" ||
		    fail "the clock read as work: $(L status "$c")"
		sleep 0.5
	done
	# (a look, again for 2 s: a capture between the clock's erase and
	# its redraw, under load, sees no clock)
	until_ms 2000 drawn "$c" "waited [5-9]s\|waited [1-2][0-9]s" ||
	    fail "the clock stopped: $(T capture-pane -p -t "$c" | head -n 3)"
	L events --json "$c" | python3 -c '
import json, sys
since = int(sys.argv[1])
for line in sys.stdin:
    e = json.loads(line)
    if e.get("event") == "transition" and e.get("t", 0) / 1000 >= since + 1:
        assert e.get("to") != "in_progress", e' "$since" ||
	    fail "a transition to in_progress: $(L events "$c")"
	out=$(L answer "$c" deny --expect "$tok") || fail "deny: $out; $(cat "$FAKE_AGENT_LOG" | tail -n 5); $(T capture-pane -p -t "$c" | tail -n 8)"
	grep -q "answer no '3'" "$FAKE_AGENT_LOG" || fail "not denied"
}

# After a denied dialog (issue 45): the question that comes next is read
# with its own text, not the earlier turn's "⎿ Interrupted · What should
# Claude do instead?" still on the screen; the menu offers its options
# (not "Allow once" and "Deny"), and the one picked there is answered.
test_question_after_a_denied_dialog() {
	start_dialogs
	T set -g display-time 20000
	c=$(agent_ready 1 claude)
	ask_permission "$c" >/dev/null
	L answer "$c" deny >/dev/null || fail "not denied"
	until_ms 15000 drawn "$c" "What should Claude do instead?" ||
	    fail "no leftover: $(T capture-pane -p -t "$c" | tail -n 5)"
	L wait "$c" --until waiting_input --timeout 20 >/dev/null
	T send-keys -t "$c" question Enter
	until_ms 15000 state_is "$c" waiting_input question "" || fail "$(L status "$c")"
	question_token "$c" >/dev/null
	drawn "$c" "What should Claude do instead?" ||
	    fail "the leftover is gone: the test proves nothing"
	L status "$c" --json >"$TESTDIR/st"
	text=$(jget "d['question']['text']" <"$TESTDIR/st")
	[ "$text" = "Pick one" ] || fail "its text: $text"
	attach main:1
	O send-keys C-b a
	# (the menu's own lines, in its box: the pane shows the options too)
	expect_screen "│ 1. Option A"
	screen_has "│ 2. Option B" || fail "no option B: $(screen)"
	screen_has "Allow once" && fail "Allow once on a question: $(screen)"
	screen_has "Deny" && fail "Deny on a question: $(screen)"
	# From the bottom: Kill, Reply, then its second option.
	O send-keys Up
	O send-keys Up
	O send-keys Up
	O send-keys Enter
	until_ms 10000 grep -q "answer yes '2'" "$FAKE_AGENT_LOG" ||
	    fail "the agent got no 2: $(grep answer "$FAKE_AGENT_LOG"; screen)"
	expect_screen 'answered "2. Option B" (key 2)'
}

# The details popup of an agent that asks a question: its options as lisa
# read them, and the number picks one (not y, which allows nothing here).
test_details_popup_answers_a_question() {
	start_dialogs
	c=$(agent_ready 1 claude)
	T send-keys -t "$c" question Enter
	until_ms 15000 state_is "$c" waiting_input question "" || fail "$(L status "$c")"
	question_token "$c" >/dev/null
	attach main:1
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	O send-keys d
	expect_screen "1-2 its option"
	screen_has "y allow once" && fail "allow offered on a question: $(screen)"
	[ "$(screen | grep -c '2. Option B')" -ge 2 ] ||
	    fail "the popup does not list the options: $(screen)"
	O send-keys 2
	until_ms 10000 grep -q "answer yes '2'" "$FAKE_AGENT_LOG" ||
	    fail "the agent got no 2: $(grep answer "$FAKE_AGENT_LOG"; screen)"
}

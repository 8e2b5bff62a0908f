# The claims of docs/security.md that need a real tmux, a real socket and
# real processes (the others are unit tests; the document says which).

. "$ROOT/tests/integration/agents.sh"

helper_log() { cat "$TESTDIR/lisad.err" "$XDG_RUNTIME_DIR"/lisa/*.log 2>/dev/null; }

# The socket answers only our uid. Its directory (0700) and mode keep
# others out first; here both are opened on purpose, so the peer check is
# all that is left. Needs root to connect as another uid.
test_socket_refuses_other_uid() {
	if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
		note "not root (or no setpriv): cannot connect as another uid here"
		return 0
	fi
	start_server main
	start_helper
	sock=$(ls "$XDG_RUNTIME_DIR"/lisa/*.sock)
	chmod 711 "$TESTDIR" "$XDG_RUNTIME_DIR" "$XDG_RUNTIME_DIR/lisa"
	chmod 777 "$sock"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups /usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1])
except OSError as e:
    print("connect failed: %s" % e); sys.exit(0)
try:
    s.sendall(b"{\"cmd\":\"list\"}\n")
    data = s.recv(65536)
except OSError:
    data = b""
print("answered" if data else "closed")' "$sock")
	[ "$out" = closed ] || fail "uid 65534: $out"
	until_ms 2000 sh -c "cat '$TESTDIR/lisad.err' '$XDG_RUNTIME_DIR'/lisa/*.log 2>/dev/null | grep -q 'refused connection from uid 65534'" ||
	    fail "refusal not logged"
	chmod 700 "$XDG_RUNTIME_DIR/lisa"
	L list >/dev/null || fail "our own uid refused"
}

# Text from panes - output, titles, window names - with shell and tmux
# syntax in it goes through every path lisa has (options, status line,
# borders, menu, messages, on-transition command,
# watchdog triage) and runs nothing.
test_hostile_pane_text_runs_nothing() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME/bin"
	pw="$TESTDIR/pwned"
	evil="\$(touch $pw.1)\`touch $pw.2\`;touch $pw.3;'\"#(touch $pw.4)#{pane_pid}"
	printf '#!/bin/sh\ncat > "%s/triage.in"\necho nudge\n' "$TESTDIR" >"$TESTDIR/triage.sh"
	chmod +x "$TESTDIR/triage.sh"
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g @lisa-notify-waiting on
	T set -g @lisa-on-transition "cat >> '$TESTDIR/transitions.log'"
	T set -g @lisa-watchdog on
	T set -g @lisa-watchdog-stale 2
	T set -g @lisa-watchdog-step 1
	T set -g @lisa-triage-command "$TESTDIR/triage.sh"
	start_helper
	p=$(agent_window 1 claude)
	# (rename-window expands formats: '##' makes '#')
	T rename-window -t main:1 "$(printf '%s' "$evil" | sed 's/#/##/g')"
	expect "$p" waiting_input
	# A title (OSC 2) and a window name (ESC k, allow-rename on) set by
	# a pane's own output.
	T set -g allow-rename on
	printf '%s' "$evil" >"$TESTDIR/evil.txt"
	cat >"$TESTDIR/namer" <<EOF
#!/bin/sh
t=\$(cat '$TESTDIR/evil.txt')
printf '\\033]2;%s\\033\\\\' "\$t"
printf '\\033k%s\\033\\\\' "\$t"
exec sleep 600
EOF
	chmod +x "$TESTDIR/namer"
	T new-window -d -t main:2 "$TESTDIR/namer"
	titled() { [ "$(T display -p -t main:2 '#{pane_title}')" = "$evil" ]; }
	until_ms 5000 titled || fail "the title: $(T display -p -t main:2 '#{pane_title}')"
	# Into the output and the screen (the agent echoes what it does not know).
	T send-keys -t "$p" -l "$evil"
	T send-keys -t "$p" Enter
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'hang' Enter
	expect "$p" in_progress
	until_ms 8000 test -s "$TESTDIR/triage.in" || fail "no triage"
	L status "$p" >/dev/null
	L list --json >/dev/null
	T display-menu -t "$p" -x 0 -y 0 "$(L key menu --print 2>/dev/null || true)" 2>/dev/null
	grep -qF "$evil" "$TESTDIR/triage.in" ||
	    fail "triage did not get the screen as text: $(grep touch "$TESTDIR/triage.in")"
	[ "$(pane_field "$p" window_name)" = "$evil" ] ||
	    fail "list: window name $(pane_field "$p" window_name)"
	test -s "$TESTDIR/transitions.log" || fail "no on-transition"
	[ "$(T display -p -t main:1 '#{window_name}')" = "$evil" ] || fail "window name changed"
	[ "$(T display -p -t main:2 '#{window_name}')" = "$evil" ] ||
	    fail "ESC k's name: $(T display -p -t main:2 '#{window_name}')"
	L list --json | grep -qF 'pane_pid' || fail "list"
	ls "$TESTDIR" | grep -q pwned && fail "pane text ran: $(ls "$TESTDIR" | grep pwned)"
	kill -0 "$HELPER_PID" || fail "helper died"
}

# A name as tmux's expansion keeps it (the test's own, as ctl_format_str
# does: a run of '#' doubled, but one before '[' left as it is).
fmt_name() {
	python3 -c 'import re, sys
print(re.sub(r"#+(?![#\[])", lambda m: m.group(0) * 2, sys.argv[1]), end="")' "$1"
}

# Names and directories are text on every path that makes, renames or
# restores windows and sessions: tmux expands new-window's -n and -c,
# new-session's -s and -c, respawn-pane's -c and rename-window's name as
# formats, where "#(...)" runs a command. A directory cloned from a
# hostile repository, a window name a pane set: shown as written, run
# never. lisa run, the automatic retry, lisa retry, lisa resume and lisa
# resume --restored (the resurrect hook), each with "#(touch MARKER)" and
# "#{pane_id}" in its session, window and directory.
test_names_and_directories_run_nothing() {
	export HOME="$TESTDIR/home" XDG_STATE_HOME="$TESTDIR/state"
	export PATH="$FAKE:$PATH"
	mkdir -p "$HOME"
	pw="$TESTDIR/pwned"
	name="w#(touch $pw.name)#{pane_id}#[fg=red]##"
	sess="s#(touch $pw.sess)#{pane_id}"
	dir="$TESTDIR/d#(touch $pw.dir)#{pane_id}"
	mkdir -p "$dir"
	start_server main
	start_helper
	# lisa run: its session, window and directory, then its retries.
	printf '#!/bin/sh\nsleep 2\nexit 3\n' >"$TESTDIR/fails"
	chmod +x "$TESTDIR/fails"
	out=$(L run --name "$name" --session "$sess" --cwd "$dir" --retries 1 \
	    -- "$TESTDIR/fails") || fail "run: $out"
	p=$(echo "$out" | awk '{ print $NF }')
	# (tmux makes a session name's '.' a '_')
	T list-sessions -F '#{session_name}' | grep -qF "s#(touch " &&
	    T list-sessions -F '#{session_name}' | grep -qF "sess)#{pane_id}" ||
	    fail "session: $(T list-sessions -F '#{session_name}')"
	[ "$(T display -p -t "$p" '#{window_name}|#{pane_current_path}')" = "$name|$dir" ] ||
	    fail "run: window $(T display -p -t "$p" '#{window_name}|#{pane_current_path}')"
	# The automatic retry (runs_launch), then lisa retry.
	until_ms 20000 sh -c "ls '$XDG_RUNTIME_DIR'/lisa/runs/*.json 2>/dev/null | wc -l | grep -q '^[2-9]'" ||
	    fail "no automatic retry: $(ls "$XDG_RUNTIME_DIR"/lisa/runs 2>&1)"
	until_ms 10000 sh -c "[ \"\$(tmux -L $SOCK display -p -t '$p' '#{pane_dead}')\" = 1 ]" ||
	    fail "the retry did not end"
	[ "$(T display -p -t "$p" '#{window_name}')" = "$name-r2" ] ||
	    fail "retried: $(T display -p -t "$p" '#{window_name}')"
	L retry "$p" --force >/dev/null 2>&1
	until_ms 10000 sh -c "ls '$XDG_RUNTIME_DIR'/lisa/runs/*.json | wc -l | grep -q '^[3-9]'" ||
	    fail "lisa retry made no run"
	T display -p -t "$p" '#{window_name}' | grep -qxF "$name-r3" ||
	    fail "lisa retry: window $(T display -p -t "$p" '#{window_name}')"
	# lisa resume: an agent in such a place, its server killed.
	T new-session -d -s "x" -x 100 -y 30
	T rename-session -t x "$(fmt_name "$sess-2")"
	T new-window -d -t "$(T display -p -t x '#{session_id}'):4" \
	    -n "$(fmt_name "$name")" \
	    -c "$(fmt_name "$dir")" claude
	c=$(T list-panes -a -F '#{pane_id} #{window_index}' | awk '$2 == 4 { print $1 }')
	[ "$(T display -p -t "$c" '#{pane_current_path}')" = "$dir" ] ||
	    fail "the test's own window: $(T display -p -t "$c" '#{pane_current_path}')"
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q 'window_index\":4'" ||
	    fail "no record"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	start_server main
	start_helper
	out=$(L resume --all --dry-run) || fail "dry run: $out"
	out=$(L resume --all) || fail "resume: $out"
	T list-windows -a -F '#{window_name}|#{pane_current_path}' |
	    grep -qxF "$name|$dir" ||
	    fail "resumed as: $(T list-windows -a -F '#{session_name}:#{window_index} #{window_name}|#{pane_current_path}')"
	T list-sessions -F '#{session_name}' | grep -qF "sess)#{pane_id}-2" ||
	    fail "resumed session: $(T list-sessions -F '#{session_name}')"
	# The resurrect hook: a restored shell in its place, the agent into it.
	c=$(T list-panes -a -F '#{pane_id} #{window_name}' | grep -F "$name" | cut -d' ' -f1)
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "not resumed"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q 'claude'" ||
	    fail "no record of the resumed agent"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	start_server main
	start_helper
	T new-session -d -s "$(fmt_name "$sess-2")" -x 100 -y 30 \
	    -c "$(fmt_name "$dir")"
	T rename-window -t "$(T list-sessions -F '#{session_id}' | tail -n 1):0" \
	    "$(fmt_name "$name")"
	out=$(L resume --restored 2>&1) || fail "--restored: $out"
	case "$out" in *"in its restored pane"*) ;; *) fail "--restored said: $out" ;; esac
	ls "$TESTDIR" | grep -q pwned && fail "a name ran: $(ls "$TESTDIR" | grep pwned)"
	kill -0 "$HELPER_PID" || fail "helper died"
}

# What a key binding runs writes one file, its own in the 0700 runtime
# directory (KEY.key-PID): any other path is refused, and a link put in
# its place is replaced, never followed. What it writes is one command
# with every argument quoted: a window named to end the line or the
# command, or to run one, is text in the menu.
test_key_file_is_its_own_and_quoted() {
	start_server main
	start_helper
	prefix=$(T list-keys -T prefix | grep ' key menu ' | sed "s/.*--to '\([^']*\)'.*/\1/")
	case "$prefix" in
	*/*.key-) ;;
	*) fail "no key file in the binding: $(T list-keys -T prefix | grep ' key menu ')" ;;
	esac
	for bad in "$TESTDIR/elsewhere" "${prefix}12x" "${prefix}" "${prefix}1/../x"; do
		rc=0
		L key menu --to "$bad" --at '%0 30 3.3a' c 2>/dev/null || rc=$?
		[ "$rc" = 2 ] || fail "--to $bad: exit $rc"
	done
	[ ! -e "$TESTDIR/elsewhere" ] || fail "wrote elsewhere"
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	pw="$TESTDIR/pwned"
	a=$(agent_window 1 claude)
	# (rename-window expands formats: '##' makes '#')
	T rename-window -t main:1 "w\";run-shell 'touch $pw.1'
display-message x ##(touch $pw.2)"
	echo keep >"$TESTDIR/target"
	ln -s "$TESTDIR/target" "${prefix}4242"
	L key menu --to "${prefix}4242" --at '%0 30 3.3a 1-1' c ||
	    fail "lisa key --to: exit $?"
	[ "$(cat "$TESTDIR/target")" = keep ] || fail "the link was followed"
	[ -f "${prefix}4242" ] && [ ! -L "${prefix}4242" ] || fail "no file of its own"
	[ "$(wc -l <"${prefix}4242")" = 1 ] || fail "more than one line: $(cat "${prefix}4242")"
	# Pressed: the menu shows the name as text, and nothing of it runs.
	L wait "$a" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	. "$ROOT/tests/integration/client.sh"
	attach main:0 150 30
	O send-keys C-b a
	# (the status line shows the name too: the menu's lines are boxed)
	expect_screen "lisa: 1 agent"
	expect_screen_re '│.*run-shell'
	expect_screen_re "│.*display-message x #\(touch"
	O send-keys Escape
	menu_closed "lisa: 1 agent"
	[ ! -e "$pw.1" ] && [ ! -e "$pw.2" ] || fail "a window's name ran a command"
	# lisa stop leaves no key file behind,
	L stop >/dev/null || fail "lisa stop"
	until_ms 5000 sh -c "! ls '$prefix'* >/dev/null 2>&1" ||
	    fail "key files left: $(ls "$prefix"*)"
	# nor does a press that was under way when it stopped (its key
	# writes its file after the helper took the keys' files away).
	L key menu --to "${prefix}4343" --at '%0 30 3.3a' c 2>/dev/null
	[ ! -e "${prefix}4343" ] || fail "a late key's file left: $(cat "${prefix}4343")"
}

# A key's tmux commands run on the helper's connection (key-tmux.c). Its
# socket is the user's alone (above), so this adds nothing a caller could
# not do with tmux itself; what the helper guards is its own connection:
# a command that waits (a menu, a prompt, run-shell) would stall what lisa
# hears of the session, and a window selected or a message shown would
# change what the user looks at. A word is one word, whatever it holds.
test_key_tmux_runs_only_a_keys_commands() {
	start_server main
	start_helper
	before=$(T list-windows -a | wc -l)
	for argv in '["run-shell","touch '"$TESTDIR"'/PWNED"]' \
	    '["run-shell","-b","touch '"$TESTDIR"'/PWNED"]' \
	    '["display-menu","x","","run-shell \"touch '"$TESTDIR"'/PWNED\""]' \
	    '["command-prompt","run-shell \"touch '"$TESTDIR"'/PWNED\""]' \
	    '["confirm-before","run-shell \"touch '"$TESTDIR"'/PWNED\""]' \
	    '["if-shell","true","run-shell \"touch '"$TESTDIR"'/PWNED\""]' \
	    '["wait-for","never"]' \
	    '["new-window","sh"]' '["new-window","--","-d"]' \
	    '["display-message","shown"]' '["display-message","x","-p"]' \
	    '["send-keys","-t","main:0","touch PWNED","Enter"]' \
	    '["kill-server"]' '[]' '[1,2]'; do
		out=$(printf '{"cmd":"tmux","argv":%s}\n' "$argv" | socket_call)
		printf '%s\n' "$out" | jget "d['ok'] is False or exit(1)" >/dev/null ||
		    fail "ran $argv: $out"
	done
	# Still serving, and a key's own command does run.
	out=$(printf '{"cmd":"tmux","argv":["display-message","-p","#{session_name}"]}\n' | socket_call)
	[ "$(printf '%s\n' "$out" | jget "d['out']")" = "main" ] || fail "a key's command: $out"
	# One word: its ';', newline and quotes are the value's.
	val='a ; run-shell "touch '"$TESTDIR"'/PWNED" \; x
run-shell "touch '"$TESTDIR"'/PWNED"'
	req=$(python3 -c 'import json,sys; print(json.dumps({"cmd":"tmux","argv":["set-option","-g","@lisa_t",sys.argv[1]]}))' "$val")
	out=$(printf '%s\n' "$req" | socket_call)
	printf '%s\n' "$out" | jget "d['ok'] and d['status'] == 0 or exit(1)" >/dev/null || fail "set-option: $out"
	[ "$(T show -gv @lisa_t)" = "$val" ] || fail "the value became: $(T show -gv @lisa_t)"
	# tmux's own error is the key's, not the helper's.
	out=$(printf '{"cmd":"tmux","argv":["set-option","-w","-t","@99999","@x","1"]}\n' | socket_call)
	printf '%s\n' "$out" | jget "d['ok'] and d['status'] == 1 and d['error'] or exit(1)" >/dev/null ||
	    fail "an error of tmux: $out"
	sleep 0.5
	[ ! -e "$TESTDIR/PWNED" ] || fail "a command ran"
	[ "$(T list-windows -a | wc -l)" = "$before" ] || fail "windows: $(T list-windows -a)"
	info | jget "d['attached'] >= 1 or exit(1)" >/dev/null || fail "the helper lost its session"
	T set -gu @lisa_t
}

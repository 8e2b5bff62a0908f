# Notifications that leave tmux: what lisa writes to each attached client's
# terminal (a pty read by ttyclient.py, which answers tmux's XTVERSION
# query as the named terminal would), the desktop notification's "Show"
# action, and the sound command.

. "$ROOT/tests/integration/agents.sh"

TTYC="$ROOT/tests/integration/ttyclient.py"

# A client on its own pty, TERM $2, answering XTVERSION with $3; its
# terminal's bytes go to $TESTDIR/tty-$1.log.
tty_client() {
	: >"$TESTDIR/tty-$1.log"
	env -u TMUX TERM="$2" python3 "$TTYC" "$TESTDIR/tty-$1.log" "$3" \
	    tmux -L "$SOCK" attach -t main:0 >"$TESTDIR/ttyc-$1.err" 2>&1 &
	eval "TTYC_$1=\$!"
	until_ms 15000 tty_named "$1" "$3" ||
	    fail "client $1 not attached as '$3': $(T list-clients -F '#{client_name} #{client_termtype}'; cat "$TESTDIR/ttyc-$1.err")"
}
# The client whose terminal log is $1's has the termtype $2.
tty_named() {
	[ -z "$2" ] && return 0
	T list-clients -F '#{client_termtype}' | grep -q -x -F -- "$2"
}
tty_has() { python3 - "$TESTDIR/tty-$1.log" "$2" <<'EOF'
import sys
data = open(sys.argv[1], "rb").read()
want = sys.argv[2].encode().decode("unicode_escape").encode("latin-1")
sys.exit(0 if want in data else 1)
EOF
}
tty_dump() { python3 -c 'import sys; d=open(sys.argv[1],"rb").read(); print(repr(d[-600:]))' "$TESTDIR/tty-$1.log"; }
expect_tty() {
	until_ms 15000 tty_has "$1" "$2" ||
	    fail "client $1's terminal never got $2: $(tty_dump "$1")"
}
# (3.2a's display-message takes no -c.)
client_pane() { T list-clients -F '#{client_name} #{pane_id}' | sed -n "s|^$client ||p"; }
clients_attached() {
	[ "$(T list-clients -F '#{client_control_mode}' | grep -c -x 0)" -ge "$1" ]
}

# A fake notify-send: logs its arguments; with -A it waits for the click
# ($TESTDIR/click) and prints the action, as notify-send does.
fake_notify_send() {
	mkdir -p "$HOME/bin"
	cat >"$HOME/bin/notify-send" <<EOF
#!/bin/sh
echo "\$@" >> "$TESTDIR/desktop.log"
case " \$* " in
*" -A focus=Show "*)
	[ -n "$1" ] && exit 1	# a notify-send without actions
	echo \$\$ > "$TESTDIR/waiting.pid"
	# (a helper killed leaves it, as a real one waits for its click: it
	# goes with the test's directory)
	while [ ! -e "$TESTDIR/click" ] && [ -d "$TESTDIR" ]; do sleep 0.2; done
	echo focus ;;
esac
EOF
	chmod +x "$HOME/bin/notify-send"
	export PATH="$HOME/bin:$PATH"
}

# Each terminal gets the sequence it understands, a tmux in between the
# wrapped one, an unknown terminal nothing (the unit test checks that no
# name puts a control character into one).
test_terminal_notification_per_terminal() {
	export HOME="$TESTDIR/home"
	fake_notify_send ""
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	start_helper
	p=$(agent_window 1 claude)
	expect "$p" waiting_input
	tty_client kitty xterm-256color 'kitty(0.39.1)'
	tty_client iterm xterm-256color 'iTerm2 3.5.4'
	tty_client nested screen-256color 'tmux 3.5a'
	tty_client xterm xterm-256color 'XTerm(390)'
	until_ms 15000 clients_attached 4 || fail "clients: $(T list-clients)"
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	expect_tty iterm '\033]9;lisa: claude in main:1 waits (prompt)\a'
	# kitty: title and body, base64 ("claude waits", "main:1 · prompt").
	expect_tty kitty ';Y2xhdWRlIHdhaXRz\033\\'
	expect_tty kitty 'p=body;bWFpbjoxIMK3IHByb21wdA==\033\\'
	expect_tty nested '\033Ptmux;\033\033]9;lisa: claude in main:1 waits (prompt)\a\033\\'
	until_ms 15000 sh -c "[ \$(cat $XDG_RUNTIME_DIR/lisa/*.log | grep -c 'pane $p: notified') -ge 1 ]" ||
	    fail "never notified"
	! tty_has xterm '\033]9;' && ! tty_has xterm '\033]777;' &&
	    ! tty_has xterm '\033]99;' || fail "an unknown terminal got one: $(tty_dump xterm)"
	n=$(info | jget "d['notify']['terminal']")
	[ "$n" = 3 ] || fail "$n terminal notifications, not 3"

	# The user's choice, for every terminal.
	T set -g @lisa-notify-terminal osc777
	L reload >/dev/null
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	expect_tty xterm '\033]777;notify;claude waits;main:1 · prompt\a'
	expect_tty nested '\033Ptmux;\033\033]777;notify;claude waits;main:1 · prompt\a\033\\'

	T set -g @lisa-notify-terminal off
	L reload >/dev/null
	before=$(info | jget "d['notify']['terminal']")
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 sh -c "[ \$(cat $XDG_RUNTIME_DIR/lisa/*.log | grep -c 'pane $p: notified') -ge 3 ]" ||
	    fail "third not notified"
	[ "$(info | jget "d['notify']['terminal']")" = "$before" ] ||
	    fail "off still writes to terminals"
	kill "$TTYC_kitty" "$TTYC_iterm" "$TTYC_nested" "$TTYC_xterm" 2>/dev/null
	return 0
}

# Nobody looks at the pane: the desktop notification offers "Show"; a
# click brings the client the human used last to the pane. The sound
# command runs too, told the pane, agent and state.
test_desktop_show_action_and_sound() {
	export HOME="$TESTDIR/home"
	fake_notify_send ""
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	T set -g @lisa-notify-sound "echo \"\$LISA_PANE \$LISA_AGENT \$LISA_STATE\" >> '$TESTDIR/sound.log'"
	start_helper
	p=$(agent_window 1 claude)
	expect "$p" waiting_input
	tty_client one xterm-256color ''
	until_ms 15000 clients_attached 1 || fail "no client"
	client=$(T list-clients -F '#{client_control_mode} #{client_name}' | sed -n 's/^0 //p')
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 grep -q -- "-A focus=Show -a lisa -u normal -- claude waits main:1 · prompt" "$TESTDIR/desktop.log" ||
	    fail "no desktop notification with an action: $(cat "$TESTDIR/desktop.log" 2>/dev/null)"
	until_ms 15000 grep -q "^$p claude waiting_input\$" "$TESTDIR/sound.log" ||
	    fail "no sound: $(cat "$TESTDIR/sound.log" 2>/dev/null)"
	[ "$(client_pane)" != "$p" ] || fail "already there"
	touch "$TESTDIR/click"
	until_ms 15000 sh -c "[ \"\$(tmux -L $SOCK list-clients -F '#{client_name} #{pane_id}' | sed -n 's|^$client ||p')\" = '$p' ]" ||
	    fail "the click did not bring the client to $p: $(client_pane)"
	[ "$(info | jget "d['notify']['focused']")" = 1 ] || fail "focused: $(info | jget "d['notify']")"
	# Looking at it now: the next wait rings nothing, plays nothing.
	rm -f "$TESTDIR/click"
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 sh -c "[ \$(cat $XDG_RUNTIME_DIR/lisa/*.log | grep -c 'pane $p: notified') = 2 ]" ||
	    fail "second not decided"
	[ "$(grep -c . "$TESTDIR/sound.log")" = 1 ] || fail "sound while in view: $(cat "$TESTDIR/sound.log")"
	kill "$TTYC_one" 2>/dev/null
	return 0
}

# A notify-send without actions (libnotify before 0.7.10) still notifies;
# lisa stop leaves no notify-send waiting for a click.
test_desktop_without_actions_and_stop() {
	export HOME="$TESTDIR/home"
	fake_notify_send old
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	start_helper
	p=$(agent_window 1 claude)
	expect "$p" waiting_input
	tty_client one xterm-256color ''
	until_ms 15000 clients_attached 1 || fail "no client"
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 grep -q -- "^-a lisa -u normal -- claude waits main:1" "$TESTDIR/desktop.log" ||
	    fail "no plain notification after -A failed: $(cat "$TESTDIR/desktop.log" 2>/dev/null)"
	# Now one that waits for a click, then lisa stop.
	fake_notify_send ""
	T send-keys -t "$p" 'work 3' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 sh -c "[ \$(grep -c 'focus=Show' '$TESTDIR/desktop.log') = 2 ]" ||
	    fail "second: $(cat "$TESTDIR/desktop.log")"
	until_ms 15000 test -s "$TESTDIR/waiting.pid" || fail "no notify-send waiting"
	w=$(cat "$TESTDIR/waiting.pid")
	kill -0 "$w" || fail "notify-send $w is not waiting"
	L stop >/dev/null
	until_ms 15000 sh -c "! kill -0 $w 2>/dev/null" ||
	    fail "notify-send left after stop: $(ps -o pid,args -p "$w")"
	kill "$TTYC_one" 2>/dev/null
	return 0
}

# An agent slow to start (a loaded machine: output for 3 s, longer than the
# grace, before its first prompt) was "working", then "waiting": its first
# prompt was told as a turn's end. It is its start; the turn after is told.
test_slow_start_first_prompt_not_told() {
	export HOME="$TESTDIR/home"
	fake_notify_send ""
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	start_helper
	T new-window -d -t main:1 -n claude -e FAKE_AGENT_BOOT=3 "$FAKE/claude"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" in_progress
	expect "$p" waiting_input prompt claude_session_idle
	# Decided either way (told or not) before the turn starts.
	until_ms 15000 sh -c "grep -q -e 'pane $p: its first prompt, not told' -e 'pane $p: notified' $XDG_RUNTIME_DIR/lisa/*.log" ||
	    fail "the first prompt never decided"
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 grep -q "claude waits main:1" "$TESTDIR/desktop.log" ||
	    fail "the turn's end not told"
	[ "$(grep -c 'claude waits' "$TESTDIR/desktop.log")" = 1 ] ||
	    fail "told at start: $(cat "$TESTDIR/desktop.log")"
	helper_said "pane $p: its first prompt, not told" ||
	    fail "the first prompt not seen as the start"
}

# lisa's own bell (a notification that finds nobody looking is a BEL in
# the pane's tty) comes back as the pane's output: it is not the agent's,
# so a stuck agent stays stuck, and is told once.
rang() { info | jget "d['notify']['bells'] >= 1 or exit(1)"; }
test_own_bell_is_not_the_agents_output() {
	setup_agents 3
	T set -g @lisa-notify-stuck on
	L reload >/dev/null
	p=$(agent_window 1 claude)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" hang Enter
	expect "$p" in_progress
	since=$(date +%s)
	expect "$p" stuck "" stale_despite_working_state
	until_ms 5000 rang ||
	    fail "no bell rang: $(info)"
	# Three stale periods more: still stuck, told once.
	sleep 10
	n=$(L events --json --since "$(date -u -d "@$since" +%Y-%m-%dT%H:%M:%S)" |
	    python3 -c '
import json, sys
print(sum(1 for l in sys.stdin if json.loads(l).get("pane_id") == sys.argv[1]
          and json.loads(l).get("from") == "stuck"))' "$p")
	[ "$n" = 0 ] || fail "left stuck $n times: $(L events --json | tail -n 6)"
	state_is "$p" stuck "" "" || fail "not stuck: $(L status "$p")"
	b=$(info | jget "d['notify']['bells']")
	[ "$b" = 1 ] || fail "$b bells, not 1"
}

# At the shipped defaults (debounce 1.5 s, grace 10 s): Codex's approval,
# its dialog drawn 0.9 s after OSC 7501 "blocked" and its title blinking
# every second (the pane never goes quiet for a debounce), gets its
# detail, and its notification says what for; a 429 that reads as an
# error, then as a limit, is told once, as the limit.
test_codex_waits_told_what_for_at_defaults() {
	export HOME="$TESTDIR/home"
	export FAKE_CODEX_DIALOG_DELAY=0.9
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-crashed on
	start_helper
	p=$(agent_window 1 codex)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "never at its prompt"
	tty_client iterm xterm-256color 'iTerm2 3.5.4'
	T send-keys -t "$p" permission Enter
	t0=$(now_ms)
	# Held as long as the dialog is (it blinks until answered).
	until_ms 10000 state_is "$p" waiting_input permission "" ||
	    fail "no detail: $(L status "$p")"
	note "blocked -> permission in $(($(now_ms) - t0)) ms (from the key)"
	# What it asks, read off its dialog: never the bare "asks", nor
	# "asks (permission)" while the dialog was still to come.
	expect_tty iterm '\033]9;lisa: codex in main:1 asks to run: touch x\a'
	tty_has iterm 'asks\a' && fail "told without what for: $(tty_dump iterm)"
	tty_has iterm 'asks (permission)' && fail "told twice: $(tty_dump iterm)"
	T send-keys -t "$p" y Enter
	L wait "$p" --until in_progress --timeout 10 >/dev/null
	L wait "$p" --until waiting_input --timeout 20 >/dev/null
	T send-keys -t "$p" limit Enter
	until_ms 15000 state_is "$p" waiting_input limit "" ||
	    fail "no limit: $(L status "$p")"
	expect_tty iterm '\033]9;lisa: codex in main:1 hit a limit (limit)\a'
	sleep 5		# (an error would be told 4 s after it came)
	tty_has iterm 'waits (error)' && fail "the limit was told twice: $(tty_dump iterm)"
	kill "$TTYC_iterm" 2>/dev/null
	return 0
}

# A reply that comes at once: Claude's dialog drawn where its prompt was,
# with no working lisa could see in between (its session file says
# "waiting" straight after "idle"). That is a new wait, and it asks: told,
# with what for, as after work. Its Notification hook 6 s later is the
# same dialog: not told again.
test_dialog_over_its_prompt_is_told() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-notify-waiting on
	start_helper
	p=$(agent_window 1 claude)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "never at its prompt"
	tty_client iterm xterm-256color 'iTerm2 3.5.4'
	T send-keys -t "$p" 'work 1' Enter
	L wait "$p" --until in_progress --timeout 10 >/dev/null || fail "never worked"
	L wait "$p" --until waiting_input --timeout 20 >/dev/null || fail "never done"
	expect_tty iterm '\033]9;lisa: claude in main:1 waits (prompt)\a'
	T send-keys -t "$p" permission-now Enter
	until_ms 10000 state_is "$p" waiting_input permission "" ||
	    fail "no dialog: $(L status "$p")"
	expect_tty iterm '\033]9;lisa: claude in main:1 asks to run: touch x\a'
	sleep 7		# (its Notification hook comes 6 s after the dialog)
	n=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read().count(b"\033]9;lisa: claude in main:1 asks"))' "$TESTDIR/tty-iterm.log")
	[ "$n" = 1 ] || fail "told $n times: $(tty_dump iterm)"
	kill "$TTYC_iterm" 2>/dev/null
	return 0
}

# On a Mac there is no notify-send: terminal-notifier when Homebrew put
# one on PATH, else osascript's display notification. Stand-ins on PATH
# record their arguments; the text is an argument, never in the script.
test_desktop_on_a_mac() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME/bin"
	for c in osascript terminal-notifier; do
		printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done >>"%s/%s.log"\necho --- >>"%s/%s.log"\n' \
		    "$TESTDIR" "$c" "$TESTDIR" "$c" >"$TESTDIR/$c"
		chmod +x "$TESTDIR/$c"
	done
	ln -s "$TESTDIR/osascript" "$HOME/bin/osascript"
	export PATH="$HOME/bin:$PATH"
	command -v notify-send >/dev/null && skip "notify-send installed here"
	start_server main
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	start_helper
	p=$(agent_window 1 claude)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 grep -q -- --- "$TESTDIR/osascript.log" ||
	    fail "no osascript: $(cat "$XDG_RUNTIME_DIR"/lisa/*.log | grep -i notif | tail -n 3)"
	[ "$(head -n 8 "$TESTDIR/osascript.log")" = "-e
on run argv
-e
display notification (text 2 thru -1 of item 2 of argv) with title (text 2 thru -1 of item 1 of argv)
-e
end run
xclaude waits
xmain:1 · prompt" ] || fail "osascript got: $(cat "$TESTDIR/osascript.log")"
	# terminal-notifier, once there, comes first (a reload looks again).
	ln -s "$TESTDIR/terminal-notifier" "$HOME/bin/terminal-notifier"
	L reload >/dev/null
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress
	expect "$p" waiting_input prompt
	until_ms 15000 grep -q -- --- "$TESTDIR/terminal-notifier.log" ||
	    fail "no terminal-notifier"
	[ "$(head -n 6 "$TESTDIR/terminal-notifier.log")" = "-group
lisa
-title
claude waits
-message
main:1 · prompt" ] || fail "terminal-notifier got: $(cat "$TESTDIR/terminal-notifier.log")"
	[ "$(grep -c -- --- "$TESTDIR/osascript.log")" = 1 ] || fail "osascript too"
}

# A local HTTP server on 127.0.0.1 that records every request (one JSON
# line each: method, path, headers, body) in $TESTDIR/posts; a path with
# "slow" in it waits 30 s before it answers, one with "status500" answers
# 500. Its port: $TESTDIR/port. With an argument FILE, its port is bound
# but refuses connections until FILE exists (then it listens).
http_recorder() {
	cat >"$TESTDIR/recorder.py" <<'PY'
import http.server, json, os, sys, time
out, portfile = sys.argv[1], sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(n).decode("utf-8", "replace")
        with open(out, "a") as f:
            f.write(json.dumps({"path": self.path, "headers": dict(self.headers),
                                "body": body}) + "\n")
        if "slow" in self.path:
            time.sleep(30)
        self.send_response(500 if "status500" in self.path else 200)
        self.end_headers()
    def log_message(self, *a):
        pass
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), H,
                                    bind_and_activate=False)
s.server_bind()
open(portfile + ".tmp", "w").write(str(s.server_address[1]))
os.rename(portfile + ".tmp", portfile)
if len(sys.argv) > 3:
    # bound, not listening: a connection is refused
    while not os.path.exists(sys.argv[3]):
        time.sleep(0.02)
s.server_activate()
s.serve_forever()
PY
	python3 "$TESTDIR/recorder.py" "$TESTDIR/posts" "$TESTDIR/port" ${1:+"$1"} &
	RECORDER=$!
	trap 'kill $RECORDER 2>/dev/null; cleanup' EXIT
	until_ms 5000 test -s "$TESTDIR/port" || fail "no recorder"
	PORT=$(cat "$TESTDIR/port")
}
posted_more() { [ "$(info | jget "d['notify']['posts']")" -gt "$1" ]; }
failed_posts() { [ "$(info | jget "d['notify']['posts_failed']")" -ge "$1" ]; }
post_error() { info | jget "d['notify']['post_error']"; }
turn() {
	T send-keys -t "$1" 'work 2' Enter
	expect "$1" in_progress
	expect "$1" waiting_input prompt
}

# @lisa-notify-url: each notification POSTed (ntfy's format, then JSON),
# by curl; a slow or a dead server never holds the helper up; the URL's
# token is in no log, event, info or doctor line of lisa's.
test_notify_url_ntfy_json_and_token() {
	command -v curl >/dev/null || skip "no curl"
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	http_recorder
	start_server main
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	T set -g @lisa-notify-url "http://127.0.0.1:$PORT/lisa-SECRET1234"
	start_helper
	p=$(agent_window 1 claude)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	turn "$p"
	until_ms 15000 sh -c "[ \$(wc -l <'$TESTDIR/posts' 2>/dev/null || echo 0) -ge 1 ]" ||
	    fail "nothing posted: $(info | jget "d['notify']")"
	python3 - "$TESTDIR/posts" <<'PY' || fail "ntfy post: $(cat "$TESTDIR/posts")"
import json, sys
r = json.loads(open(sys.argv[1]).readline())
h = {k.lower(): v for k, v in r["headers"].items()}
assert r["path"] == "/lisa-SECRET1234", r
assert h["title"] == "claude waits", h
assert h["priority"] == "high" and h["tags"] == "raising_hand", h
assert r["body"] == "lisa: claude in main:1 waits (prompt)", r
PY
	T set -g @lisa-notify-url-format json
	L reload >/dev/null
	turn "$p"
	until_ms 15000 sh -c "[ \$(wc -l <'$TESTDIR/posts') -ge 2 ]" || fail "no second post"
	python3 - "$TESTDIR/posts" <<'PY' || fail "json post: $(tail -n 1 "$TESTDIR/posts")"
import json, sys
r = json.loads(open(sys.argv[1]).readlines()[1])
h = {k.lower(): v for k, v in r["headers"].items()}
assert h["content-type"] == "application/json", h
d = json.loads(r["body"])
assert d["title"] == "claude waits" and d["group"] == "waiting", d
assert d["state"] == "waiting_input" and d["agent"] == "claude", d
assert d["message"] == "lisa: claude in main:1 waits (prompt)", d
PY
	[ "$(info | jget "d['notify']['posts']")" = 2 ] ||
	    fail "posts: $(info | jget "d['notify']")"
	# A server that takes 30 s, then one that is not there: the helper
	# answers as fast as ever meanwhile, and counts neither as delivered.
	for url in "http://127.0.0.1:$PORT/slow-SECRET1234" "http://127.0.0.1:1/down-SECRET1234"; do
		T set -g @lisa-notify-url "$url"
		L reload >/dev/null
		turn "$p"
		# (posted once the helper knows who looks: then the next URL)
		case $url in
		*slow*) until_ms 15000 grep -q slow-SECRET "$TESTDIR/posts" ||
			fail "the slow post never came" ;;
		*) until_ms 15000 failed_posts 1 || fail "not posted to $url" ;;
		esac
		t0=$(now_ms)
		for _ in 1 2 3 4 5; do L list >/dev/null || fail "lisa list"; done
		[ $(($(now_ms) - t0)) -lt 5000 ] || fail "the helper was held up: $(($(now_ms) - t0)) ms"
	done
	# (curl gives the slow one up after its 10 s)
	until_ms 20000 failed_posts 2 || fail "the slow post not given up: $(info | jget "d['notify']")"
	[ "$(info | jget "d['notify']['posts']")" = 2 ] ||
	    fail "posts: $(info | jget "d['notify']")"
	# The token: nowhere in what lisa writes or says.
	L stop >/dev/null
	for what in "$TESTDIR/lisad.err" "$XDG_RUNTIME_DIR"/lisa/*; do
		[ -f "$what" ] || continue
		grep -q SECRET1234 "$what" && fail "the token in $what"
	done
	L doctor 2>&1 | grep -q SECRET1234 && fail "the token in lisa doctor"
	T show-options -g | grep -v '^@lisa-notify-url ' | grep -q SECRET1234 &&
	    fail "the token in an option of lisa's: $(T show-options -g | grep SECRET)"
	return 0
}

# What came of each push (issue 45): curl's exit status and the HTTP
# status, read as they come (the helper never waits), a failure counted
# apart with its reason in lisa info and doctor (never the URL), and one
# more try when the connection was refused. A port that refuses once and
# then listens (the retry), a 500, and a port nothing listens on; a slow
# server is test_notify_url_ntfy_json_and_token's.
test_phone_push_results() {
	command -v curl >/dev/null || skip "no curl"
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	http_recorder "$TESTDIR/listen"
	start_server main
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	# Refused once, then listening: one push, delivered on its second try.
	T set -g @lisa-notify-url "http://127.0.0.1:$PORT/retry-SECRET77"
	start_helper
	p=$(agent_window 1 claude)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	turn "$p"
	until_ms 15000 helper_said "could not connect, once more" ||
	    fail "no refused first try: $(info | jget "d['notify']")"
	touch "$TESTDIR/listen"
	until_ms 15000 posted_more 0 || fail "not delivered on its retry: $(info | jget "d['notify']")"
	[ "$(grep -c retry-SECRET77 "$TESTDIR/posts")" = 1 ] || fail "posts: $(cat "$TESTDIR/posts")"
	[ "$(info | jget "d['notify']['posts_failed']")" = 0 ] || fail "counted failed"
	L doctor 2>&1 | grep -q "^ok    phone  *1 push delivered" ||
	    fail "doctor: $(L doctor 2>&1 | grep phone)"
	# A 500: not delivered, not tried again; said with its status.
	T set -g @lisa-notify-url "http://127.0.0.1:$PORT/status500-SECRET77"
	L reload >/dev/null
	turn "$p"
	until_ms 15000 failed_posts 1 || fail "a 500 not counted: $(info | jget "d['notify']")"
	[ "$(post_error)" = "the server answered HTTP 500" ] || fail "error: $(post_error)"
	[ "$(grep -c status500 "$TESTDIR/posts")" = 1 ] || fail "a 500 tried again"
	# A port nothing listens on: tried twice, then said.
	T set -g @lisa-notify-url "http://127.0.0.1:1/down-SECRET77"
	L reload >/dev/null
	turn "$p"
	until_ms 15000 failed_posts 2 || fail "a refused post not counted: $(info | jget "d['notify']")"
	[ "$(post_error)" = "could not connect (curl exit 7, tried twice)" ] ||
	    fail "error: $(post_error)"
	L doctor >"$TESTDIR/doctor" 2>&1
	grep -q "^warn  phone  *2 pushes not delivered, the last at [0-9:]*: could not connect (curl exit 7, tried twice) (1 delivered)" \
	    "$TESTDIR/doctor" || fail "doctor: $(grep phone "$TESTDIR/doctor")"
	[ "$(info | jget "d['notify']['posts']")" = 1 ] || fail "posts counted: $(info | jget "d['notify']")"
	! grep -q SECRET77 "$TESTDIR/doctor" "$TESTDIR/lisad.err" \
	    "$XDG_RUNTIME_DIR"/lisa/*.log || fail "the URL said back"
	! info | grep -q SECRET77 || fail "the URL in lisa info"
}

# The desktop notification's body is text: most daemons read it as
# markup, so an agent's question with <a href=...> would be a link.
# '&', '<' and '>' go as entities; the title as it is. At lisa's defaults.
test_desktop_body_is_text() {
	export HOME="$TESTDIR/home"
	export FAKE_AGENT_COMMAND='echo <a href=http://x>click</a> & <b>x</b>'
	fake_notify_send ""
	start_server main
	T set -g @lisa-notify-waiting on
	start_helper
	p=$(agent_window 1 claude)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	T send-keys -t "$p" permission Enter
	until_ms 15000 state_is "$p" waiting_input permission "" ||
	    fail "no dialog: $(L status "$p")"
	until_ms 30000 grep -q "asks to run" "$TESTDIR/desktop.log" ||
	    fail "no notification: $(cat "$TESTDIR/desktop.log" 2>/dev/null)"
	grep -qF 'echo &lt;a href=http://x&gt;click&lt;/a&gt; &amp; &lt;b&gt;x&lt;/b&gt;' \
	    "$TESTDIR/desktop.log" ||
	    fail "markup in the body: $(cat "$TESTDIR/desktop.log")"
	grep -qF '<a href' "$TESTDIR/desktop.log" &&
	    fail "markup in the body: $(cat "$TESTDIR/desktop.log")"
	return 0
}

# Issue 42: a helper killed (SIGKILL) while a notify-send waits for its
# click, a slow curl posts and a terminal that reads nothing is being told
# leaves no control client of its own: within 2 s none remains, kill-server
# ends the server, the resume records are as they were. (The child that
# writes to a terminal is lisa's own, no program: it held every control
# client's pipe until its alarm, and with it the clients and the server.)
test_killed_helper_leaves_no_client() {
	command -v curl >/dev/null || skip "no curl"
	export HOME="$TESTDIR/home" XDG_STATE_HOME="$TESTDIR/state"
	fake_notify_send ""
	http_recorder
	start_server main
	for s in s1 s2 s3 s4; do T new-session -d -s "$s"; done
	sock=$(T display -p '#{socket_path}')
	T set -g @lisa-notify-waiting on
	T set -g @lisa-notify-cooldown 0
	T set -g @lisa-notify-url "http://127.0.0.1:$PORT/slow-x"
	start_helper
	p=$(agent_window 1 claude)
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q claude" ||
	    fail "no record"
	tty_client iterm xterm-256color 'iTerm2 3.5.4'
	until_ms 15000 clients_attached 1 || fail "no client"
	# Its terminal reads nothing from now on, and is full.
	tty=$(T list-clients -F '#{client_control_mode} #{client_tty}' | sed -n 's/^0 //p')
	kill -STOP "$TTYC_iterm"
	head -c 4000000 /dev/zero >"$tty" &
	filler=$!
	# (the generic backend's guard is a lisad child from the start)
	guard=$(pgrep -P "$HELPER_PID" -x lisad)
	kids=$(echo $guard | wc -w)
	turn "$p"
	until_ms 15000 test -s "$TESTDIR/waiting.pid" || fail "no notify-send waiting"
	until_ms 15000 grep -q slow-x "$TESTDIR/posts" || fail "no slow post"
	until_ms 15000 sh -c "[ \$(pgrep -P $HELPER_PID -x lisad | wc -l) -gt $kids ]" ||
	    fail "no child writing to the terminal: $(ps -e -o pid,ppid,stat,comm,args | grep -v " ps ")"
	# (the agents' lines: the header's "saved" moves with each save, a
	# second after a verdict, which can come after this look)
	sed 1d "$XDG_STATE_HOME"/lisa/agents/*.agents >"$TESTDIR/records.before"
	# Its clients, to the server or (tmux < 3.7) through its relay; '-[C]':
	# not the pattern in this sh's own command line.
	pat="-S ($sock|$XDG_RUNTIME_DIR/lisa/[^ ]*[.]tmux) -[C] attach-session"
	[ "$(pgrep -f -- "$pat" | wc -l)" = 5 ] ||
	    fail "clients before: $(pgrep -fa -- "$pat")"
	kill -9 "$HELPER_PID"
	wait "$HELPER_PID" 2>/dev/null
	HELPER_PID=
	until_ms 2000 sh -c "! pgrep -f -- '$pat' >/dev/null" ||
	    fail "control clients left: $(pgrep -fa -- "$pat")"
	for g in $guard; do
		until_ms 2000 sh -c "! kill -0 $g 2>/dev/null" || fail "guard $g left"
	done
	T kill-server
	until_ms 5000 sh -c "! tmux -L $SOCK list-sessions >/dev/null 2>&1" ||
	    fail "the server stayed: $(tmux -L "$SOCK" list-sessions 2>&1)"
	sed 1d "$XDG_STATE_HOME"/lisa/agents/*.agents | cmp -s - "$TESTDIR/records.before" ||
	    fail "records changed: $(cat "$XDG_STATE_HOME"/lisa/agents/*.agents)"
	kill "$filler" 2>/dev/null
	kill -CONT "$TTYC_iterm" 2>/dev/null
	kill "$TTYC_iterm" "$RECORDER" 2>/dev/null
	return 0
}

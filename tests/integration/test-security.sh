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
	ls "$TESTDIR" | grep -q pwned && fail "pane text ran: $(ls "$TESTDIR" | grep pwned)"
	kill -0 "$HELPER_PID" || fail "helper died"
}

# Streams lisa does not listen to (pane-mute.c; LISAD_STREAM_MUTE=0 turns
# it off): a working agent's output is paused for lisa's client between
# samples. Whatever the agent does while muted must still be seen: its
# title, its screen, its death, a slower pace (a retry countdown).

. "$ROOT/tests/integration/agents.sh"

# An agent ("claude", so the built-in profile applies) that streams a
# 120-byte line every 20 ms (6 KB/s: on a loaded machine still well above
# the 1 KB/s a stream is, which 2.4 KB/s was not) after an Enter, until
# $TESTDIR/stop
# exists; then it ends its turn in ONE write: $1 (printf format). Titles
# unless $2=notitle. With $2=retry it then counts down as Claude Code does
# after an API error: the whole line once, then only the digits, once a
# second, 3 bytes at a time. Once $TESTDIR/tool exists it starts a tool
# (sleep 60, a child) and streams on.
stream_agent() {
	mkdir -p "$TESTDIR/bin"
	cat >"$TESTDIR/bin/claude" <<EOF
#!/usr/bin/python3
import os, sys, time
notitle = "${2:-}" == "notitle"
retry = "${2:-}" == "retry"
def w(s):
    sys.stdout.write(s)
    sys.stdout.flush()
def title(t):
    return "" if notitle else "\033]0;%s\007" % t
w(title("\u2733 Claude Code") + "> ")
sys.stdin.readline()
i = 0
tool = None
while not os.path.exists("$TESTDIR/stop"):
    if tool is None and os.path.exists("$TESTDIR/tool"):
        import subprocess
        tool = subprocess.Popen(["sleep", "60"])
    w(title("\u2802 Claude Code") + "\r\u2802 Working %d (esc to interrupt) %s\n" % (i, "." * 80))
    i += 1
    time.sleep(0.02)
if retry:
    w("\r\u273b API error \u00b7 Retrying in 9s \u00b7 attempt 1/10")
    for n in range(8, 0, -1):
        time.sleep(1)
        w("\033[%dG%d" % (27, n))
    time.sleep(3600)
w(title("\u2733 Claude Code") + "$1")
time.sleep(3600)
EOF
	chmod +x "$TESTDIR/bin/claude"
}

# A debounce of 2 s: a stream is muted 1 s at a time.
setup_stream() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 2
	start_helper
}

is_muted() { [ "$(pane_field "$1" muted)" = true ]; }
# Pauses: each sent to tmux, or prolonged on the kernel's word (wchar).
muted_often() {
	[ $(($(pane_field "$1" stream_mutes) + $(pane_field "$1" stream_kept))) -ge "$2" ]
}

# Start the stream, see it muted, then let the agent end its turn.
stream_then_stop() {
	T send-keys -t "$1" Enter
	expect "$1" in_progress
	until_ms 20000 muted_often "$1" 3 ||
	    fail "never stream-muted: $(pane_json "$1")"
	until_ms 10000 is_muted "$1" || fail "not muted now: $(pane_json "$1")"
	[ "$(L status "$1" --json | jget "d['state']")" = in_progress ] ||
	    fail "muted, not working: $(L status "$1")"
	touch "$TESTDIR/stop"
}

test_stream_muted_agent_title_read_again() {
	stream_agent '\n> '
	setup_stream
	p=$(T new-window -d -P -F '#{pane_id}' -t main:1 "$TESTDIR/bin/claude")
	expect "$p" waiting_input prompt title_idle
	stream_then_stop "$p"
	t0=$(now_ms)
	# The idle title came while lisa did not listen: it asks tmux for it
	# when it listens again (without, the stale busy title holds "working").
	L wait "$p" --until waiting --timeout 10 >/dev/null ||
	    fail "the turn's end was missed: $(L status "$p")"
	state_is "$p" waiting_input prompt title_idle ||
	    fail "want waiting_input/prompt/title_idle: $(L status "$p")"
	note "turn end while muted -> waiting_input in $(($(now_ms) - t0)) ms (mute 1 s, then the title); $(pane_field "$p" stream_mutes) stream mutes"
	[ "$(pane_field "$p" muted)" = false ] || fail "still muted while waiting"
}

test_stream_muted_agent_screen_read_again() {
	# No titles: only the screen tells a permission dialog.
	stream_agent '\n Do you want to proceed?\n > 1. Yes\n   2. No\n Esc to cancel \302\267 Tab to amend\n' notitle
	setup_stream
	p=$(T new-window -d -P -F '#{pane_id}' -t main:1 "$TESTDIR/bin/claude")
	expect "$p" just_started
	stream_then_stop "$p"
	L wait "$p" --until waiting --timeout 10 >/dev/null ||
	    fail "the dialog was missed: $(L status "$p")"
	until_ms 10000 state_is "$p" waiting_input permission "" ||
	    fail "want waiting_input/permission: $(L status "$p")"
}

test_stream_muted_agent_tool_seen() {
	# Neither its output nor a title says anything of the tool: the
	# tree, looked at again while the stream flows muted (at most
	# WATCH_LOOKS a second shared by all working agents).
	stream_agent '\n> ' notitle
	setup_stream
	p=$(T new-window -d -P -F '#{pane_id}' -t main:1 "$TESTDIR/bin/claude")
	expect "$p" just_started
	T send-keys -t "$p" Enter
	expect "$p" in_progress
	until_ms 20000 muted_often "$p" 3 ||
	    fail "never stream-muted: $(pane_json "$p")"
	state_is "$p" in_progress tool process_children &&
	    fail "a tool before there is one: $(L status "$p")"
	touch "$TESTDIR/tool"
	t0=$(now_ms)
	until_ms 15000 state_is "$p" in_progress tool process_children ||
	    fail "the tool was missed: $(L status "$p")"
	note "tool started while muted -> in_progress/tool in $(($(now_ms) - t0)) ms; muted: $(pane_field "$p" muted)"
	touch "$TESTDIR/stop"
}

test_stream_muted_agent_killed_under_shell() {
	stream_agent '\n> '
	setup_stream
	T new-window -d -t main:1
	p=$(T display -p -t main:1 '#{pane_id}')
	T send-keys -t "$p" "$TESTDIR/bin/claude" Enter
	expect "$p" waiting_input
	T send-keys -t "$p" Enter
	expect "$p" in_progress
	until_ms 10000 muted_often "$p" 3 || fail "never stream-muted"
	until_ms 5000 is_muted "$p" || fail "not muted now"
	pkill -9 -f "$TESTDIR/bin/claude"
	# The shell's "Killed" was written while lisa did not listen: the
	# screen read after the death finds it.
	expect "$p" crashed "signal 9"
}

test_codex_state_in_its_output_never_stream_muted() {
	export HOME="$TESTDIR/home" FAKE_AGENT_LOG="$TESTDIR/agent.log"
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-grace 1
	T set -g @lisa-debounce 0.5
	start_helper
	p=$(agent_window 1 codex)
	expect "$p" waiting_input prompt
	T send-keys -t "$p" 'work 4' Enter
	expect "$p" in_progress
	sleep 2
	[ "$(pane_field "$p" stream_mutes)" = 0 ] ||
	    fail "codex (OSC 7501) was stream-muted: $(pane_json "$p")"
	expect "$p" waiting_input prompt
	note "codex turn end (OSC 7501) -> waiting_input: $(latency "$p" waiting_input "osc7501 state=done") ms"
}

test_stream_muted_agent_slows_to_retry_countdown() {
	# (test_stream_sampled_... is the same without the count: every backend)
	linux_only "the kernel's count of an agent's writes (/proc/PID/io)"
	# The retry line is drawn whole once, while lisa does not listen; then
	# only its digits change. The kernel's count of the agent's writes
	# falls, so the pane is let go and its screen read (without, it stays
	# in_progress/generating for the whole countdown: that is what Claude
	# Code with hooks showed).
	stream_agent '' retry
	setup_stream
	slows_to_retry_countdown
	[ "$(pane_field "$p" stream_kept)" -ge 1 ] ||
	    fail "no pause prolonged on the kernel's word: $(pane_json "$p")"
}

# The same without the kernel's count: a sample that comes up short.
test_stream_sampled_agent_slows_to_retry_countdown() {
	stream_agent '' retry
	export LISAD_STREAM_MUTE=sample
	setup_stream
	slows_to_retry_countdown
	[ "$(pane_field "$p" stream_kept)" = 0 ] ||
	    fail "prolonged without the kernel's count: $(pane_json "$p")"
}

slows_to_retry_countdown() {
	# The stop can fall in a sample, while lisa listens: then the retry
	# line is read as it comes, and this says nothing. Try again.
	for try in 1 2 3; do
		rm -f "$TESTDIR/stop"
		p=$(T new-window -d -P -F '#{pane_id}' -t main:1 "$TESTDIR/bin/claude")
		expect "$p" waiting_input
		stream_then_stop "$p"
		t0=$(now_ms)
		until_ms 6000 state_is "$p" in_progress retrying "" ||
		    fail "the retry was missed: $(L status "$p") $(pane_json "$p")"
		[ "$(pane_field "$p" stream_slowed)" -ge 1 ] && break
		note "try $try: the retry line came while a sample was open"
		T kill-window -t "$p"
	done
	note "stream -> retry countdown while muted -> retrying in $(($(now_ms) - t0)) ms; $(pane_field "$p" stream_slowed) short samples"
	[ "$(pane_field "$p" stream_slowed)" -ge 1 ] ||
	    fail "retrying, but never from a short sample: $(pane_json "$p")"
	# A countdown writes too little to be muted again.
	m=$(pane_field "$p" stream_mutes)
	sleep 2
	[ "$(pane_field "$p" stream_mutes)" = "$m" ] ||
	    fail "the countdown was muted: $(pane_json "$p")"
}

# OpenCode's retry: a row drawn whole once, then only its countdown's
# digits, while its progress bar keeps the pane a stream (so no sample
# comes up short). Its profile reads retries off the screen: each sample
# of a muted pane reads it. (Without, lisa said generating for the whole
# retry: the conformance rows "API error retried" of 2026-11-27.)
test_stream_muted_opencode_retry_row_read() {
	mkdir -p "$TESTDIR/bin"
	cat >"$TESTDIR/bin/opencode" <<PY
#!/usr/bin/python3
import os, sys, time
def w(s):
    sys.stdout.write(s)
    sys.stdout.flush()
w("\033[2J\033[H> ")
sys.stdin.readline()
i = 0
def bar():
    global i
    w("\033[3;1H\u2b1d\u2b1d\u25a0\u25a0 %d %s" % (i, "\u2500" * 40))
    i += 1
    time.sleep(0.02)
while not os.path.exists("$TESTDIR/stop"):
    bar()
w("\033[5;1H mock error 500 [retrying in 9s attempt #1]")
for n in range(9, 0, -1):
    end = time.time() + 1
    while time.time() < end:
        bar()
    w("\033[5;30H%d" % (n - 1))
while True:
    bar()
PY
	chmod +x "$TESTDIR/bin/opencode"
	setup_stream
	for try in 1 2 3; do
		rm -f "$TESTDIR/stop"
		p=$(T new-window -d -P -F '#{pane_id}' -t main:1 "$TESTDIR/bin/opencode")
		until_ms 10000 sh -c "$LISA -L $SOCK status $p --json | grep -q '\"agent\": *\"opencode\"'" ||
		    fail "not seen as opencode: $(L status "$p")"
		T send-keys -t "$p" Enter
		expect "$p" in_progress
		until_ms 20000 muted_often "$p" 3 ||
		    fail "never stream-muted: $(pane_json "$p")"
		until_ms 10000 is_muted "$p" || fail "not muted now: $(pane_json "$p")"
		touch "$TESTDIR/stop"
		until_ms 6000 state_is "$p" in_progress retrying "" ||
		    fail "the retry was missed: $(L status "$p") $(pane_json "$p")"
		# Seen in a sample's bytes (lisa listened as it came): no proof.
		helper_log | grep -q "pane $p: retry mark" || break
		note "try $try: the retry row came while a sample was open"
		T kill-window -t "$p"
	done
	[ "$(pane_field "$p" stream_slowed)" = 0 ] ||
	    fail "a sample came up short: not this case: $(pane_json "$p")"
}

test_no_stream_mute_when_turned_off() {
	stream_agent '\n> '
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	start_server main
	T set -g @lisa-grace 1
	LISAD_STREAM_MUTE=0 start_helper
	p=$(T new-window -d -P -F '#{pane_id}' -t main:1 "$TESTDIR/bin/claude")
	expect "$p" waiting_input
	T send-keys -t "$p" Enter
	expect "$p" in_progress
	b0=$(pane_field "$p" output_bytes)
	sleep 2
	[ "$(pane_field "$p" stream_mutes)" = 0 ] || fail "muted though off"
	[ "$(pane_field "$p" output_bytes)" -gt "$b0" ] || fail "no output seen"
	touch "$TESTDIR/stop"
	expect "$p" waiting_input prompt
}

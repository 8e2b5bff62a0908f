# What test-resume.sh's tests share: an agent's home and state of the
# test's own, the records, the fake OpenCode's log, --dry-run's words.

start_resume() {
	export HOME="$TESTDIR/home" XDG_STATE_HOME="$TESTDIR/state"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	# (a resumed agent is run by name, as a person's PATH finds it)
	export PATH="$FAKE:$PATH"
	mkdir -p "$HOME" "$TESTDIR/proj/a b"
	start_server main
	start_helper
}

records() { cat "$XDG_STATE_HOME"/lisa/agents/*.agents 2>/dev/null; }

# The fake OpenCode in pane $1 is up (its banner); its first prompt, and
# the session it makes for it in $log; that session's id.
opencode_up() {
	until_ms 15000 sh -c "tmux -L $SOCK capture-pane -p -t $1 | grep -q '(fake)'" ||
	    fail "no opencode in $1: $(T capture-pane -p -t "$1")"
}
opencode_first_prompt() {
	T send-keys -t "$1" 'work 0.2' Enter
	until_ms 10000 grep -q "message=created id=ses_fake" "$log" ||
	    fail "the fake made no session: $(cat "$log" 2>/dev/null)"
}
opencode_logged_id() {
	sed -n 's/.* id=\(ses_fake[0-9]*OpenCode\) .*parentID=undefined.*/\1/p' "$log"
}

# lisa resume --dry-run's commands as a shell reads them (they are to be
# pasted): a line "--" before each command, then a word a line.
dry_words() {
	python3 -c 'import shlex, sys
for line in sys.stdin.read().splitlines():
    print("--")
    for w in shlex.split(line):
        print(w)'
}

# Kilo Code's CLI (the fake, as 7.7.7 behaves): OpenCode's fork, its log
# lines OpenCode's, in <data>/kilo/log/opencode.log; "kilo -s ID" resumes.

. "$ROOT/tests/integration/agents.sh"
. "$ROOT/tests/integration/resume.sh"

# A Kilo and an OpenCode in one directory, both making sessions at once:
# each takes the id of its own log, never the other's (the two logs say
# the same directory; the lines alike but for the name); lisa resume
# brings the Kilo back with "kilo -s ID".
test_kilo_session_from_its_own_log() {
	start_resume
	T new-window -d -t main:1 -n kilo -c "$TESTDIR/proj/a b" kilo
	T new-window -d -t main:2 -n oc -c "$TESTDIR/proj/a b" opencode
	k=$(T display -p -t main:1 '#{pane_id}')
	o=$(T display -p -t main:2 '#{pane_id}')
	opencode_up "$k"
	opencode_up "$o"
	[ "$(L status "$k" --json | jget "d['agent']")" = kilo ] ||
	    fail "not kilo: $(L status "$k" --json)"
	T send-keys -t "$k" 'work 0.2' Enter
	T send-keys -t "$o" 'work 0.2' Enter
	until_ms 10000 sh -c "$LISA -L $SOCK status $k --json | grep -q '\"agent_session\":\"ses_fake[0-9]*Kilo\"'" ||
	    fail "kilo: $(L status "$k" --json | jget "d['agent_session']")"
	until_ms 10000 sh -c "$LISA -L $SOCK status $o --json | grep -q '\"agent_session\":\"ses_fake[0-9]*OpenCode\"'" ||
	    fail "opencode: $(L status "$o" --json | jget "d['agent_session']")"
	ik=$(L status "$k" --json | jget "d['agent_session']")
	grep -q "id=$ik " "$HOME/.local/share/kilo/log/opencode.log" ||
	    fail "$ik is not in Kilo's log"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '$ik'" ||
	    fail "not recorded: $(records)"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	start_server main
	start_helper
	out=$(L resume --all --dry-run) || fail "dry run: $out"
	w=$(printf '%s\n' "$out" | dry_words | tr '\n' '|')
	case "$w" in *'|"$2" -s "$1"; exec "${SHELL:-/bin/sh}"|sh|'"$ik|$FAKE/kilo|"*) ;;
	*) fail "kilo: $out" ;; esac
	L resume --all >/dev/null || fail "resume"
	until_ms 10000 grep -q "resumed $ik" "$FAKE_AGENT_LOG" || fail "kilo not resumed"
}

# A profile's opencode_dir names one directory: agents.json cannot make
# lisa read (or watch) a path of its choosing; the file is refused whole,
# the built-in profiles stay.
test_kilo_opencode_dir_is_a_name() {
	export XDG_CONFIG_HOME="$TESTDIR/config"
	mkdir -p "$XDG_CONFIG_HOME/lisa"
	start_server main
	start_helper
	for bad in '../../etc' '.' '' 'a/b'; do
		printf '{"agents": [{"name": "k2", "comm": ["k2"], "opencode_files": true, "opencode_dir": "%s"}]}\n' \
		    "$bad" >"$XDG_CONFIG_HOME/lisa/agents.json"
		L reload 2>"$TESTDIR/err" && fail "opencode_dir '$bad' taken"
		grep -q "opencode_dir is not a directory's name" "$TESTDIR/err" ||
		    fail "opencode_dir '$bad': $(cat "$TESTDIR/err")"
	done
	printf '{"agents": [{"name": "k2", "comm": ["k2"], "opencode_files": true, "opencode_dir": "k2"}]}\n' \
	    >"$XDG_CONFIG_HOME/lisa/agents.json"
	L reload >/dev/null 2>"$TESTDIR/err" || fail "a name refused: $(cat "$TESTDIR/err")"
}

# lisa resume: the agents that ran when their tmux server ended come
# back, each with its own conversation (the fake Claude takes
# `--resume ID` and logs it), in its session, window and directory. The
# records are in XDG_STATE_HOME (a reboot keeps them). At lisa's defaults.

. "$ROOT/tests/integration/agents.sh"
. "$ROOT/tests/integration/client.sh"
. "$ROOT/tests/integration/resume.sh"

# Kill the server with a Claude in it, start another: lisa resume lists
# it and brings it back with `claude --resume ID`, in its window and
# directory; then there is nothing left to resume.
test_resume_after_the_server_is_killed() {
	start_resume
	T new-window -d -t main:3 -n api -c "$TESTDIR/proj/a b" claude
	c=$(T display -p -t main:3 '#{pane_id}')
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	until_ms 10000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"agent_session\":\"0000fa4e'" ||
	    fail "no session id: $(L status "$c" --json | jget "d['agent_session']")"
	id=$(L status "$c" --json | jget "d['agent_session']")
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '$id'" ||
	    fail "no record: $(records; ls -la "$XDG_STATE_HOME/lisa/agents")"
	records | grep -q '"window":"api","window_index":3' || fail "where: $(records)"
	[ "$(stat -c %a "$XDG_STATE_HOME/lisa/agents")" = 700 ] || fail "not private"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	start_server main
	start_helper
	out=$(L resume) || fail "resume: $out"
	printf '%s\n' "$out" | grep -E "^1 +claude +main:api +$id +$TESTDIR/proj/a b$" ||
	    fail "list: $out"
	out=$(L resume --all --dry-run) || fail "dry run: $out"
	# Words as a shell reads them: the program the agent ran is $2.
	w=$(printf '%s\n' "$out" | dry_words | tr '\n' '|')
	case "$w" in
	"--|tmux|-S|$(T display -p '#{socket_path}')|new-window|-d|-t|=main:3|-n|api|-c|$TESTDIR/proj/a b|--|/bin/sh|-c|\"\$2\" --resume \"\$1\"; exec \"\${SHELL:-/bin/sh}\"|sh|$id|$FAKE/claude|") ;;
	*) fail "dry run: $out ($w)" ;;
	esac
	[ "$(T list-windows -F x | wc -l)" = 1 ] || fail "the dry run made a window"
	out=$(L resume --all) || fail "resume --all: $out"
	case "$out" in *"resumed claude in main:api ($TESTDIR/proj/a b), conversation $id"*) ;;
	*) fail "said: $out" ;; esac
	until_ms 10000 grep -q "resumed $id" "$FAKE_AGENT_LOG" || fail "not resumed: $(cat "$FAKE_AGENT_LOG")"
	[ "$(T display -p -t main:3 '#{window_name} #{pane_current_path}')" = "api $TESTDIR/proj/a b" ] ||
	    fail "where: $(T list-windows -F '#{window_index} #{window_name} #{pane_current_path}')"
	p=$(T display -p -t main:3 '#{pane_id}')
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "lisa does not see it"
	[ "$(L status "$p" --json | jget "d['agent_session']")" = "$id" ] || fail "another conversation"
	[ "$(L resume)" = "nothing to resume" ] || fail "still offered: $(L resume)"
}

# A record cut short, one from a newer lisa, a line that is not JSON, an
# agent whose directory is gone, one whose conversation runs here already:
# each said and skipped; the good one resumes, into a session made for it.
test_resume_skips_bad_records() {
	start_resume
	d="$XDG_STATE_HOME/lisa/agents"
	mkdir -p "$d" && chmod 700 "$XDG_STATE_HOME/lisa" "$d"
	now=$(($(date +%s) * 1000))
	printf '{"v":1,"server":"1-1","sock' >"$d/cut.agents"
	printf '{"v":9,"server":"2-2","saved":%s}\n{"agent":"claude"}\n' "$now" >"$d/new.agents"
	{
		printf '{"v":1,"server":"3-3","socket":"x","saved":%s}\n' "$now"
		printf '{"agent":"claude","id":"0000fa4e-1111-4000-8000-000000000001","cwd":"%s","model":"claude-mock-1","session":"back","window":"w1","window_index":0,"pane_index":0,"pane":1}\n' "$TESTDIR/proj/a b"
		printf 'not json\n'
		printf '{"agent":"claude","id":"0000fa4e-2222-4000-8000-000000000002","cwd":"%s/gone","session":"back","window":"w2","window_index":1,"pane_index":0,"pane":2}\n' "$TESTDIR"
		printf '{"agent":"claude","id":"0000fa4e-3333-4000-8000-000000000003","cwd":"%s","model":"x\\u001b]0;pwned\\u0007","session":"main","window":"w3","window_index":5,"pane_index":0,"pane":3}\n' "$TESTDIR/proj/a b"
	} >"$d/mixed.agents"
	# The third runs here already.
	T new-window -d -t main:1 "claude --resume 0000fa4e-3333-4000-8000-000000000003"
	a=$(T display -p -t main:1 '#{pane_id}')
	until_ms 15000 sh -c "$LISA -L $SOCK status $a --json | grep -q 0000fa4e-3333" ||
	    fail "no agent: $(L status "$a" --json | jget "d['agent_session']")"
	L resume >"$TESTDIR/out" 2>"$TESTDIR/err" || fail "resume: $(cat "$TESTDIR/err")"
	grep -q "cut.agents: cut short" "$TESTDIR/err" || fail "cut: $(cat "$TESTDIR/err")"
	grep -q "new.agents: written by a newer lisa (version 9)" "$TESTDIR/err" || fail "newer: $(cat "$TESTDIR/err")"
	grep -q "mixed.agents: a record is not JSON" "$TESTDIR/err" || fail "not json: $(cat "$TESTDIR/err")"
	grep -q "directory $TESTDIR/gone is gone" "$TESTDIR/err" || fail "gone: $(cat "$TESTDIR/err")"
	[ "$(grep -c '^[0-9]' "$TESTDIR/out")" = 2 ] || fail "listed: $(cat "$TESTDIR/out")"
	grep -q "back:w1 .* (claude-mock-1)$" "$TESTDIR/out" || fail "model: $(cat "$TESTDIR/out")"
	grep -q "pwned" "$TESTDIR/out" && fail "an escape printed: $(cat -v "$TESTDIR/out")"
	L resume --all >"$TESTDIR/out" 2>"$TESTDIR/err"
	grep -q "resumed claude in back:w1" "$TESTDIR/out" || fail "w1: $(cat "$TESTDIR/out" "$TESTDIR/err")"
	grep -q "0000fa4e-3333-4000-8000-000000000003 runs in a pane of this server already" "$TESTDIR/err" ||
	    fail "twice: $(cat "$TESTDIR/err")"
	[ "$(T list-windows -t back -F '#{window_name}')" = w1 ] || fail "session back: $(T list-windows -a)"
	T list-windows -t main -F '#{window_name}' | grep -q w3 && fail "resumed twice"
	until_ms 10000 grep -q "resumed 0000fa4e-1111" "$FAKE_AGENT_LOG" || fail "w1's agent"
	# The one resumed is forgotten; the one that runs here is still there.
	grep -q 1111 "$d/mixed.agents" && fail "w1 still recorded"
	grep -q 3333 "$d/mixed.agents" || fail "w3 forgotten"
	:
}

# prefix a offers what there is to resume, and only then: "Resume 1 agent
# of an ended tmux..." opens a menu of them; picking one brings it back
# and says so on the client's message line.
test_resume_from_the_menu() {
	start_resume
	T set -g display-time 20000
	attach main:0
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	screen_has "Resume" && fail "offered with nothing to resume: $(screen)"
	# (q, not Escape: an Escape and the next C-b would be one M-C-b)
	O send-keys q
	until_ms 5000 sh -c "! tmux -L $OUTER capture-pane -p | grep -q 'Why? (this pane)'" ||
	    fail "the menu stayed"
	d="$XDG_STATE_HOME/lisa/agents"
	mkdir -p "$d" && chmod 700 "$XDG_STATE_HOME/lisa" "$d"
	{
		printf '{"v":1,"server":"3-3","socket":"x","saved":%s}\n' "$(($(date +%s) * 1000))"
		printf '{"agent":"claude","id":"0000fa4e-4444-4000-8000-000000000004","cwd":"%s","session":"main","window":"w#[fg=red]4","window_index":4,"pane_index":0,"pane":4}\n' "$TESTDIR/proj/a b"
	} >"$d/old.agents"
	O send-keys C-b a
	expect_screen "Resume 1 agent of an ended tmux"
	O send-keys R
	expect_screen "lisa: resume"
	# A window's name is shown as text, never as a style.
	expect_screen "claude  main:w#[fg=red]4"
	O send-keys 1
	expect_screen "lisa: resumed claude in main:w#[fg=red]4"
	until_ms 10000 grep -q "resumed 0000fa4e-4444" "$FAKE_AGENT_LOG" || fail "not resumed"
	[ "$(T display -p -t main:4 '#{window_name}')" = "w#[fg=red]4" ] || fail "where: $(T list-windows)"
	O send-keys C-b a
	expect_screen "Why? (this pane)"
	screen_has "Resume" && fail "still offered: $(screen)"
	:
}

# tmux-resurrect users (@lisa-resume-resurrect on): lisa adds itself to
# resurrect's post-restore-all hook, after the user's own; once panes are
# restored (here by a stand-in that keeps resurrect's hook contract), each
# agent comes back in the pane restored in its place. A pane resurrect
# restored a program into is left alone (that agent gets a window); the
# user's hook still runs, and lisa stop gives the option back as it was.
test_resume_into_resurrect_restored_panes() {
	start_resume
	mkdir -p "$TESTDIR/proj/b"
	user="echo user-hook >> '$TESTDIR/user-hook'"
	T set -g @resurrect-hook-post-restore-all "$user"
	T set -g @lisa-resume-resurrect on
	L reload >/dev/null
	hook=$(T show -gqv @resurrect-hook-post-restore-all)
	case "$hook" in
	"$user ; "*" resume --restored") ;;
	*) fail "hook: $hook" ;;
	esac
	T new-window -d -t main:3 -n api -c "$TESTDIR/proj/a b" claude
	T new-window -d -t main:4 -n web -c "$TESTDIR/proj/b" claude
	T new-window -d -t main:5 -n job -c "$TESTDIR/proj/b" claude
	a=$(T display -p -t main:3 '#{pane_id}')
	b=$(T display -p -t main:4 '#{pane_id}')
	for p in "$a" "$b" "$(T display -p -t main:5 '#{pane_id}')"; do
		until_ms 10000 sh -c "$LISA -L $SOCK status $p --json | grep -q '\"agent_session\":\"0000fa4e'" ||
		    fail "no session id for $p"
	done
	ida=$(L status "$a" --json | jget "d['agent_session']")
	idb=$(L status "$b" --json | jget "d['agent_session']")
	idc=$(L status "$(T display -p -t main:5 '#{pane_id}')" --json | jget "d['agent_session']")
	[ "$ida" != "$idb" ] || fail "one id for two agents: $ida"
	# All three recorded (the third's too: on the generic backend its
	# directory comes with its id, from its session file).
	for id in "$ida" "$idb" "$idc"; do
		until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '$id'" ||
		    fail "not recorded: $id: $(records)"
	done
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	# The user's tmux.conf, again; then resurrect restores.
	start_server main
	T set -g @resurrect-hook-post-restore-all "$user"
	T set -g @lisa-resume-resurrect on
	start_helper
	until_ms 5000 sh -c "tmux -L $SOCK show -gqv @resurrect-hook-post-restore-all | grep -q 'resume --restored'" ||
	    fail "no hook in the new server"
	out=$(bash "$ROOT/tests/integration/resurrect-standin.sh" "$(T display -p '#{socket_path}')" \
	    "main:3:$TESTDIR/proj/a b" "main:4:$TESTDIR/proj/b:sleep 1000" \
	    "main:5:$TESTDIR/proj/b:sleep 1000 &" 2>&1) || fail "stand-in: $out"
	ra=$(printf '%s\n' "$out" | sed -n 's/^restored main:3 //p')
	rb=$(printf '%s\n' "$out" | sed -n 's/^restored main:4 //p')
	case "$out" in *"resumed claude in its restored pane $ra (main:3.0), conversation $ida"*) ;;
	*) fail "said: $out" ;; esac
	case "$out" in *"no pane restored for claude at main:4.0: a new window"*"resumed claude in main:web"*) ;;
	*) fail "said: $out" ;; esac
	# A restored shell with a job of its own is not idle: left alone.
	case "$out" in *"no pane restored for claude at main:5.0: a new window"*"resumed claude in main:job"*) ;;
	*) fail "said: $out
the records: $(records)" ;; esac
	until_ms 10000 grep -q "resumed $ida" "$FAKE_AGENT_LOG" || fail "not resumed: $(cat "$FAKE_AGENT_LOG")"
	until_ms 10000 grep -q "resumed $idb" "$FAKE_AGENT_LOG" || fail "b not resumed"
	[ "$(T display -p -t main:3.0 '#{pane_id} #{pane_current_path}')" = "$ra $TESTDIR/proj/a b" ] ||
	    fail "not in its restored pane: $(T list-panes -a -F '#{pane_id} #{window_index} #{pane_current_path}')"
	until_ms 5000 shows "$rb" '#{pane_current_command}' sleep || fail "the restored program was touched"
	[ "$(cat "$TESTDIR/user-hook")" = user-hook ] || fail "the user's hook did not run"
	L wait "$ra" --until waiting_input --timeout 30 >/dev/null || fail "lisa does not see it"
	[ "$(L status "$ra" --json | jget "d['agent_session']")" = "$ida" ] || fail "another conversation"
	L stop >/dev/null
	wait_helper_exit 10000 || fail "helper stayed"
	[ "$(T show -gqv @resurrect-hook-post-restore-all)" = "$user" ] ||
	    fail "hook after stop: $(T show -gqv @resurrect-hook-post-restore-all)"
	! T show -g | grep '^@lisa_' || fail "lisa's options left"
}

# What a record holds follows what lisa learns after the verdicts have
# settled (issue 48): a conversation id that comes late (the generic
# backend reads the session file when it next looks), a window renamed,
# then moved, its session renamed. Each is in the file within seconds, with no verdict change.
test_resume_record_follows_late_changes() {
	start_resume
	T new-window -d -t main:3 -n api -c "$TESTDIR/proj/a b" \
	    -e FAKE_AGENT_SESSION_LATE="$TESTDIR/late" claude
	c=$(T display -p -t main:3 '#{pane_id}')
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '\"agent\":\"claude\",\"id\":null'" ||
	    fail "no record without its id: $(records)"
	[ "$(L status "$c" --json | jget "d.get('agent_session')")" = null ] ||
	    fail "an id before the agent said one"
	# Its verdicts settled: one more save would have come within a second.
	since=$(L status "$c" --json | jget "d['since']")
	sleep 1.5
	touch "$TESTDIR/late"
	until_ms 10000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"agent_session\":\"0000fa4e'" ||
	    fail "the late id was not read"
	id=$(L status "$c" --json | jget "d['agent_session']")
	until_ms 5000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents | grep -q '\"id\":\"$id\"'" ||
	    fail "the record kept no id: $(records)"
	T rename-window -t main:3 'renamed'
	until_ms 5000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents | grep -q '\"window\":\"renamed\",\"window_index\":3'" ||
	    fail "the record kept the old name: $(records)"
	T move-window -s main:3 -t main:7
	until_ms 5000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents | grep -q '\"window\":\"renamed\",\"window_index\":7'" ||
	    fail "the record kept the old place: $(records)"
	T rename-session -t main 'work'
	until_ms 5000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents | grep -q '\"session\":\"work\",\"window\":\"renamed\"'" ||
	    fail "the record kept the old session: $(records)"
	note "verdict since $since, now $(L status "$c" --json | jget "d['since']")"
}

# kill-server ends every agent before the helper's control clients close;
# a helper that hears of the agents' ends a second or more before it hears
# of the server's (its clients are slow on a busy machine: here stopped)
# keeps them in the record, and lisa resume offers them.
test_resume_kept_when_the_server_is_heard_late() {
	# (the generic backend hears of an agent's end from tmux only, on the
	# connection that also says the server went: no race to lose)
	linux_only "an agent's end is seen by its pidfd, before tmux says"
	start_resume
	T new-window -d -t main:3 -n api -c "$TESTDIR/proj/a b" claude
	c=$(T display -p -t main:3 '#{pane_id}')
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	until_ms 10000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"agent_session\":\"0000fa4e'" ||
	    fail "no session id"
	id=$(L status "$c" --json | jget "d['agent_session']")
	apid=$(L status "$c" --json | jget "d['signals']['process']['agent_pid']")
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '$id'" ||
	    fail "no record: $(records)"
	clients=$(pgrep -P "$HELPER_PID" -f -- " -C attach-session " | tr '\n' ' ')
	[ -n "$clients" ] || fail "no control client"
	# shellcheck disable=SC2086
	kill -STOP $clients
	T kill-server
	until_ms 10000 proc_gone "$apid" || fail "the agent lived on"
	# The helper saw it end, and its save a second later asked first (a
	# death by signal 1 is believed once tmux has not answered for 3 s:
	# pane-hup.c). On a busy machine tmux may reap the agent before the
	# helper reads its status: then the helper asks tmux whether the pane
	# died (no answer while its clients are stopped) and has not taken it
	# for ended.
	until_ms 15000 helper_said "asking the server about the file's agents\|exited, already reaped" ||
	    { kill -CONT $clients; fail "no save after the agent ended"; }
	helper_said "already reaped" && echo "# tmux reaped the agent first"
	grep -q "$id" "$XDG_STATE_HOME"/lisa/agents/*.agents ||
	    { kill -CONT $clients; fail "the record lost it: $(records)"; }
	# shellcheck disable=SC2086
	kill -CONT $clients
	wait_helper_exit 10000 || fail "helper stayed"
	grep -q "$id" "$XDG_STATE_HOME"/lisa/agents/*.agents ||
	    fail "the record lost it as the helper went: $(records)"
	start_server main
	start_helper
	L resume | grep -q "$id" || fail "not offered: $(L resume)"
}

# Another tmux of the user's (tmux -L other) that still runs: its agents
# are not offered, though their records are there; a record of a server
# that ended at that same socket (another instance) is.
test_resume_not_another_running_tmux() {
	start_resume
	B="${SOCK}b"
	tmux -L "$B" -f /dev/null new-session -d -s other
	bsock=$(tmux -L "$B" display -p '#{socket_path}')
	binst=$(tmux -L "$B" display -p '#{pid}-#{start_time}')
	d="$XDG_STATE_HOME/lisa/agents"
	mkdir -p "$d" && chmod 700 "$XDG_STATE_HOME/lisa" "$d"
	now=$(($(date +%s) * 1000))
	for inst in "$binst" "1-1"; do
		printf '{"v":1,"server":"%s","socket":"%s","saved":%s}\n{"agent":"claude","id":"0000fa4e-5555-4000-8000-00000000000%s","cwd":"%s","session":"main","window":"w","window_index":6,"pane_index":0,"pane":6}\n' \
		    "$inst" "$bsock" "$now" "${#inst}" "$TESTDIR/proj/a b" >"$d/$inst.agents"
	done
	out=$(L resume 2>&1)
	tmux -L "$B" kill-server
	case "$out" in
	*"0000fa4e-5555-4000-8000-000000000003"*) ;;
	*) fail "the ended one not offered: $out" ;;
	esac
	case "$out" in
	*"-00000000000${#binst}"*) fail "a running tmux's agent offered: $out" ;;
	esac
	[ "${#binst}" != 3 ] || fail "instance ids of one length: $binst"
}

# An agent started by its own resume command is known by the id in its
# arguments (here Codex, whose rollout the fake does not write); "latest"
# or a number is no id, and nothing else of the arguments is read.
test_resume_id_from_the_arguments() {
	start_resume
	T new-window -d -t main:1 "codex resume 0000fa4e-7777-4000-8000-000000000007"
	T new-window -d -t main:2 "gemini --resume latest"
	a=$(T display -p -t main:1 '#{pane_id}')
	b=$(T display -p -t main:2 '#{pane_id}')
	L wait "$a" --until waiting_input --timeout 30 >/dev/null || fail "no codex"
	L wait "$b" --until waiting_input --timeout 30 >/dev/null || fail "no gemini"
	[ "$(L status "$a" --json | jget "d['agent_session']")" = 0000fa4e-7777-4000-8000-000000000007 ] ||
	    fail "codex: $(L status "$a" --json | jget "d['agent_session']")"
	[ "$(L status "$b" --json | jget "d['agent_session']")" = null ] ||
	    fail "gemini: $(L status "$b" --json | jget "d['agent_session']")"
}

# Codex's daemon appends to the threads of TUIs gone before (it did after
# the tmux restart of CI's conformance run): that write makes no thread of
# an agent that has its own (resumed by id). A thread begun after the agent
# (/new) is its new one; an agent with none takes an old thread written
# since it began (codex resume --last). The test writes the rollouts as
# Codex does; a second Codex in another directory is the mark that lisa
# has read the write before it (one watch, events in order).
sid_of() { L status "$1" --json | jget "d['agent_session']"; }
codex_rollout() {	# DIR ID CWD
	printf '{"type":"session_meta","payload":{"id":"%s","cwd":"%s"}}\n' \
	    "$2" "$3" >"$1/rollout-2026-01-02T10-00-00-$2.jsonl"
}
test_resume_codex_keeps_its_thread_when_an_old_one_is_written() {
	linux_only "agent files are watched (inotify); elsewhere read when lisa wakes"
	export CODEX_HOME="$TESTDIR/codex-home"
	day="$CODEX_HOME/sessions/$(date +%Y/%m/%d)"
	mkdir -p "$day" "$CODEX_HOME/sessions/2024/09/01" "$TESTDIR/proj/c" "$TESTDIR/proj/d"
	c=$(cd "$TESTDIR/proj/c" && pwd -P)
	d=$(cd "$TESTDIR/proj/d" && pwd -P)
	# UUIDv7: the first 48 bits are when the thread began (2024, now).
	mine=0191a0b0-0000-7000-8000-000000000001
	gone=0191a0b0-0000-7000-8000-000000000002
	# (a time after the agents began: taken when written, a busy machine
	# can take longer to start them than any margin)
	v7now() { t=$(printf '%012x' $(($(date +%s) * 1000 + 1000)))
	    echo "${t%????}-${t#????????}"; }
	codex_rollout "$CODEX_HOME/sessions/2024/09/01" $mine "$c"
	codex_rollout "$day" $gone "$c"
	touch -d '2 hours ago' "$day/"*
	start_resume
	T new-window -d -t main:1 -c "$c" "codex resume $mine"
	T new-window -d -t main:2 -c "$d" codex
	a=$(T display -p -t main:1 '#{pane_id}')
	b=$(T display -p -t main:2 '#{pane_id}')
	L wait "$a" --until waiting_input --timeout 30 >/dev/null || fail "no codex"
	L wait "$b" --until waiting_input --timeout 30 >/dev/null || fail "no codex"
	until_ms 10000 sh -c "[ \"\$($LISA -L $SOCK status $a --json | grep -o $mine)\" ]" ||
	    fail "resumed: $(sid_of "$a")"
	# The daemon writes to the thread gone; then the mark, for b.
	echo '{"type":"event_msg","payload":{"type":"shutdown"}}' \
	    >>"$day/rollout-2026-01-02T10-00-00-$gone.jsonl"
	mark="$(v7now)-7000-8000-00000000000d"
	new="$(v7now)-7000-8000-00000000000e"
	codex_rollout "$day" "$mark" "$d"
	until_ms 10000 sh -c "[ \"\$($LISA -L $SOCK status $b --json | grep -o $mark)\" ]" ||
	    fail "the mark not read: $(sid_of "$b")"
	[ "$(sid_of "$a")" = $mine ] || fail "an old thread taken: $(sid_of "$a")"
	# /new: a thread begun after the agent is its own.
	codex_rollout "$day" "$new" "$c"
	until_ms 10000 sh -c "[ \"\$($LISA -L $SOCK status $a --json | grep -o $new)\" ]" ||
	    fail "the new thread: $(sid_of "$a")"
	# A Codex with no thread yet takes the old one written since it began.
	T new-window -d -t main:3 -c "$c" codex
	e=$(T display -p -t main:3 '#{pane_id}')
	L wait "$e" --until waiting_input --timeout 30 >/dev/null || fail "no codex"
	echo '{"type":"event_msg","payload":{"type":"user_message"}}' \
	    >>"$day/rollout-2026-01-02T10-00-00-$gone.jsonl"
	until_ms 10000 sh -c "[ \"\$($LISA -L $SOCK status $e --json | grep -o $gone)\" ]" ||
	    fail "codex resume --last: $(sid_of "$e")"
	[ "$(sid_of "$a")" = "$new" ] || fail "a's thread now: $(sid_of "$a")"
}

# Copilot CLI and OpenCode, whose ids are only in their logs (the fakes
# write them as the real ones do: Copilot its process log, named by its
# pid; OpenCode the shared log's "created" line at the first prompt,
# after a subagent's): recorded, and resumed with their own commands.
test_resume_copilot_and_opencode_by_their_logs() {
	start_resume
	T new-window -d -t main:1 -n cop -c "$TESTDIR/proj/a b" copilot
	T new-window -d -t main:2 -n oc -c "$TESTDIR/proj/a b" opencode
	c=$(T display -p -t main:1 '#{pane_id}')
	o=$(T display -p -t main:2 '#{pane_id}')
	# (lisa's OpenCode profile does not read the fake's screen: its own
	# banner says it is ready)
	opencode_up "$o"
	T send-keys -t "$o" 'work 0.2' Enter
	until_ms 10000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"agent_session\":\"0000fa4e'" ||
	    fail "copilot: $(L status "$c" --json | jget "d['agent_session']")"
	until_ms 10000 sh -c "$LISA -L $SOCK status $o --json | grep -q '\"agent_session\":\"ses_fake[0-9]'" ||
	    fail "opencode: $(L status "$o" --json | jget "d['agent_session']")"
	ic0=$(L status "$c" --json | jget "d['agent_session']")
	# /clear begins another conversation in the same process: its id in
	# the same log (Copilot CLI 1.0.102), and that one comes back.
	T send-keys -t "$c" /clear Enter
	until_ms 10000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"agent_session\":\"0000fa4e-c1ea'" ||
	    fail "copilot after /clear: $(L status "$c" --json | jget "d['agent_session']") (was $ic0)"
	ic=$(L status "$c" --json | jget "d['agent_session']")
	io=$(L status "$o" --json | jget "d['agent_session']")
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '$io'" ||
	    fail "not recorded: $(records)"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '$ic'" ||
	    fail "the new conversation not recorded: $(records)"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	start_server main
	start_helper
	out=$(L resume --all --dry-run) || fail "dry run: $out"
	w=$(printf '%s\n' "$out" | dry_words | tr '\n' '|')
	case "$w" in *'|"$2" --resume="$1"; exec "${SHELL:-/bin/sh}"|sh|'"$ic|$FAKE/copilot|"*) ;;
	*) fail "copilot: $out" ;; esac
	case "$w" in *'|"$2" -s "$1"; exec "${SHELL:-/bin/sh}"|sh|'"$io|$FAKE/opencode|"*) ;;
	*) fail "opencode: $out" ;; esac
	L resume --all >/dev/null || fail "resume"
	until_ms 10000 grep -q "resumed $ic" "$FAKE_AGENT_LOG" || fail "copilot not resumed"
	until_ms 10000 grep -q "resumed $io" "$FAKE_AGENT_LOG" || fail "opencode not resumed"
}

# An OpenCode that made its session before lisa met it (lisa started, or
# restarted, later): its line is in the log's past, read when lisa first
# meets the log; a session made in the same directory an hour before
# the agent started is another run's, never taken.
test_resume_opencode_session_made_before_lisa() {
	needs_proc_cwd "the session's directory is the agent's cwd"
	export HOME="$TESTDIR/home" XDG_STATE_HOME="$TESTDIR/state"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log" PATH="$FAKE:$PATH"
	d="$TESTDIR/proj/oc" d2="$TESTDIR/proj/oc2"
	log="$HOME/.local/share/opencode/log/opencode.log"
	mkdir -p "$d" "$d2" "${log%/*}"
	for dir in "$d" "$d2"; do
		printf 'timestamp=%s.000Z level=INFO run=old message=created id=ses_oldrun directory=%s path=x parentID=undefined title=x\n' \
		    "$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%S)" "$dir"
	done >"$log"
	start_server main
	T new-window -d -t main:1 -n oc -c "$d" opencode
	T new-window -d -t main:2 -n oc2 -c "$d2" opencode
	o=$(T display -p -t main:1 '#{pane_id}')
	o2=$(T display -p -t main:2 '#{pane_id}')
	opencode_up "$o"
	opencode_first_prompt "$o"
	start_helper
	until_ms 10000 sh -c "$LISA -L $SOCK status $o --json | grep -q '\"agent_session\":\"ses_fake[0-9]'" ||
	    fail "not known: $(L status "$o" --json | jget "d['agent_session']")"
	id=$(opencode_logged_id)
	[ "$(L status "$o" --json | jget "d['agent_session']")" = "$id" ] ||
	    fail "not its own: $(L status "$o" --json | jget "d['agent_session']") $id"
	# The other made none: the hour-old session in its directory is not
	# its (it was met, and its log read, with the first).
	[ "$(L status "$o2" --json | jget "d['agent']")" = opencode ] ||
	    fail "the second not met: $(L status "$o2")"
	[ "$(L status "$o2" --json | jget "d['agent_session']")" = null ] ||
	    fail "an old run's session taken: $(L status "$o2" --json | jget "d['agent_session']")"
}

# The same on every backend, also where the system does not say an
# agent's directory (the generic one's, on a BSD): a session made before
# lisa met its agent is taken when it can be no other's. A second OpenCode
# started after that session was made never takes it.
test_resume_opencode_met_after_its_first_prompt() {
	export HOME="$TESTDIR/home" XDG_STATE_HOME="$TESTDIR/state"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log" PATH="$FAKE:$PATH"
	log="$HOME/.local/share/opencode/log/opencode.log"
	mkdir -p "$TESTDIR/proj/oc" "$TESTDIR/proj/late"
	start_server main
	T new-window -d -t main:1 -n oc -c "$TESTDIR/proj/oc" opencode
	o=$(T display -p -t main:1 '#{pane_id}')
	opencode_up "$o"
	opencode_first_prompt "$o"
	# (the late one's start after the line's, beyond the two seconds a
	# start known to the second is given, and that second itself)
	sleep 3.5
	T new-window -d -t main:2 -n late -c "$TESTDIR/proj/late" opencode
	late=$(T display -p -t main:2 '#{pane_id}')
	opencode_up "$late"
	start_helper
	id=$(opencode_logged_id)
	until_ms 10000 sh -c "$LISA -L $SOCK status $o --json | grep -q '\"agent_session\":\"$id\"'" ||
	    fail "not known: $(L status "$o" --json | jget "d['agent_session']") ($id)"
	[ "$(L status "$late" --json | jget "d['agent']")" = opencode ] ||
	    fail "the second not met: $(L status "$late")"
	[ "$(L status "$late" --json | jget "d['agent_session']")" = null ] ||
	    fail "the first's session taken: $(L status "$late" --json | jget "d['agent_session']")"
}

# Gemini writes to an old chat log as another run ends (seen in the full
# conformance run): a log begun before the agent (its first line's
# startTime) is never taken for its conversation, neither before its own
# log nor after. Each check follows two status requests, the first of
# which the helper answers only after the file event already queued.
test_resume_gemini_not_an_old_log() {
	needs_proc_cwd "the log's project is the agent's cwd"
	start_resume
	chats="$HOME/.gemini/tmp/proj/chats"
	mkdir -p "$chats" "$TESTDIR/gproj"
	old=0000fa4e-0ld0-4000-8000-000000000000
	printf '{"sessionId":"%s","projectHash":"fake","startTime":"%s","lastUpdated":"x","kind":"main"}\n' \
	    "$old" "$(date -u -d '-1 hour' +%Y-%m-%dT%H:%M:%S.000Z)" \
	    >"$chats/session-old-0000fa4e.jsonl"
	touch -d '-1 hour' "$chats/session-old-0000fa4e.jsonl"
	T new-window -d -t main:1 -c "$TESTDIR/gproj" gemini
	g=$(T display -p -t main:1 '#{pane_id}')
	L wait "$g" --until waiting_input --timeout 30 >/dev/null || fail "no gemini"
	printf '{"$set":{"lastUpdated":"y"}}\n' >>"$chats/session-old-0000fa4e.jsonl"
	L status "$g" >/dev/null
	sid=$(L status "$g" --json | jget "d['agent_session']")
	[ "$sid" = null ] || fail "before its own log: $sid"
	T send-keys -t "$g" 'usage 524288' Enter
	until_ms 10000 sh -c "$LISA -L $SOCK status $g --json | grep -q '\"percent\": *50'" ||
	    fail "its own log: $(L status "$g" --json)"
	new=$(ls "$chats" | grep -v old)
	id=$(head -1 "$chats/$new" | jget "d['sessionId']")
	[ "$(L status "$g" --json | jget "d['agent_session']")" = "$id" ] ||
	    fail "not its own: $(L status "$g" --json | jget "d['agent_session']") $id"
	printf '{"$set":{"lastUpdated":"z"}}\n' >>"$chats/session-old-0000fa4e.jsonl"
	L status "$g" >/dev/null
	sid=$(L status "$g" --json | jget "d['agent_session']")
	[ "$sid" = "$id" ] || fail "after its own log: $sid"
}

# Issue 42: an agent started by its path, with no such name on PATH, comes
# back by that path (its record's "exe"). One that cannot start (its
# program gone) keeps its record: lisa resume exits 1 and says why, with
# the pane's own words, and offers it again.
test_resume_runs_its_path_and_keeps_one_that_fails() {
	export HOME="$TESTDIR/home" XDG_STATE_HOME="$TESTDIR/state"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	mkdir -p "$HOME" "$TESTDIR/opt" "$TESTDIR/proj/w"
	ln -s "$FAKE/claude" "$TESTDIR/opt/claude"
	! command -v claude >/dev/null || skip "a claude on PATH: $(command -v claude)"
	start_server main
	start_helper
	T new-window -d -t main:3 -n alpha -c "$TESTDIR/proj/w" "$TESTDIR/opt/claude"
	c=$(T display -p -t main:3 '#{pane_id}')
	L wait "$c" --until waiting_input --timeout 30 >/dev/null || fail "no agent"
	until_ms 10000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"agent_session\":\"0000fa4e'" ||
	    fail "no session id"
	id=$(L status "$c" --json | jget "d['agent_session']")
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '\"exe\":\"$TESTDIR/opt/claude\"'" ||
	    fail "no program recorded: $(records)"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	start_server main
	start_helper
	out=$(L resume --all 2>&1) || fail "resume --all: $out"
	case "$out" in *"resumed claude in main:alpha ($TESTDIR/proj/w), conversation $id"*) ;;
	*) fail "said: $out" ;; esac
	until_ms 10000 grep -q "resumed $id" "$FAKE_AGENT_LOG" || fail "not resumed: $(cat "$FAKE_AGENT_LOG")"
	[ "$(L resume)" = "nothing to resume" ] || fail "still offered: $(L resume)"
	# Again, with the program gone: it cannot start.
	c=$(T display -p -t main:3 '#{pane_id}')
	# (its id and its directory: the generic backend learns both late)
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep '$id' | grep -q '\"cwd\":\"$TESTDIR/proj/w\"'" ||
	    fail "not recorded again: $(records)"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	rm "$TESTDIR/opt/claude"
	start_server main
	start_helper
	rc=0
	L resume --all >"$TESTDIR/out" 2>"$TESTDIR/err" || rc=$?
	[ "$rc" = 1 ] || fail "exit $rc: $(cat "$TESTDIR/out" "$TESTDIR/err")"
	grep -q "claude did not come back in main:alpha (%[0-9]*): it ended, the pane says: .*claude.*not found; its record is kept" "$TESTDIR/err" ||
	    fail "said: $(cat "$TESTDIR/out" "$TESTDIR/err")"
	grep -q resumed "$TESTDIR/out" && fail "said resumed: $(cat "$TESTDIR/out")"
	L resume | grep -q "$id" || fail "its record used up: $(L resume)"
	rc=0
	L resume 1 >/dev/null 2>&1 || rc=$?
	[ "$rc" = 1 ] || fail "a second try: exit $rc"
	L resume | grep -q "$id" || fail "used up by a second try: $(L resume)"
}

# An agent whose files say no directory (Gemini's chat log names only a
# hash of it), on a system that says none either (the generic backend, a
# BSD): tmux says it (#{pane_current_path}), so its record has it and
# lisa resume brings it back there, not skips it as having none. On
# Linux the system says it; the record is the same.
test_resume_directory_where_only_tmux_knows_it() {
	start_resume
	d="$TESTDIR/proj/g d"
	mkdir -p "$d"
	T new-window -d -t main:2 -n gem -c "$d" gemini
	g=$(T display -p -t main:2 '#{pane_id}')
	L wait "$g" --until waiting_input --timeout 30 >/dev/null || fail "no gemini"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '\"cwd\":\"$d\"'" ||
	    fail "no directory recorded: $(records)"
	[ "$SYSTEM" != generic ] || helper_said "pane $g: its directory from tmux" ||
	    fail "not from tmux: $(helper_log | grep "pane $g:" | head -n 20)"
	T kill-server
	wait_helper_exit 10000 || fail "helper stayed"
	start_server main
	start_helper
	out=$(L resume) || fail "resume: $out"
	printf '%s\n' "$out" | grep -qE "^1 +gemini +main:gem .*$d$" || fail "list: $out"
	out=$(L resume --all 2>&1) || fail "resume --all: $out"
	case "$out" in *"resumed gemini in main:gem ($d)"*) ;;
	*) fail "said: $out" ;; esac
	[ "$(T display -p -t main:2 '#{pane_current_path}')" = "$d" ] ||
	    fail "where: $(T list-windows -F '#{window_index} #{window_name} #{pane_current_path}')"
}

# An agent met while its program is not there yet: a process that names
# it (sh -c ... copilot, whose argv is what lisa knows Copilot by) with no
# PATH in its environment, which then execs the agent (env, then python:
# the same pid, so no new sighting). Its record gets the program once it
# runs (CI's ASan run caught the moment between env and the agent, and
# resumed the bare name).
test_resume_program_found_after_an_exec() {
	export HOME="$TESTDIR/home" XDG_STATE_HOME="$TESTDIR/state"
	mkdir -p "$HOME" "$TESTDIR/proj/w"
	start_server main
	start_helper
	# (HOME alone: lisa meets it with no PATH to look in)
	T new-window -d -t main:3 -n alpha -c "$TESTDIR/proj/w" \
	    "exec env -i HOME='$HOME' /bin/sh -c 'sleep 1.5; exec env PATH=\"\$1\" copilot' copilot '$FAKE:/usr/bin:/bin'"
	c=$(T display -p -t main:3 '#{pane_id}')
	until_ms 10000 sh -c "$LISA -L $SOCK status $c --json | grep -q '\"agent_session\":\"0000fa4e'" ||
	    fail "no session id: $(L status "$c" --json)"
	until_ms 10000 sh -c "cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -q '\"exe\":\"$FAKE/copilot\"'" ||
	    fail "no program recorded: $(records)"
	# (the generic backend splits ps's args at spaces: the script's words
	# come first, and it meets the agent after its exec)
	[ "$SYSTEM" = generic ] ||
	    helper_said "%${c#%}: agent's program not found yet" ||
	    fail "not met before its exec: $(helper_log | grep "%${c#%}:" | head -n 20)"
}

# Issue 42: a session made anew gets its windows at the indexes they had
# (not 0), one new-session for it; --dry-run's lines are a shell's to
# paste, a directory holding a quote and $(...) included, and pasted
# they make the same.
test_resume_keeps_indexes_and_dry_run_pastes() {
	start_resume
	pw="$TESTDIR/pwned"
	dir="$TESTDIR/proj/it's \$(touch $pw)"
	mkdir -p "$dir"
	d="$XDG_STATE_HOME/lisa/agents"
	mkdir -p "$d" && chmod 700 "$XDG_STATE_HOME/lisa" "$d"
	now=$(($(date +%s) * 1000))
	python3 - "$d/1-1.agents" "$now" "$dir" <<'PY'
import json, sys
path, now, cwd = sys.argv[1], int(sys.argv[2]), sys.argv[3]
with open(path, "w") as f:
    f.write(json.dumps({"v": 1, "server": "1-1", "socket": "/nonexistent/x", "saved": now}) + "\n")
    for i, (w, idx) in enumerate((("a", 3), ("b", 5))):
        f.write(json.dumps({"agent": "claude", "id": "0000fa4e-6666-4000-8000-00000000000%d" % i,
                            "cwd": cwd, "session": "work", "window": w,
                            "window_index": idx, "pane_index": 0, "pane": i}) + "\n")
PY
	out=$(L resume --all --dry-run) || fail "dry run: $out"
	[ "$(printf '%s\n' "$out" | grep -c ' new-session ')" = 1 ] || fail "new-session twice: $out"
	T has-session -t =work 2>/dev/null && fail "the dry run made a session"
	sh -c "$out" || fail "pasted: $out"
	until_ms 5000 sh -c "[ \"\$(tmux -L $SOCK list-windows -t =work -F '#{window_index}:#{window_name}' | tr '\n' ' ')\" = '3:a 5:b ' ]" ||
	    fail "pasted: $(T list-windows -t =work -F '#{window_index}:#{window_name}')"
	[ "$(T display -p -t =work:3 '#{pane_current_path}')" = "$dir" ] || fail "directory: $(T display -p -t =work:3 '#{pane_current_path}')"
	[ ! -e "$pw" ] || fail "a directory's \$(...) ran"
	# The same, resumed by lisa (the pasted ones gone first).
	T kill-session -t =work
	until_ms 5000 sh -c "! $LISA -L $SOCK list --json | grep -q 0000fa4e-6666" ||
	    fail "the pasted ones still listed"
	out=$(L resume --all 2>&1) || fail "resume: $out"
	[ "$(T list-windows -t =work -F '#{window_index}:#{window_name}' | tr '\n' ' ')" = '3:a 5:b ' ] ||
	    fail "resumed: $(T list-windows -t =work -F '#{window_index}:#{window_name}')"
	[ "$(L resume)" = "nothing to resume" ] || fail "still offered: $(L resume)"
	[ ! -e "$pw" ] || fail "a directory's \$(...) ran"
}

# A record goes only when its agent is seen to end, or when tmux, still
# answering, lists no such pane (issue 42): a helper that stops seeing a
# session (here: the session ignored; a client of the helper's gone is the
# same) keeps its agents' lines, and so does a helper started afresh on the
# same server before it has looked; an agent killed unseen goes at the next
# check of tmux's panes (at most every 10 s); one that quits in view goes.
test_resume_record_kept_while_unseen() {
	start_resume
	T new-session -d -s work -c "$TESTDIR/proj" "$FAKE/claude"
	T new-window -d -t work:1 -c "$TESTDIR/proj" "$FAKE/claude"
	T new-window -d -t main:2 -c "$TESTDIR/proj" "$FAKE/claude"
	a=$(T display -p -t work:0 '#{pane_id}')
	b=$(T display -p -t work:1 '#{pane_id}')
	m=$(T display -p -t main:2 '#{pane_id}')
	for p in $a $b $m; do
		L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "$p: no agent"
	done
	has() { records | grep -q "\"pane\":${1#%}}"; }
	until_ms 10000 sh -c "[ \$(cat '$XDG_STATE_HOME'/lisa/agents/*.agents 2>/dev/null | grep -c '\"pane\"') = 3 ]" ||
	    fail "records: $(records)"
	# Unseen: the session ignored; a change elsewhere saves the file.
	T set -g @lisa-ignore-sessions work
	# (read again with the session list: a session made and gone)
	T new-session -d -s poke
	T kill-session -t poke
	until_ms 10000 sh -c "! $LISA -L $SOCK list --json | grep -q '\"pane_id\":\"$a\"'" ||
	    fail "still seen"
	saved=$(records | head -n 1)
	T send-keys -t "$m" 'work 2' Enter
	L wait "$m" --until in_progress --timeout 15 >/dev/null || fail "no work"
	L wait "$m" --until waiting_input --timeout 30 >/dev/null || fail "no prompt"
	until_ms 10000 sh -c "[ \"\$(head -n 1 '$XDG_STATE_HOME'/lisa/agents/*.agents)\" != '$saved' ]" ||
	    fail "not saved again"
	has "$a" && has "$b" && has "$m" || fail "lost unseen: $(records)"
	# A new helper, the file as it was: nothing goes before it looks.
	kill -9 "$HELPER_PID"
	wait "$HELPER_PID" 2>/dev/null
	saved=$(records | head -n 1)
	start_helper
	T send-keys -t "$m" 'work 2' Enter
	L wait "$m" --until in_progress --timeout 15 >/dev/null || fail "no work"
	L wait "$m" --until waiting_input --timeout 30 >/dev/null || fail "no prompt"
	until_ms 10000 sh -c "[ \"\$(head -n 1 '$XDG_STATE_HOME'/lisa/agents/*.agents)\" != '$saved' ]" ||
	    fail "not saved by the new helper"
	has "$a" && has "$b" && has "$m" || fail "lost after a restart: $(records)"
	# Killed unseen: gone once tmux's panes are checked again (a change
	# in view saves the file; tmux is asked at most every 10 s).
	T kill-pane -t "$b"
	t0=$(now_ms)
	gone=
	while [ $(($(now_ms) - t0)) -lt 60000 ]; do
		T send-keys -t "$m" 'work 2' Enter
		L wait "$m" --until in_progress --timeout 15 >/dev/null || fail "no work"
		L wait "$m" --until waiting_input --timeout 30 >/dev/null || fail "no prompt"
		until_ms 3000 sh -c "! cat '$XDG_STATE_HOME'/lisa/agents/*.agents | grep -q '\"pane\":${b#%}}'" &&
		    { gone=1; break; }
	done
	[ -n "$gone" ] || fail "a killed agent kept: $(records)"
	has "$a" || fail "the other unseen one went: $(records)"
	note "killed unseen: its record gone after $(($(now_ms) - t0)) ms"
	# Quit in view: gone.
	T send-keys -t "$m" /exit Enter
	until_ms 15000 sh -c "! cat '$XDG_STATE_HOME'/lisa/agents/*.agents | grep -q '\"pane\":${m#%}}'" ||
	    fail "an agent that quit kept: $(records)"
	has "$a" || fail "the unseen one went: $(records)"
}

# A state directory that cannot take the records is said at the helper's
# start, while the server lives (the status line, lisa info, lisa doctor),
# not found after the server is gone: a full filesystem (a tmpfs of the
# test's own, filled), then room again (said no more once a record is
# written), then read-only. Needs root (mount).
test_state_dir_full_or_read_only_said_at_start() {
	st="$TESTDIR/state"
	mkdir -p "$st"
	if [ "$(id -u)" != 0 ] || ! mount -t tmpfs -o size=1m,mode=0700 tmpfs "$st" 2>/dev/null; then
		note "not root, or no mount here: cannot make a full filesystem"
		return 0
	fi
	trap 'umount -l "$st" 2>/dev/null; cleanup' EXIT
	mkdir -p -m 0700 "$st/lisa" "$st/lisa/agents"
	dd if=/dev/zero of="$st/fill" bs=4k 2>/dev/null
	[ "$(df -P "$st" | awk 'NR==2 {print $4}')" = 0 ] || fail "not full: $(df -P "$st")"
	start_resume
	info | jget "'No space left' in d['state_error'] or exit(1)" >/dev/null ||
	    fail "lisa info: $(info)"
	expect_shown main '#{@lisa_error}' "lisa: resume records cannot be kept (lisa doctor)"
	L doctor 2>&1 | grep -q 'resume records.*cannot be kept.*No space left' ||
	    fail "lisa doctor: $(L doctor 2>&1 | grep -i resume)"
	# Room again: the next record written says it is over.
	rm "$st/fill"
	T new-window -d -t main:1 "$FAKE/claude"
	p=$(T display -p -t main:1 '#{pane_id}')
	L wait "$p" --until waiting_input --timeout 30 >/dev/null || fail "$p"
	until_ms 10000 sh -c '[ -n "$(cat "$XDG_STATE_HOME"/lisa/agents/*.agents 2>/dev/null)" ]' ||
	    fail "no record written: $(ls -la "$st/lisa/agents")"
	until_ms 5000 shows main '#{@lisa_error}' "" ||
	    fail "still said: $(T show -gv @lisa_error)"
	info | jget "d['state_error'] is None or exit(1)" >/dev/null || fail "lisa info: $(info)"
	L doctor 2>&1 | grep -q "resume records.*$st/lisa/agents" ||
	    fail "lisa doctor: $(L doctor 2>&1 | grep -i resume)"
	# Read-only, at the next start.
	L stop >/dev/null
	wait_helper_exit 5000 || fail "helper did not stop"
	mount -o remount,ro "$st" || fail "remount ro"
	start_helper
	info | jget "'Read-only' in d['state_error'] or exit(1)" >/dev/null ||
	    fail "lisa info: $(info)"
	expect_shown main '#{@lisa_error}' "lisa: resume records cannot be kept (lisa doctor)"
	# And lisa stop leaves nothing of it.
	L stop >/dev/null
	wait_helper_exit 5000 || fail "helper did not stop"
	[ -z "$(T show -gqv @lisa_error)" ] || fail "stop left @lisa_error"
	umount "$st" || umount -l "$st"
}

# Agent hooks: lisa hooks install/uninstall, and states pushed by hooks.

. "$ROOT/tests/integration/agents.sh"

same_json() { python3 -c 'import json,sys; sys.exit(json.load(open(sys.argv[1])) != json.load(open(sys.argv[2])))' "$1" "$2"; }

test_hooks_install_uninstall_claude() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME/.claude"
	f="$HOME/.claude/settings.json"
	cat >"$f" <<'JSON'
{"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]},
 "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say \"done\" \\o/"}]}]}}
JSON
	cp "$f" "$TESTDIR/orig.json"
	L hooks install claude --dry-run >/dev/null 2>&1
	cmp -s "$f" "$TESTDIR/orig.json" || fail "--dry-run wrote the file"
	L hooks install claude | grep -q "added 9 hook" || fail "install"
	n=$(grep -c 'LISA_HOOK=1' "$f")
	[ "$n" = 9 ] || fail "$n entries"
	L hooks install claude | grep -q "nothing to add" || fail "not idempotent"
	[ "$(grep -c 'LISA_HOOK=1' "$f")" = 9 ] || fail "duplicated"
	python3 -c "import json; d=json.load(open('$f')); assert d['model']=='opus'; assert d['hooks']['Stop'][0]['hooks'][0]['command']=='say \"done\" \\\\o/'" ||
	    fail "user settings damaged"
	L hooks uninstall claude | grep -q "removed 9 hook" || fail "uninstall"
	same_json "$f" "$TESTDIR/orig.json" || fail "not back to the original: $(cat "$f")"
	# A file that is not JSON is left alone.
	echo '{"broken": ' >"$f"
	L hooks install claude 2>"$TESTDIR/err" && fail "installed into broken JSON"
	grep -q "not touching it" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	[ "$(cat "$f")" = '{"broken": ' ] || fail "broken file changed"
}

test_hooks_install_uninstall_codex() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME/.codex"
	f="$HOME/.codex/config.toml"
	printf 'model = "gpt"\n\n[projects."/x"]\ntrust_level = "trusted"\n' >"$f"
	cp "$f" "$TESTDIR/orig.toml"
	L hooks install codex >/dev/null || fail "install"
	head -n 3 "$f" | grep -q '^notify = \[".*lisa", "notify", "--agent", "codex"\]' ||
	    fail "notify not before the first table: $(cat "$f")"
	L hooks uninstall codex >/dev/null || fail "uninstall"
	cmp -s "$f" "$TESTDIR/orig.toml" || fail "not back: $(cat "$f")"
	# The user's own notify program is never replaced.
	printf 'notify = ["my-notifier"]\n' >"$f"
	L hooks install codex 2>"$TESTDIR/err" && fail "replaced the user's notify"
	grep -q "keeping yours" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	[ "$(cat "$f")" = 'notify = ["my-notifier"]' ] || fail "changed"
}

# No title, no session file: hooks alone carry Claude's state.
test_claude_states_from_hooks() {
	export FAKE_AGENT_NO_SESSION=1 FAKE_AGENT_NO_TITLE=1
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	L hooks install claude >/dev/null || fail "install"
	setup_agents
	p=$(agent_window 1 claude)
	T send-keys -t "$p" 'work 5' Enter
	expect "$p" in_progress generating hook_working
	note "hook UserPromptSubmit -> in_progress: $(latency "$p" in_progress "hook UserPromptSubmit") ms"
	expect "$p" waiting_input prompt hook_stop
	note "hook Stop -> waiting_input: $(latency "$p" waiting_input "hook Stop") ms"
	T send-keys -t "$p" 'tool 5' Enter
	expect "$p" in_progress tool hook_working
	expect "$p" waiting_input prompt hook_stop
	T send-keys -t "$p" permission Enter
	expect "$p" waiting_input permission hook_permission
	note "hook PermissionRequest -> waiting_input: $(latency "$p" waiting_input "hook PermissionRequest" permission) ms"
	T send-keys -t "$p" n Enter
	T send-keys -t "$p" question Enter
	expect "$p" waiting_input question hook_permission
	T send-keys -t "$p" 1 Enter
	T send-keys -t "$p" error Enter
	expect "$p" waiting_input error hook_stop_failure
}

test_codex_notify_by_cwd_and_title_thread_ignored() {
	setup_agents
	mkdir -p "$TESTDIR/proj"
	T new-window -d -t main:1 -c "$TESTDIR/proj" "$FAKE/codex"
	p=$(T display -p -t main:1 '#{pane_id}')
	expect "$p" waiting_input prompt codex_osc_idle
	T send-keys -t "$p" hang Enter
	expect "$p" in_progress generating codex_osc_working
	# The hidden title thread completes first: not the user's turn.
	TMUX_PANE= L notify --agent codex "{\"type\":\"agent-turn-complete\",\"cwd\":\"$TESTDIR/proj\",\"input-messages\":[\"Generate a concise, single-line task title for the task\"]}" >"$TESTDIR/out"
	[ -s "$TESTDIR/out" ] && fail "notify printed: $(cat "$TESTDIR/out")"
	sleep 0.3
	state_is "$p" in_progress generating codex_osc_working || fail "title thread counted: $(L status "$p")"
	# The real turn, from the daemon (TMUX_PANE of another pane), by cwd.
	TMUX_PANE=%999 L notify --agent codex "{\"type\":\"agent-turn-complete\",\"cwd\":\"$TESTDIR/proj\",\"input-messages\":[\"hang\"]}"
	expect "$p" waiting_input prompt hook_stop
	# Garbage on stdin or in argv: silent, exit 0.
	echo 'not json' | L notify --agent claude >"$TESTDIR/out" || fail "notify failed"
	[ -s "$TESTDIR/out" ] && fail "printed"
	return 0
}

# A pane whose agent is named opencode (or $1: kilo) and draws nothing
# (only hooks can tell), and drive EVENT...: the installed plugin ($f) fed
# OpenCode's events, one JSON each ({"hook": NAME, "tool": T} or {"hook":
# NAME, "input": {...}} for its other hooks), as OpenCode calls it there.
opencode_plugin_pane() {
	command -v node >/dev/null 2>&1 ||
	    skip "node is not installed: the plugin's JavaScript runs with it"
	setup_agents
	mkdir -p "$TESTDIR/bin"
	oc=${1:-opencode}
	printf '#!/bin/sh\nwhile read -r l; do :; done\n' >"$TESTDIR/bin/$oc"
	chmod +x "$TESTDIR/bin/$oc"
	T new-window -d -t main:1 "$TESTDIR/bin/$oc"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 10000 sh -c "$LISA -L $SOCK status $p --json | grep -q '\"agent\": *\"$oc\"'" ||
	    fail "not seen as $oc: $(L status "$p")"
	cp "$f" "$TESTDIR/plugin.mjs"
	cat >"$TESTDIR/drive.mjs" <<'JS'
import fs from "node:fs"
const { LisaHooks } = await import(process.argv[2])
const h = await LisaHooks({ directory: process.cwd() })
for (const l of fs.readFileSync(0, "utf8").split("\n").filter(Boolean)) {
  const e = JSON.parse(l)
  if (e.tool) await h[e.hook]({ tool: e.tool, sessionID: "s1", callID: "c1" }, {})
  else if (e.hook) await h[e.hook](e.input, {})
  else await h.event({ event: e })
}
JS
	sock=$(T display -p '#{socket_path}')
}
drive() {
	printf '%s\n' "$@" | env TMUX="$sock,1,0" TMUX_PANE="$p" \
	    node "$TESTDIR/drive.mjs" "$TESTDIR/plugin.mjs" ||
	    fail "node: the plugin failed"
}

# OpenCode's hooks are a plugin file lisa writes, and its JavaScript is
# lisa's own: installed, refused over a file that is not lisa's, and run
# (with node, as OpenCode's Bun runs it) on OpenCode's events against a
# real helper and a pane whose agent is named opencode.
test_opencode_plugin_install_and_states() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	f="$HOME/.config/opencode/plugins/lisa.js"
	L hooks install opencode --dry-run >/dev/null 2>&1
	[ ! -e "$f" ] || fail "--dry-run wrote the file"
	L hooks install opencode | grep -q "wrote $f" || fail "install"
	[ "$(head -n 1 "$f")" = "// lisa-hook: opencode" ] || fail "no mark: $(head -n 1 "$f")"
	grep -q "^const LISA = \"$LISA\"\$" "$f" || fail "not this lisa: $(grep LISA "$f")"
	L hooks install opencode | grep -q "nothing to add" || fail "not idempotent"
	L hooks uninstall opencode | grep -q "removed $f" || fail "uninstall"
	[ ! -e "$f" ] || fail "still there"
	echo 'export const Mine = async () => ({})' >"$f"
	L hooks install opencode 2>"$TESTDIR/err" && fail "wrote over the user's file"
	L hooks uninstall opencode 2>>"$TESTDIR/err" && fail "removed the user's file"
	grep -q "not lisa's" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	[ "$(cat "$f")" = 'export const Mine = async () => ({})' ] || fail "user's file changed"
	rm "$f"
	L hooks install opencode >/dev/null || fail "install"

	opencode_plugin_pane
	busy='{"type":"session.status","properties":{"sessionID":"s1","status":{"type":"busy"}}}'
	idle='{"type":"session.status","properties":{"sessionID":"s1","status":{"type":"idle"}}}'
	drive "$busy"
	expect "$p" in_progress generating hook_working
	drive "$busy" '{"hook":"tool.execute.before","tool":"bash"}' \
	    '{"type":"permission.asked","properties":{"id":"p1","sessionID":"s1","permission":"bash"}}'
	expect "$p" waiting_input permission hook_permission
	drive "$busy" '{"type":"permission.replied","properties":{"sessionID":"s1","requestID":"p1","reply":"once"}}'
	expect "$p" in_progress tool hook_working
	drive "$busy" '{"type":"question.asked","properties":{"id":"q1","sessionID":"s1","questions":[]}}'
	expect "$p" waiting_input question hook_permission
	# A subagent's session going idle is not the end of the turn; the
	# last of them is. (The hooks reach lisa in order: the tool's end
	# comes after any Stop there would be.)
	stops=$(helper_log | grep -c "hook opencode Stop")
	drive "$busy" \
	    '{"type":"session.status","properties":{"sessionID":"s2","status":{"type":"busy"}}}' \
	    '{"type":"session.status","properties":{"sessionID":"s2","status":{"type":"idle"}}}' \
	    '{"hook":"tool.execute.after","tool":"task"}'
	until_ms 10000 sh -c "[ \$(cat $XDG_RUNTIME_DIR/lisa/*.log | grep -c 'hook opencode PostToolUse') -ge 1 ]" ||
	    fail "no PostToolUse"
	[ "$(helper_log | grep -c "hook opencode Stop")" = "$stops" ] ||
	    fail "a subagent's idle ended the turn"
	expect "$p" in_progress generating hook_working
	drive "$busy" "$idle"
	expect "$p" waiting_input prompt hook_stop
	# A failed turn, and a 429 the API would not stop repeating.
	drive "$busy" '{"type":"session.error","properties":{"sessionID":"s1","error":{"name":"APIError","data":{"message":"boom","statusCode":500}}}}' "$idle"
	expect "$p" waiting_input error hook_stop_failure
	drive "$busy" '{"type":"session.error","properties":{"sessionID":"s1","error":{"name":"APIError","data":{"message":"slow down","statusCode":429}}}}' "$idle"
	expect "$p" waiting_input limit hook_stop_limit
	# The user's interrupt is no failure.
	drive "$busy" '{"type":"session.error","properties":{"sessionID":"s1","error":{"name":"MessageAbortedError","data":{}}}}' "$idle"
	expect "$p" waiting_input prompt hook_stop
	# OpenCode retries a 5xx until the user interrupts; an interrupt that
	# meets an attempt's 500 reports the 500: after a retry, no failure
	# (from a failed turn, so the verdict changes).
	drive "$busy" '{"type":"session.error","properties":{"sessionID":"s1","error":{"name":"APIError","data":{"message":"boom","statusCode":500}}}}' "$idle"
	expect "$p" waiting_input error hook_stop_failure
	drive "$busy" '{"type":"session.status","properties":{"sessionID":"s1","status":{"type":"retry","attempt":1,"message":"boom","next":0}}}' "$busy" \
	    '{"type":"session.error","properties":{"sessionID":"s1","error":{"name":"APIError","data":{"message":"boom","statusCode":500}}}}' "$idle"
	expect "$p" waiting_input prompt hook_stop
	# The next turn's own failure is one again.
	drive "$busy" '{"type":"session.error","properties":{"sessionID":"s1","error":{"name":"APIError","data":{"message":"boom","statusCode":500}}}}' "$idle"
	expect "$p" waiting_input error hook_stop_failure
	# Outside tmux the plugin does nothing.
	n=$(helper_log | grep -c "hook opencode")
	printf '%s\n' "$busy" | env -u TMUX TMUX_PANE="$p" node "$TESTDIR/drive.mjs" "$TESTDIR/plugin.mjs"
	[ "$(helper_log | grep -c "hook opencode")" = "$n" ] || fail "told outside tmux"
}

# OpenCode keeps its tokens only in SQLite; lisa's plugin sends each
# completed assistant message's usage, with the window OpenCode gives the
# model (chat.params): once per message, none of a subagent's, no window
# guessed where OpenCode gave none.
test_opencode_plugin_context() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	f="$HOME/.config/opencode/plugins/lisa.js"
	L hooks install opencode >/dev/null || fail "install"
	opencode_plugin_pane
	params='{"hook":"chat.params","input":{"sessionID":"s1","model":{"id":"mock-model","limit":{"context":131072,"output":8192}}}}'
	msg='{"type":"message.updated","properties":{"info":{"id":"m1","sessionID":"s1","role":"assistant","modelID":"mock-model","time":{"created":1,"completed":2},"tokens":{"input":90000,"output":150,"reasoning":50,"cache":{"read":10000,"write":0}}}}}'
	# Not completed yet: nothing; then completed, twice (one message).
	# (Each drive is a new OpenCode: it tells the window again.)
	drive "$params" "$(echo "$msg" | sed 's/,"completed":2//')"
	helper_said "hook opencode LisaUsage" && fail "an incomplete message told"
	drive "$params" "$msg" "$msg"
	until_ms 5000 sh -c "[ \"\$(tmux -L $SOCK display -p -t $p '$PANE_CTX')\" = 76 ]" ||
	    fail "no context 76: '$(T display -p -t "$p" "$PANE_CTX")'; $(L status "$p" --json | grep -A3 context)"
	got=$(L status "$p" --json | jget "'%s/%s %s%% in %s out %s read %s' % (d['context']['used'], d['context']['window'], d['context']['percent'], d['tokens']['input'], d['tokens']['output'], d['tokens']['cache_read'])")
	[ "$got" = "100000/131072 76% in 90000 out 200 read 10000" ] || fail "context: $got"
	L explain "$p" | grep -q "context: 76% (100000 of 131072 tokens)" ||
	    fail "explain: $(L explain "$p" | grep context)"
	# A subagent's message: its own context, not the pane's.
	drive '{"type":"session.created","properties":{"info":{"id":"s2","parentID":"s1"}}}' \
	    "$(echo "$msg" | sed 's/"m1","sessionID":"s1"/"m2","sessionID":"s2"/; s/90000/5/')"
	# A session whose model's window OpenCode did not give: none guessed.
	drive "$(echo "$msg" | sed 's/"m1","sessionID":"s1"/"m3","sessionID":"s3"/; s/90000/20000/')"
	until_ms 5000 sh -c "$LISA -L $SOCK status $p --json | grep -q '\"used\": *30000'" ||
	    fail "no usage of s3: $(L status "$p" --json | grep -A3 context)"
	got=$(L status "$p" --json | jget "'%s/%s %s in %s' % (d['context']['used'], d['context']['window'], d['context']['percent'], d['tokens']['input'])")
	[ "$got" = "30000/None None in 110000" ] || fail "context without a window: $got"
	until_ms 5000 sh -c "[ -z \"\$(tmux -L $SOCK display -p -t $p '$PANE_CTX')\" ]" ||
	    fail "@lisa_context without a window"
	L explain "$p" | grep -q "context: 30000 tokens (its window not known)" ||
	    fail "explain: $(L explain "$p" | grep context)"
}

# Kilo Code's CLI (OpenCode's fork) loads the same plugin from its own
# directory: installed there, named for it, and each plugin file lisa's
# for its own agent only (neither one's uninstall touches the other's).
# Its events reach the Kilo pane, not an OpenCode's.
test_kilo_plugin_install_and_states() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	f="$HOME/.config/kilo/plugins/lisa.js"
	fo="$HOME/.config/opencode/plugins/lisa.js"
	L hooks install kilo | grep -q "wrote $f" || fail "install"
	[ "$(head -n 1 "$f")" = "// lisa-hook: kilo" ] || fail "no mark: $(head -n 1 "$f")"
	grep -q '"notify", "--agent", "kilo"' "$f" || fail "not kilo's: $(grep notify "$f")"
	[ ! -e "$fo" ] || fail "OpenCode's written too"
	L hooks install opencode >/dev/null || fail "install opencode"
	L hooks uninstall kilo | grep -q "removed $f" || fail "uninstall"
	[ -e "$fo" ] || fail "OpenCode's removed with Kilo's"
	# OpenCode's plugin put in Kilo's place is not lisa's for Kilo.
	mkdir -p "${f%/*}"
	cp "$fo" "$f"
	L hooks install kilo 2>"$TESTDIR/err" && fail "wrote over another agent's file"
	grep -q "not lisa's" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	rm "$f"
	L hooks install kilo >/dev/null || fail "install"
	opencode_plugin_pane kilo
	busy='{"type":"session.status","properties":{"sessionID":"s1","status":{"type":"busy"}}}'
	drive "$busy"
	expect "$p" in_progress generating hook_working
	drive "$busy" '{"type":"permission.asked","properties":{"id":"p1","sessionID":"s1","permission":"bash"}}'
	expect "$p" waiting_input permission hook_permission
	helper_said "hook kilo PermissionRequest" || fail "not told as kilo"
	helper_said "hook opencode" && fail "told as opencode"
	return 0
}

# Copilot's hooks file: lisa's own, in the user's hooks directory; each
# event runs `lisa notify --agent copilot EVENT` with Copilot's JSON (as
# the real one sends it) on stdin. Its hooks miss turn ends (a refused
# permission says nothing): a settled screen at the prompt ends them.
test_copilot_hooks_install_and_states() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	f="$HOME/.copilot/hooks/lisa.json"
	L hooks install copilot --dry-run >/dev/null 2>&1
	[ ! -e "$f" ] || fail "--dry-run wrote the file"
	L hooks install copilot | grep -q "wrote $f" || fail "install"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["version"] == 1, d
for ev in ("userPromptSubmitted", "preToolUse", "postToolUse",
           "notification", "agentStop"):
    (h,) = d["hooks"][ev]
    assert h["type"] == "command" and h["bash"].endswith(
        " notify --agent copilot " + ev), h
assert "permissionRequest" not in d["hooks"], d
' "$f" || fail "$(cat "$f")"
	L hooks install copilot | grep -q "nothing to add" || fail "not idempotent"
	L hooks uninstall copilot | grep -q "removed $f" || fail "uninstall"
	[ ! -e "$f" ] || fail "still there"
	echo '{"version": 1, "hooks": {}}' >"$f"
	L hooks install copilot 2>"$TESTDIR/err" && fail "wrote over the user's file"
	L hooks uninstall copilot 2>>"$TESTDIR/err" && fail "removed the user's file"
	grep -q "not lisa's" "$TESTDIR/err" || fail "$(cat "$TESTDIR/err")"
	rm "$f"
	L hooks install copilot >/dev/null || fail "install"

	setup_agents
	mkdir -p "$TESTDIR/bin"
	# An agent named copilot that shows the lines it is given.
	cat >"$TESTDIR/bin/copilot" <<'SH'
#!/bin/sh
stty -echo
while read -r l; do
	[ "$l" = clear ] && { printf '\033[2J\033[H'; continue; }
	printf '%s\n' "$l"
done
SH
	chmod +x "$TESTDIR/bin/copilot"
	T new-window -d -t main:1 "$TESTDIR/bin/copilot"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 10000 sh -c "$LISA -L $SOCK status $p --json | grep -q '\"agent\": *\"copilot\"'" ||
	    fail "not seen as copilot: $(L status "$p")"
	sock=$(T display -p '#{socket_path}')
	hook() {
		ev=$1 json=$2
		cmd=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["hooks"][sys.argv[2]][0]["bash"])' "$f" "$ev")
		printf '%s' "$json" | env TMUX="$sock,1,0" TMUX_PANE="$p" \
		    bash -c "$cmd" || fail "the $ev hook failed"
	}
	show() { T send-keys -t "$p" -l "$1"; T send-keys -t "$p" Enter; }
	cwd="\"sessionId\":\"s1\",\"timestamp\":1,\"cwd\":\"$TESTDIR\""
	show "o Working · esc esc interrupt"
	hook userPromptSubmitted "{$cwd,\"prompt\":\"hi\"}"
	expect "$p" in_progress generating hook_working
	hook preToolUse "{$cwd,\"toolName\":\"bash\",\"toolArgs\":{\"command\":\"touch x\"}}"
	expect "$p" in_progress tool hook_working
	show "Do you want to run this command?"
	hook notification "{$cwd,\"message\":\"Run command: touch x\",\"title\":\"Permission needed\",\"hook_event_name\":\"Notification\",\"notification_type\":\"permission_prompt\"}"
	expect "$p" waiting_input permission hook_permission
	# Refused (Escape): Copilot's hooks say nothing; its screen does.
	show clear
	show "> "
	show "/ commands · ? help"
	expect "$p" waiting_input prompt screen_prompt_after_hook
	show clear
	show "o Working · esc esc interrupt"
	hook userPromptSubmitted "{$cwd,\"prompt\":\"again\"}"
	expect "$p" in_progress generating hook_working
	hook postToolUse "{$cwd,\"toolName\":\"bash\",\"toolResult\":{\"resultType\":\"success\"}}"
	hook agentStop "{$cwd,\"stopReason\":\"end_turn\"}"
	expect "$p" waiting_input prompt hook_stop
	# Events lisa does not take change nothing and say nothing.
	n=$(helper_log | grep -c "hook copilot")
	[ "$n" -ge 6 ] || fail "only $n hooks logged"
	printf '{}' | env TMUX="$sock,1,0" TMUX_PANE="$p" \
	    "$LISA" notify --agent copilot errorOccurred >"$TESTDIR/out" 2>&1 ||
	    fail "notify failed"
	[ ! -s "$TESTDIR/out" ] || fail "notify printed: $(cat "$TESTDIR/out")"
	printf '{}' | env TMUX="$sock,1,0" TMUX_PANE="$p" \
	    "$LISA" notify --agent copilot agentStop || fail "notify failed"
	until_ms 10000 sh -c "[ \$(cat $XDG_RUNTIME_DIR/lisa/*.log | grep -c 'hook copilot') -gt $n ]" ||
	    fail "agentStop not logged"
	[ "$(helper_log | grep -c "hook copilot errorOccurred")" = 0 ] ||
	    fail "errorOccurred was passed on"
}

# Qwen Code took Claude's hooks: the same entries in ~/.qwen/settings.json,
# kept apart from Claude's. Its hooks say nothing of its permission
# dialog or of a refusal, and its idle_prompt came mid-tool: the screen
# tells those.
test_qwen_hooks_install_and_states() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME/.qwen"
	f="$HOME/.qwen/settings.json"
	cat >"$f" <<'JSON'
{"general": {"enableAutoUpdate": false},
 "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "my-stop"}]}]}}
JSON
	cp "$f" "$TESTDIR/orig.json"
	L hooks install qwen | grep -q "added 9 hook(s) to $f" || fail "install: $(cat "$f")"
	[ ! -e "$HOME/.claude/settings.json" ] || fail "Claude's settings written"
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["general"] == {"enableAutoUpdate": False}, d
cmds = [h["command"] for g in d["hooks"]["Stop"] for h in g["hooks"]]
assert "my-stop" in cmds and any(c.endswith(" notify --agent qwen") for c in cmds), cmds
' "$f" || fail "$(cat "$f")"
	L hooks install qwen | grep -q "nothing to add" || fail "not idempotent"
	L hooks uninstall claude | grep -q "nothing to remove" || fail "Claude's uninstall took Qwen's"
	L hooks uninstall qwen >/dev/null || fail "uninstall"
	same_json "$f" "$TESTDIR/orig.json" || fail "not back: $(cat "$f")"
	L hooks install qwen >/dev/null || fail "install"

	setup_agents
	mkdir -p "$TESTDIR/bin"
	# An agent named qwen that shows the lines it is given.
	cat >"$TESTDIR/bin/qwen" <<'SH'
#!/bin/sh
stty -echo
while read -r l; do
	[ "$l" = clear ] && { printf '\033[2J\033[H'; continue; }
	printf '%s\n' "$l"
done
SH
	chmod +x "$TESTDIR/bin/qwen"
	T new-window -d -t main:1 "$TESTDIR/bin/qwen"
	p=$(T display -p -t main:1 '#{pane_id}')
	until_ms 10000 sh -c "$LISA -L $SOCK status $p --json | grep -q '\"agent\": *\"qwen\"'" ||
	    fail "not seen as qwen: $(L status "$p")"
	sock=$(T display -p '#{socket_path}')
	hook() {
		cmd=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["hooks"][sys.argv[2]][-1]["hooks"][-1]["command"])' "$f" "$1")
		printf '{"hook_event_name":"%s","cwd":"%s"%s}' "$1" "$TESTDIR" "${2:-}" |
		    env TMUX="$sock,1,0" TMUX_PANE="$p" sh -c "$cmd" ||
		    fail "the $1 hook failed"
	}
	show() { T send-keys -t "$p" -l "$1"; T send-keys -t "$p" Enter; }
	show "(esc to cancel)"
	hook UserPromptSubmit ',"prompt":"hi"'
	expect "$p" in_progress generating hook_working
	hook PreToolUse ',"tool_name":"run_shell_command"'
	expect "$p" in_progress tool hook_working
	hook Notification ',"notification_type":"idle_prompt","message":"Qwen Code is waiting for your input"'
	# Its dialog, with no hook: the settled screen.
	show "Allow execution of: 'touch'?"
	expect "$p" waiting_input permission screen_dialog_after_hook
	# Refused: the prompt again.
	show clear
	show "Type your message or @path/to/file"
	expect "$p" waiting_input prompt screen_prompt_after_hook
	show clear
	show "(esc to cancel)"
	hook UserPromptSubmit ',"prompt":"again"'
	expect "$p" in_progress generating hook_working
	hook Stop ',"stop_hook_active":false'
	expect "$p" waiting_input prompt hook_stop
	helper_log | grep -q "hook qwen Notification" || fail "the Notification never came"
}

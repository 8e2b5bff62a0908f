# pi (the fake, as 1.6.0 behaves): a title that never changes and no
# dialogs, so its row over the input box, its footer and its session file
# tell. A failed try pi withdraws to retry is never its turn's end.

. "$ROOT/tests/integration/agents.sh"

# A pi window in a directory of its own, its models.json giving its
# model's window; prints the pane.
pi_window() {
	mkdir -p "$TESTDIR/pproj" "$HOME/.pi/agent"
	printf '%s\n' '{"providers":{"fake":{"baseUrl":"http://127.0.0.1:9/v1",' \
	    '"api":"openai-completions","models":[{"id":"fake-model",' \
	    '"contextWindow":250000}]}}}' >"$HOME/.pi/agent/models.json"
	T new-window -d -t main:1 -n pi -c "$TESTDIR/pproj" "$FAKE/pi"
	T display -p -t main:1 '#{pane_id}'
}

# How often PANE went to STATE/DETAIL since epoch second SINCE.
times_to() {
	L events --json --since "$(date -u -d "@$2" +%Y-%m-%dT%H:%M:%S)" |
	    python3 -c '
import json, sys
pane, state, detail = sys.argv[1:4]
n = 0
for line in sys.stdin:
    e = json.loads(line)
    n += (e.get("event") == "transition" and e.get("pane_id") == pane and
          e.get("to") == state and e.get("detail") == detail)
print(n)' "$1" "$3" "$4"
}

test_pi_turns_from_its_session_file() {
	needs_proc_cwd "its sessions' directory is named after its cwd"
	setup_agents
	p=$(pi_window)
	expect "$p" waiting_input prompt
	[ "$(L status "$p" --json | jget "d['agent']")" = pi ] ||
	    fail "not pi: $(L status "$p" --json)"
	T send-keys -t "$p" 'work 2' Enter
	expect "$p" in_progress generating
	expect "$p" waiting_input prompt pi_session_turn_done
	sid=$(L status "$p" --json | jget "d['agent_session']")
	ls "$HOME/.pi/agent/sessions/"*/*"_$sid.jsonl" >/dev/null 2>&1 ||
	    fail "agent_session $sid is not its file's: $(ls -R "$HOME/.pi")"
	T send-keys -t "$p" 'usage 100000' Enter
	until_ms 8000 sh -c "'$LISA' -L '$SOCK' status $p --json | grep -q '\"percent\": *40'" ||
	    fail "context: $(L status "$p" --json)"
	note "pi: $(L status "$p")"
}

# Two failed tries, each withdrawn as pi retries, then an answer: working
# (retrying) all along, never an error; then three withdrawn and a fourth
# that stands: one error. A 429 the same way is one limit.
test_pi_retries_are_not_its_end() {
	needs_proc_cwd "its sessions' directory is named after its cwd"
	setup_agents
	p=$(pi_window)
	expect "$p" waiting_input prompt
	t0=$(date +%s)
	T send-keys -t "$p" 'retry 2' Enter
	expect "$p" in_progress retrying
	expect "$p" waiting_input prompt pi_session_turn_done
	n=$(times_to "$p" "$t0" waiting_input error)
	[ "$n" = 0 ] || fail "a withdrawn try shown as the end $n times"
	T send-keys -t "$p" error Enter
	expect "$p" in_progress retrying
	expect "$p" waiting_input error pi_session_api_error
	n=$(times_to "$p" "$t0" waiting_input error)
	[ "$n" = 1 ] || fail "the error shown $n times: $(L events --json | tail -n 12)"
	t1=$(date +%s)
	T send-keys -t "$p" limit Enter
	expect "$p" in_progress retrying
	expect "$p" waiting_input limit pi_session_limit
	n=$(times_to "$p" "$t1" waiting_input limit)
	[ "$n" = 1 ] || fail "the limit shown $n times"
}

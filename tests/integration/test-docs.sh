# The docs tell the truth: every command and option in `lisa help`,
# lisa(1) and README's table is the binary's, and every field --json
# prints is described in lisa(1), and only those; usage errors are worded
# one way and exit 2.

. "$ROOT/tests/integration/agents.sh"

# Commands and their options, "name opt opt ..." a line, sorted, from the
# binary's help, the man page's COMMANDS and README's command table.
commands_of() {
	python3 - "$1" "$2" <<'EOF'
import re, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path).read()
cmds = {}
def opts(s):
    return sorted(set(re.findall(r'(?<![\w-])(--?[a-z][a-z-]*)', s)))
if kind == 'help':
    for line in text.split('\n'):
        m = re.match(r'^  ([a-z][a-z-]*)(.*)$', line)
        if m:
            # the usage part only: two spaces or more end it
            cmds[m.group(1)] = opts(re.split(r'\s{2,}', m.group(2).strip())[0])
elif kind == 'man':
    sec = text.split('.Sh COMMANDS', 1)[1].split('\n.Sh ', 1)[0]
    lines = sec.split('\n')
    i = 0
    while i < len(lines):
        l = lines[i]
        m = re.match(r'^\.It (Xo )?Ic ([a-z][a-z-]*)(.*)$', l)
        if m:
            syn = m.group(3)
            if m.group(1):
                while not lines[i].startswith('.Xc'):
                    i += 1
                    syn += ' ' + lines[i]
            fl = re.findall(r'Fl (-?[a-z][a-z-]*)', syn)
            cmds[m.group(2)] = sorted(set('-' + f for f in fl if f != '-'))
        i += 1
else:
    for line in text.split('\n'):
        m = re.match(r'^\| `lisa ([a-z][a-z-]*)([^`]*)`', line)
        if m:
            cmds[m.group(1)] = opts(m.group(2))
for c in sorted(cmds):
    print(' '.join([c] + cmds[c]))
EOF
}

test_help_man_readme_agree() {
	"$LISA" help >"$TESTDIR/help.txt" || fail "lisa help failed"
	commands_of help "$TESTDIR/help.txt" >"$TESTDIR/help.cmds"
	commands_of man "$ROOT/docs/lisa.1" >"$TESTDIR/man.cmds"
	commands_of readme "$ROOT/README.md" >"$TESTDIR/readme.cmds"
	[ "$(wc -l <"$TESTDIR/help.cmds")" -ge 25 ] ||
	    fail "help parsed to: $(cat "$TESTDIR/help.cmds")"
	diff -u "$TESTDIR/help.cmds" "$TESTDIR/man.cmds" >"$TESTDIR/d1" ||
	    fail "lisa help (-) and lisa(1) (+) differ:
$(cat "$TESTDIR/d1")"
	diff -u "$TESTDIR/help.cmds" "$TESTDIR/readme.cmds" >"$TESTDIR/d2" ||
	    fail "lisa help (-) and README (+) differ:
$(cat "$TESTDIR/d2")"
	# Every command the help names answers -h with its own usage.
	for c in $(cut -d' ' -f1 "$TESTDIR/help.cmds"); do
		"$LISA" "$c" -h | grep -q "^usage: lisa $c" ||
		    fail "lisa $c -h: $("$LISA" "$c" -h 2>&1)"
	done
}

# The fields lisa(1) describes under JSON: the list before "runs", then
# the list after it.
man_fields() {
	python3 - "$ROOT/docs/lisa.1" "$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
sec = text.split('\n.Sh JSON', 1)[1].split('\n.Sh ', 1)[0]
lists = re.findall(r'\.Bl -tag.*?\n(.*?)\n\.El', sec, re.S)
items = lists[0 if sys.argv[2] == 'pane' else 1]
keys = set()
for l in items.split('\n'):
    if l.startswith('.It Li '):
        keys |= set(k.strip() for k in l[7:].split(','))
print('\n'.join(sorted(keys)))
EOF
}
json_keys() { python3 -c 'import json,sys; d=json.load(sys.stdin); d=d if isinstance(d,list) else [d]; print("\n".join(sorted(set(k for x in d for k in x))))'; }

test_json_fields_documented() {
	setup_agents
	a=$(agent_window 1 claude)
	c=$(crash_window 2 claude)
	expect "$a" waiting_input
	expect "$c" waiting_input
	T send-keys -t "$c" 'exit 3' Enter
	expect "$c" crashed
	out=$(L run --name r -- sh -c 'exit 3') || fail "lisa run: $out"
	r=$(echo "$out" | cut -d' ' -f3)
	until_ms 10000 sh -c "$LISA -L $SOCK runs --json | grep -q '\"lifecycle\":\"finished\"'" ||
	    fail "the run never finished: $(L runs --json)"
	# A pane's fields: an agent's, a crashed one's (termination) and a
	# run's (run), all in one set; list's are status's but state_age_ms.
	for p in $a $c $r; do
		L status "$p" --json | json_keys
	done | sort -u >"$TESTDIR/printed"
	man_fields pane >"$TESTDIR/described"
	# (below 3.3 the crash is under a shell, crash_window's: no pane
	# death, so no termination record, as docs/lifecycle.md says)
	if ! tmux_at_least 3 3; then
		grep -vx termination "$TESTDIR/described" >"$TESTDIR/d"
		mv "$TESTDIR/d" "$TESTDIR/described"
	fi
	diff -u "$TESTDIR/described" "$TESTDIR/printed" >"$TESTDIR/d" ||
	    fail "lisa(1)'s pane fields (-) and status --json's (+) differ:
$(cat "$TESTDIR/d")"
	L list --json | json_keys >"$TESTDIR/list"
	grep -vx state_age_ms "$TESTDIR/described" | grep -vx run |
	    grep -vx termination >"$TESTDIR/described_list"
	[ -z "$(comm -23 "$TESTDIR/list" "$TESTDIR/described")" ] ||
	    fail "list --json prints what lisa(1) does not describe: $(comm -23 "$TESTDIR/list" "$TESTDIR/described")"
	L runs --json | json_keys >"$TESTDIR/runs"
	man_fields runs >"$TESTDIR/described_runs"
	diff -u "$TESTDIR/described_runs" "$TESTDIR/runs" >"$TESTDIR/d" ||
	    fail "lisa(1)'s run fields (-) and runs --json's (+) differ:
$(cat "$TESTDIR/d")"
}

# Every usage error: "lisa: [COMMAND: ]what", the usage line, exit 2,
# before anything is asked of tmux (no server here).
test_usage_errors_one_wording_exit_2() {
	n=0
	while IFS='|' read -r args want; do
		# shellcheck disable=SC2086
		"$LISA" -L nosuch $args >"$TESTDIR/out" 2>"$TESTDIR/err"
		rc=$?
		[ "$rc" = 2 ] || fail "lisa $args: exit $rc: $(cat "$TESTDIR/err")"
		first=$(head -n 1 "$TESTDIR/err")
		[ "$first" = "$want" ] || fail "lisa $args said '$first', not '$want'"
		sed -n 2p "$TESTDIR/err" | grep -q '^usage: lisa' ||
		    fail "lisa $args: no usage line: $(cat "$TESTDIR/err")"
		n=$((n + 1))
	done <<'EOF'
frob|lisa: unknown command: frob
--frob|lisa: unknown option: --frob
list --force|lisa: list: unknown option: --force
list --frob|lisa: list: unknown option: --frob
status a b|lisa: status: too many arguments
kill|lisa: kill: missing argument
events --since yesterday|lisa: events: --since: not a time: yesterday (RFC 3339, or 30s, 10m, 2h ago)
events --since|lisa: --since needs a value
wait --timeout soon|lisa: wait: --timeout: not seconds: soon
wait --until bogus|lisa: wait: unknown state: bogus (use just_started in_progress waiting_input completed crashed stuck degraded not_found, or starting working waiting done gone)
tap %1 --bytes many|lisa: tap: --bytes: not a count: many
run --frob -- x|lisa: run: unknown option: --frob
run --retries x -- y|lisa: run: --retries: not a count: x
run --name|lisa: run: --name needs a value
shell-init tcsh|lisa: shell-init: unknown shell: tcsh (bash, zsh or fish)
hooks frob|lisa: hooks: unknown action: frob (install or uninstall)
hooks install frob|lisa: hooks: unknown agent: frob (claude, codex, opencode, copilot, qwen, kilo)
help frob|lisa: unknown command: frob
EOF
	note "$n usage errors: one wording, exit 2"
}

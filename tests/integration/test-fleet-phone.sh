# Answering a remote agent from the phone (issue 47): a host's ask is
# pushed by the local helper with its buttons, bound to that host; a tap
# goes back through the bridge as lisa answer with the host's own token,
# which the host checks as it checks a local answer. Over the real
# loopback sshd (fleet.sh) and the stand-in ntfy (phone.sh).

. "$ROOT/tests/integration/fleet.sh"
. "$ROOT/tests/integration/phone.sh"

# Pushes to the stand-in; a fake Claude on the host ($p) asked KIND
# (permission, question) there; its push with buttons came.
host_asks() {
	setup_fleet
	start_ntfy 45 fleet_cleanup
	T set -g @lisa-notify-asks on
	T set -g @lisa-notify-cooldown 0
	T set -g @lisa-notify-url "$TOPIC"
	L reload >/dev/null || fail "lisa reload"
	R1 new-window -d -t work:1 -n claude "$FAKE/claude"
	p=$(R1 display -p -t work:1 '#{pane_id}')
	expect_remote "$p" "$H1" waiting_input
	R1 send-keys -t "$p" "$1" Enter
	until_ms 20000 pushed_with_buttons 0 ||
	    fail "no push with buttons: $(cat "$TESTDIR/ntfy.log" 2>/dev/null)"
}

test_fleet_phone_allow_on_a_host() {
	host_asks permission
	msg=$(ntfy_q "[p for p in pubs if p.get('actions')][0]['message']")
	case "$msg" in
	*"claude on $H1 in work:1 asks to run: touch x"*) ;;
	*) fail "the push: $msg" ;;
	esac
	url=$(button 0 Allow url)
	allow=$(button 0 Allow body)
	until_ms 5000 reading 1 || fail "the reply topic not read"
	tap "$url" "$allow"
	until_ms 15000 grep -q "answer yes '1'" "$FAKE_AGENT_LOG" ||
	    fail "no yes there: $(cat "$FAKE_AGENT_LOG" 2>/dev/null | tail -n 3)"
	until_ms 15000 told "allowed" || fail "not told: $(ntfy_q "[p['message'] for p in pubs]")"
	until_ms 5000 reading 0 || fail "still reading"
	# Asked again there; the first tap replayed: refused, nothing there.
	expect_remote "$p" "$H1" waiting_input 15000
	until_ms 15000 sh -c "$LISA -L $SOCK status '$p@$H1' --json | grep -q '\"detail\":\"prompt\"'" ||
	    fail "no prompt there: $(L status "$p@$H1")"
	R1 send-keys -t "$p" permission Enter
	until_ms 20000 pushed_with_buttons 1 || fail "no second push"
	until_ms 5000 reading 1 || fail "not reading again"
	tap "$url" "$allow"
	until_ms 10000 told "not answered" || fail "the replay not refused"
	[ "$(grep -c " answer " "$FAKE_AGENT_LOG")" = 1 ] ||
	    fail "a second key there: $(grep answer "$FAKE_AGENT_LOG")"
	R1 capture-pane -p -t "$p" | grep -q "Do you want to proceed?" ||
	    fail "the second dialog is gone"
	# Its own Deny: through the host, the host's key for no.
	tap "$url" "$(button 1 Deny body)"
	until_ms 15000 grep -q "answer no '3'" "$FAKE_AGENT_LOG" || fail "no deny there"
	until_ms 10000 told "denied" || fail "the deny not told"
}

# A host's question with options (Claude's AskUserQuestion there): its
# options, as the host read them, are the buttons; a tap picks that one
# there, by number, with the host's token. A label holding what would
# break ntfy's header (a ';' or a ',') or a format's '#(' is shown, never
# run, never split into a second button.
test_fleet_phone_question_options_on_a_host() {
	host_asks question
	labels=$(ntfy_q "[a['label'] for a in [p for p in pubs if p.get('actions')][0]['actions']]")
	[ "$labels" = "['Option A', 'Option B']" ] || fail "buttons: $labels"
	until_ms 5000 reading 1 || fail "the reply topic not read"
	tap "$(button 0 'Option B' url)" "$(button 0 'Option B' body)"
	until_ms 15000 grep -q "answer yes '2'" "$FAKE_AGENT_LOG" ||
	    fail "not option 2 there: $(grep answer "$FAKE_AGENT_LOG" 2>/dev/null)"
	until_ms 15000 told "answered" || fail "not told: $(ntfy_q "[p['message'] for p in pubs]")"
	[ "$(grep -c " answer " "$FAKE_AGENT_LOG")" = 1 ] || fail "keys: $(grep answer "$FAKE_AGENT_LOG")"
	# A hostile repository's options, there: shown, never run, no third
	# button made of a ';' or a ','.
	R1 new-window -d -t work:2 -n claude \
	    "env FAKE_QUESTION_OPTIONS='A;B,C #(touch $TESTDIR/p)|B \"q\" \\x' $FAKE/claude"
	q=$(R1 display -p -t work:2 '#{pane_id}')
	expect_remote "$q" "$H1" waiting_input
	R1 send-keys -t "$q" question Enter
	until_ms 20000 pushed_with_buttons 1 || fail "no second push"
	labels="[a['label'] for a in [p for p in pubs if p.get('actions')][1]['actions']]"
	[ "$(ntfy_q "len($labels)")" = 2 ] || fail "buttons: $(ntfy_q "$labels")"
	[ "$(ntfy_q "$labels[0].startswith('A B C #(touch ') and $labels[1] == 'B  q   x'")" = True ] ||
	    fail "labels: $(ntfy_q "$labels")"
	first=$(ntfy_q "$labels[0]")
	until_ms 5000 reading 1 || fail "not reading for the second"
	tap "$(button 1 "$first" url)" "$(button 1 "$first" body)"
	until_ms 15000 sh -c "[ \$(grep -c \"answer yes '1'\" '$FAKE_AGENT_LOG') = 1 ]" ||
	    fail "not option 1 of the second: $(grep answer "$FAKE_AGENT_LOG")"
	[ -e "$TESTDIR/p" ] && fail "a label ran a command"
	return 0
}

# Answering from the phone (issue 47, docs/phone.md), against a stand-in
# ntfy server of the tests' own (tests/fake/ntfy) on 127.0.0.1: an ask's
# push carries Allow and Deny buttons; a tap, sent as the phone sends it
# (ntfy's http action: a POST of the button's body to its URL), reaches
# lisa through the reply topic it reads only while an ask is open, and
# answers the very dialog that was pushed, once. A tap replayed, forged,
# expired or for a dialog that changed is refused, nothing is typed, and
# the phone is told. At lisa's defaults (buttons on, 15 minutes).

. "$ROOT/tests/integration/agents.sh"
. "$ROOT/tests/integration/phone.sh"

# A server whose pushes go to the stand-in ($TOPIC).
start_phone() {
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	start_ntfy "${1:-45}"
	start_server main
	T set -g @lisa-notify-asks on
	T set -g @lisa-notify-cooldown 0
	T set -g @lisa-notify-url "$TOPIC"
}

still_asks() {
	state_is "$1" waiting_input permission "" ||
	    fail "$2: the dialog is not there any more: $(L status "$1")"
	[ "$(grep -c ' answer ' "$FAKE_AGENT_LOG" 2>/dev/null || true)" = "$3" ] ||
	    fail "$2: a key reached the agent: $(grep answer "$FAKE_AGENT_LOG")"
}

# The push of an ask carries Allow and Deny (no Always: off by default),
# each an http action POSTing a token to the reply topic; the tap on
# Allow answers that dialog (the agent's own key for yes), the phone is
# told, and the reply topic is read only while the ask is open.
test_phone_allow_answers_the_dialog() {
	start_phone
	start_helper
	c=$(agent_ready 1 claude)
	# At rest: nothing read, no curl.
	[ "$(ntfy_q subs)" = 0 ] || fail "a subscription at rest"
	[ "$(curl_children)" = 0 ] || fail "a curl at rest"
	[ "$(info | jget "d['phone']['reading']")" = false ] || fail "info: reading at rest"
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 ||
	    fail "no push with buttons: $(cat "$TESTDIR/ntfy.log")"
	labels=$(ntfy_q "[a['label'] for a in [p for p in pubs if p.get('actions')][0]['actions']]")
	[ "$labels" = "['Allow', 'Deny']" ] || fail "buttons: $labels"
	msg=$(ntfy_q "[p for p in pubs if p.get('actions')][0]['message']")
	case "$msg" in
	*"claude in main:1 asks to run: touch x"*) ;;
	*) fail "the push: $msg" ;;
	esac
	url=$(button 0 Allow url)
	[ "$url" = "$TOPIC-reply" ] || fail "the reply URL: $url"
	[ "$(button 0 Allow method)" = POST ] || fail "not a POST"
	[ "$(button 0 Allow clear)" = true ] || fail "not cleared on tap"
	until_ms 5000 reading 1 || fail "the reply topic is not read: $(ntfy_q subs)"
	[ "$(info | jget "[d['phone']['reading'], d['phone']['asks_open']]")" = "[true, 1]" ] ||
	    fail "info: $(info | jget "d['phone']")"
	tap "$url" "$(button 0 Allow body)"
	until_ms 15000 sh -c "grep -q \"answer yes '1'\" '$FAKE_AGENT_LOG'" ||
	    fail "the agent got no yes: $(cat "$FAKE_AGENT_LOG" 2>/dev/null | tail -n 3)"
	until_ms 15000 told "allowed" || fail "the phone not told: $(ntfy_q "[p['message'] for p in pubs]")"
	ntfy_q "[p['message'] for p in pubs if 'allowed' in p['message']][0]" | grep -q "touch x" ||
	    fail "told without what: $(ntfy_q "[p['message'] for p in pubs]")"
	L events "$c" | grep -E "answer +by phone" ||
	    L events --json | grep -q '"by":"phone"' ||
	    fail "no event by the phone: $(L events --json | grep answer)"
	# Nothing open: the reply topic let go, no curl left.
	until_ms 5000 reading 0 || fail "still reading the reply topic"
	until_ms 5000 sh -c "[ \$(pgrep -P $HELPER_PID curl | wc -l) = 0 ]" ||
	    fail "a curl left: $(pgrep -a -P "$HELPER_PID")"
	L doctor 2>&1 | grep -q "Allow and Deny on ntfy; 0 open, 1 tap taken, 0 refused" ||
	    fail "doctor: $(L doctor 2>&1 | grep -i button)"
	# The key: made once, the user's alone.
	key="${XDG_STATE_HOME:-$HOME/.local/state}/lisa/phone/key"
	[ "$(stat -c %a "$key")" = 600 ] || fail "the key's mode: $(stat -c %a "$key")"
	[ "$(stat -c %a "${key%/key}")" = 700 ] || fail "its directory's mode"
	[ "$(wc -c <"$key")" = 65 ] || fail "not 32 bytes in hex: $(wc -c <"$key")"
}

# The attacker's taps, one after the other on one open dialog: the last
# dialog's button replayed, a deny's token made an allow, a token of
# lisa's form never made, a button for another dialog of the same text.
# Each is refused, said back, and nothing reaches the agent; the real
# button still works after them.
test_phone_replayed_forged_and_stale_taps_refused() {
	start_phone
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 || fail "no first push"
	url=$(button 0 Allow url)
	old=$(button 0 Allow body)
	until_ms 5000 reading 1 || fail "not reading"
	tap "$url" "$old"
	until_ms 15000 told "allowed" || fail "the first tap not taken"
	n=$(grep -c ' answer ' "$FAKE_AGENT_LOG")
	until_ms 15000 state_is "$c" waiting_input prompt "" || fail "no prompt after"
	# The same dialog again, the same text: another dialog.
	ask "$c"
	until_ms 15000 pushed_with_buttons 1 || fail "no second push"
	until_ms 5000 reading 1 || fail "not reading again"
	tap "$url" "$old"
	until_ms 10000 told "not answered" 1 || fail "the replay not refused: $(ntfy_q "[p['message'] for p in pubs]")"
	still_asks "$c" "a replayed tap" "$n"
	deny=$(button 1 Deny body)
	forged=$(echo "$deny" | sed 's/^\(t1\.[^.]*\.[0-9]*\)\.d\./\1.a./')
	[ "$forged" != "$deny" ] || fail "no forgery made of $deny"
	tap "$url" "$forged"
	until_ms 10000 told "not answered" 2 || fail "the forgery not refused"
	still_asks "$c" "a deny made an allow" "$n"
	hid=$(echo "$deny" | cut -d. -f2)
	tap "$url" "t1.$hid.999.a.99999999999.AAAAAAAAAAAAAAAAAAAAAA"
	until_ms 10000 told "not answered" 3 || fail "a made-up token not refused"
	still_asks "$c" "a made-up token" "$n"
	# Another helper's (another tmux server reading the same topic): left
	# alone, said to nobody; the junk after it is refused, in order.
	other=$(echo "$deny" | sed "s/^t1\.$hid\./t1.zzzzzz./")
	[ "$other" != "$deny" ] || fail "no other helper's token made"
	tap "$url" "$other"
	tap "$url" "touch /tmp/not-a-token; rm -rf ~"
	until_ms 10000 told "not answered" 4 || fail "junk not refused"
	sleep 1
	told "not answered" 5 && fail "another helper's tap was answered"
	still_asks "$c" "junk" "$n"
	ntfy_q "[p['message'] for p in pubs if 'not answered' in p['message']]" |
	    grep -q "for this dialog" || fail "the forgery's reason: $(ntfy_q "[p['message'] for p in pubs]")"
	# The real one, still good.
	tap "$url" "$(button 1 Deny body)"
	until_ms 15000 sh -c "grep -q \"answer no '3'\" '$FAKE_AGENT_LOG'" ||
	    fail "the real deny not taken: $(tail -n 3 "$FAKE_AGENT_LOG")"
	until_ms 10000 told "denied" || fail "the deny not told"
}

# A button that expired (@lisa-notify-button-expiry 3), and a tap after
# the dialog was answered here and another drawn: refused, nothing typed.
test_phone_expired_and_changed_dialog_refused() {
	start_phone
	T set -g @lisa-notify-button-expiry 3
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 || fail "no push"
	url=$(button 0 Allow url)
	# (just after it expired: told so while lisa still reads, 3 s more)
	exp=$(button 0 Allow body | cut -d. -f5)
	until_ms 10000 sh -c "[ \$(date +%s) -ge $exp ]" || fail "the clock"
	tap "$url" "$(button 0 Allow body)"
	until_ms 10000 told "not answered: the button has expired" ||
	    fail "the expired tap not refused: $(ntfy_q "[p['message'] for p in pubs]")"
	still_asks "$c" "an expired button" 0
	# (expired, the ask is over: nothing left to read)
	until_ms 5000 reading 0 || fail "still reading after the expiry"
	T set -g @lisa-notify-button-expiry 900
	L reload >/dev/null
	# Answered here; the same question again: the first push's button
	# names a dialog that is over.
	T send-keys -t "$c" n
	until_ms 15000 state_is "$c" waiting_input prompt "" || fail "not denied here"
	ask "$c"
	until_ms 15000 pushed_with_buttons 1 || fail "no second push"
	until_ms 5000 reading 1 || fail "not reading"
	tap "$url" "$(button 0 Allow body)"
	until_ms 10000 told "not answered" 2 || fail "the old dialog's tap not refused"
	still_asks "$c" "a tap for a dialog that is over" 1
}

# Buttons off (@lisa-notify-buttons off): pushes as before, no buttons,
# nothing read, ever; so with a reply topic that is the push topic.
test_phone_buttons_off() {
	start_phone
	T set -g @lisa-notify-buttons off
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 sh -c "grep -q 'asks to run' '$TESTDIR/ntfy.log'" || fail "no push"
	[ "$(ntfy_q "len([p for p in pubs if p.get('actions')])")" = 0 ] ||
	    fail "buttons while off"
	[ "$(ntfy_q "len([p for p in pubs if 'Actions' in p['headers']])")" = 0 ] ||
	    fail "an Actions header while off"
	sleep 1
	[ "$(ntfy_q subs)" = 0 ] || fail "read the reply topic while off"
	[ "$(curl_children)" = 0 ] || fail "a curl while off"
	# On, but the reply topic the push topic itself: lisa would read its
	# own pushes as taps; no buttons then either.
	T set -g @lisa-notify-buttons on
	T set -g @lisa-notify-reply-url "$TOPIC"
	L reload >/dev/null
	T send-keys -t "$c" n
	until_ms 15000 state_is "$c" waiting_input prompt "" || fail "not denied here"
	ask "$c"
	until_ms 15000 sh -c "[ \$(grep -c 'asks to run' '$TESTDIR/ntfy.log') -ge 2 ]" ||
	    fail "no second push"
	[ "$(ntfy_q "len([p for p in pubs if p.get('actions')])")" = 0 ] ||
	    fail "buttons that post to the push topic"
	[ "$(ntfy_q subs)" = 0 ] || fail "read the push topic"
}

# Always only when turned on (@lisa-notify-always): a third button, whose
# tap is the agent's own "don't ask again" key.
test_phone_always_when_turned_on() {
	start_phone
	T set -g @lisa-notify-always on
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 || fail "no push"
	labels=$(ntfy_q "[a['label'] for a in [p for p in pubs if p.get('actions')][0]['actions']]")
	[ "$labels" = "['Allow', 'Deny', 'Always']" ] || fail "buttons: $labels"
	until_ms 5000 reading 1 || fail "not reading"
	tap "$(button 0 Always url)" "$(button 0 Always body)"
	until_ms 15000 sh -c "grep -q \"answer always '2'\" '$FAKE_AGENT_LOG'" ||
	    fail "not always: $(grep answer "$FAKE_AGENT_LOG" 2>/dev/null)"
	until_ms 10000 told "always allowed" || fail "not told"
}

# A question with options (Claude's AskUserQuestion): its options are the
# buttons, each the option's number; a tap picks that one.
test_phone_question_options_are_the_buttons() {
	start_phone
	start_helper
	c=$(agent_ready 1 claude)
	T send-keys -t "$c" question Enter
	until_ms 15000 pushed_with_buttons 0 || fail "no push: $(cat "$TESTDIR/ntfy.log" 2>/dev/null)"
	labels=$(ntfy_q "[a['label'] for a in [p for p in pubs if p.get('actions')][0]['actions']]")
	[ "$labels" = "['Option A', 'Option B']" ] || fail "buttons: $labels"
	until_ms 5000 reading 1 || fail "not reading"
	tap "$(button 0 'Option B' url)" "$(button 0 'Option B' body)"
	until_ms 15000 sh -c "grep -q \"answer yes '2'\" '$FAKE_AGENT_LOG'" ||
	    fail "not option 2: $(grep answer "$FAKE_AGENT_LOG" 2>/dev/null)"
	until_ms 10000 told "answered" || fail "not told: $(ntfy_q "[p['message'] for p in pubs]")"
}

subscribed() { [ "$(grep -c '"kind": "subscribe"' "$TESTDIR/ntfy.log")" -ge "$1" ]; }

# The ntfy server gone while an ask is open (a restart, a network that
# went away): lisa connects again, after 1, 2, 4 ... s, and the tap made
# once it is back is taken.
test_phone_reply_topic_read_again_after_the_server_went() {
	start_phone
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 || fail "no push"
	until_ms 5000 reading 1 || fail "not reading"
	url=$(button 0 Allow url)
	body=$(button 0 Allow body)
	port=$(cat "$TESTDIR/ntfy.log.port")
	n=$(grep -c '"kind": "subscribe"' "$TESTDIR/ntfy.log")
	kill "$NTFY"
	wait "$NTFY" 2>/dev/null
	until_ms 5000 sh -c "! curl -s -o /dev/null http://127.0.0.1:$port/x/json" ||
	    fail "the stand-in did not go"
	sleep 2
	python3 "$FAKE/ntfy" "$TESTDIR/ntfy.log" 45 "$port" &
	NTFY=$!
	until_ms 30000 subscribed "$((n + 1))" || fail "not read again: $(tail -n 3 "$TESTDIR/ntfy.log")"
	tap "$url" "$body"
	until_ms 15000 sh -c "grep -q \"answer yes '1'\" '$FAKE_AGENT_LOG'" ||
	    fail "the tap after the server came back not taken"
}

# Whoever can post to the reply topic cannot make each post a push to the
# phone: twelve junk taps, all refused and counted, five told.
test_phone_junk_flood_told_five_times() {
	start_phone
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 || fail "no push"
	until_ms 5000 reading 1 || fail "not reading"
	url=$(button 0 Allow url)
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do tap "$url" "junk $i"; done
	until_ms 15000 sh -c "[ \$($LISA -L $SOCK info --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[\"phone\"][\"taps_refused\"])') = 12 ]" ||
	    fail "not all refused: $(info | jget "d['phone']")"
	until_ms 10000 told "not answered" 5 || fail "not told five times"
	sleep 1
	told "not answered" 6 && fail "told more than five: $(ntfy_q "[p['message'] for p in pubs]")"
	still_asks "$c" "a flood of junk" 0
	# The real button still works.
	tap "$url" "$(button 0 Allow body)"
	until_ms 15000 sh -c "grep -q \"answer yes '1'\" '$FAKE_AGENT_LOG'" || fail "the tap after the flood"
}

# A key lisa would follow a planted link to is a key the attacker knows:
# the link is replaced, the file it named is left as it was, and a token
# the attacker makes with that key is refused. (The same making, with
# lisa's key, gives the very token of the push: the forger's arithmetic
# is right, only the key is wrong.)
test_phone_planted_key_link_not_followed() {
	state="$TESTDIR/state"
	export XDG_STATE_HOME="$state"
	mkdir -p "$state/lisa/phone"
	chmod 700 "$state" "$state/lisa" "$state/lisa/phone"
	printf '%064d\n' 7 >"$TESTDIR/attacker.key"
	ln -s "$TESTDIR/attacker.key" "$state/lisa/phone/key"
	start_phone
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 || fail "no push"
	until_ms 5000 reading 1 || fail "not reading"
	[ -L "$state/lisa/phone/key" ] && fail "the link is still there"
	[ "$(cat "$TESTDIR/attacker.key")" = "$(printf '%064d' 7)" ] || fail "the linked file was written"
	answer=$(L status "$c" --json | jget "d['question']['token']")
	allow=$(button 0 Allow body)
	forge() {
		python3 - "$1" "$allow" "$answer" <<'PY'
import base64, hashlib, hmac, sys
key = bytes.fromhex(open(sys.argv[1]).read().strip())
_, helper, ask, choice, expires, _ = sys.argv[2].split(".")
msg = b"\0".join(x.encode() for x in ("lisa-tap-1", helper, ask, "a", expires, "", sys.argv[3]))
mac = base64.urlsafe_b64encode(hmac.new(key, msg, hashlib.sha256).digest()[:16]).rstrip(b"=")
print("t1.%s.%s.a.%s.%s" % (helper, ask, expires, mac.decode()))
PY
	}
	[ "$(forge "$state/lisa/phone/key")" = "$allow" ] ||
	    fail "the forger's arithmetic is not lisa's: $(forge "$state/lisa/phone/key") vs $allow"
	tap "$(button 0 Allow url)" "$(forge "$TESTDIR/attacker.key")"
	until_ms 10000 told "not a button lisa made for this dialog" || fail "the forgery not refused"
	still_asks "$c" "a token under a planted key" 0
}

# The stand-in with fault $1 (stall, deny: tests/fake/ntfy) for the
# subscriptions to come; the helper; an agent ($c) asked, its push came.
fault_asks() {
	start_phone
	: >"$TESTDIR/ntfy.log.$1"
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 pushed_with_buttons 0 || fail "no push"
}

# The reply topic's link gone dead (no event, no keepalive, the socket
# open): nothing blocks, the push still goes, and at lisa's default of
# 150 s without a byte the stream is made again; the tap made meanwhile
# is then taken (none lost), and the stall is in the helper's log.
# long: lisa's 150 s stall clock (idle meanwhile)
test_phone_stalled_reply_stream_made_again() {
	fault_asks stall
	until_ms 10000 sh -c "grep -q '\"kind\": \"stalled\"' '$TESTDIR/ntfy.log'" ||
	    fail "not subscribed: $(tail -n 3 "$TESTDIR/ntfy.log")"
	t0=$(now_ms)
	rm "$TESTDIR/ntfy.log.stall"
	tap "$(button 0 Allow url)" "$(button 0 Allow body)"
	# (the helper goes on meanwhile: a second ask is read and pushed)
	c2=$(agent_ready 2 claude)
	ask "$c2"
	until_ms 15000 pushed_with_buttons 1 || fail "no push while the stream stalls"
	grep -q " answer " "$FAKE_AGENT_LOG" 2>/dev/null && fail "answered through a dead stream?"
	until_ms $((200000 * SLOW)) sh -c "grep -q \"answer yes '1'\" '$FAKE_AGENT_LOG'" ||
	    fail "the tap not taken after the stall: $(tail -n 4 "$TESTDIR/ntfy.log")"
	note "the tap taken $(($(now_ms) - t0)) ms after it was made"
	# (by the stream made again: not before the stalled one's 150 s)
	stalled=$(ntfy_q "int([e['at'] for e in log if e['kind'] == 'stalled'][0] * 1000)")
	answered=$(grep " answer yes '1'" "$FAKE_AGENT_LOG" | head -n 1 | cut -d' ' -f1)
	[ $((answered - stalled)) -ge 145000 ] ||
	    fail "taken $((answered - stalled)) ms after the stalled stream began: through it?"
	[ "$(grep -c '"kind": "subscribe"' "$TESTDIR/ntfy.log")" -ge 2 ] ||
	    fail "taken with no second subscription"
	helper_said "taps not read: the reply topic's stream stalled (nothing for 150 s)" ||
	    fail "the stall not said: $(helper_log | grep phone | tail -n 3)"
	state_is "$c2" waiting_input permission "" || fail "the other dialog answered"
}

# A reply topic the server will not let lisa read (a token it lacks):
# refused at once each time; lisa waits 1, 2, 4 ... s between tries and
# doctor says so, never the URL.
test_phone_refused_reply_topic_told_by_doctor() {
	fault_asks deny
	until_ms 15000 sh -c "$LISA -L $SOCK doctor 2>&1 | grep -q '^warn  buttons .*taps not read: the server refused the reply topic'" ||
	    fail "doctor: $(L doctor 2>&1 | grep -E 'buttons|phone')"
	n0=$(grep -c '"kind": "denied"' "$TESTDIR/ntfy.log")
	sleep 8
	n1=$(grep -c '"kind": "denied"' "$TESTDIR/ntfy.log")
	note "$((n1 - n0)) refused subscriptions in 8 s"
	[ $((n1 - n0)) -le 6 ] || fail "$((n1 - n0)) refusals in 8 s: no pause between"
	L doctor 2>&1 | grep -q "lisa-k3y" && fail "the topic in doctor"
	rm "$TESTDIR/ntfy.log.deny"
	until_ms 90000 sh -c "$LISA -L $SOCK doctor 2>&1 | grep -q '^ok    buttons '" ||
	    fail "still: $(L doctor 2>&1 | grep buttons)"
	tap "$(button 0 Allow url)" "$(button 0 Allow body)"
	until_ms 15000 sh -c "grep -q \"answer yes '1'\" '$FAKE_AGENT_LOG'" ||
	    fail "the tap not taken once the topic could be read"
}

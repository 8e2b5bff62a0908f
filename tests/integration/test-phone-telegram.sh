# Answering from the phone through a Telegram bot (issue 47,
# docs/phone.md), against a stand-in Bot API of the tests' own
# (tests/fake/telegram) on 127.0.0.1: an ask goes to the chat with an
# inline keyboard, a tap (a callback query, from the stand-in's door for
# the user's tap) is fetched by a long poll that runs only while the ask
# is open, and answers that dialog once; a tap from another chat is
# refused. The bot's token is on no command line. At lisa's defaults.

. "$ROOT/tests/integration/agents.sh"
. "$ROOT/tests/integration/phone.sh"

BOT=123456:AAH-sekr3t_bot

start_bot() {
	command -v curl >/dev/null || skip "no curl"
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	python3 "$FAKE/telegram" "$TESTDIR/tg.log" "$BOT" &
	TG=$!
	trap 'kill $TG 2>/dev/null; cleanup' EXIT
	until_ms 10000 test -f "$TESTDIR/tg.log.port" || fail "no Bot API stand-in"
	API="http://127.0.0.1:$(cat "$TESTDIR/tg.log.port")"
	start_server main
	T set -g @lisa-notify-asks on
	T set -g @lisa-notify-cooldown 0
	T set -g @lisa-telegram-token "$BOT"
	T set -g @lisa-telegram-chat 4242
	T set -g @lisa-telegram-api "$API"
}

tg_q() {
	python3 - "$TESTDIR/tg.log" "$1" <<'PY'
import json, os, sys
log = [json.loads(l) for l in open(sys.argv[1])] if os.path.exists(sys.argv[1]) else []
sends = [e for e in log if e["kind"] == "send"]
asks = [e for e in sends if e.get("reply_markup")]
answers = [e for e in log if e["kind"] == "answer"]
polls = len([e for e in log if e["kind"] == "poll"]) - \
    len([e for e in log if e["kind"] == "poll_end"])
print(eval(sys.argv[2]))
PY
}

asked_in_chat() { [ "$(tg_q "len(asks)")" -gt "$1" ]; }
# Ask N's button LABEL's callback data.
tg_button() {
	tg_q "[b for b in asks[$1]['reply_markup']['inline_keyboard'][0] if b['text'] == '$2'][0]['callback_data']"
}
# The user taps it (in chat $3, if not the ask's own).
tg_tap() {
	curl -s -o /dev/null -H 'Content-Type: application/json' \
	    --data-binary "{\"message_id\": $(tg_q "asks[$1]['message_id']"), \"data\": \"$2\"${3:+, \"chat_id\": $3}}" \
	    "$API/_tap" || fail "the tap"
}
tg_answered() { [ "$(tg_q "len([a for a in answers if '''$1''' in a['text']])")" -ge "${2:-1}" ]; }
polling() { [ "$(tg_q polls)" = "$1" ]; }
chat_told() { [ "$(tg_q "len([s for s in sends if not s.get('reply_markup') and '''$1''' in (s['text'] or '')])")" -ge 1 ]; }

# The ask in the chat, Allow and Deny; a tap from another chat refused
# (nothing typed); the tap in the chat answers with the agent's yes, the
# tapper and the chat are told; the poll runs only while the ask is open.
test_telegram_allow_and_another_chat() {
	start_bot
	start_helper
	c=$(agent_ready 1 claude)
	[ "$(tg_q polls)" = 0 ] || fail "a poll at rest"
	ask "$c"
	until_ms 15000 asked_in_chat 0 || fail "nothing sent: $(cat "$TESTDIR/tg.log" 2>/dev/null)"
	[ "$(tg_q "asks[0]['chat_id']")" = 4242 ] || fail "another chat: $(tg_q "asks[0]")"
	[ "$(tg_q "[b['text'] for b in asks[0]['reply_markup']['inline_keyboard'][0]]")" = "['Allow', 'Deny']" ] ||
	    fail "buttons: $(tg_q "asks[0]['reply_markup']")"
	tg_q "asks[0]['text']" | grep -q "asks to run: touch x" || fail "the text: $(tg_q "asks[0]['text']")"
	until_ms 5000 polling 1 || fail "no long poll while the ask is open"
	pgrep -a -P "$HELPER_PID" curl | grep -q "sekr3t" && fail "the bot's token on a command line"
	allow=$(tg_button 0 Allow)
	tg_tap 0 "$allow" 999
	until_ms 10000 tg_answered "another chat" || fail "the other chat's tap not refused: $(tg_q answers)"
	state_is "$c" waiting_input permission "" || fail "answered from another chat"
	grep -q " answer " "$FAKE_AGENT_LOG" 2>/dev/null && fail "a key reached the agent"
	tg_tap 0 "$allow"
	until_ms 15000 sh -c "grep -q \"answer yes '1'\" '$FAKE_AGENT_LOG'" ||
	    fail "the agent got no yes: $(tail -n 3 "$FAKE_AGENT_LOG" 2>/dev/null)"
	until_ms 10000 tg_answered "allowed" || fail "the tapper not told: $(tg_q answers)"
	until_ms 10000 chat_told allowed || fail "the chat not told: $(tg_q sends)"
	# The same tap again: the ask is over, the poll with it.
	until_ms 10000 polling 0 || fail "still polling: $(tg_q polls)"
	[ "$(grep -c " answer " "$FAKE_AGENT_LOG")" = 1 ] || fail "more than one answer"
	grep -q sekr3t "$TESTDIR/lisad.err" 2>/dev/null && fail "the token in the helper's log"
	return 0
}

# The attacker's taps on Telegram: a deny made an allow, and the real
# Allow tapped twice (a replay); refused, said to the tapper, one key.
test_telegram_forged_and_replayed() {
	start_bot
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 asked_in_chat 0 || fail "nothing sent"
	deny=$(tg_button 0 Deny)
	forged=$(echo "$deny" | sed 's/^\(t1\.[^.]*\.[0-9]*\)\.d\./\1.a./')
	tg_tap 0 "$forged"
	until_ms 10000 tg_answered "not answered" || fail "the forgery not refused"
	state_is "$c" waiting_input permission "" || fail "answered by a forgery"
	allow=$(tg_button 0 Allow)
	tg_tap 0 "$allow"
	until_ms 15000 tg_answered "allowed" || fail "the tap not taken: $(tg_q answers)"
	until_ms 15000 state_is "$c" waiting_input prompt "" || fail "no prompt after"
	# The same text asked again: the first Allow, replayed, is not its.
	ask "$c"
	until_ms 15000 asked_in_chat 1 || fail "no second ask"
	until_ms 5000 polling 1 || fail "no poll for the second ask"
	tg_tap 0 "$allow"
	until_ms 10000 tg_answered "not answered" 2 || fail "the replay not refused: $(tg_q answers)"
	state_is "$c" waiting_input permission "" || fail "answered by a replay"
	[ "$(grep -c " answer " "$FAKE_AGENT_LOG")" = 1 ] || fail "keys: $(grep answer "$FAKE_AGENT_LOG")"
}

# A token Telegram does not know: every call is refused at once. The long
# poll waits between refusals (it was a curl every few ms for as long as
# the ask was open), doctor says which setting, the token shows nowhere,
# and the right token makes taps come again.
test_telegram_refused_token_told_by_doctor() {
	start_bot
	T set -g @lisa-telegram-token "123456:AAH-wr0ng_bot"
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 sh -c "$LISA -L $SOCK doctor 2>&1 | grep -q '^warn  buttons .*taps not read: Telegram answered HTTP 401: the bot.s token (@lisa-telegram-token)'" ||
	    fail "doctor: $(L doctor 2>&1 | grep -E 'buttons|phone')"
	L doctor 2>&1 | grep -q "^warn  phone .*not delivered.*Telegram answered HTTP 401: the bot's token" ||
	    fail "the push's failure: $(L doctor 2>&1 | grep phone)"
	n0=$(tg_q "len([e for e in log if e['kind'] == 'unauthorized'])")
	sleep 8
	n1=$(tg_q "len([e for e in log if e['kind'] == 'unauthorized'])")
	note "$((n1 - n0)) refused calls in 8 s"
	[ $((n1 - n0)) -le 6 ] || fail "$((n1 - n0)) refused calls in 8 s: no pause between"
	L doctor 2>&1 | grep -q "wr0ng" && fail "the token in doctor"
	helper_log | grep -q "wr0ng" && fail "the token in the helper's log"
	[ "$(helper_log | grep -c 'taps not read')" -le 1 ] ||
	    fail "said again and again: $(helper_log | grep -c 'taps not read')"
	T set -g @lisa-telegram-token "$BOT"
	L reload >/dev/null || fail "reload"
	until_ms 10000 polling 1 || fail "no poll with the right token: $(tg_q polls)"
	until_ms 15000 sh -c "$LISA -L $SOCK doctor 2>&1 | grep -q '^ok    buttons '" ||
	    fail "still: $(L doctor 2>&1 | grep buttons)"
	state_is "$c" waiting_input permission "" || fail "the dialog went: $(L status "$c")"
}

# A chat the bot is not in (a mistyped id): doctor names the setting.
test_telegram_unknown_chat_told_by_doctor() {
	start_bot
	T set -g @lisa-telegram-chat 777
	start_helper
	c=$(agent_ready 1 claude)
	ask "$c"
	until_ms 15000 sh -c "$LISA -L $SOCK doctor 2>&1 | grep -q '^warn  phone .*Telegram answered HTTP 400: the chat? (@lisa-telegram-chat)'" ||
	    fail "doctor: $(L doctor 2>&1 | grep -E 'buttons|phone')"
	[ "$(tg_q "len([e for e in log if e['kind'] == 'no_chat'])")" -ge 1 ] || fail "not sent to 777"
}

# Two helpers (two tmux servers) given one bot: Telegram ends one's poll
# when the other polls (409). doctor says so, in words a user can act on.
test_telegram_two_helpers_one_bot_told() {
	start_bot
	start_helper
	c=$(agent_ready 1 claude)
	B() { tmux -L "${SOCK}b" -f /dev/null "$@"; }
	B new-session -d -s other -x 200 -y 50 sh
	B set -g @lisa-notify-asks on \; set -g @lisa-notify-cooldown 0 \; \
	    set -g @lisa-telegram-token "$BOT" \; set -g @lisa-telegram-chat 4242 \; \
	    set -g @lisa-telegram-api "$API"
	"$LISAD" -F -L "${SOCK}b" 2>"$TESTDIR/lisad-b.err" &
	B new-window -d -t other:1 -n claude "$FAKE/claude"
	c2=$(B display -p -t other:1 '#{pane_id}')
	until_ms 30000 sh -c "$LISA -L ${SOCK}b status '$c2' --json | grep -q '\"detail\":\"prompt\"'" ||
	    fail "no second agent: $($LISA -L "${SOCK}b" status "$c2")"
	ask "$c"
	B send-keys -t "$c2" permission Enter
	until_ms 15000 sh -c "$LISA -L ${SOCK}b status '$c2' --json | grep -q '\"detail\":\"permission\"'" ||
	    fail "no second dialog: $($LISA -L "${SOCK}b" status "$c2")"
	until_ms 20000 sh -c "{ $LISA -L $SOCK doctor; $LISA -L ${SOCK}b doctor; } 2>&1 |
	    grep -q \"^warn  buttons .*Telegram answered HTTP 409: another program reads this bot.s updates\"" ||
	    fail "doctor: $(L doctor 2>&1 | grep buttons; $LISA -L "${SOCK}b" doctor 2>&1 | grep buttons)"
}

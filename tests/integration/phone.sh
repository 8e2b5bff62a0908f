# What the tests of answering from the phone share (issue 47): the
# stand-in ntfy server (tests/fake/ntfy) and what a phone does with it.

# The stand-in (keepalives every $1 s, ntfy's 45 by default; ended before
# the test's cleanup, $2 if not lib.sh's); $TOPIC is a topic on it.
start_ntfy() {
	command -v curl >/dev/null || skip "no curl"
	python3 "$FAKE/ntfy" "$TESTDIR/ntfy.log" "${1:-45}" &
	NTFY=$!
	trap "kill \$NTFY 2>/dev/null; ${2:-cleanup}" EXIT
	until_ms 10000 test -f "$TESTDIR/ntfy.log.port" || fail "no ntfy stand-in"
	TOPIC="http://127.0.0.1:$(cat "$TESTDIR/ntfy.log.port")/lisa-k3y"
}

# The stand-in's log, as python sees it: publishes and subscriptions.
ntfy_q() {
	python3 - "$TESTDIR/ntfy.log" "$1" <<'PY'
import json, sys
log = [json.loads(l) for l in open(sys.argv[1])] if __import__("os").path.exists(sys.argv[1]) else []
pubs = [e for e in log if e["kind"] == "publish"]
subs = len([e for e in log if e["kind"] == "subscribe"]) - \
    len([e for e in log if e["kind"] == "unsubscribe"])
print(eval(sys.argv[2]))
PY
}

# The Nth push with buttons (from 0): its message; $2: what of it.
pushed_with_buttons() {
	[ "$(ntfy_q "len([p for p in pubs if p.get('actions')])")" -gt "$1" ]
}
button() {
	ntfy_q "[a for a in [p for p in pubs if p.get('actions')][$1]['actions'] if a['label'] == '$2'][0]['$3']"
}

# Tap: what the phone does for an http action (ntfy's docs): its method,
# its URL, its body.
tap() {
	curl -s -o /dev/null -X POST --data-binary "$2" "$1" || fail "the tap's POST"
}

# A push back to the phone whose message holds $1 (the Nth such, $2).
told() {
	[ "$(ntfy_q "len([p for p in pubs if p['topic'] == 'lisa-k3y' and '''$1''' in p['message']])")" -ge "${2:-1}" ]
}

curl_children() { pgrep -P "$HELPER_PID" curl | wc -l; }
reading() { [ "$(ntfy_q subs)" = "$1" ]; }


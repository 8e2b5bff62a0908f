# Every @lisa-* option checked (plugin/shared/options.c, config.c): a value
# lisa cannot use keeps its default and is said, on the client, in lisa
# doctor, in lisa info and by lisa reload. Driven by docs/ui.md's "Every
# option" table: a row whose kind this file has no wrong value for fails,
# so a new option or kind cannot go untested.

. "$ROOT/tests/integration/client.sh"

# The table's rows: NAME<TAB>TAKES.
option_rows() {
	awk -F'|' '/^\| option \| default \| takes \|$/ { on = 1; next }
	    on && /^\| ---/ { next }
	    on && !/^\|/ { exit }
	    on { n = $2; gsub(/[ `]/, "", n); t = $4
	        sub(/^ +/, "", t); sub(/ +$/, "", t); print n "\t" t }' \
	    "$ROOT/docs/ui.md"
}

# A value of the wrong kind for TAKES, and whether it is partly used
# ("partly") or not at all ("bad"); "text" when any value is good.
wrong_value() {
	case "$1" in
	"a number of seconds") echo "bad abc" ;;
	"a number of seconds above 0") echo "bad -5" ;;
	"on or off") echo "bad maybe" ;;
	"a whole number above 0") echo "bad -5" ;;
	"one of "*) echo "bad xml" ;;
	"group names") echo "bad asks bogus" ;;
	"an http(s) URL") echo "bad ftp://u:SECRET123@example.org/x" ;;
	"a colour"*) echo "bad red,bold" ;;
	"text of at most 32 bytes") echo "bad 0123456789012345678901234567890123" ;;
	"text of at most 16 bytes") echo "bad 01234567890123456" ;;
	"a tmux key, or none") echo "bad two words" ;;
	"ssh destinations") echo "partly -oProxyCommand=touch" ;;
	"PREFIX=TOKENS words") echo "partly gpt-9=lots" ;;
	"any text") echo "text" ;;
	*) return 1 ;;
	esac
}

doctor_warns() { L doctor 2>&1 | grep -F -- "option         $1" ; }

test_every_option_of_the_wrong_kind_is_said() {
	start_server main
	start_helper
	rows=$(option_rows)
	[ "$(printf '%s\n' "$rows" | wc -l)" -ge 40 ] ||
	    fail "docs/ui.md's table has too few rows: $rows"
	: >"$TESTDIR/want"
	while IFS='	' read -r name takes; do
		name=$(echo "$name" | sed 's/<group>/asks/')
		v=$(wrong_value "$takes") ||
		    fail "$name takes '$takes': no wrong value for that kind here"
		case "$v" in
		text) T set -g "$name" 'any text, #(no) $(thing)' ;;
		*) T set -g "$name" "${v#* }"
		    echo "$name" >>"$TESTDIR/want" ;;
		esac
	done <<EOF
$rows
EOF
	T set -g @lisa-notfy-bell on	# (a typo)
	echo "@lisa-notfy-bell" >>"$TESTDIR/want"
	L reload >"$TESTDIR/out" 2>"$TESTDIR/err" && fail "reload exited 0: $(cat "$TESTDIR/out")"
	grep -q "reloaded; .* settings not used as set" "$TESTDIR/out" ||
	    fail "reload said: $(cat "$TESTDIR/out")"
	L doctor >"$TESTDIR/doctor" 2>&1
	L info --json >"$TESTDIR/info"
	n=0
	while read -r name; do
		n=$((n + 1))
		grep -q "^warn  option  *${name}[ :]" "$TESTDIR/doctor" ||
		    fail "doctor did not name $name: $(grep option "$TESTDIR/doctor")"
		grep -q "^lisa: ${name}[ :]" "$TESTDIR/err" ||
		    fail "reload did not name $name: $(cat "$TESTDIR/err")"
		jget "[w for w in d['option_warnings'] if w.startswith('$name')][0]" \
		    <"$TESTDIR/info" >/dev/null ||
		    fail "info did not name $name: $(jget "d['option_warnings']" <"$TESTDIR/info")"
	done <"$TESTDIR/want"
	[ "$(jget "len(d['option_warnings'])" <"$TESTDIR/info")" = "$n" ] ||
	    fail "info has other warnings than the $n wanted: $(jget "d['option_warnings']" <"$TESTDIR/info")"
	# What each says: the value, and what is used instead.
	grep -q '@lisa-debounce "abc": not a number of seconds; 1.5 is used' \
	    "$TESTDIR/doctor" || fail "debounce: $(grep debounce "$TESTDIR/doctor")"
	grep -q '@lisa-notfy-bell: not an option of lisa.s (a typo?)' \
	    "$TESTDIR/doctor" || fail "typo: $(grep notfy "$TESTDIR/doctor")"
	# A URL's secret never said back.
	! grep -q SECRET123 "$TESTDIR/doctor" "$TESTDIR/err" "$TESTDIR/info" ||
	    fail "the URL's secret was said back"
	# The helper still works, on its defaults.
	T new-window -d -n w2 "sh"
	until_ms 5000 sh -c "$LISA -L $SOCK list --json >/dev/null" ||
	    fail "helper no longer answers"
}

test_no_option_read_is_missing_from_the_table() {
	# Every @lisa-* name the code reads has its row (group names by their
	# prefix): an option added without one fails here.
	names=$(grep -rhoE '@lisa-[a-z0-9-]+' "$ROOT/plugin/lisad" \
	    "$ROOT/plugin/lisa" "$ROOT/plugin/shared" "$ROOT/lisa.tmux" |
	    sort -u)
	rows=$(option_rows | cut -f1)
	for n in $names; do
		printf '%s\n' "$rows" | grep -qx -- "$n" && continue
		# (a row NAME-<group>: NAME- and each group's name)
		for r in $(printf '%s\n' "$rows" | sed -n 's/<group>$//p'); do
			case "$n" in
			"$r"|"$r"asks|"$r"working|"$r"waiting|"$r"done|\
			"$r"crashed|"$r"stuck|"$r"degraded) continue 2 ;;
			esac
		done
		# (the words of a comment that names several at once)
		[ "$n" = @lisa-notify- ] && continue
		fail "$n is read by lisa and missing from docs/ui.md's table"
	done
}

test_good_settings_say_nothing() {
	start_server main
	T set -g @lisa-debounce 0.5 \; set -g @lisa-stale 30 \; \
	    set -g @lisa-notify-waiting on \; set -g @lisa-notify-url-format json \; \
	    set -g @lisa-color-asks '#ff0000' \; set -g @lisa-hosts '' \; \
	    set -g @lisa-menu-key C-a
	start_helper
	out=$(L reload) || fail "reload exited $?: $out"
	[ "$out" = "lisa: reloaded" ] || fail "reload said: $out"
	[ "$(L info --json | jget "d['option_warnings']")" = "[]" ] ||
	    fail "warnings: $(L info --json | jget "d['option_warnings']")"
	L doctor 2>&1 | grep -q "^ok    options " ||
	    fail "doctor: $(L doctor 2>&1 | grep option)"
}

said_count() {
	T show-messages | grep -c 'display-message.*@lisa-debounce'
}

test_bad_setting_said_once_on_the_client() {
	tmux_at_least 3 3 || skip "tmux 3.2a cannot address a client"
	start_server main
	attach main
	start_helper
	T set -g @lisa-debounce abc
	L reload >/dev/null 2>&1
	expect_screen 'lisa: @lisa-debounce "abc": not a number of seconds'
	# Once: a session that comes (a client of lisa's attaching to it)
	# and a second reload with nothing new told... only the reload.
	T new-session -d -s second
	two_attached() { [ "$(info_num attached)" = 2 ]; }
	until_ms 10000 two_attached || fail "second session not attached: $(info)"
	sleep 1
	[ "$(said_count)" = 1 ] || fail "said $(said_count) times: $(T show-messages | grep display)"
	# Said again by a reload that finds it still bad: the user asked.
	L reload >/dev/null 2>&1
	until_ms 5000 sh -c "[ \$(tmux -L $SOCK show-messages | grep -c 'display-message.*@lisa-debounce') = 2 ]" ||
	    fail "not said on the second reload"
	# And its text reaches tmux as text: a value's # is not a format.
	T set -g @lisa-debounce '#(touch '"$TESTDIR"'/ran)'
	L reload >/dev/null 2>&1
	expect_screen 'lisa: @lisa-debounce "#(touch'
	sleep 1
	[ ! -e "$TESTDIR/ran" ] || fail "a value ran a command"
}

test_bad_setting_said_to_a_client_that_comes_later() {
	tmux_at_least 3 3 || skip "tmux 3.2a cannot address a client"
	start_server main
	T set -g @lisa-stale -5
	start_helper	# nobody there to be told
	helper_attached
	attach main
	expect_screen 'lisa: @lisa-stale "-5": not a number of seconds above 0; 240 is used'
}

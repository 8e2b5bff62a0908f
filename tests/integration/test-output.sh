# %output: what a pane writes reaches the helper byte for byte.

raw_writer() { echo "stty raw -echo; head -c 1 >/dev/null; $1; sleep 600"; }

# Tap the pane for N bytes, release the writer, compare.
tap_compare() {
	file=$1 n=$2
	p=$(T display -p -t main:0 '#{pane_id}')
	until_ms 2000 pane_known "$p" || fail "pane unknown"
	sleep 0.2
	L tap "$p" --bytes "$n" >"$TESTDIR/got" &
	tap=$!
	sleep 0.2
	T send-keys -t "$p" x
	t0=$(now_ms)
	i=0
	while kill -0 $tap 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt 3000 ] && { kill $tap; fail "tap did not finish: $(wc -c <"$TESTDIR/got") of $n bytes"; }
		sleep 0.01
	done
	wait $tap
	note "$n bytes through tmux -C in $(($(now_ms) - t0)) ms"
	cmp "$file" "$TESTDIR/got" || fail "bytes differ"
}

test_output_1mb_printable_exact() {
	LC_ALL=C tr -dc '[:print:]' </dev/urandom | head -c 1048576 >"$TESTDIR/src"
	start_server main "$(raw_writer "cat $TESTDIR/src")"
	start_helper
	tap_compare "$TESTDIR/src" 1048576
}

test_output_binary_exact() {
	# Every byte value, UTF-8 cut anywhere, escape sequences split.
	head -c 262144 /dev/urandom >"$TESTDIR/src"
	start_server main "$(raw_writer "cat $TESTDIR/src")"
	start_helper
	tap_compare "$TESTDIR/src" 262144
}

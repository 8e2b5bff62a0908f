#!/bin/sh
# Runs the unit tests (cmocka binaries given as arguments) and the
# integration tests (tests/integration/test-*.sh, real tmux), then prints one
# summary line: "lisa tests: N passed, N failed, N skipped" (a test that
# exits 77 skips itself, with the reason it printed after "SKIP: ").
# LISA_TEST_FILTER=regex picks integration tests by name; LISA_TEST_SKIP=regex
# leaves some out, each named in the output. LISA_TEST_FILES=regex picks the
# integration files by name (test-classify, ...); LISA_TEST_SKIP_FILES=regex
# leaves whole files out, each named with its count.
cd "$(dirname "$0")/.." || exit 2
ROOT=$(pwd)
export ROOT

# The tests start python for most of their looks (JSON, the socket): the
# system's /usr/bin/python3 where there is one, else the executable behind
# python3 on PATH, found once; LISA_PYTHON picks another. Not what PATH
# gives each time: here that was pyenv's shim, 0.85 s a start (its python
# 0.45 s, Debian's 0.06 s), which made the suite a CPU hog of its own.
if [ -z "${LISA_PYTHON:-}" ]; then
	if [ -x /usr/bin/python3 ]; then
		LISA_PYTHON=/usr/bin/python3
	else
		LISA_PYTHON=$(python3 -c 'import sys; print(sys.executable)')
	fi
fi
PYBIN=$(mktemp -d "${TMPDIR:-/tmp}/lisa-py.XXXXXX") || exit 2
trap 'rm -rf "$PYBIN"' EXIT
ln -s "$LISA_PYTHON" "$PYBIN/python3"
PATH="$PYBIN:$PATH"
export PATH

# TEST_JOBS=N integration tests at once (1: one after another, in the
# files' order); tests marked "# serial:" run alone, after the others.
TEST_JOBS=${TEST_JOBS:-1}
# The last run's times (milliseconds, file, test), for the longest first.
TIMES=${LISA_TEST_TIMES:-}

unit=1
integ=1
case "$1" in
--unit-only) unit=1; integ=0; shift ;;
--integration-only) unit=0; integ=1; shift ;;
esac

passed=0
failed=0
skipped=0
failures=""

if [ $unit = 1 ]; then
	for bin in "$@"; do
		out=$("$bin" 2>&1)
		rc=$?
		n=$(printf '%s\n' "$out" | sed -n 's/^\[==========\] \([0-9]*\) test(s) run\./\1/p' | tail -n 1)
		[ -n "$n" ] || n=0
		if [ $rc -eq 0 ] && [ "$n" -gt 0 ]; then
			passed=$((passed + n))
			printf 'ok   unit %s (%s tests)\n' "$(basename "$bin")" "$n"
		else
			f=$rc
			[ "$f" -gt 0 ] 2>/dev/null || f=1
			failed=$((failed + f))
			passed=$((passed + n - f))
			failures="$failures unit:$(basename "$bin")"
			printf '%s\n' "$out" | grep -av '^[0-9]*\.[0-9]* warning' >&2
			printf 'FAIL unit %s\n' "$(basename "$bin")"
		fi
	done
fi

# Job N of $RES/jobs: its file, test, whether it runs alone, whether long.
job() {
	read -r file t serial long <<EOF
$(sed -n "${1}p" "$RES/jobs")
EOF
}

# One integration test: its output in $RES/N.log, its exit status,
# milliseconds and CPU milliseconds in $RES/N.rc. The CPU is what the
# test's processes used and, where /proc says, its tmux servers with
# what they reaped (lib.sh's cleanup): the figure that says which tests
# make the suite slow on two cores.
run_one() {
	start=$(date +%s%N)
	: >"$RES/$3.scpu"
	LISA_TEST_SERVER_CPU="$RES/$3.scpu" sh tests/integration/lib.sh \
	    "$1" "$2" >"$RES/$3.log" 2>&1 3>&- </dev/null
	rc=$?
	# (times in this shell: in a pipe or $(...) it would be a child's)
	times >"$RES/$3.cpu"
	cpu=$(sed -n '2{s/m/ /g;s/s//g;p;}' "$RES/$3.cpu" | cat - "$RES/$3.scpu" |
	    awk 'NR == 1 { c = ($1 * 60 + $2 + $3 * 60 + $4) * 1000; next }
		{ c += $1 } END { printf "%d", c }')
	rm -f "$RES/$3.cpu" "$RES/$3.scpu"
	echo "$rc $((($(date +%s%N) - start) / 1000000)) ${cpu:-0}" >"$RES/$3.rc"
}

# A test that has ended, told: one line, then its notes, or all its lines
# if it failed (together, whatever else ran beside it).
report() {
	job "$1"
	name=$t
	read -r rc ms cpu <"$RES/$1.rc"
	log="$RES/$1.log"
	base=$(basename "$file" .sh)
	echo "$ms $base $name $cpu" >>"$RES/times"
	if [ "$rc" -eq 77 ]; then
		skipped=$((skipped + 1))
		printf 'skip %s %s (%s)\n' "$base" "$name" \
		    "$(sed -n 's/^SKIP: //p' "$log" | tail -n 1)"
	elif [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		printf 'ok   %s %s (%d ms)\n' "$base" "$name" "$ms"
		grep '^# ' "$log" | sed 's/^/     /'
	else
		failed=$((failed + 1))
		failures="$failures $name"
		printf 'FAIL %s %s (%d ms)\n' "$base" "$name" "$ms"
		sed 's/^/     | /' "$log"
	fi
	rm -f "$log" "$RES/$1.rc"
}

if [ $integ = 1 ]; then
	RES=$(mktemp -d "${TMPDIR:-/tmp}/lisa-run.XXXXXX") || exit 2
	trap 'rm -rf "$PYBIN" "$RES"' EXIT
	: >"$RES/jobs"
	for file in tests/integration/test-*.sh; do
		if [ -n "$LISA_TEST_FILES" ] && ! basename "$file" .sh |
		    grep -Eq "$LISA_TEST_FILES"; then
			continue
		fi
		if [ -n "$LISA_TEST_SKIP_FILES" ] && basename "$file" .sh |
		    grep -Eq "$LISA_TEST_SKIP_FILES"; then
			n=$(grep -c '^test_[a-z0-9_]*()' "$file")
			skipped=$((skipped + n))
			printf 'skip %s: its %d tests (LISA_TEST_SKIP_FILES)\n' \
			    "$(basename "$file" .sh)" "$n"
			continue
		fi
		# Each test, and whether a "# serial: why" line in the comment
		# above it asks that it run alone.
		# A "# long:" one starts among the first where no last run
		# says how long each takes (a clean clone, CI).
		awk '/^# serial:/ { s = 1; next } /^# long:/ { l = 1; next }
		    /^#/ { next }
		    /^test_[a-z0-9_]*\(\)/ { sub(/\(.*/, "");
			print $0, s + 0, l + 0 }
		    { s = 0; l = 0 }' "$file" >"$RES/list"
		while read -r t serial long; do
			if [ -n "$LISA_TEST_FILTER" ] &&
			    ! printf '%s' "$t" | grep -Eq "$LISA_TEST_FILTER"; then
				continue
			fi
			if [ -n "$LISA_TEST_SKIP" ] &&
			    printf '%s' "$t" | grep -Eq "$LISA_TEST_SKIP"; then
				skipped=$((skipped + 1))
				printf 'skip %s %s (LISA_TEST_SKIP)\n' \
				    "$(basename "$file" .sh)" "$t"
				continue
			fi
			[ "$TEST_JOBS" -gt 1 ] || serial=0
			echo "$file $t $serial $long" >>"$RES/jobs"
		done <"$RES/list"
	done
	# The longest first (as the last run timed them, when it did), so
	# that the last to end are short ones; each with its weight, the
	# share of a CPU it used (per mille) as the last run measured it,
	# else a long one's half a CPU and any other TEST_WEIGHT. A long one
	# never less than half: what lisa.tmux builds runs outside the
	# test's processes, and is not in its figure.
	# (each line: milliseconds, job number, serial, weight)
	times=$TIMES
	[ -n "$times" ] && [ -f "$times" ] || times=/dev/null
	awk -v dw="${TEST_WEIGHT:-300}" '
	    FILENAME == ARGV[1] { ms[$2 " " $3] = $1
		if ($4 != "" && $1 > 0) w[$2 " " $3] = int($4 * 1000 / $1)
		next }
	    { b = $1; sub(/.*\//, "", b); sub(/\.sh$/, "", b); k = b " " $2
	      x = k in w ? w[k] : dw
	      if ($4 && x < 500) x = 500
	      x = x < 50 ? 50 : (x > 1000 ? 1000 : x)
	      print (k in ms ? ms[k] : $4 * 100000), FNR, $3, x }' \
	    "$times" "$RES/jobs" >"$RES/order"
	if [ "$TEST_JOBS" -gt 1 ]; then
		sort -k1,1nr -k2,2n "$RES/order" >"$RES/sorted"
	else
		cp "$RES/order" "$RES/sorted"
	fi
	: >"$RES/times"
	# Side by side: at most TEST_JOBS tests, and while one runs, only
	# as many more as the CPUs hold (TEST_CPUS, the machine's count
	# unless said): the first that fits of the longest first. Four
	# builds at once had starved each other's clocks, while later the
	# CPUs idled under tests that wait on lisa's. Each test that ends
	# writes its number into a pipe that this shell reads (no waiting on
	# a clock).
	cpus=${TEST_CPUS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
	cap=$(echo "$cpus" | awk '{ printf "%d", $1 * 1000 }')
	mkfifo "$RES/done" && exec 3<>"$RES/done" || exit 2
	awk '$3 == 0' "$RES/sorted" >"$RES/pending"
	running=0
	load=0
	while [ -s "$RES/pending" ] || [ $running -gt 0 ]; do
		pick=
		[ -s "$RES/pending" ] && [ $running -lt "$TEST_JOBS" ] &&
		    pick=$(awk -v free=$((cap - load)) -v idle=$((running == 0)) \
			'$4 <= free || idle { print $2, $4; exit }' "$RES/pending")
		if [ -n "$pick" ]; then
			i=${pick% *} w=${pick#* }
			awk -v i="$i" '$2 != i' "$RES/pending" >"$RES/pending.new"
			mv "$RES/pending.new" "$RES/pending"
			echo "$w" >"$RES/$i.w"
			job "$i"
			(run_one "$file" "$t" "$i"; echo "$i" >&3) &
			running=$((running + 1))
			load=$((load + w))
			continue
		fi
		read -r j <&3
		read -r w <"$RES/$j.w"
		rm -f "$RES/$j.w"
		report "$j"
		running=$((running - 1))
		load=$((load - w))
	done
	wait
	# Then those that measure time or cost, alone.
	while read -r ms i serial w; do
		[ "$serial" = 1 ] || continue
		job "$i"
		# (in a subshell: run_one's `times` in this shell would count
		# every test before it)
		(run_one "$file" "$t" "$i") 3>&-
		report "$i"
	done <"$RES/sorted"
	exec 3>&-
	# (this run's times first: a filtered run keeps the others')
	if [ -n "$TIMES" ] && [ -s "$RES/times" ]; then
		cat "$RES/times" "$TIMES" 2>/dev/null |
		    awk '!seen[$2 " " $3]++' >"$RES/merged" &&
		    cp "$RES/merged" "$TIMES" 2>/dev/null
	fi
fi

# Under check-asan: a sanitizer report from any process is a failure.
if [ -n "$LISA_SANITIZE_DIR" ]; then
	reports=$(find "$LISA_SANITIZE_DIR" -type f -size +0 2>/dev/null)
	if [ -n "$reports" ]; then
		n=$(echo "$reports" | wc -l)
		failed=$((failed + n))
		failures="$failures sanitizer($n)"
		for r in $reports; do
			printf 'FAIL sanitizer report %s\n' "$r"
			sed 's/^/     | /' "$r" | head -n 40
		done
	else
		printf 'ok   sanitizers: no report from any process\n'
	fi
fi

# Under check-valgrind: -q logs only errors and leaks, so any text in a
# helper's log is a failure.
if [ -n "$LISA_VALGRIND_DIR" ]; then
	n=$(ls "$LISA_VALGRIND_DIR" 2>/dev/null | wc -l)
	reports=$(find "$LISA_VALGRIND_DIR" -type f -size +0 2>/dev/null)
	if [ -n "$reports" ]; then
		failed=$((failed + $(echo "$reports" | wc -l)))
		failures="$failures valgrind"
		for r in $reports; do
			printf 'FAIL valgrind report %s\n' "$r"
			sed 's/^/     | /' "$r" | head -n 60
		done
	elif [ "$n" -eq 0 ]; then
		failed=$((failed + 1))
		failures="$failures valgrind(no helper ran under it)"
	else
		printf 'ok   valgrind: %s helper processes (forks included), no error, no leak\n' "$n"
	fi
fi

[ -n "$failures" ] && printf 'failed:%s\n' "$failures"
echo "lisa tests: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]

# lisa.tmux, run the way TPM runs it (run-shell from inside the server).

test_lisa_tmux_builds_in_background_then_starts() {
	copy="$TESTDIR/plugin"
	mkdir -p "$copy"
	cp -r "$ROOT/Makefile" "$ROOT/control" "$ROOT/plugin" "$ROOT/lisa.tmux" "$copy/"
	mkdir -p "$copy/bin"
	export XDG_CACHE_HOME="$TESTDIR/cache"
	start_server main
	t0=$(now_ms)
	T run-shell "$copy/lisa.tmux"
	ms=$(($(now_ms) - t0))
	# tmux start-up must not wait for the compiler.
	[ "$ms" -lt 2000 ] || fail "run-shell lisa.tmux took ${ms} ms"
	[ -x "$copy/bin/lisad" ] && fail "built synchronously?"
	until_ms 120000 "$copy/bin/lisa" -L "$SOCK" list ||
	    fail "helper not started after build: $(cat "$TESTDIR/cache/lisa/build.log" 2>/dev/null | tail -5)"
	note "run-shell returned in ${ms} ms; build + start took $(($(now_ms) - t0)) ms"
	pid=$(info | jget "d['pid']")
	[ "$(readlink "/proc/$pid/exe")" = "$copy/bin/lisad" ] ||
	    fail "helper $pid is not the copy's: $(readlink "/proc/$pid/exe")"
	# Loaded again (prefix + I, or a config reload): the same helper.
	T run-shell "$copy/lisa.tmux"
	sleep 0.5
	[ "$(info | jget "d['pid']")" = "$pid" ] || fail "helper replaced"
	n=0
	for e in /proc/[0-9]*/exe; do
		[ "$(readlink "$e" 2>/dev/null)" = "$copy/bin/lisad" ] && n=$((n + 1))
	done
	[ $n = 1 ] || fail "$n helpers running"
	"$copy/bin/lisa" -L "$SOCK" stop >/dev/null
}

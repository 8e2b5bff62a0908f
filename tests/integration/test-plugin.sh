# lisa.tmux, run the way TPM runs it (run-shell from inside the server).

# The copy builds as a user's would: not with the variables of a make that
# runs these tests (make check-asan puts CC, CFLAGS, BUILD, BIN in the
# environment).
unset MAKEFLAGS MFLAGS MAKELEVEL CC CFLAGS BUILD BIN

# Most tests here build lisa from a copy (lisa.tmux, TPM, the submodule's
# jsmn), run the tree's bin/ (make demo) or only a script: they test the
# default build whatever binaries the suite was given. Under a suite of
# other binaries (make OSDEP=generic test, make check-asan) each would be
# an exact duplicate of make test's run, and minutes of compiling: skipped
# there, saying so.
default_build_only() {
	[ "$(cd "$(dirname "$LISA")" && pwd -P)" = \
	    "$(cd "$ROOT/bin" 2>/dev/null && pwd -P)" ] ||
	    skip "a test of the default build (a copy's, bin/, or a script), not of $(dirname "$LISA"): make test runs it"
}

# A first install, as the human at the client sees it: lisa.tmux returns
# at once (tmux start-up must not wait for the compiler), says it builds,
# then that it is ready, and the helper it starts is the copy's. Loaded
# again, it is the same helper; the build's log is a quiet one. (One
# build for what were two tests: a build is most of their CPU.)
# long: builds lisa
test_lisa_tmux_builds_in_background_then_starts() {
	default_build_only
	. "$ROOT/tests/integration/client.sh"
	copy="$TESTDIR/plugin"
	mkdir -p "$copy"
	cp -r "$ROOT/Makefile" "$ROOT/control" "$ROOT/plugin" "$ROOT/lisa.tmux" "$copy/"
	mkdir -p "$copy/bin"
	export XDG_CACHE_HOME="$TESTDIR/cache"
	start_server main
	attach main:0
	T set -g @lisa-menu-key m
	t0=$(now_ms)
	T run-shell "$copy/lisa.tmux"
	ms=$(($(now_ms) - t0))
	[ "$ms" -lt 2000 ] || fail "run-shell lisa.tmux took ${ms} ms"
	[ -x "$copy/bin/lisad" ] && fail "built synchronously?"
	expect_screen "lisa: building in the background"
	expect_screen "lisa: ready: prefix + m for the agents menu" 300000
	# (3.2a says ready just before it starts the helper)
	until_ms 10000 "$copy/bin/lisa" -L "$SOCK" list ||
	    fail "helper not started after build: $(cat "$TESTDIR/cache/lisa/build.log" 2>/dev/null | tail -5)"
	note "run-shell returned in ${ms} ms; build + start took $(($(now_ms) - t0)) ms"
	pid=$(info | jget "d['pid']")
	[ "$(readlink "/proc/$pid/exe")" = "$copy/bin/lisad" ] ||
	    fail "helper $pid is not the copy's: $(readlink "/proc/$pid/exe")"
	# Loaded again (prefix + I, or a config reload): the same helper.
	T run-shell "$copy/lisa.tmux"
	sleep 0.5
	[ "$(info | jget "d['pid']")" = "$pid" ] || fail "helper replaced"
	# (the generic backend's guard of its control clients is a fork of
	# the helper: the same program, its child, not a second helper)
	n=0
	for e in /proc/[0-9]*/exe; do
		[ "$(readlink "$e" 2>/dev/null)" = "$copy/bin/lisad" ] || continue
		d=${e%/exe}
		ppid=$(awk '/^PPid:/ {print $2}' "$d/status" 2>/dev/null)
		[ "$(readlink "/proc/$ppid/exe" 2>/dev/null)" = "$copy/bin/lisad" ] &&
		    continue
		n=$((n + 1))
	done
	[ $n = 1 ] || fail "$n helpers running"
	"$copy/bin/lisa" -L "$SOCK" stop >/dev/null
	# A quiet build: one short line a file (V=1 gives the commands).
	log="$TESTDIR/cache/lisa/build.log"
	[ "$(grep -c '^  CC   plugin/' "$log")" -ge 40 ] || fail "build log: $(head "$log")"
	bad=$(grep -v -E '^  (CC|AR|LD)   [^ ]+$|^make(\[[0-9]+\])?: ' "$log")
	[ -z "$bad" ] || fail "a loud build: $bad"
}

# A fresh user: a clean ~/.tmux.conf, lisa cloned into the plugins
# directory, and TPM's own way of loading it (tpm executes every
# ~/.tmux/plugins/*/*.tmux). tmux starting: TPM runs the plugin before
# any client is attached, and a message then reaches nobody ("no current
# target"), so the first client to attach is told it builds, until ready,
# and nothing is left behind. Then what that user sees in the status line.
# long: builds lisa
test_tpm_install_from_clean_tmux_conf() {
	default_build_only
	export HOME="$TESTDIR/home"
	export XDG_CACHE_HOME="$TESTDIR/cache"
	plugins="$HOME/.tmux/plugins"
	mkdir -p "$plugins/lisa" "$plugins/tpm"
	# The files a clone has: tracked and new ones, no build outputs.
	if git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$ROOT" ls-files -co --exclude-standard -z |
		    tar -C "$ROOT" --null -T - -cf - | tar -C "$plugins/lisa" -xf -
	else
		cp -r "$ROOT/Makefile" "$ROOT/control" "$ROOT/plugin" "$ROOT/lisa.tmux" "$plugins/lisa/"
	fi
	[ -e "$plugins/lisa/bin/lisad" ] && fail "the clone has build outputs"
	tpm_stub "$plugins"
	cat >"$HOME/.tmux.conf" <<'CONF'
set -g @plugin 'tmux-plugins/tpm'
set -g @plugin 'lisa/lisa'
set -g @lisa-grace 1
set -g status-right '#{lisa_status} #[fg=blue]|'
run '~/.tmux/plugins/tpm/tpm'
CONF
	# (CFLAGS=-O0 reaches the build through tmux's environment: this
	# test is about TPM's way in, and lisa.tmux's own test builds at the
	# defaults; three builds at the suite's start share two CPUs)
	CFLAGS=-O0 tmux -L "$SOCK" -f "$HOME/.tmux.conf" new-session -d -s main -x 150 -y 30
	T show-hooks -g client-attached | grep -q 5472 ||
	    fail "nothing waits for a client: $(T show-messages | tail -n 3)"
	. "$ROOT/tests/integration/client.sh"
	attach main:0
	expect_screen "lisa: building in the background (a few seconds; log: $TESTDIR/cache/lisa/build.log)"
	until_ms 300000 test -x "$plugins/lisa/bin/lisad" ||
	    fail "never built: $(tail -5 "$XDG_CACHE_HOME/lisa/build.log" 2>/dev/null)"
	expect_screen "lisa: ready: prefix + a for the agents menu" 60000
	[ -z "$(T show-hooks -g client-attached | grep 5472)" ] ||
	    fail "hook left: $(T show-hooks -g client-attached)"
	until_ms 10000 "$plugins/lisa/bin/lisa" -L "$SOCK" list ||
	    fail "helper not started: $(tail -5 "$XDG_CACHE_HOME/lisa/build.log" 2>/dev/null)"
	T new-window -d -t main:1 -n agent "$ROOT/tests/fake/claude"
	p=$(T display -p -t main:1 '#{pane_id}')
	"$plugins/lisa/bin/lisa" -L "$SOCK" wait "$p" --until waiting_input --timeout 10 >/dev/null ||
	    fail "agent not seen"
	# (the ready message holds the status line for its 4 s)
	until_ms 10000 sh -c "tmux -L ${SOCK}o capture-pane -p | tail -n 1 | grep -q '◐ 1 |'" ||
	    fail "status line: $(tmux -L "${SOCK}o" capture-pane -p | tail -n 1)"
	until_ms 5000 sh -c "tmux -L ${SOCK}o capture-pane -p | tail -n 1 | grep -q '1:agent ◐'" ||
	    fail "window badge: $(tmux -L "${SOCK}o" capture-pane -p | tail -n 1)"
	note "status line: $(tmux -L "${SOCK}o" capture-pane -p | tail -n 1)"
	# The config sourced again (the placeholders are back): applied again.
	tmux -L "$SOCK" source-file "$HOME/.tmux.conf"
	until_ms 5000 sh -c "tmux -L $SOCK show -gv status-right | grep -q lisa_status_format" ||
	    fail "not applied after a reload: $(tmux -L "$SOCK" show -gv status-right)"
	"$plugins/lisa/bin/lisa" -L "$SOCK" stop >/dev/null
}

# make demo, run without a terminal: it shows lisa working, then leaves
# nothing behind (no directory, no server, no helper, no runtime file),
# and never touches a server it did not start, even one named lisa-demo.
test_demo_leaves_nothing_behind() {
	default_build_only
	# A socket directory of this test's own: two suites at once (CI runs
	# 3.3a and 3.5a side by side) would share the name lisa-demo.
	export TMUX_TMPDIR="$TESTDIR/tmux"
	mkdir -m 700 "$TMUX_TMPDIR"
	tmux -L lisa-demo -f /dev/null new-session -d -s users 'sleep 600'
	# (the user's server must go when this test ends, whatever happens)
	trap 'tmux -L lisa-demo kill-server 2>/dev/null; cleanup' EXIT
	mkdir -p "$TESTDIR/tmp"
	out=$(cd "$ROOT" && TMPDIR="$TESTDIR/tmp" DEMO_SECONDS=6 \
	    DEMO_CAPTURE="$TESTDIR/shots" sh plugin/demo.sh 2>&1) ||
	    fail "demo failed: $out"
	printf '%s\n' "$out" | grep -q "== lisa list ==" || fail "demo output: $out"
	printf "%s\n" "$out" | grep -Eq "(working|waiting|done|crashed)" ||
	    fail "the demo's agents were not seen: $out"
	# Its status line (with no notification over it) and its hint whole,
	# at its 160 columns.
	sed 's/\x1b\[[0-9;]*m//g' "$TESTDIR/shots/screen.ansi" | tail -n 1 |
	    grep -q "| C-b a: menu *$" ||
	    fail "the demo's hint is cut: $(tail -n 1 "$TESTDIR/shots/screen.ansi")"
	left=$(ls -A "$TESTDIR/tmp")
	[ -z "$left" ] || fail "left behind: $left"
	printf '%s\n' "$out" | grep -q "cannot remove" && fail "demo: $out"
	tmux -L lisa-demo has-session -t users 2>/dev/null || fail "the user's lisa-demo server was touched"
	for sock in "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)"/lisa-demo-*; do
		[ -e "$sock" ] || continue
		tmux -S "$sock" has-session 2>/dev/null && fail "demo server left: $sock"
	done
	# Ours only (another suite's demo may run now), given a moment to go.
	until_ms 5000 no_demo_helper || fail "demo helper left: $(no_demo_helper -v)"
	return 0
}

# No lisad of a demo under this test's socket directory (-v: print it).
# (one ps: a look per process was hundreds of processes a try)
no_demo_helper() {
	if [ "${1:-}" = -v ]; then
		ps -eo args= | grep "[l]isad.*$TMUX_TMPDIR/.*lisa-demo-"
		return 1
	fi
	! ps -eo args= | grep -q "[l]isad.*$TMUX_TMPDIR/.*lisa-demo-"
}

# make install DESTDIR=... PREFIX=/usr: lisa, lisad and lisa(1) where a
# package would put them, and the installed lisa starts the installed
# lisad next to it.
test_make_install_destdir() {
	root="$TESTDIR/root"
	make --no-print-directory -C "$ROOT" BUILD="${LISA_BUILD_DIR:-build}" \
	    BIN="$(dirname "$LISA")" OSDEP="$SYSTEM" install DESTDIR="$root" PREFIX=/usr \
	    >"$TESTDIR/make.log" 2>&1 || fail "make install: $(cat "$TESTDIR/make.log")"
	for f in usr/bin/lisa usr/bin/lisad usr/share/man/man1/lisa.1; do
		[ -f "$root/$f" ] || fail "not installed: $f ($(find "$root" -type f))"
	done
	[ -x "$root/usr/bin/lisa" ] && [ -x "$root/usr/bin/lisad" ] || fail "not executable"
	mandoc -T ascii -O width=200 "$root/usr/share/man/man1/lisa.1" |
	    sed 's/.\x08//g' | grep -q "wait \[target\] \[--until" ||
	    fail "man page does not render"
	start_server main
	"$root/usr/bin/lisa" -L "$SOCK" start >/dev/null || fail "installed lisa did not start"
	until_ms 20000 L list || fail "no helper"
	pid=$(info | jget "d['pid']")
	[ "$(readlink "/proc/$pid/exe")" = "$root/usr/bin/lisad" ] ||
	    fail "helper is $(readlink "/proc/$pid/exe"), not the installed lisad"
	"$root/usr/bin/lisa" -L "$SOCK" stop >/dev/null
}

# A userland that is not GNU's, as a Mac's is: BusyBox's applets first on
# PATH, and besides them only what lisa needs to build and run (tmux,
# make, the compiler and its binutils, pkg-config, python3 for the fake
# agents, and ps: a Mac's takes the POSIX fields the generic backend asks
# for, BusyBox's does not). lisa.tmux builds the plugin there and starts
# it.
busybox_path() {
	command -v busybox >/dev/null || skip "no busybox (apt-get install busybox)"
	bb="$TESTDIR/bb"
	mkdir -p "$bb"
	busybox --install -s "$bb"
	for t in tmux make cc gcc as ld ar pkg-config python3 ps; do
		p=$(command -v "$t") && ln -sf "$p" "$bb/$t"
	done
}

# long: builds lisa
test_lisa_tmux_builds_under_busybox() {
	default_build_only
	busybox_path
	copy="$TESTDIR/plugin"
	mkdir -p "$copy/bin"
	cp -r "$ROOT/Makefile" "$ROOT/control" "$ROOT/plugin" "$ROOT/lisa.tmux" "$ROOT/docs" "$copy/"
	export XDG_CACHE_HOME="$TESTDIR/cache"
	start_server main
	# (-O0: this test is about the userland, not the optimiser; the
	# suite starts it beside TPM's and lisa.tmux's builds, and lisa.tmux's
	# own test builds at the defaults)
	T run-shell "CFLAGS=-O0 PATH='$bb' '$copy/lisa.tmux'"
	until_ms 300000 test -x "$copy/bin/lisad" ||
	    fail "no build: $(cat "$TESTDIR/cache/lisa/build.log")"
	until_ms 20000 "$copy/bin/lisa" -L "$SOCK" list >/dev/null ||
	    fail "helper not running: $(T show-messages | tail -n 5)"
	"$copy/bin/lisa" -L "$SOCK" stop >/dev/null
	# Run again: nothing to build, it only starts.
	T run-shell "PATH='$bb' '$copy/lisa.tmux'"
	until_ms 20000 "$copy/bin/lisa" -L "$SOCK" list >/dev/null ||
	    fail "second start: $(T show-messages | tail -n 5)"
	"$copy/bin/lisa" -L "$SOCK" stop >/dev/null
}

# install-deps.sh on a Mac: no apt-get there; it prints the exact lines
# to run (Xcode's tools, Homebrew, the jsmn submodule) instead of failing
# on a Debian command. uname says Darwin; nothing else is on PATH.
test_install_deps_on_a_mac_says_what_to_run() {
	default_build_only
	busybox_path
	mac="$TESTDIR/mac"
	mkdir -p "$mac"
	for a in sh sed grep printf cat id dirname; do ln -s "$bb/$a" "$mac/$a"; done
	printf '#!/bin/sh\necho Darwin\n' >"$mac/uname"
	chmod +x "$mac/uname"
	# (a tree of its own: the submodule may be checked out in this one)
	mkdir -p "$TESTDIR/tree/plugin"
	cp "$ROOT/plugin/install-deps.sh" "$TESTDIR/tree/plugin/"
	out=$(PATH="$mac" sh "$TESTDIR/tree/plugin/install-deps.sh" 2>&1)
	rc=$?
	[ "$rc" = 1 ] || fail "exit $rc: $out"
	for want in "xcode-select --install" "brew install tmux cmocka pkg-config" \
	    "git submodule update --init"; do
		printf '%s\n' "$out" | grep -qF -- "$want" || fail "no '$want' in: $out"
	done
	printf '%s\n' "$out" | grep -q apt-get && fail "apt-get on a Mac: $out"
	return 0
}

# make demo's script under the same userland.
test_demo_runs_under_busybox() {
	default_build_only
	busybox_path
	export TMUX_TMPDIR="$TESTDIR/tmux"
	mkdir -m 700 "$TMUX_TMPDIR" "$TESTDIR/tmp"
	out=$(cd "$ROOT" && PATH="$bb" TMPDIR="$TESTDIR/tmp" DEMO_SECONDS=4 \
	    sh plugin/demo.sh 2>&1) || fail "demo failed: $out"
	printf '%s\n' "$out" | grep -Eq "claude +(starting|working|waiting|done|crashed)" ||
	    fail "the demo's agents were not seen: $out"
	printf '%s\n' "$out" | grep -Eq "not found|unrecognized|invalid option" &&
	    fail "a tool the demo needs is GNU's: $out"
	return 0
}

# No system jsmn.h (a Mac): the plugin/jsmn submodule's is taken; with
# neither, make says what to do. JSMN_FROM_CC= hides the compiler's here. The
# CLI alone is built: jsmn.h is read by plugin/shared's JSON files only,
# which it links as the helper does (the whole build is the other
# tests' here, at half the CPU), unoptimised: where jsmn.h comes from is
# the point, not the optimiser (-O0 took a third less CPU).
# long: builds lisa's CLI
test_jsmn_from_the_submodule() {
	default_build_only
	copy="$TESTDIR/tree"
	mkdir -p "$copy"
	cp -r "$ROOT/Makefile" "$ROOT/control" "$ROOT/plugin" "$copy/"
	rm -rf "$copy/plugin/jsmn"
	out=$(make -C "$copy" JSMN_FROM_CC= all 2>&1) && fail "built without jsmn: $out"
	printf '%s\n' "$out" | grep -q "git submodule update --init" ||
	    fail "make said: $out"
	mkdir -p "$copy/plugin/jsmn"
	cp /usr/include/jsmn.h "$copy/plugin/jsmn/"
	make -C "$copy" JSMN_FROM_CC= CFLAGS=-O0 V=1 bin/lisa >"$TESTDIR/make.log" 2>&1 ||
	    fail "build with the submodule's: $(tail -n 5 "$TESTDIR/make.log")"
	grep -q -- "-Iplugin/jsmn" "$TESTDIR/make.log" || fail "not the submodule's jsmn.h"
	"$copy/bin/lisa" version | grep -q '^lisa ' || fail "lisa version"
}

# A copy of the plugin whose "build" is a stub (issue 45's cold start: what
# is said, not the compiler): make waits for $TESTDIR/go, then puts the
# suite's own binaries in bin/. The test decides when the build ends.
stub_plugin() {
	copy="$TESTDIR/plugin"
	mkdir -p "$copy/control" "$copy/plugin"
	cp "$ROOT/lisa.tmux" "$copy/"
	bindir=$(cd "$(dirname "$LISA")" && pwd -P)
	printf 'all:\n\t@echo "  CC   stub"; while [ ! -e %s ]; do sleep 0.05; done; mkdir -p bin; cp %s/lisa %s/lisad bin/\n' \
	    "$TESTDIR/go" "$bindir" "$bindir" >"$copy/Makefile"
	export XDG_CACHE_HOME="$TESTDIR/cache"
}
# What the client in outer session $1 shows.
outer_screen() { tmux -L "${SOCK}o" capture-pane -p -t "$1:"; }
outer_shows() { outer_screen "$1" | grep -F -q -- "$2"; }
expect_outer() {
	until_ms "${3:-10000}" outer_shows "$1" "$2" ||
	    fail "client $1 never showed '$2'; it shows:
$(outer_screen "$1")"
}

# The first build is seen however tmux starts (issue 45): `tmux new` with
# lisa in tmux.conf (run before the session and its client exist, and
# new-session fires no client-attached), a second client that attaches
# while it builds, and the result on both; tmux's message log has no "no
# current target" (a message for nobody).
test_cold_start_seen_by_new_session_and_a_second_client() {
	stub_plugin
	cat >"$TESTDIR/tmux.conf" <<CONF
set -g @lisa-grace 1
run-shell '$copy/lisa.tmux'
CONF
	# (3.2a made the window 80 wide whatever -x said: resize-window)
	tmux -L "${SOCK}o" -f /dev/null new-session -d -s one -x 150 -y 30 \
	    "env -u TMUX tmux -L $SOCK -f $TESTDIR/tmux.conf new-session -s main" \; \
	    resize-window -t one -x 150 -y 30
	trap 'tmux -L "${SOCK}o" kill-server 2>/dev/null; cleanup' EXIT
	expect_outer one "lisa: building in the background (a few seconds; log: $TESTDIR/cache/lisa/build.log)"
	tmux -L "${SOCK}o" new-session -d -s two -x 150 -y 30 \
	    "env -u TMUX tmux -L $SOCK attach -t main" \; \
	    resize-window -t two -x 150 -y 30
	expect_outer two "lisa: building in the background"
	[ -x "$copy/bin/lisad" ] && fail "built before it was let"
	touch "$TESTDIR/go"
	if tmux_at_least 3 3; then
		expect_outer one "lisa: ready: prefix + a for the agents menu" 20000
	else
		# (3.2a's display-message -c takes no client: the result goes
		# to tmux's pick, the client most recently active)
		note "3.2a: the result on the latest client only"
	fi
	expect_outer two "lisa: ready: prefix + a for the agents menu" 20000
	until_ms 10000 "$copy/bin/lisa" -L "$SOCK" list || fail "helper not started"
	for h in client-attached client-session-changed; do
		T show-hooks -g "$h" | grep -q 5472 && fail "hook left: $(T show-hooks -g "$h")"
	done
	T show-messages >"$TESTDIR/messages"; grep -q "no current target" "$TESTDIR/messages" &&
	    fail "a message for nobody: $(cat "$TESTDIR/messages")"
	"$copy/bin/lisa" -L "$SOCK" stop >/dev/null
}

# Sourced into a running server (TPM's prefix + I, or run-shell) with a
# client there: it is told at once; with none, nothing is said to nobody,
# and the next client to attach is told.
test_cold_start_seen_in_a_running_server() {
	stub_plugin
	start_server main
	T run-shell "$copy/lisa.tmux"
	tmux -L "${SOCK}o" -f /dev/null new-session -d -s one -x 150 -y 30 \
	    "env -u TMUX tmux -L $SOCK attach -t main"
	trap 'tmux -L "${SOCK}o" kill-server 2>/dev/null; cleanup' EXIT
	expect_outer one "lisa: building in the background"
	touch "$TESTDIR/go"
	expect_outer one "lisa: ready: prefix + a for the agents menu" 20000
	until_ms 10000 "$copy/bin/lisa" -L "$SOCK" list || fail "helper not started"
	T show-messages >"$TESTDIR/messages"; grep -q "no current target" "$TESTDIR/messages" &&
	    fail "a message for nobody: $(cat "$TESTDIR/messages")"
	"$copy/bin/lisa" -L "$SOCK" stop >/dev/null
}

# The build asks the compiler it is given (issue 45): musl-gcc searches
# no /usr/include, so Debian's jsmn.h is not its (make says so, naming
# the compiler, until the submodule has it), and the host's libbsd does
# not link with it (not used: it would be a glibc library in a musl
# program). Read from make's own variables: nothing is compiled.
test_build_probes_the_compiler() {
	command -v musl-gcc >/dev/null || skip "no musl-gcc (Debian's musl-tools)"
	copy="$TESTDIR/tree"
	mkdir -p "$copy"
	cp -r "$ROOT/Makefile" "$ROOT/control" "$ROOT/plugin" "$copy/"
	rm -f "$copy/plugin/jsmn/jsmn.h"
	out=$(make -C "$copy" -n CC=musl-gcc all 2>&1) &&
	    fail "musl-gcc took a jsmn.h it cannot find: $(echo "$out" | grep -m1 -- -I)"
	case "$out" in *"jsmn.h not found by musl-gcc"*) ;;
	*) fail "make said: $out" ;; esac
	mkdir -p "$copy/plugin/jsmn"
	printf '#define JSMN_STUB 1\n' >"$copy/plugin/jsmn/jsmn.h"
	make -C "$copy" -p -n CC=musl-gcc all >"$TESTDIR/vars" 2>&1 ||
	    fail "make: $(tail -n 3 "$TESTDIR/vars")"
	grep -q '^BSD_OK := *$' "$TESTDIR/vars" ||
	    fail "libbsd taken for musl: $(grep -E '^BSD_(OK|CFLAGS)' "$TESTDIR/vars")"
	grep -q -- '-Iplugin/jsmn' "$TESTDIR/vars" ||
	    fail "not the submodule's jsmn: $(grep -E '^JSMN' "$TESTDIR/vars")"
	# And the host's own compiler still takes its libbsd and jsmn.
	make -C "$copy" -p -n all >"$TESTDIR/vars" 2>&1
	pkg-config --exists libbsd-overlay 2>/dev/null && ! grep -q '^BSD_OK := 1' "$TESTDIR/vars" &&
	    fail "libbsd not taken for cc: $(grep -E '^BSD_' "$TESTDIR/vars")"
	return 0
}

# lisa: tmux plugin that watches AI coding agents.
# `make` builds bin/lisad (the helper) and bin/lisa (the CLI).

CC ?= cc
PKG_CONFIG ?= pkg-config
# Every dependency is probed with $(CC) itself, for the system it builds
# for (a cross compiler's, not this host's): `make CC="zig cc -target
# aarch64-macos"` and `make CC=musl-gcc` need no other variable.
CC_MACROS := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null)
CC_OS := $(if $(findstring __APPLE__,$(CC_MACROS)),darwin,$(if \
	$(findstring __linux__,$(CC_MACROS)),linux,other))
HOST_OS := $(shell uname -s | tr A-Z a-z)
# libbsd (pkg-config's, this host's) only when a program that compiler
# links with it runs (or, for another system, links at all): the host's
# is not a macOS target's, nor musl's.
BSD_PC_CFLAGS := $(shell $(PKG_CONFIG) --cflags libbsd-overlay 2>/dev/null)
BSD_PC_LIBS := $(shell $(PKG_CONFIG) --libs libbsd-overlay 2>/dev/null)
BSD_OK := $(if $(BSD_PC_LIBS),$(shell t=$$(mktemp -d) && \
	printf '\043include <string.h>\nint main(void) { char b[2]; return (int)strlcpy(b, "a", 2) - 1; }\n' >$$t/p.c && \
	$(CC) -std=c11 -D_GNU_SOURCE $(BSD_PC_CFLAGS) -o $$t/p $$t/p.c $(BSD_PC_LIBS) >/dev/null 2>&1 && \
	{ [ "$(CC_OS)" != "$(HOST_OS)" ] || $$t/p; } && echo 1; rm -rf $$t))
BSD_CFLAGS ?= $(if $(BSD_OK),$(BSD_PC_CFLAGS))
BSD_LIBS ?= $(if $(BSD_OK),$(BSD_PC_LIBS))
CMOCKA_LIBS := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
CMOCKA_CFLAGS ?=
# jsmn is one header: where the compiler finds it (Debian's libjsmn-dev),
# else the submodule plugin/jsmn (a release of zserge/jsmn, which TPM's
# --recursive clone fetches; on a Mac there is no package), else
# JSMN_INCLUDE=dir. (JSMN_FROM_CC= skips the first: a test's.)
ifeq ($(origin JSMN_FROM_CC),undefined)
JSMN_FROM_CC := $(shell printf '\043include <jsmn.h>\n' | \
	$(CC) -E -x c - >/dev/null 2>&1 && echo 1)
endif
JSMN_INCLUDE ?= $(if $(JSMN_FROM_CC),,$(if $(wildcard plugin/jsmn/jsmn.h),plugin/jsmn))
ifeq ($(JSMN_INCLUDE)$(JSMN_FROM_CC),)
ifeq ($(filter clean deps check-layout lint-sh,$(MAKECMDGOALS)),)
$(error jsmn.h not found by $(CC). Debian and Ubuntu: apt-get install \
libjsmn-dev. macOS and elsewhere: git submodule update --init (TPM clones \
with --recursive, which does it), or put jsmn.h in a directory and run \
make JSMN_INCLUDE=that-directory)
endif
endif
JSMN_CFLAGS = $(if $(JSMN_INCLUDE),-I$(JSMN_INCLUDE))

WARN = -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow -Wpointer-arith \
	-Wmissing-prototypes -Wstrict-prototypes
CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) $(BSD_CFLAGS) \
	$(JSMN_CFLAGS) $(DEFS) -Icontrol -Iplugin/shared -MMD -MP
LDLIBS = $(BSD_LIBS)
# lisa's own tree and queue macros (control/lisa-tree.h) even where the
# system has <sys/tree.h>: make OWN_TREE=1 (musl and macOS take them
# anyway, having none).
DEFS = $(if $(filter 1,$(OWN_TREE)),-DLISA_OWN_TREE)
# strlcpy/strlcat: the system's (the BSDs, macOS, musl, glibc 2.38,
# libbsd), else control/compat-string.c's. (libbsd's probe above is this
# program: when its flags are the ones used, it has said so already.)
ifeq ($(BSD_OK)$(BSD_LIBS),1$(BSD_PC_LIBS))
HAVE_STRLCPY := 1
else
HAVE_STRLCPY := $(shell printf '\043include <string.h>\nint main(void) { char b[2]; return (int)strlcpy(b, "a", 2); }\n' | \
	$(CC) -std=c11 -D_GNU_SOURCE $(BSD_CFLAGS) -x c -o /dev/null - $(BSD_LIBS) >/dev/null 2>&1 && echo 1)
endif
DEFS += $(if $(HAVE_STRLCPY),-DLISA_HAVE_STRLCPY)

BUILD ?= build
BIN ?= bin

# Every core for the build (a -j of make's command line wins): make test's
# first build, serial, was a minute of its wall time on two cores. Not
# when cleaning: `make clean all` would remove what it builds.
NPROC := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
MAKEFLAGS += -j$(NPROC)
ifneq ($(filter clean,$(MAKECMDGOALS)),)
.NOTPARALLEL:
endif
# Integration tests at once (make test), at most: most of a test is
# waiting on lisa's clocks, so more than the cores; tests/run.sh starts
# one only while the CPU shares of those running (as the last run measured
# them) fit the machine's CPUs (TEST_CPUS=N to say another number).
# TEST_JOBS=1 runs them one after another, in the files' order. Seven:
# at four the two CPUs idled a third of the run (789 s here), at six
# 514-551 s alone and 604-618 s beside one CPU hog, at seven 467-515 s
# alone and 528-541 s beside it (the shares' cap admits the seventh only
# when they fit: it goes to tests that wait on clocks). The generic
# backend five: its looks run ps (once each since cc5b808: 570 s,
# green), and at six its flood test's writer was slowed twice as much as
# the bound (a first run, every long test at once, when a look ran ps
# twice).
TEST_JOBS ?= $(if $(filter generic,$(OSDEP)),5,7)

# A quiet build: one line per file ("CC plugin/lisad/pane.o"), as tmux's
# and the kernel's; make V=1 prints the whole commands. Warnings and errors
# show in full either way.
ifeq ($(V),1)
say =
else
say = @printf '  %-4s %s\n' $(1) '$(patsubst $(BUILD)/%,%,$(2))';
endif
# The operating system's backend (plugin/shared/osdep-*.c): linux on Linux, the
# generic POSIX one elsewhere; `make OSDEP=generic` on Linux too.
# (for the system $(CC) builds for)
OSDEP ?= $(if $(filter linux,$(CC_OS)),linux,generic)
# The generic backend asks the system for a process's directory where it
# has a call for it (osdep-cwd-*.c): darwin (libproc) on a Mac, else none.
OSDEP_CWD ?= $(if $(filter darwin,$(CC_OS)),darwin,none)
CONTROL_SRCS = control/xmalloc.c control/buf.c control/log.c control/time.c \
	control/control-parse.c control/control-unescape.c \
	control/control-quote.c control/control-layout.c \
	control/control-client.c control/compat-tree.c \
	control/compat-string.c
# One folder per program and one for what both use (docs/architecture.md):
# each program's sources are its folder's files.
SHARED_SRCS = $(sort $(filter-out plugin/shared/osdep-%.c, \
	$(wildcard plugin/shared/*.c))) plugin/shared/osdep-$(OSDEP).c \
	$(if $(filter generic,$(OSDEP)),plugin/shared/osdep-cwd-$(OSDEP_CWD).c)
# The helper's wait on its fds (plugin/lisad/loop-*.c): epoll on Linux.
LOOP = $(if $(filter linux,$(OSDEP)),epoll,poll)
LISAD_SRCS = $(sort $(filter-out plugin/lisad/loop-%.c, \
	$(wildcard plugin/lisad/*.c))) plugin/lisad/loop-$(LOOP).c
LISA_SRCS = $(sort $(wildcard plugin/lisa/*.c))

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))
# (linked as objects, not an archive: the host's ar makes no index a
# cross linker reads, zig's for macOS among them)
CONTROL_OBJS = $(call obj,$(CONTROL_SRCS))
SHARED_OBJS = $(call obj,$(SHARED_SRCS))

UNIT_TESTS = control_parse control_unescape control_client control_quote \
	control_layout json runtime osc classify agent ui_format run_stderr \
	claude_file run_record usage osc_notify bgtasks gemini_file guard contrast tree question question_list question_qwen sha256 \
	agent_logs pi_file cline_file classify_agents options question_leftover tap_token
UNIT_BINS = $(patsubst %,$(BUILD)/tests/%_test,$(UNIT_TESTS))

.PHONY: all clean test test-quick test-unit test-integration test-agents deps bench demo \
	install uninstall man-lint check-layout test-bins \
	screenshots asan-bins check-asan vg-bins check-valgrind check-opt check-osdep lint-sh fuzz fuzz-bins FORCE
# Keep intermediate objects: no "rm" after the test summary.
.SECONDARY:
all: $(BIN)/lisad $(BIN)/lisa

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(call say,CC,$@)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The portable files compile as plain POSIX (with its XSI option: realpath),
# without _GNU_SOURCE.
POSIX_CFLAGS = -std=c11 -D_POSIX_C_SOURCE=200809L -D_XOPEN_SOURCE=700 $(WARN) $(CFLAGS) \
	$(BSD_CFLAGS) $(JSMN_CFLAGS) $(DEFS) -Icontrol -Iplugin/shared -MMD -MP
$(BUILD)/plugin/shared/osdep-generic.o $(BUILD)/plugin/shared/compat.o \
$(BUILD)/plugin/shared/osdep-cwd-none.o: ALL_CFLAGS = $(POSIX_CFLAGS)

# Relink when OSDEP changes (the other objects are the same for both).
$(BUILD)/osdep.stamp: FORCE
	@mkdir -p $(BUILD)
	@[ "$$(cat $@ 2>/dev/null)" = "$(OSDEP) $(OSDEP_CWD)" ] || \
	    echo "$(OSDEP) $(OSDEP_CWD)" >$@
FORCE:

$(BIN)/lisad: $(call obj,$(LISAD_SRCS)) $(SHARED_OBJS) $(CONTROL_OBJS) \
		$(BUILD)/osdep.stamp
	@mkdir -p $(BIN)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $(filter-out %.stamp,$^) $(LDLIBS)

$(BIN)/lisa: $(call obj,$(LISA_SRCS)) $(SHARED_OBJS) $(CONTROL_OBJS) \
		$(BUILD)/osdep.stamp
	@mkdir -p $(BIN)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $(filter-out %.stamp,$^) $(LDLIBS)

$(BUILD)/tests/unit/%.o: ALL_CFLAGS += $(CMOCKA_CFLAGS)
$(BUILD)/tests/%_test: $(BUILD)/tests/unit/%_test.o $(SHARED_OBJS) \
		$(CONTROL_OBJS)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(CMOCKA_LIBS) $(LDLIBS) -lm

$(BUILD)/bench/lisa-bench: $(BUILD)/bench/lisa-bench.o $(SHARED_OBJS) $(CONTROL_OBJS)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# Everything: the man page's lint, unit tests (cmocka), then integration
# tests on real tmux.
test: test-bins man-lint check-layout
	@LISA_BIN_DIR=$(abspath $(BIN)) LISA_BUILD_DIR=$(BUILD) \
	    TEST_JOBS=$(TEST_JOBS) LISA_TEST_TIMES=$(BUILD)/test-times \
	    sh tests/run.sh $(UNIT_BINS)

# The quick loop (about a minute here): the unit tests, the layout and
# man page checks, and a fixed set of short integration tests, one to three
# of each file's, side by side. Not a substitute for make test.
QUICK_TESTS = ^test_(details_of_a_plain_pane|wrapper_reports_its_childs_death|agent_killed_under_shell|closed_pane_dropped|respawned_pane_alive_again|usage_errors_one_wording_exit_2|help_man_readme_agree|json_fields_documented|server_sigkilled_mid_burst|answer_queued_dialogs_alike|fleet_many_hosts_short_summary|cli_help_usage_and_exit_codes|server_killed_helper_exits_without_pidfd|hooks_install_uninstall_claude|qwen_hooks_install_and_states|no_stream_mute_when_turned_off|output_binary_exact|pause_continue_and_resync|make_install_destdir|quote_roundtrip_real_tmux|resume_skips_bad_records|nudge_arrives_literally_then_enter|stderr_head_tail_exit_code|typo_target_is_an_error_not_the_current_pane|socket_refuses_other_uid|linked_window_counted_once|user_keys_kept_and_everything_restored_on_stop|menu_offers_only_what_applies|watchdog_output_resets_level)$$
test-quick: test-bins man-lint check-layout
	@LISA_BIN_DIR=$(abspath $(BIN)) LISA_BUILD_DIR=$(BUILD) \
	    TEST_JOBS=$(TEST_JOBS) LISA_TEST_TIMES=$(BUILD)/test-times \
	    LISA_TEST_FILTER='$(QUICK_TESTS)' sh tests/run.sh $(UNIT_BINS)

# What the tests run, built (CI builds it once, then runs two suites).
test-bins: all $(UNIT_BINS) $(BUILD)/tests/quote-roundtrip \
	$(BUILD)/tests/wallclock-shift.so

# The folders' include rules and the length bound (tests/layout.sh); then
# the check itself, shown to fail on a CLI file that takes the helper's
# header.
check-layout:
	@sh tests/layout.sh
	@t=$$(mktemp -d) && cp -R control plugin $$t/ && \
	    echo '#include "lisad.h"' >>$$t/plugin/lisa/cmd.c && \
	    if (cd $$t && sh $(CURDIR)/tests/layout.sh) >/dev/null; then \
		rm -rf $$t; echo "layout: a broken include went unseen"; exit 1; \
	    fi; rm -rf $$t

# lisa(1), checked by Debian's mandoc (plugin/install-deps.sh installs it).
man-lint:
	@mandoc -T lint -W warning docs/lisa.1

# make install [PREFIX=/usr/local] [DESTDIR=]: lisa and lisad side by side
# (lisa starts the lisad next to it), and the man page.
PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	install -m 755 $(BIN)/lisa $(BIN)/lisad $(DESTDIR)$(BINDIR)/
	install -m 644 docs/lisa.1 $(DESTDIR)$(MANDIR)/man1/lisa.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lisa $(DESTDIR)$(BINDIR)/lisad \
	    $(DESTDIR)$(MANDIR)/man1/lisa.1

# The same tests on binaries built with AddressSanitizer (leaks included)
# and UndefinedBehaviorSanitizer; any report from any lisa process (the
# helper, the CLI, the run wrapper) fails the run. Leaks are the helper's
# (ASan's default): the CLI, which lives for one command, turns the check
# off in its own build (lisa.c).
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=undefined
SAN_LOGS = $(abspath build-asan/logs)
# 1000 sessions take ten minutes under ASan; the same code runs under it in
# test_session_churn_instant_kill, and the 1000 in every make test. The
# flood is a measure of speed, which ASan's own cost makes meaningless and
# minutes long; its code runs under ASan in test_output_*,
# test_server_sigkilled_mid_burst and the mutes. (The tests that build
# lisa from a copy skip themselves: test-plugin.sh's default_build_only.)
SAN_SKIP ?= ^test_(session_churn_leaks_nothing|flood_detached)$$
# Whole files CI leaves out under ASan (.ci/run: they run natively there).
SAN_SKIP_FILES ?=
# The binaries it runs, built (CI builds them early, beside other work).
asan-bins:
	@$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/bin \
	    CC=clang CFLAGS='$(SAN_FLAGS)' test-bins
check-asan:
	@rm -rf $(SAN_LOGS) && mkdir -p $(SAN_LOGS)
	@ASAN_OPTIONS=log_path=$(SAN_LOGS)/asan:fast_unwind_on_malloc=0 \
	UBSAN_OPTIONS=log_path=$(SAN_LOGS)/ubsan:print_stacktrace=1 \
	LISA_BIN_DIR=$(abspath build-asan/bin) LISA_BUILD_DIR=build-asan \
	LISA_SANITIZE_DIR=$(SAN_LOGS) LISA_TEST_SKIP='$(SAN_SKIP)' \
	LISA_TEST_SKIP_FILES='$(SAN_SKIP_FILES)' \
	$(MAKE) --no-print-directory BUILD=build-asan BIN=build-asan/bin \
	    CC=clang CFLAGS='$(SAN_FLAGS)' test

# The helper's integration tests with the helper under valgrind (memcheck:
# leaks and errors; the CLI runs natively). bin/lisad is a wrapper that
# execs valgrind on lisad.real, so every way a test starts the helper is
# covered. VG_TESTS picks the tests: one or two for each of the helper's
# paths (classification by each signal, deaths, faults, output, the fleet,
# runs, stop, hostile text), about 10 minutes at valgrind's pace; ASan and
# LeakSanitizer run the whole suite (make check-asan).
VG_LOGS = $(abspath build-vg/logs)
VG_TESTS ?= ^test_(claude_states_from_(title_and_screen|session_file)|codex_states_from_osc7501|degraded_when_session_file_corrupt|stuck_when_silent_and_idle_cpu|death_via_hook_alone|respawned_pane_alive_again|server_sigkilled_mid_burst|helper_sigkilled_restarted|session_churn_instant_kill|agent_files_garbage_truncated_symlinked|fleet_remote_states_push|fleet_hostile_remote_changes_nothing|fleet_ssh_killed|fleet_remote_tmux_restarted|stop_removes_hooks_and_socket|no_periodic_work_when_idle|codex_notify_by_cwd_and_title_thread_ignored|output_1mb_printable_exact|output_binary_exact|pause_continue_and_resync|stderr_head_tail_exit_code|run_wrapper_leaving_late_is_seen|kill_terminates_tree_then_sigkill|runs_dir_and_records_not_followed|stop_restores_every_option_and_key|hostile_pane_text_runs_nothing|all_sessions_attached|linked_window_counted_once|hostile_names_shown_as_text|watchdog_warn_nudge_triage_terminate|nudge_never_answers_a_dialog|helper_death_shown_on_status_line|phone_replayed_forged_and_stale_taps_refused|telegram_allow_and_another_chat|telegram_refused_token_told_by_doctor)$$
VG_CFLAGS = -O1 -g -gdwarf-4
# The binaries it runs, built (CI builds them early, beside other work;
# with the unit tests, this is CI's gcc -O1 build, warning-free).
vg-bins:
	@$(MAKE) --no-print-directory BUILD=build-vg BIN=build-vg/bin \
	    CFLAGS='$(VG_CFLAGS)' all test-bins
check-valgrind:
	@rm -rf $(VG_LOGS) && mkdir -p $(VG_LOGS)
	@rm -f build-vg/bin/lisad # the wrapper of a last run: relink
	@$(MAKE) --no-print-directory BUILD=build-vg BIN=build-vg/bin \
	    CFLAGS='$(VG_CFLAGS)' all
	@mv -f build-vg/bin/lisad build-vg/bin/lisad.real
	@printf '#!/bin/sh\nLISAD_NO_PIDFD=1 exec valgrind -q --leak-check=full --show-leak-kinds=definite,indirect,possible --errors-for-leak-kinds=definite,indirect,possible --track-fds=no --log-file=%s/vg.%%p "$$(dirname "$$0")/lisad.real" "$$@"\n' \
	    '$(VG_LOGS)' >build-vg/bin/lisad
	@chmod +x build-vg/bin/lisad
	@LISA_BIN_DIR=$(abspath build-vg/bin) LISA_BUILD_DIR=build-vg \
	LISA_VALGRIND_DIR=$(VG_LOGS) LISA_TEST_FILTER='$(VG_TESTS)' LISA_SLOW=10 \
	TEST_JOBS=$(TEST_JOBS) \
	LISA_GRACE=3 \
	    sh tests/run.sh --integration-only

# The generic POSIX backend builds, and its binaries reference nothing that
# only Linux has (the symbols, and no path under /proc).
LINUX_ONLY = inotify_ signalfd pidfd_ epoll_ syscall mallinfo accept4 pipe2 \
	prctl
check-osdep:
	@$(MAKE) --no-print-directory OSDEP=generic BUILD=build-generic \
	    BIN=build-generic/bin all
	@for b in build-generic/bin/lisad build-generic/bin/lisa; do \
		for s in $(LINUX_ONLY); do \
			if nm -u $$b | grep -q " $$s"; then \
				echo "$$b: Linux-only $$s"; exit 1; fi; \
		done; \
		if strings $$b | grep -q '/proc/'; then \
			echo "$$b: a /proc path"; exit 1; fi; \
	done; echo "generic backend: built, no Linux-only symbol or /proc path"

# gcc's warnings depend on the optimisation level (-O1 missed a length
# check that -O2 saw, and check-valgrind, at -O1, failed 33 minutes into
# CI): each level the project builds at, warning-free, in a minute.
OPT_LEVELS = -O0 -O1 -Os -O3
check-opt:
	@for o in $(OPT_LEVELS); do rm -rf build-opt; \
		$(MAKE) --no-print-directory -s BUILD=build-opt BIN=build-opt/bin \
		    CFLAGS="$$o" all test-bins >/dev/null || exit 1; \
	done; rm -rf build-opt; echo "gcc $(OPT_LEVELS): warning-free"

# Every shell script lisa ships or runs its tests with is plain POSIX sh.
SH_SCRIPTS = lisa.tmux plugin/demo.sh plugin/install-deps.sh bench/run.sh \
	.ci/tmux-debian.sh .ci/macos-cross.sh .ci/musl.sh tests/run.sh \
	tests/integration/lib.sh tests/layout.sh tests/agents/install.sh
lint-sh:
	@shellcheck -s sh -S warning $(SH_SCRIPTS) && \
	    echo "shellcheck -s sh: $(words $(SH_SCRIPTS)) scripts, no warning"

# libFuzzer targets, one per parser (tests/fuzz), under ASan and UBSan.
# FUZZ_SECONDS per target (CI: a short smoke); findings stop the run.
FUZZ_TARGETS = fuzz_control fuzz_text fuzz_quote fuzz_json fuzz_claude \
	fuzz_config fuzz_run fuzz_fleet fuzz_question
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=undefined
FUZZ_SECONDS ?= 60
fuzz:
	@$(MAKE) --no-print-directory BUILD=build-fuzz BIN=build-fuzz/bin \
	    CC=clang CFLAGS='$(FUZZ_FLAGS)' fuzz-bins
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p build-fuzz/corpus/$$t build-fuzz/crashes; \
		echo "== $$t ($(FUZZ_SECONDS) s)"; \
		build-fuzz/$$t -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
		    -artifact_prefix=build-fuzz/crashes/$$t- \
		    build-fuzz/corpus/$$t tests/fuzz/corpus/$$t 2>&1 | \
		    grep -E 'Done [0-9]+ runs|ERROR|SUMMARY|Test unit written'; \
		ls build-fuzz/crashes/$$t-* >/dev/null 2>&1 && exit 1; \
	done; echo "fuzz: $(words $(FUZZ_TARGETS)) targets, no findings"

fuzz-bins: $(patsubst %,$(BUILD)/%,$(FUZZ_TARGETS))
# Every build links each fuzzer with tests/fuzz/replay.c instead of
# libFuzzer (clang only), so a changed parser's call or a symbol a fuzzer
# lacks breaks here, not in CI's make fuzz.
test-bins: $(patsubst fuzz_%,$(BUILD)/tests/replay_%,$(FUZZ_TARGETS))
$(BUILD)/tests/replay_%: $(BUILD)/tests/fuzz/fuzz_%.o \
		$(BUILD)/tests/fuzz/replay.o $(SHARED_OBJS) $(CONTROL_OBJS)
	$(call say,LD,$@)$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)
$(BUILD)/tests/replay_fleet: $(BUILD)/plugin/lisad/fleet-pane.o \
		$(BUILD)/plugin/lisad/fleet-show.o

$(BUILD)/fuzz_%: $(BUILD)/tests/fuzz/fuzz_%.o $(SHARED_OBJS) $(CONTROL_OBJS)
	$(call say,LD,$@)$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

# (the fleet's parser is the helper's: its file, the helper stubbed)
$(BUILD)/tests/fuzz/fuzz_fleet.o: ALL_CFLAGS += -Iplugin/lisad
$(BUILD)/fuzz_fleet: $(BUILD)/tests/fuzz/fuzz_fleet.o $(BUILD)/plugin/lisad/fleet-pane.o \
		$(BUILD)/plugin/lisad/fleet-show.o \
		$(SHARED_OBJS) $(CONTROL_OBJS)
	$(call say,LD,$@)$(CC) $(CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

test-unit: $(UNIT_BINS)
	@sh tests/run.sh --unit-only $(UNIT_BINS)

test-integration: all $(BUILD)/tests/quote-roundtrip \
	$(BUILD)/tests/wallclock-shift.so
	@sh tests/run.sh --integration-only

# The real Claude Code and Codex CLIs (npm, cached outside the repo),
# offline against scripted model servers. AGENT_VERSIONS=latest runs the
# newest published versions; REPORT=docs/conformance.md keeps the table.
AGENT_VERSIONS ?= pinned
REPORT ?=
test-agents: all
	@python3 tests/agents/conformance.py --versions $(AGENT_VERSIONS) \
	    $(if $(AGENTS),--agents $(AGENTS)) \
	    $(if $(AGENT_JOBS),--jobs $(AGENT_JOBS)) \
	    $(if $(HOOK_AGENTS),--hook-agents $(HOOK_AGENTS)) \
	    $(if $(REPORT),--report $(REPORT))

bench: all $(BUILD)/bench/lisa-bench $(BUILD)/bench/trickle \
		$(BUILD)/bench/agentlet
	@LISA_BIN_DIR=$(abspath $(BIN)) LISA_BUILD_DIR=$(BUILD) sh bench/run.sh

$(BUILD)/bench/trickle: $(BUILD)/bench/trickle.o
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^

$(BUILD)/bench/agentlet: $(BUILD)/bench/agentlet.o
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^

deps:
	@sh plugin/install-deps.sh

demo: all
	@sh plugin/demo.sh

# docs/screenshots/*.png: the demo's screen, menu and details popup, as an
# attached client shows them (needs python3-pil and fonts-dejavu-core).
SHOTS ?= $(BUILD)/shots
screenshots: all
	@rm -rf $(SHOTS) && mkdir -p $(SHOTS) docs/screenshots
	DEMO_SECONDS=32 DEMO_CAPTURE=$(SHOTS) sh plugin/demo.sh > $(SHOTS)/demo.txt
	for s in screen menu details; do \
		/usr/bin/python3 docs/render-screenshot.py $(SHOTS)/$$s.ansi \
		    docs/screenshots/$$s.png || exit 1; done
	# The same on tmux's default green status bar.
	mkdir -p $(SHOTS)/default
	DEMO_THEME=default DEMO_SECONDS=32 DEMO_CAPTURE=$(SHOTS)/default \
	    sh plugin/demo.sh > $(SHOTS)/default/demo.txt
	/usr/bin/python3 docs/render-screenshot.py $(SHOTS)/default/screen.ansi \
	    docs/screenshots/screen-default.png

clean:
	rm -rf $(BUILD) build-asan build-fuzz build-vg bin/lisad bin/lisa \
	    bin/lisa-bench

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

$(BUILD)/tests/quote-roundtrip: $(BUILD)/tests/integration/quote-roundtrip.o \
		$(BUILD)/plugin/shared/tmux-version.o \
		$(CONTROL_OBJS)
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

# A wall clock the tests move (LD_PRELOAD into the helper).
$(BUILD)/tests/wallclock-shift.so: tests/integration/wallclock-shift.c
	@mkdir -p $(dir $@)
	$(call say,LD,$@)$(CC) -std=c11 -Wall -Wextra -O2 -shared -fPIC -o $@ $< -ldl

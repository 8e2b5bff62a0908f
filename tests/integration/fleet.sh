# The fleet's test helpers (sourced by test-fleet*.sh): a real OpenSSH
# server on loopback; two "hosts" (devbox, gpu1) are names in an ssh_config
# for the same sshd, each with its own tmux server.

. "$ROOT/tests/integration/agents.sh"

R1() { tmux -L "${SOCK}r1" -f /dev/null "$@"; }
R2() { tmux -L "${SOCK}r2" -f /dev/null "$@"; }

# sshd on a free loopback port, a throwaway host key, our key authorized.
start_sshd() {
	SSHD=$(command -v sshd || echo /usr/sbin/sshd)
	[ -x "$SSHD" ] || skip "no OpenSSH server (Debian: openssh-server)"
	# (OpenSSH's privilege separation directory, which its package
	# makes at boot; root only)
	if [ ! -d /run/sshd ]; then
		[ "$(id -u)" = 0 ] || skip "no /run/sshd, and not root to make it"
		mkdir -p -m 755 /run/sshd
	fi
	S="$TESTDIR/ssh"
	mkdir -m 700 "$S"
	ssh-keygen -q -t ed25519 -N '' -f "$S/hostkey" || fail "ssh-keygen"
	ssh-keygen -q -t ed25519 -N '' -f "$S/id" || fail "ssh-keygen"
	# The sessions' environment, as a host's own would be: lisa on its
	# PATH (the default @lisa-remote-lisa finds it), the tmux under test,
	# the remote helpers' runtime directory.
	mkdir -p "$TESTDIR/rbin" "$TESTDIR/remote-run"
	chmod 700 "$TESTDIR/remote-run"
	ln -s "$LISA" "$TESTDIR/rbin/lisa"
	# (its state, lisa resume's records, is its own: another machine's)
	printf 'environment="PATH=%s:%s",environment="XDG_RUNTIME_DIR=%s",environment="HOME=%s",environment="XDG_STATE_HOME=%s" %s\n' \
	    "$TESTDIR/rbin" "$PATH" "$TESTDIR/remote-run" "$HOME" \
	    "$TESTDIR/remote-state" "$(cat "$S/id.pub")" >"$S/authorized_keys"
	PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	# SHLVL: bash reads no ~/.bashrc for a command sshd runs when it
	# is set (a user's rc files are not what this tests).
	cat >"$S/sshd_config" <<EOF
Port $PORT
ListenAddress 127.0.0.1
HostKey $S/hostkey
AuthorizedKeysFile $S/authorized_keys
PidFile $S/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
PermitRootLogin prohibit-password
AcceptEnv SHLVL
PermitUserEnvironment yes
EOF
	cat >"$S/config" <<EOF
Host devbox gpu1
  HostName 127.0.0.1
  Port $PORT
  User $(id -un)
  IdentityFile $S/id
  IdentitiesOnly yes
  UserKnownHostsFile /dev/null
  StrictHostKeyChecking no
  LogLevel ERROR
  SetEnv SHLVL=1
EOF
	sshd_up
}

sshd_up() {
	"$SSHD" -D -f "$S/sshd_config" -E "$S/sshd.log" &
	SSHD_PID=$!
	until_ms 10000 ssh -F "$S/config" -o BatchMode=yes devbox true ||
	    fail "sshd did not come up: $(cat "$S/sshd.log")"
}

# The listener and every connection it serves (its own descendants only:
# another suite's sshd may run beside): the host is gone.
kill_tree() {
	for _c in $(pgrep -P "$1"); do
		kill_tree "$_c"
	done
	kill "$1" 2>/dev/null
}

sshd_down() {
	kill -STOP "$SSHD_PID" 2>/dev/null	# (accepts nothing meanwhile)
	kill_tree "$SSHD_PID"
	kill -CONT "$SSHD_PID" 2>/dev/null
	wait "$SSHD_PID" 2>/dev/null
	SSHD_PID=
}

fleet_cleanup() {
	[ -n "${SSHD_PID:-}" ] && sshd_down
	R1 kill-server 2>/dev/null
	R2 kill-server 2>/dev/null
	cleanup
}

# Two remote tmux servers, the local one, lisa on it with both as hosts.
# The remote helpers keep their sockets in their own runtime directory.
setup_fleet() {
	trap fleet_cleanup EXIT
	export HOME="$TESTDIR/home"
	mkdir -p "$HOME"
	export FAKE_AGENT_LOG="$TESTDIR/agent.log"
	start_sshd
	for r in R1 R2; do
		$r new-session -d -s work -x 120 -y 40 sh
		$r set -g @lisa-grace 1
		$r set -g @lisa-debounce 0.5
		$r set -g remain-on-exit on
	done
	H1="devbox/${SOCK}r1" H2="gpu1/${SOCK}r2"
	# A test that acts there starts the hosts' helpers itself, verbose,
	# in the environment sshd gives (the bridge finds them running): a
	# failure shows what they did (a bridge starts them quiet).
	if [ -n "${FLEET_REMOTE_LOGS:-}" ]; then
		for r in r1 r2; do
			env PATH="$TESTDIR/rbin:$PATH" HOME="$HOME" \
			    XDG_RUNTIME_DIR="$TESTDIR/remote-run" \
			    XDG_STATE_HOME="$TESTDIR/remote-state" \
			    "$LISA" -L "${SOCK}$r" start -v >/dev/null ||
			    fail "no helper on $r"
		done
		LISA_MORE_LOGS="$TESTDIR/remote-run/lisa/*.log"
	fi
	PATH="${FLEET_SERVER_PATH:-$PATH}" start_server main
	T set -g @lisa-ssh-command "ssh -F $S/config"
	T set -g @lisa-hosts "$H1 $H2"
	start_helper
	until_ms 20000 hosts_are connected connected ||
	    fail "hosts not connected: $(L hosts)"
}

down_with_reason() {
	L hosts --json >"$TESTDIR/hosts.json" &&
	    jget "(d[0]['state'] == 'down' and d[0]['reason']) or exit(1)" \
	    <"$TESTDIR/hosts.json"
}

hosts_are() {
	[ "$(L hosts --json | jget "' '.join(h['state'] for h in d)")" = "$*" ]
}

# A remote pane's field as the local helper has it.
rfield() {
	L list --json | jget "[p for p in d if p['pane_id']=='$1' and p['host']=='$2'][0]['$3']"
}

# (and current: its host connected, not what we last saw of it)
rstate_is() {
	[ "$(rfield "$1" "$2" state) $(rfield "$1" "$2" current)" = "$3 true" ]
}

rpane_gone() {
	[ "$(L list --json | jget "len([p for p in d if p['pane_id']=='$1' and p['host']=='$2'])")" = 0 ]
}

expect_remote() {
	until_ms "${4:-8000}" rstate_is "$1" "$2" "$3" ||
	    fail "$1@$2 never $3 locally: $(L list --json | jget "[p for p in d if p['host']=='$2']")"
}

# A real client on the local server (an outer tmux's pane), whose screen
# the test reads.
attach_outer() {
	OUTER="${SOCK}o"
	tmux -L "$OUTER" -f /dev/null new-session -d -x 160 -y 30 \
	    "env -u TMUX tmux -L $SOCK attach -t main"
	# (tmux 3.2a gives a detached session 80x23 whatever -x and -y say)
	tmux_at_least 3 3 || tmux -L "$OUTER" resize-window -x 160 -y 30
	trap 'tmux -L "$OUTER" kill-server 2>/dev/null; fleet_cleanup' EXIT
	until_ms 5000 sh -c "[ -n \"\$(tmux -L $SOCK list-clients -F '#{client_control_mode}' | grep 0)\" ]" ||
	    fail "client did not attach"
}

O() { tmux -L "$OUTER" -f /dev/null "$@"; }

# The pid of the ssh that carries HOST (lisad's child, "ssh ... HOST").
host_ssh() {
	pgrep -P "$HELPER_PID" -a ssh | grep -F -- " ${1%%/*} " | awk '{ print $1 }'
}

# A host's agents as (pane, state) pairs: as it has them, as we do.
host_states() {
	env XDG_RUNTIME_DIR="$TESTDIR/remote-run" "$LISA" -L "${SOCK}$1" list --json |
	    jget "sorted((p['pane_id'], p['state']) for p in d if p['state'])"
}

local_states() {
	L list --json | jget "sorted((p['pane_id'], p['state']) for p in d if p['host'] == '$1' and p['state'])"
}

states_as_host() { [ "$(host_states "$1")" = "$(local_states "$2")" ]; }

host_state_is() {
	[ "$(L hosts --json | jget "[h['state'] for h in d if h['host']=='$1'][0]")" = "$2" ]
}

# After a fault and the reconnection that follows: the host's agents as
# the host has them (none lost, none twice), current again.
fleet_agreed() {
	until_ms "${2:-30000}" hosts_are connected connected ||
	    fail "not back: $(L hosts)"
	until_ms 10000 states_as_host r1 "$H1" ||
	    fail "states differ: the host $(host_states r1); here $(local_states "$H1")"
	n=$(L list --json | jget "len([p for p in d if p['host']=='$H1' and p['state'] and not p['current']])")
	[ "$n" = 0 ] || fail "$n agents of $H1 not current: $(L list --json)"
	L events | grep -q "$H1: .* -> $1" ||
	    fail "no event of the fault: $(L events | tail -n 8)"
}

# Host "cutbox": the r1 server through a proxy of the test's own (ssh's
# ProxyCommand). Once $TESTDIR/cut exists it passes half of the next
# piece from the host and closes (mid-packet; $TESTDIR/cut.log says how
# much); while $TESTDIR/hold exists it passes nothing either way and
# closes nothing (a network gone silent). Later connections pass whole.
# It takes devbox's place as H1, connected.
proxy_host() {
	cat >"$TESTDIR/cutproxy.py" <<'PY'
import os, select, socket, sys, time
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
cut, hold, log = sys.argv[3], sys.argv[4], sys.argv[3] + ".log"
i, o = sys.stdin.fileno(), sys.stdout.fileno()
held = False
while True:
    if held or os.path.exists(hold):
        held = True
        time.sleep(0.2)
        continue
    r, _, _ = select.select([i, s], [], [], 0.2)
    if i in r:
        b = os.read(i, 65536)
        if not b:
            break
        s.sendall(b)
    if s in r:
        b = s.recv(65536)
        if not b:
            break
        if os.path.exists(cut) and len(b) >= 2:
            os.unlink(cut)
            os.write(o, b[:len(b) // 2])
            with open(log, "a") as f:
                f.write("cut %d of %d bytes\n" % (len(b) // 2, len(b)))
            break
        os.write(o, b)
PY
	cat >>"$S/config" <<EOF
Host cutbox
  HostName 127.0.0.1
  Port $PORT
  User $(id -un)
  IdentityFile $S/id
  IdentitiesOnly yes
  UserKnownHostsFile /dev/null
  StrictHostKeyChecking no
  LogLevel ERROR
  SetEnv SHLVL=1
  ProxyCommand python3 $TESTDIR/cutproxy.py %h %p $TESTDIR/cut $TESTDIR/hold
EOF
	H1="cutbox/${SOCK}r1"
	T set -g @lisa-hosts "$H1 $H2"
	L reload >/dev/null
	until_ms 20000 host_state_is "$H1" connected ||
	    fail "cutbox not connected: $(L hosts)"
}

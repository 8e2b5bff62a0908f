#!/usr/bin/env python3
"""F1, the fleet (docs/fleet.md): HOSTS hosts x AGENTS fake agents, each host
its own tmux server reached over a real sshd on loopback. Measures the local
helper at rest (wakeups/s, CPU) and how long a remote transition takes to
reach it: the remote helper's event time against the local helper's, both
stamped on this machine's clock.

fleet.py LISA FAKE_CLAUDE [HOSTS AGENTS SECONDS ROUNDS]   (root: sshd)
"""
import json, os, random, shutil, socket, subprocess, sys, tempfile, time

lisa, fake = sys.argv[1], sys.argv[2]
hosts = int(sys.argv[3]) if len(sys.argv) > 3 else 10
agents = int(sys.argv[4]) if len(sys.argv) > 4 else 20
seconds = float(sys.argv[5]) if len(sys.argv) > 5 else 30
rounds = int(sys.argv[6]) if len(sys.argv) > 6 else 100

sshd = shutil.which("sshd") or "/usr/sbin/sshd"
if not os.access(sshd, os.X_OK) or os.getuid() != 0:
    print("F1 skipped: needs an OpenSSH server (openssh-server) and root")
    sys.exit(0)
os.makedirs("/run/sshd", mode=0o755, exist_ok=True)

tmp = tempfile.mkdtemp(prefix="lisa-fleet-bench.")
os.chmod(tmp, 0o700)
home = os.path.join(tmp, "home")
os.makedirs(home)
run_local = os.path.join(tmp, "run-local")
run_remote = os.path.join(tmp, "run-remote")
for d in (run_local, run_remote):
    os.makedirs(d, mode=0o700)
env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=run_local)
env.pop("TMUX", None)
tag = "fb%d" % os.getpid()
local = tag + "l"
remotes = ["%sr%d" % (tag, i) for i in range(hosts)]
procs = []

def sh(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, env=env, **kw)

def tmux(server, *args):
    return sh("tmux", "-L", server, "-f", "/dev/null", *args).stdout.strip()

def lisa_json(server, *args, runtime=run_local):
    e = dict(env, XDG_RUNTIME_DIR=runtime)
    out = subprocess.run([lisa, "-L", server] + list(args), capture_output=True,
                         text=True, env=e)
    if out.returncode != 0:
        return None
    if args[0] == "events":
        return [json.loads(l) for l in out.stdout.splitlines() if l]
    return json.loads(out.stdout)

def wait_for(pred, timeout, what):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.1)
    raise SystemExit("F1: timed out waiting for " + what)

def cleanup():
    for s in remotes + [local]:
        sh("tmux", "-L", s, "kill-server")
    for p in procs:
        p.terminate()
    subprocess.run(["pkill", "-f", "sshd: .*" + tag], capture_output=True)
    shutil.rmtree(tmp, ignore_errors=True)

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]

def proc_stat(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    with open("/proc/%d/status" % pid) as f:
        st = dict(l.split(":", 1) for l in f if ":" in l)
    return ticks, int(st["voluntary_ctxt_switches"]) + \
        int(st["nonvoluntary_ctxt_switches"])

try:
    # sshd with a throwaway host key, our key authorized.
    for k in ("hostkey", "id"):
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(tmp, k))
    shutil.copy(os.path.join(tmp, "id.pub"), os.path.join(tmp, "authorized_keys"))
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    with open(os.path.join(tmp, "sshd_config"), "w") as f:
        f.write("Port %d\nListenAddress 127.0.0.1\nHostKey %s/hostkey\n"
                "AuthorizedKeysFile %s/authorized_keys\nPidFile %s/sshd.pid\n"
                "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                "UsePAM no\nStrictModes no\nAcceptEnv SHLVL\n"
                "MaxSessions 100\nMaxStartups 100\n" % (port, tmp, tmp, tmp))
    with open(os.path.join(tmp, "config"), "w") as f:
        f.write("Host h*\n  HostName 127.0.0.1\n  Port %d\n  User root\n"
                "  IdentityFile %s/id\n  IdentitiesOnly yes\n"
                "  UserKnownHostsFile /dev/null\n  StrictHostKeyChecking no\n"
                "  LogLevel ERROR\n  SetEnv SHLVL=1\n" % (port, tmp))
    procs.append(subprocess.Popen([sshd, "-D", "-f", os.path.join(tmp, "sshd_config"),
                                   "-E", os.path.join(tmp, "sshd.log")]))
    # The hosts: a tmux server each, AGENTS fake agents at their prompt.
    for r in remotes:
        tmux(r, "new-session", "-d", "-s", "work", "-x", "120", "-y", "40", "sleep 86400")
        tmux(r, "set", "-g", "@lisa-grace", "1")
        tmux(r, "set", "-g", "@lisa-debounce", "0.5")
        for i in range(agents):
            tmux(r, "new-window", "-d", "-n", "claude", fake)
    tmux(local, "new-session", "-d", "-s", "main", "-x", "120", "-y", "40", "sleep 86400")
    tmux(local, "set", "-g", "@lisa-ssh-command", "ssh -F %s/config" % tmp)
    tmux(local, "set", "-g", "@lisa-remote-lisa",
         "env XDG_RUNTIME_DIR=%s HOME=%s %s" % (run_remote, home, lisa))
    tmux(local, "set", "-g", "@lisa-hosts",
         " ".join("h%d/%s" % (i, r) for i, r in enumerate(remotes)))
    helper = subprocess.Popen([os.path.join(os.path.dirname(lisa), "lisad"), "-F",
                               "-L", local], env=env)
    procs.append(helper)
    t0 = time.time()
    def all_waiting():
        ps = lisa_json(local, "list", "--json") or []
        n = sum(1 for p in ps if p.get("host") and p.get("state") == "waiting_input")
        return n >= hosts * agents
    wait_for(all_waiting, 120, "%d remote agents waiting" % (hosts * agents))
    up = time.time() - t0
    time.sleep(2)
    # At rest: nothing happens anywhere.
    c0, w0 = proc_stat(helper.pid)
    time.sleep(seconds)
    c1, w1 = proc_stat(helper.pid)
    hz = os.sysconf("SC_CLK_TCK")
    idle_w = (w1 - w0) / seconds
    idle_cpu = (c1 - c0) / hz / seconds * 100
    # Transitions: a remote agent works a moment, then waits again.
    random.seed(7)
    panes = {}
    for i, r in enumerate(remotes):
        panes[i] = tmux(r, "list-panes", "-a", "-F", "#{pane_id} #{window_name}").split("\n")
        panes[i] = [l.split()[0] for l in panes[i] if l.endswith("claude")]
    since = int(time.time() * 1000)
    for k in range(rounds):
        i = random.randrange(hosts)
        p = random.choice(panes[i])
        tmux(remotes[i], "send-keys", "-t", p, "work 1", "Enter")
        time.sleep(0.05)
    time.sleep(5)
    lat = []
    levs = [e for e in (lisa_json(local, "events", "--json") or [])
            if e.get("host") and e.get("event") == "transition" and e["ts_ms"] >= since]
    for i, r in enumerate(remotes):
        revs = [e for e in (lisa_json(r, "events", "--json", runtime=run_remote) or [])
                if e.get("event") == "transition" and e["ts_ms"] >= since]
        host = "h%d/%s" % (i, r)
        for le in levs:
            if le["host"] != host:
                continue
            # The remote transition it carries: same pane, same move, the
            # last one at or before it.
            cands = [re["ts_ms"] for re in revs if re["pane_id"] == le["pane_id"]
                     and re["to"] == le["to"] and re["ts_ms"] <= le["ts_ms"]]
            if cands:
                lat.append(le["ts_ms"] - max(cands))
    print("F1 fleet: %d hosts x %d agents over sshd on loopback (%s)" %
          (hosts, agents, subprocess.run(["ssh", "-V"], capture_output=True,
                                         text=True).stderr.strip()))
    print("  all %d remote agents shown waiting %.1f s after the helper started"
          % (hosts * agents, up))
    print("  at rest, %.0f s: local helper %.2f wakeups/s, %.3f %% of a core"
          % (seconds, idle_w, idle_cpu))
    if lat:
        print("  remote transition -> local helper: n=%d p50 %d ms p99 %d ms max %d ms"
              % (len(lat), pct(lat, 50), pct(lat, 99), max(lat)))
    else:
        print("  remote transition -> local helper: none matched")
finally:
    cleanup()

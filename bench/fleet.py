#!/usr/bin/env python3
"""The fleet (docs/fleet.md): HOSTS hosts x AGENTS agents, each host its own
tmux server reached over one real sshd on loopback.

F1 (fake Claude Code agents, remote helpers at a fast debounce): the local
helper at rest (wakeups/s, CPU) and how long a remote transition takes to
reach it: the remote helper's event time against the local helper's, both
stamped on this machine's clock.

F2 (bench/agentlet as the agents, every helper at lisa's defaults): a
thousand agents; the local helper at rest and in a burst, remote change to
the local option, lisa list, and what the ssh and bridge processes cost.

fleet.py F1 LISA FAKE_CLAUDE [HOSTS AGENTS SECONDS ROUNDS]   (root: sshd)
fleet.py F2 LISA AGENTLET [HOSTS AGENTS SECONDS ROUNDS]
"""
import json, os, random, shutil, signal, socket, subprocess, sys, tempfile, time

from probe import Probe

bench, lisa, fake = sys.argv[1], sys.argv[2], sys.argv[3]
hosts = int(sys.argv[4]) if len(sys.argv) > 4 else 10
agents = int(sys.argv[5]) if len(sys.argv) > 5 else 20
seconds = float(sys.argv[6]) if len(sys.argv) > 6 else 30
rounds = int(sys.argv[7]) if len(sys.argv) > 7 else 100

sshd = shutil.which("sshd") or "/usr/sbin/sshd"
if not os.access(sshd, os.X_OK) or os.getuid() != 0:
    print("%s skipped: needs an OpenSSH server (openssh-server) and root" % bench)
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
    raise SystemExit("%s: timed out waiting for %s" % (bench, what))

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

def start_fleet(agent_argv, remote_opts):
    """sshd, the hosts' tmux servers with their agents, the local server
    and its helper; returns the helper's Popen."""
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
                "MaxSessions 100\nMaxStartups 200\n" % (port, tmp, tmp, tmp))
    with open(os.path.join(tmp, "config"), "w") as f:
        f.write("Host h*\n  HostName 127.0.0.1\n  Port %d\n  User root\n"
                "  IdentityFile %s/id\n  IdentitiesOnly yes\n"
                "  UserKnownHostsFile /dev/null\n  StrictHostKeyChecking no\n"
                "  LogLevel ERROR\n  SetEnv SHLVL=1\n" % (port, tmp))
    procs.append(subprocess.Popen([sshd, "-D", "-f", os.path.join(tmp, "sshd_config"),
                                   "-E", os.path.join(tmp, "sshd.log")]))
    # The hosts: a tmux server each, AGENTS agents at their prompt.
    for r in remotes:
        tmux(r, "new-session", "-d", "-s", "work", "-x", "120", "-y", "40", "sleep 86400")
        for k, v in remote_opts:
            tmux(r, "set", "-g", k, v)
        for i in range(agents):
            tmux(r, "new-window", "-d", "-n", "agent", *agent_argv)
    tmux(local, "new-session", "-d", "-s", "main", "-x", "120", "-y", "40", "sleep 86400")
    tmux(local, "set", "-g", "@lisa-ssh-command", "ssh -F %s/config" % tmp)
    tmux(local, "set", "-g", "@lisa-remote-lisa",
         "env XDG_RUNTIME_DIR=%s HOME=%s %s" % (run_remote, home, lisa))
    tmux(local, "set", "-g", "@lisa-hosts",
         " ".join("h%d/%s" % (i, r) for i, r in enumerate(remotes)))
    helper = subprocess.Popen([os.path.join(os.path.dirname(lisa), "lisad"), "-F",
                               "-L", local], env=env)
    procs.append(helper)
    return helper

def remote_panes():
    panes = {}
    for i, r in enumerate(remotes):
        panes[i] = tmux(r, "list-panes", "-a", "-F", "#{pane_id} #{window_name}").split("\n")
        panes[i] = [l.split()[0] for l in panes[i] if l.endswith("agent")]
    return panes

def all_waiting():
    ps = lisa_json(local, "list", "--json") or []
    n = sum(1 for p in ps if p.get("host") and p.get("state") == "waiting_input")
    return n >= hosts * agents

def ssh_version():
    return subprocess.run(["ssh", "-V"], capture_output=True, text=True).stderr.strip()

def f1():
    helper = start_fleet([fake], [("@lisa-grace", "1"), ("@lisa-debounce", "0.5")])
    t0 = time.time()
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
    panes = remote_panes()
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
          (hosts, agents, ssh_version()))
    print("  all %d remote agents shown waiting %.1f s after the helper started"
          % (hosts * agents, up))
    print("  at rest, %.0f s: local helper %.2f wakeups/s, %.3f %% of a core"
          % (seconds, idle_w, idle_cpu))
    if lat:
        print("  remote transition -> local helper: n=%d p50 %d ms p99 %d ms max %d ms"
              % (len(lat), pct(lat, 50), pct(lat, 99), max(lat)))
    else:
        print("  remote transition -> local helper: none matched")

AGENTLET_PROFILE = {"agents": [{"name": "agentlet", "comm": ["agentlet"],
                                "screen": {"prompt": "^> *$"}}]}

def hosts_waiting(probe):
    """How many remote agents the hosts' summary says wait ("50 hosts:1000!12")."""
    v = probe.ask("display -p '#{E:@lisa_hosts_format}'")
    if ":" not in v or "..." in v or "down" in v:
        return -1
    return sum(int(t.split("!")[1]) for t in v.split() if "!" in t)

def descendants(pid):
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            with open("/proc/%d/task/%d/children" % (p, p)) as f:
                kids = [int(k) for k in f.read().split()]
        except OSError:
            continue
        out += kids
        todo += kids
    return out

def comm(pid):
    try:
        with open("/proc/%d/comm" % pid) as f:
            return f.read().strip()
    except OSError:
        return ""

def roles(helper, sshd):
    """The processes the fleet adds, by role: the local ssh clients (the
    helper's children), sshd's per-connection processes and the bridges
    under them, and the hosts' own helpers (lisad of a remote server)."""
    r = {"ssh clients": [], "sshd": [], "bridges": [], "hosts' helpers": []}
    for p in descendants(helper):
        if comm(p) == "ssh":
            r["ssh clients"].append(p)
    for p in descendants(sshd):
        r["sshd" if comm(p).startswith("sshd") else "bridges"].append(p)
    for d in os.listdir("/proc"):
        if not d.isdigit() or int(d) == helper:
            continue
        try:
            with open("/proc/%s/cmdline" % d, "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if os.path.basename(argv[0]) == b"lisad" and tag.encode() in b" ".join(argv):
            r["hosts' helpers"].append(int(d))
    return r

def ticks(pids):
    t = 0
    for p in pids:
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            t += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return t

def rss_kb(pid, what="VmRSS"):
    with open("/proc/%d/status" % pid) as f:
        for l in f:
            if l.startswith(what + ":"):
                return int(l.split()[1])
    return 0

def agentlets():
    """{(host index, pane id): agentlet pid}"""
    out = {}
    for i, r in enumerate(remotes):
        for l in tmux(r, "list-panes", "-a", "-F", "#{pane_id} #{pane_pid}").split("\n"):
            pane, pid = l.split()
            for p in [int(pid)] + descendants(int(pid)):
                if comm(p) == "agentlet":
                    out[(i, pane)] = p
    return out

def remote_moves(since, to):
    """Every remote transition to TO since then: [(ts_ms, host, pane)]."""
    out = []
    for i, r in enumerate(remotes):
        for e in lisa_json(r, "events", "--json", runtime=run_remote) or []:
            if e.get("event") == "transition" and e["ts_ms"] >= since and \
                    e.get("to", "").split("/")[0] == to:
                out.append((e["ts_ms"], i, e["pane_id"]))
    return sorted(out)

def local_moves(since, to):
    out = {}
    for e in lisa_json(local, "events", "--json") or []:
        if e.get("host") and e.get("event") == "transition" and \
                e["ts_ms"] >= since and e.get("to", "").split("/")[0] == to:
            i = int(e["host"].split("/")[0][1:])
            out.setdefault((i, e["pane_id"]), []).append(e["ts_ms"])
    return out

def helper_lat(rem, loc):
    """Remote event -> local helper event, matched by host and pane."""
    lat = []
    for ts, i, pane in rem:
        later = [t for t in loc.get((i, pane), []) if t >= ts]
        if later:
            lat.append(min(later) - ts)
    return lat

def summary(xs):
    if not xs:
        return "none"
    return "n=%d p50 %d ms p99 %d ms max %d ms" % (len(xs), pct(xs, 50), pct(xs, 99), max(xs))

def list_times(n):
    out = []
    for _ in range(n):
        t = time.monotonic()
        subprocess.run([lisa, "-L", local, "list", "--json"], env=env,
                       stdout=subprocess.DEVNULL)
        out.append((time.monotonic() - t) * 1000)
    return out

def f2(agentlet):
    n = hosts * agents
    hz = os.sysconf("SC_CLK_TCK")
    os.makedirs(os.path.join(home, ".config", "lisa"), exist_ok=True)
    with open(os.path.join(home, ".config", "lisa", "agents.json"), "w") as f:
        json.dump(AGENTLET_PROFILE, f)
    work_ms = 60000
    env["WORK_MS"] = str(work_ms)
    helper = start_fleet([agentlet], [])
    t0 = time.time()
    wait_for(all_waiting, 600, "%d remote agents waiting" % n)
    up = time.time() - t0
    sshd = procs[0].pid
    time.sleep(10)
    who = roles(helper.pid, sshd)
    # At rest.
    g0 = {k: ticks(v) for k, v in who.items()}
    c0, w0 = proc_stat(helper.pid)
    time.sleep(seconds)
    c1, w1 = proc_stat(helper.pid)
    g1 = {k: ticks(v) for k, v in who.items()}
    rest = {"wakeups": (w1 - w0) / seconds, "cpu": (c1 - c0) / hz / seconds * 100,
            "rss": rss_kb(helper.pid)}
    rest_groups = {k: (g1[k] - g0[k]) / hz / seconds * 100 for k in who}
    list_rest = list_times(30)
    probe = Probe(local, "f2probe", env)
    # (the helper writes its options into the probe's new session too)
    end = time.time() + 10
    while hosts_waiting(probe) != n and time.time() < end:
        time.sleep(0.01)
    if hosts_waiting(probe) != n:
        raise SystemExit("F2: @lisa_hosts does not say %d wait: %s" %
                         (n, probe.ask("display -p '#{E:@lisa_hosts_format}'")))
    # One agent at a time: the remote move, then the local option showing it.
    pids = agentlets()
    keys = sorted(pids)
    random.seed(7)
    chosen = random.sample(keys, min(rounds, len(keys)))
    since = int(time.time() * 1000)
    seen, start = [], time.time()
    for k, key in enumerate(chosen):
        if time.time() - start > work_ms / 1000.0 * 0.7:
            chosen = chosen[:k]
            break
        os.kill(pids[key], signal.SIGUSR1)
        end = time.time() + 10
        while time.time() < end:
            w = hosts_waiting(probe)
            if 0 <= w <= n - k - 1:
                break
            time.sleep(0.001)
        seen.append((int(time.time() * 1000), key))
        # Past the helper's gap between two batches of options
        # (PUBLISH_GAP, 200 ms): each move alone, as at rest.
        time.sleep(0.3)
    rem = remote_moves(since, "in_progress")
    first = {}
    for ts, i, pane in rem:
        first.setdefault((i, pane), ts)
    rest_opt = [ms - first[key] for ms, key in seen if key in first]
    rest_helper = helper_lat(rem, local_moves(since, "in_progress"))
    # prefix a and prefix A with a hundred of them waiting no more: all
    # of their work, up to the tmux command that shows it, which fails
    # on a client that is not there (a control client's menu would wait
    # to be closed; the bench has no terminal).
    # Two ways: as the binding runs it now (--to: the command written for
    # the client to source, its facts given with the key: no tmux client),
    # and as it ran before (lisa asking tmux and running the command).
    client = "f2-no-client"
    bound = [l for l in tmux(local, "list-keys", "-T", "prefix").split("\n")
             if " key menu " in l and "--to '" in l]
    to = bound[0].split("--to '", 1)[1].split("'", 1)[0] + "1" if bound else None
    at = "%%0 40 %s %s" % (tmux(local, "display", "-p", "#{version}").strip(),
                          tmux(local, "display", "-p", "#{pid}-#{start_time}").strip())
    keys_t = {}
    for what in ("menu", "next", "menu-old", "next-old"):
        keys_t[what] = []
        argv = [lisa, "-L", local, "key", what.split("-")[0], client]
        if not what.endswith("-old"):
            if to is None:
                continue
            argv[4:4] = ["--to", to, "--at", at]
        for _ in range(10 if what.endswith("-old") else 30):
            t = time.monotonic()
            rc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode
            keys_t[what].append((time.monotonic() - t) * 1000)
            if "--to" in argv and (rc != 0 or not os.path.exists(to)):
                raise SystemExit("F2: lisa key %s --to wrote no command" % what)
    # (prefix A opened windows on remote panes: closed, with their ssh)
    for l in tmux(local, "list-windows", "-a", "-F",
                  "#{window_id} #{@lisa_jump_target}").split("\n"):
        if len(l.split()) > 1:
            tmux(local, "kill-window", "-t", l.split()[0])
    wait_for(all_waiting, work_ms / 1000.0 + 60, "the round's agents back")
    time.sleep(3)
    # The burst: every agent of every host starts a turn at once.
    def burst(sig_pids, target, start_at=None):
        """Until the option shows the last move; the CPU from the signal
        (or from start_at, just before the turns end) until a second
        after that."""
        if start_at is not None:
            time.sleep(max(0.0, start_at - time.time()))
        since = int(time.time() * 1000)
        snap = lambda: (time.time(), proc_stat(helper.pid)[0],
                        {k: ticks(v) for k, v in who.items()})
        t0, c0, g0 = snap()
        for p in sig_pids:
            os.kill(p, signal.SIGUSR1)
        samples, last = [], hosts_waiting(probe)
        end = time.time() + 120
        while time.time() < end:
            w = hosts_waiting(probe)
            if w != last:
                samples.append((int(time.time() * 1000), w))
                last = w
            if w == target:
                break
            time.sleep(0.002)
        shown = time.time() - t0
        time.sleep(1)
        t1, c1, g1 = snap()
        dt = t1 - t0
        return since, samples, shown, (c1 - c0) * 1000 // hz, \
            (c1 - c0) / hz / dt * 100, dt, \
            {k: (g1[k] - g0[k]) / hz / dt * 100 for k in who}
    def wave_lat(since, samples, to, going_down):
        rem = remote_moves(since, to)
        lat = []
        for k, (ts, i, pane) in enumerate(rem):
            # shown once the count has moved k+1 places
            for ms, w in samples:
                moved = (n - w) if going_down else w
                if w >= 0 and moved >= k + 1:
                    lat.append(ms - ts)
                    break
        return rem, lat
    pids = agentlets()
    t_sig = time.time()
    since1, s1, shown1, ms1, cpu1, dt1, grp1 = burst(list(pids.values()), 0)
    list_busy = list_times(10)
    c0 = proc_stat(helper.pid)[0]
    time.sleep(5)
    busy_cpu = (proc_stat(helper.pid)[0] - c0) / hz / 5 * 100
    rem1, opt1 = wave_lat(since1, s1, "in_progress", True)
    hl1 = helper_lat(rem1, local_moves(since1, "in_progress"))
    # The way back: each turn ends WORK_MS after it began, all within a second.
    since2, s2, shown2, ms2, cpu2, dt2, grp2 = burst([], n,
                                                     t_sig + work_ms / 1000.0 - 0.5)
    rem2, opt2 = wave_lat(since2, s2, "waiting_input", False)
    hl2 = helper_lat(rem2, local_moves(since2, "waiting_input"))
    probe.close()
    spread1 = (rem1[-1][0] - rem1[0][0]) if rem1 else 0
    spread2 = (rem2[-1][0] - rem2[0][0]) if rem2 else 0

    print("F2 fleet: %d hosts x %d agents (agentlets, lisa's defaults) over one "
          "sshd on loopback (%s)" % (hosts, agents, ssh_version()))
    print("  all %d remote agents shown waiting %.1f s after the helper started" % (n, up))
    print("  at rest, %.0f s: local helper %.2f wakeups/s, %.3f %% of a core, RSS %d KB"
          % (seconds, rest["wakeups"], rest["cpu"], rest["rss"]))
    for k in who:
        print("    %-15s %3d processes  %.3f %% of a core in all" %
              (k, len(who[k]), rest_groups[k]))
    print("  lisa list --json (%d agents), at rest: %s" % (n, summary_f(list_rest)))
    print("  lisa key menu (prefix a): %s" % summary_f(keys_t["menu"]))
    print("  lisa key next (prefix A): %s" % summary_f(keys_t["next"]))
    print("  before (run-shell -b, lisa running tmux):")
    print("    lisa key menu (prefix a): %s" % summary_f(keys_t["menu-old"]))
    print("    lisa key next (prefix A): %s" % summary_f(keys_t["next-old"]))
    print("  at rest, one agent at a time (%d):" % len(rest_opt))
    print("    remote transition -> local @lisa_hosts: %s" % summary(rest_opt))
    print("    remote transition -> local helper:      %s" % summary(rest_helper))
    for name, rem, shown, ms, cpu, dt, grp, opt, hl, spread in (
            ("to work", rem1, shown1, ms1, cpu1, dt1, grp1, opt1, hl1, spread1),
            ("back to the prompt", rem2, shown2, ms2, cpu2, dt2, grp2, opt2, hl2,
             spread2)):
        print("  burst, every agent %s (%d remote moves within %.2f s):" %
              (name, len(rem), spread / 1000.0))
        print("    the last shown %.2f s after %s; over %.1f s from then:"
              % (shown, "the signal" if name == "to work" else "the window began", dt))
        print("    %-15s %.1f %% of a core (%d ms of CPU)" % ("local helper", cpu, ms))
        for k in who:
            print("    %-15s %.1f %% of a core in all" % (k, grp[k]))
        print("    remote transition -> local @lisa_hosts: %s" % summary(opt))
        print("    remote transition -> local helper:      %s" % summary(hl))
    print("  all %d working (output flowing), 5 s: local helper %.2f %% of a core"
          % (n, busy_cpu))
    print("  lisa list --json, all working: %s" % summary_f(list_busy))
    print("  local helper RSS %d KB, peak %d KB" %
          (rss_kb(helper.pid), rss_kb(helper.pid, "VmHWM")))

def summary_f(xs):
    return "p50 %.0f ms p99 %.0f ms max %.0f ms (n=%d)" % (
        pct(xs, 50), pct(xs, 99), max(xs), len(xs))

try:
    if bench == "F1":
        f1()
    else:
        f2(fake)
finally:
    cleanup()

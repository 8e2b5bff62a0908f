#!/usr/bin/env python3
"""C1, the fleet through chaos (issue 46, docs/performance.md): HOSTS hosts x
AGENTS fake agents over one real sshd on loopback, every helper at lisa's
defaults. The agents start, work, ask, are answered, crash and end at
random; every FAULT_S seconds a fault from the list below hits one host
(or the sshd, or the local helper). Every SAMPLE_S seconds the local view
(lisa list --json) is compared with each host's own (its helper's lisa
list --json). At the end, faults stop and after SETTLE_S the views must
agree: what does not was lost for good.

chaos.py LISA FAKE_CLAUDE SEED [MINUTES HOSTS AGENTS FAULT_S SAMPLE_S]  (root)

A pane's local state is wrong when it is shown as current and differs from
the host's, when the host has an agent the local side shows nowhere, or
when a current pane is shown that the host does not have. An agent of a
host that is not connected is "unconfirmed" (shown as last seen): not
wrong. One sample apart from the next (a transition between the two reads)
is a blip, counted apart; a wrong state seen in two samples or more lasted
at least from the first to the last.
"""
import json, os, random, shutil, signal, socket, subprocess, sys, tempfile, time

lisa, fake = sys.argv[1], sys.argv[2]
seed = int(sys.argv[3])
minutes = float(sys.argv[4]) if len(sys.argv) > 4 else 60
hosts = int(sys.argv[5]) if len(sys.argv) > 5 else 10
agents = int(sys.argv[6]) if len(sys.argv) > 6 else 20
fault_s = float(sys.argv[7]) if len(sys.argv) > 7 else 60
sample_s = float(sys.argv[8]) if len(sys.argv) > 8 else 10
SETTLE_S = 60

sshd_bin = shutil.which("sshd") or "/usr/sbin/sshd"
if not os.access(sshd_bin, os.X_OK) or os.getuid() != 0:
    print("C1 skipped: needs an OpenSSH server (openssh-server) and root")
    sys.exit(0)
os.makedirs("/run/sshd", mode=0o755, exist_ok=True)
rng = random.Random(seed)

tmp = tempfile.mkdtemp(prefix="lisa-chaos.")
os.chmod(tmp, 0o700)
home = os.path.join(tmp, "home")
os.makedirs(home)
run_local = os.path.join(tmp, "run-local")
run_remote = os.path.join(tmp, "run-remote")
for d in (run_local, run_remote):
    os.makedirs(d, mode=0o700)
env = dict(os.environ, HOME=home, XDG_RUNTIME_DIR=run_local)
env.pop("TMUX", None)
tag = "ch%d" % os.getpid()
local = tag + "l"
remotes = ["%sr%d" % (tag, i) for i in range(hosts)]
names = ["h%d/%s" % (i, r) for i, r in enumerate(remotes)]
lisad = os.path.join(os.path.dirname(lisa), "lisad")
state = {"sshd": None, "port": 0, "helper": None, "helper_stopped": False,
         "asked": set()}


def sh(*args):
    return subprocess.run(list(args), capture_output=True, text=True, env=env)


def tmux(server, *args):
    return sh("tmux", "-L", server, "-f", "/dev/null", *args).stdout.strip()


def lisa_json(server, *args, runtime=run_local):
    out = subprocess.run([lisa, "-L", server] + list(args), capture_output=True,
                         text=True, env=dict(env, XDG_RUNTIME_DIR=runtime))
    if out.returncode != 0:
        return None
    try:
        if args[0] == "events":
            return [json.loads(l) for l in out.stdout.splitlines() if l]
        return json.loads(out.stdout)
    except ValueError:
        return None


def pids_of(pattern):
    out = subprocess.run(["pgrep", "-f", "--", pattern], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def log(what):
    print("  %7.1f s  %s" % (time.time() - t_start, what), flush=True)


# -- the fleet ---------------------------------------------------------------

PROXY = r'''
import os, select, socket, sys
s = socket.create_connection((sys.argv[1], int(sys.argv[2])))
cut = sys.argv[3]
i, o = sys.stdin.fileno(), sys.stdout.fileno()
while True:
    r, _, _ = select.select([i, s], [], [])
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
            break
        os.write(o, b)
'''


def sshd_start():
    state["sshd"] = subprocess.Popen([sshd_bin, "-D", "-f", os.path.join(tmp, "sshd_config"),
                                      "-E", os.path.join(tmp, "sshd.log")])


def setup():
    for k in ("hostkey", "id"):
        sh("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", os.path.join(tmp, k))
    shutil.copy(os.path.join(tmp, "id.pub"), os.path.join(tmp, "authorized_keys"))
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    state["port"] = s.getsockname()[1]
    s.close()
    with open(os.path.join(tmp, "sshd_config"), "w") as f:
        f.write("Port %d\nListenAddress 127.0.0.1\nHostKey %s/hostkey\n"
                "AuthorizedKeysFile %s/authorized_keys\nPidFile %s/sshd.pid\n"
                "PasswordAuthentication no\nKbdInteractiveAuthentication no\n"
                "UsePAM no\nStrictModes no\nAcceptEnv SHLVL\n"
                "MaxSessions 100\nMaxStartups 200\n" % (state["port"], tmp, tmp, tmp))
    with open(os.path.join(tmp, "proxy.py"), "w") as f:
        f.write(PROXY)
    # Every host through the proxy: a cut is a file per host.
    with open(os.path.join(tmp, "config"), "w") as f:
        f.write("Host h*\n  HostName 127.0.0.1\n  Port %d\n  User root\n"
                "  IdentityFile %s/id\n  IdentitiesOnly yes\n"
                "  UserKnownHostsFile /dev/null\n  StrictHostKeyChecking no\n"
                "  LogLevel ERROR\n  SetEnv SHLVL=1\n"
                "  ProxyCommand python3 %s/proxy.py %%h %%p %s/cut.%%n\n"
                % (state["port"], tmp, tmp, tmp))
    sshd_start()
    for r in remotes:
        remote_server(r)
    tmux(local, "new-session", "-d", "-s", "main", "-x", "120", "-y", "40", "sleep 86400")
    tmux(local, "set", "-g", "@lisa-ssh-command", "ssh -F %s/config" % tmp)
    tmux(local, "set", "-g", "@lisa-remote-lisa",
         "env XDG_RUNTIME_DIR=%s HOME=%s %s" % (run_remote, home, lisa))
    tmux(local, "set", "-g", "@lisa-hosts", " ".join(names))
    state["helper"] = subprocess.Popen([lisad, "-F", "-L", local], env=env)


def remote_server(r):
    tmux(r, "new-session", "-d", "-s", "work", "-x", "120", "-y", "40", "sleep 86400")
    tmux(r, "set", "-g", "remain-on-exit", "on")
    for _ in range(agents):
        tmux(r, "new-window", "-d", "-n", "agent", fake)


# -- the agents' lives -------------------------------------------------------

def agent_panes(r):
    out = tmux(r, "list-panes", "-a", "-F", "#{pane_id} #{pane_dead} #{pane_pid} #{window_name}")
    return [l.split() for l in out.split("\n") if l.endswith(" agent")]


def life_step():
    """One thing happens to one agent of one host."""
    i = rng.randrange(hosts)
    r = remotes[i]
    panes = agent_panes(r)
    if not panes:
        return
    asked = state["asked"]
    alive = [p for p in panes if p[1] == "0" and (r, p[0]) not in asked]
    waiting = [p for p in panes if p[1] == "0" and (r, p[0]) in asked]
    dead = [p for p in panes if p[1] == "1"]
    what = rng.choices(["work", "ask", "answer", "crash", "end", "start"],
                       [40, 15, 15, 8, 8, 14])[0]
    if what == "answer":
        # Only a dialog it drew is answered (a stray key would be typed).
        if waiting:
            p = rng.choice(waiting)
            asked.discard((r, p[0]))
            tmux(r, "send-keys", "-t", p[0], rng.choice("yn"))
        return
    if what == "start" or not alive:
        # A dead one goes (its window closed), a new one comes.
        if dead:
            tmux(r, "kill-pane", "-t", rng.choice(dead)[0])
        if len(panes) - (1 if dead else 0) < agents:
            tmux(r, "new-window", "-d", "-n", "agent", fake)
        return
    p = rng.choice(alive)
    if what == "work":
        tmux(r, "send-keys", "-t", p[0], "work %d" % rng.randint(1, 6), "Enter")
    elif what == "ask":
        tmux(r, "send-keys", "-t", p[0], "permission", "Enter")
        asked.add((r, p[0]))
    elif what == "crash":
        try:
            os.kill(int(p[2]), signal.SIGKILL)
        except OSError:
            pass
    elif what == "end":
        tmux(r, "send-keys", "-t", p[0], "exit %d" % rng.choice([0, 0, 1]), "Enter")


# -- the faults --------------------------------------------------------------

def host_ssh(i):
    return [p for p in pids_of("ssh -F %s/config" % tmp) if
            names[i].split("/")[0] + " " in open("/proc/%d/cmdline" % p).read()
            .replace("\0", " ") + " "]


def fault(kind, i, pending):
    name = names[i]
    if kind == "ssh stopped 60 s":
        for p in host_ssh(i):
            os.kill(p, signal.SIGSTOP)
            pending.append((time.time() + 60, lambda p=p: os.kill(p, signal.SIGCONT)))
    elif kind == "ssh killed":
        for p in host_ssh(i):
            os.kill(p, signal.SIGKILL)
    elif kind == "remote helper killed":
        for p in pids_of("lisad -S .*/%s$" % remotes[i]):
            os.kill(p, signal.SIGKILL)
    elif kind == "remote tmux restarted":
        tmux(remotes[i], "kill-server")
        state["asked"] = set(a for a in state["asked"] if a[0] != remotes[i])
        pending.append((time.time() + 5, lambda r=remotes[i]: remote_server(r)))
    elif kind == "sshd refusing 60 s":
        state["sshd"].terminate()
        state["sshd"].wait()
        pending.append((time.time() + 60, sshd_start))
        name = "sshd"
    elif kind == "proxy cut mid-line":
        open(os.path.join(tmp, "cut." + name.split("/")[0]), "w").close()
    elif kind == "local helper stopped 30 s":
        os.kill(state["helper"].pid, signal.SIGSTOP)
        state["helper_stopped"] = True
        pending.append((time.time() + 30, helper_continue))
        name = "local"
    log("fault: %s (%s)" % (kind, name))


def helper_continue():
    os.kill(state["helper"].pid, signal.SIGCONT)
    state["helper_stopped"] = False


FAULTS = ["ssh stopped 60 s", "ssh killed", "remote helper killed",
          "remote tmux restarted", "sshd refusing 60 s", "proxy cut mid-line",
          "local helper stopped 30 s"]


# -- the comparison ----------------------------------------------------------

def truth():
    """{(host, pane): state} as each host's own helper has it."""
    t = {}
    for i, r in enumerate(remotes):
        for p in lisa_json(r, "list", "--json", runtime=run_remote) or []:
            if p.get("state"):
                t[(names[i], p["pane_id"])] = p["state"]
    return t


def shown():
    """{(host, pane): state or None (unconfirmed)} as the local helper shows."""
    s = {}
    for p in lisa_json(local, "list", "--json") or []:
        if p.get("host") and p.get("state"):
            s[(p["host"], p["pane_id"])] = p["state"] if p.get("current") else None
    return s


def connected():
    return set(h["host"] for h in lisa_json(local, "hosts", "--json") or []
               if h.get("state") == "connected")


def compare():
    """Wrong: shown as current and not the host's; or the host's, shown
    nowhere while the host is connected. Unconfirmed: shown as last seen,
    or new there while the host is not connected (it cannot be known)."""
    up = connected()
    loc = shown()
    tru = truth()
    wrong, unconfirmed = {}, 0
    for k in set(loc) | set(tru):
        l, t = loc.get(k, "absent"), tru.get(k, "absent")
        if l is None or (l == "absent" and k[0] not in up):
            unconfirmed += 1
        elif l != t:
            wrong[k] = (l, t)
    return wrong, unconfirmed, len(tru)


def outages(evs):
    """{host: [(from_ms, to_ms)]} while not connected, by our host events."""
    out, since = {}, {}
    for e in sorted(evs, key=lambda e: e["ts_ms"]):
        h = e["host"]
        if e["to"] != "connected" and h not in since:
            since[h] = e["ts_ms"]
        elif e["to"] == "connected" and h in since:
            out.setdefault(h, []).append((since.pop(h), e["ts_ms"]))
    for h, t in since.items():
        out.setdefault(h, []).append((t, 1 << 62))
    return out


def fds(pid):
    return len(os.listdir("/proc/%d/fd" % pid))


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        for l in f:
            if l.startswith("VmRSS:"):
                return int(l.split()[1])
    return 0


# A helper keeps its last 1024 events: they are gathered as the run goes.
gathered = {}


def gather(since):
    for i, r in enumerate([local] + remotes):
        last = gathered.get(r, [since - 1, {}])
        when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(last[0] / 1000.0))
        for e in lisa_json(r, "events", "--json", "--since", when,
                           runtime=run_local if r == local else run_remote) or []:
            key = (e.get("ts_ms"), e.get("pane_id"), e.get("event"), e.get("to"),
                   e.get("host"), e.get("server"))
            if e.get("ts_ms", 0) >= since and key not in last[1]:
                last[1][key] = e
                last[0] = max(last[0], e["ts_ms"] - 2000)
        gathered[r] = last


def transitions(since):
    """Every remote transition of a state (host, pane, to, ts) by the hosts'
    logs (a detail's change within a state is not relayed as one), and
    the local helper's relayed ones, and its host events."""
    gather(since)
    rem, loc, hev = [], [], []
    for i, r in enumerate(remotes):
        for e in gathered.get(r, [0, {}])[1].values():
            if e.get("event") == "transition" and e.get("from") != e.get("to"):
                rem.append((names[i], e["pane_id"], e["to"], e["ts_ms"]))
    for e in gathered.get(local, [0, {}])[1].values():
        if e.get("host") and e.get("event") == "transition":
            loc.append((e["host"], e["pane_id"], e["to"], e["ts_ms"]))
        elif e.get("event") == "host":
            hev.append(e)
    return rem, loc, hev


def main():
    global t_start
    setup()
    t_start = time.time()
    helper = state["helper"]
    end = time.time() + 180
    while time.time() < end and len([v for v in shown().values() if v]) < hosts * agents:
        time.sleep(1)
    up = time.time() - t_start
    time.sleep(5)
    rss0, fds0 = rss(helper.pid), fds(helper.pid)
    since = int(time.time() * 1000)
    t_start = time.time()
    stop_at = t_start + minutes * 60
    next_fault = t_start + fault_s
    next_sample = t_start + sample_s
    pending, runs, open_runs = [], [], {}
    # (any way: a pane wrong in two samples in two different ways too)
    any_runs, any_open = [], {}
    samples = blips = unconf_samples = 0
    nfault = 0
    next_gather = t_start + 30
    while time.time() < stop_at:
        now = time.time()
        for job in [j for j in pending if j[0] <= now]:
            pending.remove(job)
            try:
                job[1]()
            except OSError:
                pass
        if now >= next_fault:
            kind = FAULTS[nfault % len(FAULTS)] if nfault < len(FAULTS) else rng.choice(FAULTS)
            fault(kind, rng.randrange(hosts), pending)
            nfault += 1
            next_fault += fault_s
        # (a stopped helper answers nobody: no sample meanwhile)
        if now >= next_sample and state["helper_stopped"]:
            next_sample += sample_s
        elif now >= next_sample:
            wrong, unconf, _ = compare()
            samples += 1
            unconf_samples += 1 if unconf else 0
            t = time.time()
            for k, v in wrong.items():
                if k in open_runs and open_runs[k][2] == v:
                    open_runs[k][1] = t
                else:
                    if k in open_runs:
                        runs.append(open_runs.pop(k))
                    open_runs[k] = [t, t, v]
            for k in [k for k in open_runs if k not in wrong]:
                runs.append(open_runs.pop(k))
            for k, v in wrong.items():
                if k in any_open:
                    any_open[k][1] = t
                    any_open[k][2].append(v)
                else:
                    any_open[k] = [t, t, [v]]
            for k in [k for k in any_open if k not in wrong]:
                any_runs.append((k,) + tuple(any_open.pop(k)))
            next_sample += sample_s
        if now >= next_gather and not state["helper_stopped"]:
            gather(since)
            next_gather += 30
        life_step()
        time.sleep(rng.uniform(0.2, 1.0))
    # Faults stop; what is pending ends; then the views must agree.
    for _, job in sorted(pending, key=lambda j: j[0]):
        try:
            job()
        except OSError:
            pass
    time.sleep(SETTLE_S)
    wrong, unconf, total = compare()
    runs += open_runs.values()
    any_runs += [(k,) + tuple(v) for k, v in any_open.items()]
    any_lasting = [r for r in any_runs if r[2] > r[1]]
    rem, loc, hev = transitions(since)
    out = outages(hev)
    seen = missed_out = 0
    missed_up = []
    locset = {}
    for h, p, to, ts in loc:
        locset.setdefault((h, p, to), []).append(ts)
    for h, p, to, ts in rem:
        if any(t >= ts for t in locset.get((h, p, to), [])):
            seen += 1
        # (2 s: a connection that was ending, or had just begun)
        elif any(a - 2000 <= ts <= b + 2000 for a, b in out.get(h, [])):
            missed_out += 1
        else:
            missed_up.append((h, p, to, ts))
    lasting = [r for r in runs if r[1] > r[0]]
    blips = len(runs) - len(lasting)
    longest = max([r[1] - r[0] for r in lasting] or [0])
    print("C1 chaos: seed %d, %.0f min, %d hosts x %d agents, a fault every %.0f s "
          "(%d), samples every %.0f s (%d)" % (seed, minutes, hosts, agents, fault_s,
                                               nfault, sample_s, samples))
    print("  all %d remote agents current %.1f s after the helper started" %
          (hosts * agents, up))
    print("  remote transitions %d, seen here %d; missed %d while the host was not "
          "connected (only its last state comes after), %d while it was" %
          (len(rem), seen, missed_out, len(rem) - seen - missed_out))
    for h, p, to, ts in missed_up[:5]:
        print("    missed: %s@%s -> %s at %.1f s" % (p, h, to, ts / 1000.0 - t_start))
        # What was shown of it here, and its host's state, around then
        for e in sorted(hev + [("pane", x) for x in loc], key=lambda e: e[1][3]
                        if isinstance(e, tuple) else e["ts_ms"]):
            if isinstance(e, tuple):
                x = e[1]
                if x[0] == h and x[1] == p and abs(x[3] - ts) < 20000:
                    print("      %.1f s here: -> %s" % (x[3] / 1000.0 - t_start, x[2]))
            elif e["host"] == h and abs(e["ts_ms"] - ts) < 20000:
                print("      %.1f s host: -> %s" % (e["ts_ms"] / 1000.0 - t_start, e["to"]))
    print("  host outages: %d, %.0f host-seconds not connected" %
          (sum(len(v) for v in out.values()),
           sum(min(b, time.time() * 1000) - a for v in out.values() for a, b in v) / 1000))
    print("  wrong states: %d lasting (seen in 2+ samples), %.0f wrong-state s in all, "
          "longest %.0f s; %d blips (one sample)" %
          (len(lasting), sum(r[1] - r[0] for r in lasting), longest, blips))
    for r in sorted(lasting, key=lambda r: r[0] - r[1])[:5]:
        print("    %.0f s: shown %s, the host's %s" % (r[1] - r[0], r[2][0], r[2][1]))
    print("  wrong in 2+ samples in a row, any way: %d, longest %.0f s" %
          (len(any_lasting), max([r[2] - r[1] for r in any_lasting] or [0])))
    for r in sorted(any_lasting, key=lambda r: r[1] - r[2])[:5]:
        print("    %s@%s from %.0f s for %.0f s: %s" % (r[0][1], r[0][0], r[1] - t_start,
                                                     r[2] - r[1], r[3]))
    print("  samples with agents unconfirmed (a host not connected): %d of %d" %
          (unconf_samples, samples))
    print("  at the end, %d s after the last fault: %d agents, %d wrong, %d unconfirmed"
          % (SETTLE_S, total, len(wrong), unconf))
    for k, v in list(wrong.items())[:5]:
        print("    %s@%s: shown %s, the host's %s" % (k[1], k[0], v[0], v[1]))
    print("  local helper: RSS %d KB -> %d KB, fds %d -> %d" %
          (rss0, rss(helper.pid), fds0, fds(helper.pid)))


t_start = time.time()
try:
    main()
finally:
    if state["helper"] is not None:
        state["helper"].terminate()
        state["helper"].wait()
    for s in remotes + [local]:
        sh("tmux", "-L", s, "kill-server")
    if state["sshd"] is not None:
        state["sshd"].terminate()
    subprocess.run(["pkill", "-f", "sshd: .*" + tag], capture_output=True)
    shutil.rmtree(tmp, ignore_errors=True)

#!/usr/bin/env python3
"""Helper-side measurements for bench/run.sh (stdlib only).

measure.py SOCKET LISA HELPER_PID idle          RSS, wakeups, CPU with 50 idle panes
measure.py SOCKET LISA HELPER_PID deaths ROUTE  100 SIGKILLs, kill -> helper event
measure.py SOCKET LISA HELPER_PID publish PANES  option writes: agents streaming,
                                                then agents changing state
"""
import glob, json, os, signal, socket, subprocess, sys, time

sock, lisa, hpid, what = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def lisa_json(*args):
    out = subprocess.run([lisa, "-L", sock] + list(args), capture_output=True, text=True)
    if out.returncode != 0:
        return None
    if args and args[0] == "events":      # JSON lines
        return [json.loads(l) for l in out.stdout.splitlines() if l]
    return json.loads(out.stdout)

def tmux(*args):
    return subprocess.run(["tmux", "-L", sock] + list(args), capture_output=True,
                          text=True).stdout.strip()

def wait_for(pred, timeout=10.0):
    end = time.time() + timeout
    while time.time() < end:
        v = pred()
        if v:
            return v
        time.sleep(0.01)
    raise SystemExit("timed out")

def status(pid):
    d = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            k, _, v = line.partition(":")
            d[k] = v.strip()
    return d

def cpu_ticks(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])   # utime + stime

def wakeups(pid):
    # context switches of the helper: every return from poll() is one
    s = status(pid)
    return int(s["voluntary_ctxt_switches"]) + int(s["nonvoluntary_ctxt_switches"])

def info():
    path = glob.glob(os.environ["XDG_RUNTIME_DIR"] + "/lisa/" + sock + "-*.sock")[0]
    c = socket.socket(socket.AF_UNIX)
    c.connect(path)
    c.sendall(b'{"cmd":"info"}\n')
    data = b""
    while not data.endswith(b"\n"):
        chunk = c.recv(65536)
        if not chunk:
            break
        data += chunk
    c.close()
    return json.loads(data)

def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100.0 * (len(xs) - 1))))]

if what == "idle":
    wait_for(lambda: (lambda d: d and len(d) >= 50 and d)(lisa_json("list", "--json")))
    time.sleep(1)
    w0, c0 = wakeups(hpid), cpu_ticks(hpid)
    time.sleep(10)
    w1, c1 = wakeups(hpid), cpu_ticks(hpid)
    rss = status(hpid)["VmRSS"]
    hz = os.sysconf("SC_CLK_TCK")
    print("S1 helper with 50 idle panes (5 sessions x 10 windows)")
    print(f"  RSS               {rss}")
    print(f"  wakeups in 10 s   {w1 - w0}")
    print(f"  CPU in 10 s       {(c1 - c0) / hz:.2f} s")
    print(f"  tmux processes    {len(tmux('list-clients').splitlines())} control clients")
    print()
elif what == "deaths":
    route = sys.argv[5]
    n = 100
    lat = []
    routes = {}
    wait_for(lambda: lisa_json("list", "--json") is not None)
    for i in range(n):
        tmux("new-window", "-d", "-t", "main:1", "sleep 3600")
        pane = tmux("display", "-p", "-t", "main:1", "#{pane_id}")
        pid = int(tmux("display", "-p", "-t", "main:1", "#{pane_pid}"))
        wait_for(lambda: any(p["pane_id"] == pane for p in lisa_json("list", "--json")))
        t0 = time.time() * 1000.0
        os.kill(pid, signal.SIGKILL)
        def died():
            ev = lisa_json("events", "--json") or []
            hits = [e for e in ev if e["pane_id"] == pane and e["event"] == "died"]
            return hits[0] if hits else None
        e = wait_for(died, 5)
        lat.append(e["ts_ms"] - t0)
        r = e["detail"].split(" via ")[-1]
        routes[r] = routes.get(r, 0) + 1
        tmux("kill-window", "-t", "main:1")
    label = "pidfd on" if route == "pidfd" else "pidfd off (pane-died hook)"
    print(f"S2 pane death -> helper knows it, {n} SIGKILLs, {label}")
    print(f"  p50 {pct(lat, 50):6.1f} ms   p90 {pct(lat, 90):6.1f} ms   "
          f"p99 {pct(lat, 99):6.1f} ms   max {max(lat):6.1f} ms")
    print(f"  decided by        {', '.join(f'{k} {v}' for k, v in sorted(routes.items()))}")
    print()

if what == "publish":
    panes = sys.argv[5].split(",")
    hz = os.sysconf("SC_CLK_TCK")
    def states():
        d = lisa_json("list", "--json") or []
        return {p["pane_id"]: p.get("state") for p in d}
    wait_for(lambda: all(states().get(p) == "waiting_input" for p in panes), 30)
    tpid = int(tmux("display", "-p", "#{pid}"))
    def window(label, seconds, drive=None):
        i0, c0, t0cpu = info(), cpu_ticks(hpid), cpu_ticks(tpid)
        b0 = sum(p.get("output_bytes", 0) for p in lisa_json("list", "--json"))
        t0 = time.time()
        n = 0
        while time.time() - t0 < seconds:
            if drive:
                drive(n)
                n += 1
            time.sleep(0.1)
        dt = time.time() - t0
        i1, c1, t1cpu = info(), cpu_ticks(hpid), cpu_ticks(tpid)
        b1 = sum(p.get("output_bytes", 0) for p in lisa_json("list", "--json"))
        cmds = i1["publish"]["commands"] - i0["publish"]["commands"]
        bat = i1["publish"]["batches"] - i0["publish"]["batches"]
        ev = len([e for e in lisa_json("events", "--json") if e.get("event") == "transition"
                  and e["ts_ms"] >= t0 * 1000])
        print(f"  {label}")
        print(f"    pane output          {(b1 - b0) / dt / 1024:8.1f} KiB/s")
        print(f"    transitions          {ev / dt:8.1f} /s")
        print(f"    set-option commands  {cmds / dt:8.1f} /s   ({cmds} in {dt:.0f} s)")
        print(f"    batches (redraws)    {bat / dt:8.1f} /s")
        print(f"    helper CPU           {(c1 - c0) / hz / dt * 100:8.1f} %")
        print(f"    tmux server CPU      {(t1cpu - t0cpu) / hz / dt * 100:8.1f} %")
    print(f"U1 option writes with {len(panes)} agents (publish: 50 ms settle, 200 ms gap)")
    for p in panes:
        tmux("send-keys", "-t", p, "work 25", "Enter")
    wait_for(lambda: all(states().get(p) == "in_progress" for p in panes), 30)
    time.sleep(2)
    window("streaming: all working, output flowing (20 s)", 20)
    wait_for(lambda: all(states().get(p) == "waiting_input" for p in panes), 30)
    # Each agent takes a 1 s turn every ~2.5 s, staggered.
    def churn(n):
        p = panes[n % len(panes)]
        tmux("send-keys", "-t", p, "work 1", "Enter")
    window("churn: every agent starts a 1 s turn every ~2 s (20 s)", 20, churn)
    print()

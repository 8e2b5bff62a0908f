#!/usr/bin/env python3
"""Helper-side measurements for bench/run.sh (stdlib only).

measure.py SOCKET LISA HELPER_PID idle          RSS, wakeups, CPU with 50 idle panes
measure.py SOCKET LISA HELPER_PID deaths ROUTE  100 SIGKILLs, kill -> helper event
"""
import json, os, signal, subprocess, sys, time

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

#!/usr/bin/env python3
"""The polling baseline for B2: what peer tools do to watch agents. Every
second it lists the panes, then for each pane captures its screen and asks
ps about its processes, as they do. Prints one JSON line: tmux and ps
processes started, its CPU seconds (own and children's), its wakeups.

usage: poll-baseline.py SOCKET SECONDS
"""
import json, os, subprocess, sys, time

sock, seconds = sys.argv[1], float(sys.argv[2])
forks = 0


def run(args):
    global forks
    forks += 1
    return subprocess.run(args, capture_output=True, text=True).stdout


def schedstat():
    with open("/proc/self/schedstat") as f:
        return int(f.read().split()[2])


w0 = schedstat()
end = time.time() + seconds
while time.time() < end:
    t0 = time.time()
    for line in run(["tmux", "-L", sock, "list-panes", "-a", "-F",
                     "#{pane_id} #{pane_pid}"]).splitlines():
        pane, pid = line.split()
        run(["tmux", "-L", sock, "capture-pane", "-p", "-t", pane])
        run(["ps", "-o", "pid=,stat=,pcpu=,comm=", "--ppid", pid, "-p", pid])
    time.sleep(max(0.0, 1.0 - (time.time() - t0)))
t = os.times()
print(json.dumps({"forks": forks, "cpu_self": t.user + t.system,
                  "cpu_children": t.children_user + t.children_system,
                  "wakeups": schedstat() - w0, "seconds": seconds}))

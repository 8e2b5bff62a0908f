"""Conformance runs side by side (conformance.py --jobs N).

Each agent/hook run already has its own tmux server, helper, mock model
server, ports and directories: here each also gets a process of its own,
its output kept in a file until it ends, so that a run's lines stay
together.
"""
import json
import os
import sys
import time
import traceback


def side_by_side(runs, jobs, top, run_one, version, first=()):
    """RUNS ((agent, hooks) pairs), JOBS at a time, each run_one(agent,
    hooks) in a process of its own (its own server, helper, mock and
    directories already); each one's lines printed together when it ends,
    in the order they end. Their rows, in the order of RUNS. The agents
    in FIRST (the longest runs) start before all others."""
    # Started hooks-major (every agent without hooks, then with), an
    # agent of one run (Gemini's, lisa has no hooks for it) last: on two
    # at a time each agent's two runs go apart, and the last comes when
    # the CPUs are freer. Claude's pair (180 s each) and Codex's (240 s)
    # started together put Gemini's (145 s) last alone: 560 s, against
    # 506 s. Started in the middle, beside the CI's builds, Gemini took
    # 237 s and missed its resume's typing once.
    many = {n for n, _ in runs if sum(1 for m, _ in runs if m == n) > 1}
    order = {hk: i for i, hk in enumerate(dict.fromkeys(hk for _, hk in runs))}
    # Continue's run (354 s, its own two-minute retries twice), started
    # last of twelve three at a time, ran 3 minutes alone at the end.
    pending = sorted(runs, key=lambda r: (r[0] not in first,
                                          r[0] not in many, order[r[1]]))
    rows_of, running = {}, {}
    while pending or running:
        while pending and len(running) < jobs:
            name, hk = pending.pop(0)
            out = os.path.join(top, "%s-%s.out" % (name, hk))
            rows = os.path.join(top, "%s-%s.json" % (name, hk))
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                code = 1
                try:
                    fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
                    os.dup2(fd, 1)
                    os.dup2(fd, 2)
                    sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
                    sys.stderr = sys.stdout
                    r = run_one(name, hk)
                    with open(rows, "w") as f:
                        json.dump(r, f)
                    code = 0
                except BaseException:
                    traceback.print_exc()
                finally:
                    sys.stdout.flush()
                    os._exit(code)
            running[pid] = (name, hk, out, rows, time.time())
        pid, status = os.wait()
        if pid not in running:
            continue
        name, hk, out, rows, t0 = running.pop(pid)
        try:
            with open(out, errors="replace") as f:
                sys.stdout.write(f.read())
        except OSError:
            pass
        try:
            with open(rows) as f:
                rows_of[name, hk] = json.load(f)
        except (OSError, ValueError):
            rows_of[name, hk] = [{
                "agent": name, "version": version(name),
                "variant": "hooks" if hk == "on" else "no hooks",
                "scenario": "run", "want": "-", "ok": False,
                "got": "the run ended (exit %d)" %
                os.waitstatus_to_exitcode(status),
                "latency_ms": None, "note": ""}]
        print("== %s, hooks %s: %.0f s" % (name, hk, time.time() - t0),
              flush=True)
    # (the report in the order of the runs, as one after another)
    return [r for run in runs for r in rows_of[run]]

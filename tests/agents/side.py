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


# How long each run took in a CI rehearsal, four at a time beside CI's
# builds (2026-12-02; s): the longest start first, so that the last to
# end is a short one (packed so, 14 runs took about 17 minutes where
# Continue-first and otherwise hooks-major had taken 29 for 18).
RUN_SECONDS = {
    ("kilo", "off"): 621, ("kilo", "on"): 526,
    ("opencode", "off"): 535, ("opencode", "on"): 477,
    ("continue", "off"): 466, ("copilot", "off"): 424,
    ("codex", "on"): 262, ("codex", "off"): 254,
    ("qwen", "on"): 250, ("copilot", "on"): 199, ("gemini", "off"): 198,
    ("qwen", "off"): 197, ("claude", "on"): 194, ("claude", "off"): 193,
    ("cline", "off"): 186, ("pi", "off"): 134, ("open-codex", "off"): 134,
    ("grok", "off"): 126,
}


def side_by_side(runs, jobs, top, run_one, version):
    """RUNS ((agent, hooks) pairs), JOBS at a time, each run_one(agent,
    hooks) in a process of its own (its own server, helper, mock and
    directories already); each one's lines printed together when it ends,
    in the order they end. Their rows, in the order of RUNS. The longest
    (RUN_SECONDS) start first; an agent's two runs not together (they
    share its cache) while another can start."""
    pending = sorted(runs, key=lambda r: -RUN_SECONDS.get(tuple(r), 200))
    rows_of, running = {}, {}
    while pending or running:
        while pending and len(running) < jobs:
            busy = {n for n, _, _, _, _ in running.values()}
            i = next((i for i, r in enumerate(pending) if r[0] not in busy), 0)
            name, hk = pending.pop(i)
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

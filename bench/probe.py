"""A tmux control client that asks over and over (B3, F2): a question costs
~0.1 ms, where a tmux process per question costs ~8 ms (more than the
latencies measured). It sits in a session of its own with one idle pane,
so no pane's output comes to it."""
import subprocess


class Probe:
    def __init__(self, server, session, env=None):
        self.p = subprocess.Popen(["tmux", "-L", server, "-C", "new-session",
                                   "-s", session, "-x", "80", "-y", "24",
                                   "sleep 86400"], env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.ask("display -p ready")

    def ask(self, cmd):
        """CMD's answer (its lines)."""
        self.p.stdin.write(cmd.encode() + b"\n")
        self.p.stdin.flush()
        body, inside = [], False
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise SystemExit("the probe's tmux client went away")
            line = line.rstrip(b"\n").decode(errors="replace")
            # Only our own commands' blocks (flags 1): tmux also sends
            # one, empty, for the session it made, after the first answer.
            if line.startswith("%begin"):
                inside = line.split()[-1] == "1"
                body = []
            elif line.startswith("%end") or line.startswith("%error"):
                if inside:
                    return "\n".join(body)
            elif inside:
                body.append(line)

    def close(self):
        self.p.stdin.close()
        self.p.wait()

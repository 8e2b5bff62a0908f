"""Agents back after their tmux server ended (conformance.py's "resume"
step): a turn exchanged with the scripted server, the server killed, a new
one started, `lisa resume --all`: the agent is back in its window and
directory, lisa knows it as the same conversation, and the scripted
server's next request carries the earlier turn (the conversation came
back, not just the program)."""
import json
import os
import time

from agentdefs import Failure


def now_ms():
    return int(time.time() * 1000)


class ResumeRows:
    """Mixed into conformance.Driver (its s, a, type, expect, record, dump,
    launch, wait_turn and new_server)."""

    def turns_with(self, t0, mark, seconds, want_more=False):
        """The turns carried by the requests after t0 (ms) that carry MARK
        (a set, empty if none came)."""
        end = time.time() + seconds
        got = set()
        while time.time() < end:
            try:
                with open(os.path.join(self.a.top, "mock.log")) as f:
                    for line in f:
                        e = json.loads(line)
                        if mark in e.get("turns", ()) and e["t"] * 1000 >= t0:
                            got.update(e["turns"])
            except (OSError, ValueError):
                pass
            if len(got) > (1 if want_more else 0):
                return got
            time.sleep(0.2)
        return got

    def session_id(self, pane, seconds):
        end = time.time() + seconds
        while time.time() < end:
            sid = self.s.status(pane).get("agent_session")
            if sid:
                return sid
            time.sleep(0.25)
        return None

    def recorded(self, sid, seconds):
        """Whether lisa's record for resuming holds SID."""
        d = os.path.join(self.s.env["XDG_STATE_HOME"], "lisa", "agents")
        end = time.time() + seconds
        while time.time() < end:
            for f in os.listdir(d) if os.path.isdir(d) else ():
                with open(os.path.join(d, f), errors="replace") as fh:
                    if sid in fh.read():
                        return True
            time.sleep(0.25)
        return False

    def resume(self):
        a = self.a
        if not getattr(a, "resumes", False):
            return
        pane = self.launch()
        if pane is None:
            return
        first = "LISA-TURN-%d" % (now_ms() % 100000)
        t = self.type(pane, "#mock say %s is the word to remember" % first)
        if not self.turns_with(t, first, 30):
            self.dump("resume: a turn before", pane)
            raise Failure("the first turn never reached the scripted server")
        self.wait_turn(pane, 60)
        if not self.expect("resume: a turn before", pane, t, "waiting_input", "prompt", 60):
            return
        sid = self.session_id(pane, 20)
        rec = sid is not None and self.recorded(sid, 10)
        got = "id %s, %s" % ("known" if sid else "unknown",
                             "recorded" if rec else "not recorded")
        self.record("resume: its conversation, recorded", "id known, recorded", got,
                    got == "id known, recorded", None, sid or "")
        if not rec:
            self.dump("resume: record", pane)
            return
        # A conversation begun anew in the same process (Copilot's and
        # Claude's /clear, Codex's /new), and a turn in it (Codex makes the
        # new thread's rollout with its first turn): the new conversation
        # is recorded, and it is the one that comes back.
        clear = getattr(a, "clear_command", None)
        if clear:
            self.type(pane, clear)
            time.sleep(1)
            first = "LISA-TURN-%d" % (now_ms() % 100000 + 200000)
            t = self.type(pane, "#mock say %s is the word to remember" % first)
            if not self.turns_with(t, first, 30):
                self.dump("resume: after " + clear, pane)
                raise Failure("the turn after %s never reached the scripted server" % clear)
            self.wait_turn(pane, 60)
            if not self.expect("resume: a turn after " + clear, pane, t, "waiting_input",
                               "prompt", 60):
                return
            end = time.time() + 20
            new = sid
            while time.time() < end and new == sid:
                new = self.session_id(pane, 1) or sid
                time.sleep(0.25)
            rec = new != sid and self.recorded(new, 10)
            got = ("new id known, recorded" if rec else
                   "id unchanged" if new == sid else "new id, not recorded")
            self.record("resume: after %s, the new conversation" % clear,
                        "new id known, recorded", got, rec, None, new or "")
            if not rec:
                self.dump("resume: after " + clear, pane)
                return
            sid = new
        where = self.s.tmux("display", "-p", "-t", pane,
                            "#{session_name}:#{window_name} #{pane_current_path}")

        # The server goes, its agent with it; a new one, as after a reboot.
        self.new_server()
        rc, listed = self.s.lisa("resume")
        t = now_ms()
        rc2, out = self.s.lisa("resume", "--all", timeout=120)
        ok = rc == 0 and sid in listed and rc2 == 0 and sid in out
        self.record("resume: lisa resume --all", "listed, resumed",
                    "listed, resumed" if ok else "exit %d/%d" % (rc, rc2), ok, None,
                    (out or listed).strip().splitlines()[-1][:70] if (out or listed).strip()
                    else "")
        if not ok:
            raise Failure("lisa resume: %s %s" % (listed.strip(), out.strip()))
        name = where.split(" ")[0].split(":", 1)[1]
        pane = self.s.tmux("display", "-p", "-t", "main:" + name, "#{pane_id}", check=False)
        if not pane.startswith("%"):
            raise Failure("no window %s after lisa resume" % name)
        # Copilot asks for the folder's trust again, as at any start.
        if getattr(a, "trust_text", None):
            self.trust_dialog(pane, t)
        if not self.expect("resume: back at its prompt", pane, t, "waiting_input", "prompt",
                           getattr(a, "start_timeout", 40)):
            return
        self.ready(pane)
        back = self.s.tmux("display", "-p", "-t", pane,
                           "#{session_name}:#{window_name} #{pane_current_path}")
        same = self.session_id(pane, 20)
        got = "%s, %s" % ("same place" if back == where else back,
                          "same conversation" if same == sid else "conversation %s" % same)
        want = "same place, same conversation"
        self.record("resume: where and which conversation", want, got, got == want, None,
                    where)

        # The proof: the next request carries the turn before the restart.
        second = "LISA-TURN-%d" % (now_ms() % 100000 + 100000)
        t = self.type(pane, "#mock say %s: which word came before this one?" % second)
        turns = self.turns_with(t, second, 60, True)
        got = ("the earlier turn came back" if first in turns else
               "a new conversation" if turns else "no request")
        want = "the earlier turn came back"
        if got != want:
            self.dump("resume: conversation", pane)
        self.record("resume: the conversation itself", want, got, got == want,
                    None, " ".join(sorted(turns)))
        self.wait_turn(pane, 60)
        self.s.tmux("kill-pane", "-t", pane, check=False)

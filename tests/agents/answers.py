"""Answering the real agents' permission dialogs with `lisa answer`
(conformance.py's "answers" step): what lisa says the dialog asks, a stale
token refused with the dialog untouched, a deny with a reply (the scripted
server gets the refusal and the reply; the tool never ran), an allow (the
tool ran, the server got its result), an allow by a tap on the phone's
button (issue 47: the stand-in ntfy server of the tests, tests/fake/ntfy;
the tap POSTed as the phone posts it), and, where the agent's mock can
ask for one, an allow of a command of several lines, read whole."""
import json
import os
import subprocess
import sys
import time
import urllib.request

from agentdefs import LISA

# The tap on the phone's button: on the two agents issue 47 names (the
# others are answered by the same path, answer.c, as lisa answer).
PHONE_AGENTS = ("claude", "codex")
NTFY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    "fake", "ntfy")


def now_ms():
    return int(time.time() * 1000)


class AnswerRows:
    """Mixed into conformance.Driver (its s, a, type, expect, record, dump,
    launch, wait_turn, mock_asked and mock_done)."""

    def answer(self, pane, *args):
        """lisa answer PANE ARGS: (exit status, its output)."""
        p = subprocess.run([LISA, "-L", self.s.sock, "answer", pane] + list(args),
                           capture_output=True, text=True, env=self.s.env,
                           timeout=60)
        return p.returncode, (p.stdout + p.stderr).strip()

    def question(self, pane, seconds=20):
        """The question lisa read off the pane's dialog, or None."""
        end = time.time() + seconds
        while time.time() < end:
            q = self.s.status(pane).get("question")
            if q and q.get("token"):
                return q
            time.sleep(0.25)
        return None

    def ran(self, name, seconds):
        """Whether the agent's tool made work/NAME within SECONDS."""
        path = os.path.join(self.a.work, name)
        end = time.time() + seconds
        while time.time() < end:
            if os.path.exists(path):
                return True
            time.sleep(0.2)
        return os.path.exists(path)

    def mock_reply(self, t0, marker, seconds):
        """The request after t0 (ms) that carried MARKER, as the mock logged
        it ({"reply", "before"}), or None."""
        end = time.time() + seconds
        while time.time() < end:
            try:
                with open(os.path.join(self.a.top, "mock.log")) as f:
                    for line in f:
                        e = json.loads(line)
                        if e.get("reply") == marker and e["t"] * 1000 >= t0:
                            return e
            except (OSError, ValueError):
                pass
            time.sleep(0.2)
        return None

    def ask(self, pane, name, lines=False):
        """Prompt the agent to `touch NAME` (LINES: NAME-1 and NAME-2, one a
        line): its permission dialog, and the question lisa read (None after
        a failed row)."""
        if lines:
            t = self.type(pane, self.a.multiline_prompt % (name, name))
            want = "touch %s-1\ntouch %s-2" % (name, name)
        else:
            t = self.type(pane, self.a.answer_prompt % name)
            want = "touch %s" % name
        if not self.expect("answer: dialog (%s)" % name, pane, t, "waiting_input",
                           "permission", 60):
            return None
        q = self.question(pane)
        got = q.get("subject") if q else "no question read"
        if got != want:
            self.dump("answer: what it asks", pane)
        self.record("answer: what it asks (%s)" % name, want, got, got == want, None,
                    "%s, %s" % (q.get("source"), q.get("kind")) if q else "")
        return q

    def answers(self):
        a = self.a
        if not getattr(a, "answer_prompt", None):
            return
        pane = self.launch()
        if pane is None:
            return
        q = self.ask(pane, "lisa-deny")
        if q is None:
            return
        text = getattr(a, "dialog_text", {}).get("permission") or q.get("text")

        # A token whose dialog is not this one: refused, nothing sent.
        f = q["token"].split(":")
        f[1] = "".join("0123456789abcdef"[("0123456789abcdef".index(c) + 1) % 16]
                       for c in f[1])
        t = now_ms()
        rc, out = self.answer(pane, "allow", "--expect", ":".join(f))
        asked = self.mock_asked(t, 3)
        drawn = text in self.s.tmux("capture-pane", "-p", "-t", pane, check=False)
        got = "exit %d, dialog %s, server %s, %s" % (
            rc, "drawn" if drawn else "gone", "asked" if asked else "not asked",
            "ran" if self.ran("lisa-deny", 0) else "not run")
        want = "exit 1, dialog drawn, server not asked, not run"
        if got != want:
            self.dump("answer: stale token", pane)
        self.record("answer: stale token refused", want, got, got == want,
                    None, out[:60])

        # Deny with a reply: declined with the agent's own key, the reply
        # typed at the prompt that comes back; the server gets both.
        marker = "LISA-REPLY-%d" % (now_ms() % 100000)
        t = now_ms()
        rc, out = self.answer(pane, "--reply", "%s: do not touch it" % marker,
                              "--expect", q["token"])
        e = self.mock_reply(t, marker, 30)
        words = [w for w in a.refusal_words if e and w in e.get("before", "")]
        got = "exit %d, %s, server %s" % (
            rc, "ran" if self.ran("lisa-deny", 0) else "not run",
            "got the reply" + (" and the refusal" if words else " alone")
            if e else "got nothing")
        want = "exit 0, not run, server got the reply and the refusal"
        if got != want:
            self.dump("answer: deny", pane)
        self.record("answer: deny, with a reply", want, got, got == want,
                    now_ms() - t if e else None, out[:70])
        self.wait_turn(pane, 60)
        if not self.expect("answer: back at its prompt", pane, t, "waiting_input",
                           "prompt", 60):
            return

        # Allow: the tool runs, the server gets its result.
        q = self.ask(pane, "lisa-allow")
        if q is None:
            return
        t = now_ms()
        rc, out = self.answer(pane, "allow", "--expect", q["token"])
        ran = self.ran("lisa-allow", 30)
        done = self.mock_done_within(getattr(a, "tool_done", "after_tool"),
                                     t, 30) != t
        got = "exit %d, %s, server %s" % (rc, "ran" if ran else "not run",
                                          "got its result" if done else "got nothing")
        want = "exit 0, ran, server got its result"
        if got != want:
            self.dump("answer: allow", pane)
        self.record("answer: allow", want, got, got == want, None, out[:70])
        self.wait_turn(pane, 60)
        self.allow_by_phone(pane)
        if getattr(a, "multiline_prompt", None):
            self.allow_lines(pane)
        self.s.tmux("kill-pane", "-t", pane, check=False)

    def phone_pushes(self, log):
        """The stand-in's publishes with buttons, as it logged them."""
        try:
            with open(log) as f:
                return [e for e in map(json.loads, f) if e["kind"] == "publish"
                        and e.get("actions")]
        except (OSError, ValueError):
            return []

    def allow_by_phone(self, pane):
        """Pushes to a stand-in ntfy (buttons at lisa's defaults); the
        dialog's push, its Allow tapped as a phone does (a POST of the
        button's body to its URL): the tool ran, the server got its
        result."""
        if self.a.name not in PHONE_AGENTS:
            return
        if not self.expect("answer: back at its prompt (phone)", pane, now_ms(),
                           "waiting_input", "prompt", 60):
            return
        log = os.path.join(self.a.top, "ntfy.log")
        for f in (log, log + ".port"):
            if os.path.exists(f):
                os.unlink(f)
        ntfy = subprocess.Popen([sys.executable, NTFY, log],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            end = time.time() + 10
            while not os.path.exists(log + ".port") and time.time() < end:
                time.sleep(0.05)
            with open(log + ".port") as f:
                port = f.read()
            self.s.tmux("set", "-g", "@lisa-notify-url",
                        "http://127.0.0.1:%s/lisa-phone" % port)
            self.s.lisa("reload")
            q = self.ask(pane, "lisa-phone")
            if q is None:
                return
            end = time.time() + 30
            while not self.phone_pushes(log) and time.time() < end:
                time.sleep(0.2)
            pushes = self.phone_pushes(log)
            allow = [a for a in pushes[0]["actions"] if a.get("label") == "Allow"] \
                if pushes else []
            t = now_ms()
            if allow:
                req = urllib.request.Request(allow[0]["url"], method="POST",
                                             data=allow[0]["body"].encode())
                urllib.request.urlopen(req, timeout=10).read()
            ran = self.ran("lisa-phone", 30)
            done = self.mock_done_within(getattr(self.a, "tool_done", "after_tool"),
                                         t, 30) != t
            got = "%s, %s, server %s" % (
                "pushed with Allow" if allow else "no button pushed",
                "ran" if ran else "not run",
                "got its result" if done else "got nothing")
            want = "pushed with Allow, ran, server got its result"
            if got != want:
                self.dump("answer: allow by phone", pane)
            self.record("answer: allow from the phone (ntfy's button)", want, got,
                        got == want, None,
                        pushes[0]["message"][:70] if pushes else "")
            self.wait_turn(pane, 60)
        finally:
            self.s.tmux("set", "-gu", "@lisa-notify-url", check=False)
            self.s.lisa("reload")
            ntfy.terminate()
            ntfy.wait()

    def allow_lines(self, pane):
        """A command of two lines, read whole, allowed with its token: both
        ran, the server got the result."""
        if not self.expect("answer: back at its prompt (lines)", pane, now_ms(),
                           "waiting_input", "prompt", 60):
            return
        q = self.ask(pane, "lisa-lines", lines=True)
        if q is None:
            return
        t = now_ms()
        rc, out = self.answer(pane, "allow", "--expect", q["token"])
        ran = self.ran("lisa-lines-1", 30) and self.ran("lisa-lines-2", 5)
        done = self.mock_done_within(getattr(self.a, "tool_done", "after_tool"),
                                     t, 30) != t
        got = "exit %d, %s, server %s" % (rc, "both ran" if ran else "not run",
                                          "got its result" if done else "got nothing")
        want = "exit 0, both ran, server got its result"
        if got != want:
            self.dump("answer: allow (lines)", pane)
        self.record("answer: allow, a command of two lines", want, got,
                    got == want, None, out[:70])
        self.wait_turn(pane, 60)

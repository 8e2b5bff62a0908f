"""The conformance rows of the middle of a turn that the big agents share
(context and usage, background work, limits, notifications told, the
nudge refused on a dialog, a stalled API); conformance.py's Driver takes
them in, as it takes scenarios.py's."""
import re
import subprocess
import sys
import time

from agentdefs import LISA, CODEX_WINDOW, OPENCODE_WINDOW, PI_WINDOW

# lisa runs at its shipped defaults; @lisa-stale is STALE s so that the
# rows that hold a stalled agent past it take 18 s, not 4 minutes.
STALE = 15


def now_ms():
    return int(time.time() * 1000)


class TurnRows:
    """Mixed into conformance.Driver: uses its s (the server), a (the
    agent) and its type, key, expect, expect_seen, hold, record, dump,
    wait_turn, mock_done and then_escape."""

    def context(self, pane):
        """The context in use, as the agent records the API's usage.
        Claude's transcript: 10 new + N cache read + 500 cache written, of
        the window Claude Code's own model table gives the model (2.1.332
        no longer names it on its banner; 2.1.197 showed "Opus 4.8 (1M
        context)"). Codex's rollout: the last request's N in + 20 out, of
        95% of the window its config.toml sets (model_context_window)."""
        # OpenCode compacts a context near its window (131072 here).
        n = 30000 if self.a.name in ("opencode", "kilo") else 150000
        banner = self.s.tmux("capture-pane", "-p", "-S", "-100", "-t", pane,
                             check=False)
        t = self.type(pane, "#mock usage %d fill the context" % n)
        self.wait_turn(pane, 30)
        if self.a.name == "codex":
            used, window = n + 20, CODEX_WINDOW * 95 // 100
        elif self.a.name in ("gemini", "qwen"):
            used, window = n, self.a.model_window()
        elif self.a.name in ("opencode", "kilo"):
            used, window = n, OPENCODE_WINDOW	# lisa's plugin: chat.params
        elif self.a.name == "pi":
            used, window = n, PI_WINDOW	# its models.json
        else:
            used = n + 510
            window = self.a.model_window() or (
                1000000 if re.search(r"\(1M context\)", banner) else 200000)
        pct = (used * 100 + window // 2) // window
        if self.a.name == "codex":
            # As Codex shows it: its /status says "N% left" (a 12k
            # baseline left out of both sides); lisa's is the rest.
            pct = 100 - self.codex_left(pane)
        want = "%d/%d %d%%" % (used, window, pct)
        got, end = None, time.time() + 10
        while time.time() < end:
            c = self.s.status(pane).get("context") or {}
            got = "%s/%s %s%%" % (c.get("used"), c.get("window"), c.get("percent"))
            if got == want:
                break
            time.sleep(0.2)
        lat = now_ms() - self.mock_done("usage", t) if got == want else None
        if got != want:
            self.dump("context reported", pane)
        self.record("context reported", want, got, got == want, lat)

    def codex_left(self, pane):
        """Codex's own "N% left", from its /status (a card in its
        history, no dialog to close)."""
        self.type(pane, "/status")
        left, end = None, time.time() + 15
        while left is None and time.time() < end:
            m = re.search(r"(\d+)% left", self.s.tmux(
                "capture-pane", "-p", "-t", pane, check=False))
            if m:
                left = int(m.group(1))
            time.sleep(0.3)
        if left is None:
            self.dump("context reported", pane)
            return -1
        print("note: %s: Codex's /status says %d%% left" % (pane, left),
              file=sys.stderr, flush=True)
        return left

    def background(self, pane):
        """A Bash command run in the background (#mock background): the
        turn ends at once ("done · 1 shell still running"), which is not
        done; when the command ends Claude starts a turn to read it."""
        t = self.type(pane, "#mock background sleep 8")
        self.expect("background work", pane, t, "in_progress", "background",
                    20)
        self.s.lisa("wait", pane, "--until", "waiting_input", "--timeout",
                    "40", timeout=50)
        self.expect("background ended", pane, self.mock_done("text", t),
                    "waiting_input", "prompt")

    def limit(self, pane):
        """The API's 429 with its rate-limit headers (#mock limit): the
        agent gives up and sits at its prompt, which is not a prompt. Told
        once, as the limit (not first as an error). The step before's
        own wait may still be on its way to the client: counted first."""
        n0 = self.told_settled()
        t = self.type(pane, "#mock limit 1 please")
        self.wait_turn(pane, 60)
        self.expect("rate limit", pane, self.mock_done("limit", t),
                    "waiting_input", "limit", 60)
        self.told_row("rate limit, told", n0, ["hit a limit (limit)"], 6,
                      pane)
        if self.a.name == "codex":
            self.limit_waited(pane)

    def limit_waited(self, pane):
        """A 429 with a long retry-after (#mock limit 900): Codex does not
        give up, it waits 15 minutes an attempt, "Server is busy,
        reconnecting" on screen. Retrying at first; once that has lasted
        @lisa-limit-wait (its default, a minute), a limit. Escape ends it."""
        t = self.type(pane, "#mock limit 900 please")
        self.expect_seen("long limit, retrying", pane, t, "in_progress", 30,
                         "retrying")
        self.expect("long limit, waited out", pane, t, "waiting_input",
                    "limit", 100)
        t = self.key(pane, "Escape")
        self.expect("long limit, interrupted", pane, t, "waiting_input",
                    "prompt")

    def told_settled(self, quiet=1.5, most=6):
        """How many notifications the client has had, once none came for
        QUIET seconds (at most MOST): the step before may still be told of
        (its prompt's wait), and that is not this step's."""
        n, since = len(self.s.told()[0]), time.time()
        end = time.time() + most
        while time.time() < end and time.time() - since < quiet:
            time.sleep(0.2)
            m = len(self.s.told()[0])
            if m != n:
                n, since = m, time.time()
        return n

    TOLD_LATE = 12	# s: what a busy machine may add to a held one

    def told_row(self, scenario, n0, want, settle, pane=None):
        """The notifications since the N0th: their endings are WANT (the
        list), once SETTLE seconds have passed (a held one comes late).
        Not yet WANT then: looked at until TOLD_LATE s (a loaded machine
        delivers late; a wrong or second one stays wrong), and on failure
        the helper's word on PANE."""
        start = time.time()
        while True:
            got = [m for m in self.s.told()[0][n0:]
                   if m.startswith("lisa: %s " % self.a.name)]
            ends = [g[g.index(" waits") + 1:] if " waits" in g else
                    g[g.index(" asks") + 1:] if " asks" in g else
                    g[g.index(" hit a") + 1:] if " hit a" in g else g
                    for g in got]
            took = time.time() - start
            if took >= self.TOLD_LATE or (took >= settle and ends == want):
                break
            time.sleep(0.3)
        if ends != want and pane is not None:
            self.dump(scenario, pane)
        self.record(scenario, " / ".join(want), " / ".join(ends) or "nothing",
                    ends == want, None,
                    "after %.1f s" % took if took > settle + 0.5 else "")

    # The permission dialog as Claude Code and Codex draw it.
    NUDGE_DIALOG = {"claude": "Do you want to proceed?",
                    "codex": "Would you like to run the following command?"}

    def nudge_refused(self, pane):
        """lisa nudge on the permission dialog (the real agent's): refused,
        exit 1; 3 s later the dialog is still drawn and the scripted server
        got nothing (no tool result: the dialog was not answered)."""
        text = self.NUDGE_DIALOG.get(self.a.name)
        end = time.time() + 20
        while time.time() < end and text not in self.s.tmux(
                "capture-pane", "-p", "-t", pane, check=False):
            time.sleep(0.2)
        t = now_ms()
        p = subprocess.run([LISA, "-L", self.s.sock, "nudge", pane],
                           capture_output=True, text=True, env=self.s.env,
                           timeout=30)
        asked = self.mock_asked(t, 3)
        drawn = text in self.s.tmux("capture-pane", "-p", "-t", pane, check=False)
        got = "exit %d, dialog %s, server %s" % (
            p.returncode, "drawn" if drawn else "gone",
            "asked" if asked else "not asked")
        want = "exit 1, dialog drawn, server not asked"
        if got != want:
            self.dump("nudge refused on a dialog", pane)
        self.record("nudge refused on a dialog", want, got, got == want, None,
                    p.stderr.strip()[:60])

    def then_escape(self, pane, prompt, name, state, detail, after, hold=0,
                    nudge=False):
        """PROMPT makes STATE/DETAIL (held for HOLD seconds); Escape brings
        the prompt back. With NUDGE, a nudge is tried on it first, and what
        the client was told is checked: once, saying what for."""
        n0 = self.told_settled() if nudge else len(self.s.told()[0])
        t = self.type(pane, prompt)
        self.expect(name, pane, t, state, detail)
        if nudge:
            # What it asks, read off its dialog: "asks to run: touch …".
            self.told_row(name + ", told", n0,
                          ["asks to run: %s" % prompt.split(" ", 2)[2]], 4,
                          pane)
        if hold:
            self.hold(name + ", held", pane, state, detail, hold,
                      "past @lisa-stale: the agent keeps animating")
        # A hook can tell of a dialog before it is drawn, and a key
        # pressed before then is lost (Copilot); a person presses once
        # they see it.
        if nudge and self.a.name in self.NUDGE_DIALOG:
            self.nudge_refused(pane)
        text = getattr(self.a, "dialog_text", {}).get(detail)
        end = time.time() + 20
        while text and time.time() < end and text not in self.s.tmux(
                "capture-pane", "-p", "-t", pane, check=False):
            time.sleep(0.2)
        t = self.key(pane, "Escape")
        # Kilo's Escape on a dialog opens its reject form ("Tell Kilo what
        # to do differently"): Enter there declines, as a person does.
        form = getattr(self.a, "dialog_reject_form", None)
        if state == "waiting_input" and form:
            end = time.time() + 10
            while time.time() < end and form not in self.s.tmux(
                    "capture-pane", "-p", "-t", pane, check=False):
                time.sleep(0.2)
            self.key(pane, "Enter")
        # OpenCode and Copilot CLI stop work on a second Escape ("esc
        # again to interrupt", "esc esc interrupt"); a dialog goes with
        # the first.
        if state == "in_progress" and getattr(self.a, "double_escape", False):
            time.sleep(0.5)
            self.key(pane, "Escape")
            # A busy OpenCode can drop them (seen once, in a 429's wait):
            # a person presses again.
            for _ in range(2):
                rc, _ = self.s.lisa("wait", pane, "--until", "waiting_input",
                                    "--timeout", "20", timeout=30)
                if rc == 0:
                    break
                print("note: %s: Escape Escape not taken; pressed again" % pane,
                      file=sys.stderr, flush=True)
                self.key(pane, "Escape")
                time.sleep(0.5)
                self.key(pane, "Escape")
        self.expect(after, pane, t, "waiting_input", "prompt")

    def stall(self, pane):
        if not getattr(self.a, "stall_interruptible", True):
            # Held, and lisa says working, but the agent cannot be
            # stopped: the rows after it would test the stuck agent.
            t = self.type(pane, "#mock stall")
            self.expect("stalled API", pane, t, "in_progress", "generating")
            self.hold("stalled API, held", pane, "in_progress", "generating", STALE + 3,
                      "past @lisa-stale: the agent keeps animating")
            self.a.restart_after_stall = True
            return
        # OpenCode gives up on a silent stream and retries it: working,
        # generating or retrying.
        self.then_escape(pane, "#mock stall", "stalled API", "in_progress",
                         getattr(self.a, "stall_detail", "generating"), "interrupt",
                         hold=STALE + 3)

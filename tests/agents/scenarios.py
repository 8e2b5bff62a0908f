"""The conformance scenarios that only some agents have (Gemini CLI's quota
dialog, Qwen Code's, OpenCode's and Copilot CLI's middles) and the dialog
helpers they share; conformance.py's Driver takes them in."""
import sys
import time


def now_ms():
    return int(time.time() * 1000)


class AgentScenarios:
    """Mixed into conformance.Driver: uses its s (the server), a (the
    agent) and its type, key, expect, expect_seen, record, dump,
    wait_turn, mock_done and then_escape."""

    def trust_dialog(self, pane, t0, row=None):
        """An agent that asks whether to trust its folder (Copilot CLI,
        even with the folder in its trustedFolders): lisa must say so
        (ROW), then Yes."""
        start = getattr(self.a, "start_timeout", 40)
        self.s.lisa("wait", pane, "--until", "waiting_input", "--timeout", str(start),
                    timeout=start + 10)
        end = time.time() + 5
        while time.time() < end:
            if self.a.trust_text in self.s.tmux("capture-pane", "-p", "-t", pane,
                                                check=False):
                break
            time.sleep(0.25)
        else:
            return
        if row:
            self.expect(row, pane, t0, "waiting_input", "trust")
        self.answer_dialog(pane, self.a.trust_text,
                           key=getattr(self.a, "trust_key", "Enter"))

    def gemini_limit(self, pane):
        """The API's daily quota (#mock limit: 429 RESOURCE_EXHAUSTED with a
        QuotaFailure per day): Gemini asks "Keep trying" or "Stop" under a
        title that still says Working; Stop leaves its error at the prompt."""
        t = self.type(pane, "#mock limit 3600 please")
        self.expect("rate limit (dialog)", pane, self.mock_done("limit", t),
                    "waiting_input", "limit", 60)
        time.sleep(0.3)
        self.key(pane, "Down")
        time.sleep(0.3)
        t = self.key(pane, "Enter")		# 2. Stop
        # A busy Gemini can read Down and Enter as one chunk and drop the
        # Enter (seen in CI): while the dialog stays, press it again.
        def dialog():
            return "Keep trying" in self.s.tmux("capture-pane", "-p", "-t", pane,
                                                check=False)
        for _ in range(3):
            end = time.time() + 3
            while time.time() < end and dialog():
                time.sleep(0.2)
            if not dialog():
                break
            print("note: %s: Enter for Stop not taken; pressed again" % pane,
                  file=sys.stderr)
            t = self.key(pane, "Enter")
        # Still a limit, but now by the error Gemini wrote, not the dialog:
        # the same state before and after, so the reason is the test.
        want, got, end = "waiting_input/limit gemini_chat_limit", None, time.time() + 30
        while time.time() < end:
            st = self.s.status(pane)
            got = "%s/%s %s" % (st.get("state"), st.get("detail"), st.get("reason"))
            if got == want:
                break
            time.sleep(0.2)
        if got != want:
            self.dump("rate limit", pane)
        self.record("rate limit", want, got, got == want,
                    now_ms() - t if got == want else None)

    def gemini_middle(self, pane):
        """Gemini asks before every shell command and retries a failing API
        silently."""
        self.then_escape(pane, "#mock run touch lisa-perm", "tool permission",
                         "waiting_input", "permission", "permission denied")

        t = self.type(pane, "#mock run sleep 6")
        self.expect("tool permission (2)", pane, t, "waiting_input", "permission")
        time.sleep(0.3)
        t = self.key(pane, "Enter")		# 1. Allow once
        self.expect("running a tool", pane, t, "in_progress", "tool")
        self.wait_turn(pane, 30)
        self.expect("tool done", pane, self.mock_done("after_tool", t),
                    "waiting_input", "prompt")

        self.context(pane)
        self.gemini_limit(pane)
        self.then_escape(pane, "#mock error 500", "API error retried",
                         "in_progress", "generating", "interrupt (retrying)")

        # A stream cut short: retried for ~15 s, then an error line.
        t = self.type(pane, "#mock drop")
        self.expect("stream dropped", pane, t, "in_progress", "generating")
        self.wait_turn(pane, 60)
        self.expect("API error final", pane, self.mock_done("drop", t),
                    "waiting_input", "prompt")

    def qwen_middle(self, pane):
        """Qwen asks before a shell command (its dialog's spinner stands
        still) and retries a failing API silently, a 429 too."""
        self.then_escape(pane, "#mock run touch lisa-perm", "tool permission",
                         "waiting_input", "permission", "permission denied")
        # Qwen refuses a standalone sleep ("Run blocking commands in the
        # background"): a command that takes as long.
        t = self.type(pane, "#mock run python3 -c 'import time; time.sleep(6)'")
        self.expect("tool permission (2)", pane, t, "waiting_input", "permission", 60)
        # With hooks, lisa knows before the dialog is drawn: Enter (1.
        # Yes, allow once) once it shows.
        t = self.answer_dialog(pane, "Allow execution")
        self.expect("running a tool", pane, t, "in_progress")
        self.wait_turn(pane, 60)
        self.expect("tool done", pane, self.mock_done("after_tool", t),
                    "waiting_input", "prompt")
        self.context(pane)
        self.then_escape(pane, "#mock error 500", "API error retried",
                         "in_progress", "generating", "interrupt (retrying)")

    def opencode_middle(self, pane):
        """OpenCode asks before a shell command (permission "ask"), and
        retries a failing API by itself, a 429 after the wait it was told:
        working (retrying) until the user interrupts."""
        # Its hook says permission before the dialog is drawn, and a key
        # that comes first is lost: Enter once the dialog shows, again
        # while it stays (as a person would).
        self.tool_rows(pane, "Allow once", detail="tool")
        self.then_escape(pane, "#mock error 500", "API error retried",
                         "in_progress", "retrying", "interrupt (retrying)")
        self.then_escape(pane, "#mock limit 30 please", "rate limit (waited out)",
                         "in_progress", "retrying", "interrupt (rate limit)")
        # Its tokens are in its SQLite database alone: lisa's plugin tells.
        if self.a.hooks:
            self.context(pane)

    def tool_rows(self, pane, text, key="Enter", detail=None):
        """A shell command's dialog refused with Escape, then another's
        (TEXT on its screen) allowed with KEY: its tool runs (DETAIL) and
        its turn ends at the prompt."""
        self.then_escape(pane, "#mock run touch lisa-perm", "tool permission",
                         "waiting_input", "permission", "permission denied")
        t = self.type(pane, "#mock run sleep 6")
        self.expect("tool permission (2)", pane, t, "waiting_input", "permission", 60)
        t = self.answer_dialog(pane, text, key=key)
        self.expect("running a tool", pane, t, "in_progress", detail)
        self.wait_turn(pane, 60)
        self.expect("tool done", pane, self.mock_done("after_tool", t),
                    "waiting_input", "prompt")

    def answer_dialog(self, pane, text, key="Enter", seconds=60):
        """KEY once TEXT is on the screen, again while it stays; when the
        first press was sent (ms)."""
        def shown():
            return text in self.s.tmux("capture-pane", "-p", "-t", pane, check=False)
        end = time.time() + seconds
        while time.time() < end and not shown():
            time.sleep(0.2)
        time.sleep(0.3)
        t = self.key(pane, key)
        for _ in range(3):
            end = time.time() + 5
            while time.time() < end and shown():
                time.sleep(0.2)
            if not shown():
                break
            print("note: %s: %s for %r not taken; pressed again" % (pane, key, text),
                  file=sys.stderr, flush=True)
            self.key(pane, key)
        return t

    def grok_middle(self, pane):
        """Grok asks before a shell command (arrows and Enter pick), and
        ends a failed turn with its error over its input box (a 429 after
        two retries of its own)."""
        self.tool_rows(pane, "Do you want to proceed with this operation")
        self.limit(pane)
        t = self.type(pane, "#mock error 500")
        self.wait_turn(pane, 60)
        self.expect("API error final", pane, self.mock_done("error", t),
                    "waiting_input", "error")

    def continue_middle(self, pane):
        """Continue's CLI asks before a shell command (Enter or Tab
        allows, Escape denies) and asks its own questions; its busy row
        turns over both. It retries a failing API ten times (about two
        minutes: "Retrying request (1/9)"), then ends the turn with the
        error over its input box, a 429 too."""
        self.tool_rows(pane, "Would you like to continue?")
        self.continue_question(pane)
        self.limit(pane)
        t = self.type(pane, "#mock error 500")
        self.expect_seen("API error retried", pane, t, "in_progress", 30, "retrying")
        self.wait_turn(pane, 60)
        self.expect("API error final", pane, self.mock_done("error", t),
                    "waiting_input", "error")

    def continue_question(self, pane):
        """Its own question (Escape does not dismiss it: it stays, and so
        does lisa's "question"): answered with lisa answer 2, the pointer
        moved down to Option B, which the agent says it took."""
        t = self.type(pane, "#mock ask Which color?")
        if not self.expect("question", pane, t, "waiting_input", "question", 60):
            return
        q = self.question(pane)
        rc, out = (self.answer(pane, "2", "--expect", q["token"]) if q
                   else (-1, "no question read"))
        took, end = False, time.time() + 30
        while not took and time.time() < end:
            took = 'User selected option 2: "Option B"' in self.s.tmux(
                "capture-pane", "-p", "-J", "-t", pane, check=False)
            time.sleep(0.3)
        got = "exit %d, %s" % (rc, "Option B taken" if took else "not taken")
        want = "exit 0, Option B taken"
        if got != want:
            self.dump("question answered", pane)
        self.record("question answered (2)", want, got, got == want, None,
                    out[:70])
        self.wait_turn(pane, 60)
        self.expect("question done", pane, self.mock_done("after_tool", t),
                    "waiting_input", "prompt")

    def open_codex_middle(self, pane):
        """open-codex asks before a shell command (y allows, Escape
        stops), and retries a failing API by itself under its
        "Thinking..." (no retry shown), then says so over its input box,
        a 429 as a rate limit."""
        self.tool_rows(pane, "Allow command?", key="y")
        self.limit(pane)
        t = self.type(pane, "#mock error 500")
        self.expect("API error retried", pane, t, "in_progress", "generating")
        self.wait_turn(pane, 60)
        self.expect("API error final", pane, self.mock_done("error", t),
                    "waiting_input", "error")

    def copilot_middle(self, pane):
        """Copilot asks before every shell command, and retries a failing
        API 5 times ("Retrying...") before it gives up at its prompt."""
        self.tool_rows(pane, "Do you want to run this command")
        t = self.type(pane, "#mock error 500")
        self.expect_seen("API error retried", pane, t, "in_progress", 30, "retrying")
        self.wait_turn(pane, 60)
        self.expect("API error final", pane, self.mock_done("error", t),
                    "waiting_input", "prompt")

    def pi_middle(self, pane):
        """pi runs a tool without asking, and retries a failing API three
        times by itself (a 429 too) before it gives up at its prompt; its
        session file says how the turn ended."""
        t = self.type(pane, self.a.prompts["tool"])
        self.expect("running a tool", pane, t, "in_progress", "tool")
        self.wait_turn(pane, 30)
        self.expect("tool done", pane, self.mock_done("after_tool", t),
                    "waiting_input", "prompt")
        self.context(pane)
        self.limit(pane)
        t = self.type(pane, "#mock error 500")
        self.expect_seen("API error retried", pane, t, "in_progress", 30, "retrying")
        self.wait_turn(pane, 60)
        self.expect("API error final", pane, self.mock_done("error", t),
                    "waiting_input", "error")

    def cline_middle(self, pane):
        """Cline asks before a tool ("[y] Approve [n] Deny") and asks its
        questions with a tool of its own; its spinner turns over both. It
        retries a failing API silently (about a minute) under its
        "Thinking..." row, then writes the error at its prompt."""
        self.tool_rows(pane, "Approve tool call?", key="y")
        self.then_escape(pane, "#mock ask Which option?", "question",
                         "waiting_input", "question", "question dismissed")
        t = self.type(pane, "#mock error 500")
        self.expect("API error retried", pane, t, "in_progress", "generating")
        self.wait_turn(pane, 120)
        self.expect("API error final", pane, self.mock_done("error", t),
                    "waiting_input", "prompt", 120)

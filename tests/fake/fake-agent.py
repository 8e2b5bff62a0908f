#!/usr/bin/python3
"""A stand-in for Claude Code and Codex in lisa's integration tests.

Run as `claude` or `codex` (symlinks to this file; the direct interpreter
path in the first line keeps that name as the process name). It imitates
what the real CLIs were measured to do (see docs/classification.md): titles
and their glyphs, Claude's ~/.claude/sessions/<pid>.json, Codex's OSC 7501
state protocol, the permission / question / trust dialogs, spinner output,
retries, API errors, exit texts and codes, and Claude hooks from
~/.claude/settings.json run the way Claude runs them.

Its commands, options and environment: README.md here.
"""
import json, os, subprocess, sys, threading, time

if len(sys.argv) > 2 and sys.argv[1] == "--late-env":
    # SECONDS after the process began (the pane's exec), not after this
    # interpreter came up: on a loaded machine python's own start takes
    # most of a second, and the window must stay where lisa expects it.
    with open("/proc/self/stat") as _f:
        _start = int(_f.read().rsplit(")", 1)[1].split()[19])
    with open("/proc/uptime") as _f:
        _age = float(_f.read().split()[0]) - _start / os.sysconf("SC_CLK_TCK")
    time.sleep(max(0.0, float(sys.argv[2]) - _age))
    _env = dict(a.split("=", 1) for a in sys.argv[3:] if "=" in a)
    _rest = [a for a in sys.argv[3:] if "=" not in a]
    os.execve(sys.argv[0], [sys.argv[0]] + _rest, _env)

NAME = os.path.basename(sys.argv[0])
# Kilo Code's CLI, a fork of OpenCode: OpenCode's ways in "kilo" directories.
OPENCODE_DIR = NAME if NAME in ("opencode", "kilo") else None
CLAUDE = NAME != "codex"
HOME = os.environ.get("HOME", "/tmp")
SPEED = float(os.environ.get("FAKE_AGENT_SPEED", "1"))
out = sys.stdout.buffer
pid = os.getpid()
# A UUID as the real ones', or the one resumed: `claude --resume ID`,
# `codex resume ID` (its conversation goes on; FAKE_AGENT_LOG says so).
session_id = "0000fa4e-0000-4000-8000-%012d" % pid
RESUMED = None
for _i, _a in enumerate(sys.argv[1:]):
    if (_a == "--resume" if CLAUDE else _a == "resume") and \
            len(sys.argv) > _i + 2:
        RESUMED = session_id = sys.argv[_i + 2]
    # Copilot CLI's --resume=ID, OpenCode's -s ID
    elif NAME == "copilot" and _a.startswith("--resume="):
        RESUMED = session_id = _a[len("--resume="):]
    elif OPENCODE_DIR and _a == "-s" and len(sys.argv) > _i + 2:
        RESUMED = session_id = sys.argv[_i + 2]
if OPENCODE_DIR and not RESUMED:
    session_id = "ses_fake%08d%s" % (pid, "Kilo" if NAME == "kilo" else "OpenCode")
title_text = "Claude Code" if CLAUDE else "work"


LOG = os.environ.get("FAKE_AGENT_LOG")


def mark(what, at=None):
    """Note when a signal was emitted (AT, ms, if it was before this),
    for latency measurements."""
    if LOG:
        with open(LOG, "a") as f:
            f.write("%d %s\n" % (at if at is not None else
                                 int(time.time() * 1000), what))


def w(data):
    out.write(data.encode() if isinstance(data, str) else data)
    out.flush()


NO_TITLE = os.environ.get("FAKE_AGENT_NO_TITLE") == "1"
TRANSCRIPT = os.environ.get("FAKE_AGENT_TRANSCRIPT") == "1"
NO_SESSION = os.environ.get("FAKE_AGENT_NO_SESSION") == "1"
# FAKE_AGENT_SESSION_LATE=FILE: no session file until FILE exists, then
# the last one (an id learned after the verdicts settled).
SESSION_LATE = os.environ.get("FAKE_AGENT_SESSION_LATE")
session_pending = None


def wait_file(path):
    while not os.path.exists(path):
        time.sleep(0.05)


def session_late():
    wait_file(SESSION_LATE)
    session(*session_pending)
    # A byte of output with nothing new on screen (a cursor shown): where
    # files make no events (the generic backend) lisa reads them as it
    # looks at the pane again.
    w("\x1b[?25h")


def title(t):
    if not NO_TITLE:
        w("\033]0;%s\007" % t)


def osc7501(state):
    if not CLAUDE:
        w("\033]7501;%s\033\\" % state)
        mark("osc7501 " + state.split(":")[0])


def sleep(s):
    time.sleep(s / SPEED)


def proc_start():
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[19])


SESSION = os.path.join(HOME, ".claude", "sessions", "%d.json" % pid)


def session(status, waiting_for=None):
    """Claude's sessions/<pid>.json, rewritten on every change."""
    global session_pending
    if not CLAUDE or NO_SESSION:
        return
    if SESSION_LATE and not os.path.exists(SESSION_LATE):
        if session_pending is None:
            threading.Thread(target=session_late, daemon=True).start()
        session_pending = (status, waiting_for)
        return
    os.makedirs(os.path.dirname(SESSION), exist_ok=True)
    now = int(time.time() * 1000)
    d = {"pid": pid, "sessionId": session_id, "cwd": os.getcwd(),
         "startedAt": now, "procStart": str(proc_start()), "version": "fake",
         "kind": "interactive", "entrypoint": "cli", "name": "fake",
         "updatedAt": now, "statusUpdatedAt": now}
    if status is not None:
        d["status"] = status
    if waiting_for:
        d["waitingFor"] = waiting_for
    tmp = SESSION + ".tmp"
    with open(tmp, "w") as f:
        json.dump(d, f)
    at = int(time.time() * 1000)	# (lisa may act before the mark is written)
    os.rename(tmp, SESSION)
    mark("session %s" % status, at)


def transcript(entry):
    """Claude's projects/<cwd slug>/<session>.jsonl: one line per message."""
    if not CLAUDE or not TRANSCRIPT:
        return
    import re
    d = os.path.join(HOME, ".claude", "projects",
                     re.sub("[^A-Za-z0-9]", "-", os.getcwd()))
    os.makedirs(d, exist_ok=True)
    entry.setdefault("sessionId", session_id)
    # Never through a symlink: tests plant them, and we may run as root.
    try:
        fd = os.open(os.path.join(d, session_id + ".jsonl"),
                     os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW,
                     0o600)
    except OSError:
        return
    with os.fdopen(fd, "a") as f:
        f.write(json.dumps(entry) + "\n")
    mark("transcript " + entry.get("subtype", entry["type"]))


def hook(event, **fields):
    """Run the command hooks of settings.json for an event, like Claude."""
    if not CLAUDE:
        return
    try:
        with open(os.path.join(HOME, ".claude", "settings.json")) as f:
            hooks = json.load(f).get("hooks", {}).get(event, [])
    except (OSError, ValueError):
        return
    payload = dict(session_id=session_id, transcript_path="/dev/null",
                   cwd=os.getcwd(), hook_event_name=event, **fields)
    if hooks:
        mark("hook " + event)
    for group in hooks:
        for h in group.get("hooks", []):
            if h.get("type") == "command":
                subprocess.run(["sh", "-c", h["command"]],
                               input=json.dumps(payload).encode(),
                               stdout=subprocess.DEVNULL)


def codex_notify(kind="agent-turn-complete"):
    home = os.environ.get("CODEX_HOME", os.path.join(HOME, ".codex"))
    try:
        with open(os.path.join(home, "config.toml")) as f:
            for line in f:
                if line.startswith("notify"):
                    argv = json.loads(line.split("=", 1)[1])
                    msg = {"type": kind, "thread-id": session_id,
                           "turn-id": "t1", "cwd": os.getcwd(),
                           "client": "codex-tui",
                           "input-messages": ["work"],
                           "last-assistant-message": "done"}
                    subprocess.run(argv + [json.dumps(msg)])
    except (OSError, ValueError):
        pass


def idle_screen():
    if CLAUDE:
        w("\r\n\u2500" * 1 + "\u2500" * 40 + "\r\n\u276f \r\n" +
          "\u2500" * 40 + "\r\n  ? for shortcuts \u00b7 \u2190 for agents\r\n")
    else:
        w("\r\n\u203a Ask Codex to do anything\r\n"
          "  \u2190 for agents \u00b7 ? for shortcuts\r\n")


def idle():
    title(("\u2733 " if CLAUDE else "") + title_text)
    mark("title idle")
    session("idle")


BRAILLE_CLAUDE = ["\u2802", "\u2810"]
BRAILLE_CODEX = "\u280b\u2819\u2839\u2838\u283c\u2834\u2826\u2827\u2807\u280f"


def busy(seconds, line, child=None):
    """Animate like a working agent for a while (or until child exits)."""
    start = time.time()
    i = 0
    step = 0.48 if CLAUDE else 0.1
    while True:
        elapsed = time.time() - start
        if child is not None:
            if child.poll() is not None:
                break
        elif elapsed * SPEED >= seconds:
            break
        if CLAUDE:
            title("%s %s" % (BRAILLE_CLAUDE[i % 2], title_text))
            w("\r\033[2K\u273b %s (%ds \u00b7 \u2193 %d tokens)\r\n"
              "\033[2K  esc to interrupt \u00b7 \u2190 for agents\033[1A"
              % (line, elapsed, 10 * i))
        else:
            title("%s %s" % (BRAILLE_CODEX[i % 10], title_text))
            w("\r\033[2K\u2022 %s (%ds \u2022 esc to interrupt)" % (line, elapsed))
        i += 1
        time.sleep(step / SPEED if SPEED > 1 else step)
    # Codex's status rows are its bottom pane's, gone with the turn (a
    # "Reconnecting..." row only flashes: notes); Claude's stays.
    w("\r\n" if CLAUDE else "\r\033[J")


def turn_start(prompt):
    transcript({"type": "user", "message": {"role": "user",
                                            "content": prompt}})
    hook("UserPromptSubmit", prompt=prompt, prompt_id="p1")
    session("busy")
    osc7501("state=working:app=codex")


def turn_end(text="Done.", usage=None):
    w("\r\n\u25cf %s\r\n" % text)
    msg = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    if usage:
        msg.update(id="msg_%d_%d" % (pid, time.time() * 1000),
                   model="claude-fake", usage=usage)
        # Claude writes a message once per content block, usage in each.
        transcript({"type": "assistant", "message": dict(msg, content=[
            {"type": "thinking", "thinking": "..."}])})
    transcript({"type": "assistant", "message": msg})
    transcript({"type": "system", "subtype": "turn_duration",
                "durationMs": 1000})
    hook("Stop", last_assistant_message=text, stop_hook_active=False)
    osc7501("state=done:app=codex")
    idle()
    codex_notify()
    idle_screen()


POINTER = os.environ.get("FAKE_AGENT_POINTER") == "1"


def claude_dialog(cmd, pointer):
    opts = ["1. Yes", "2. Yes, and always allow access to fake/ from this "
            "project", "3. No"]
    # (a command of several lines: each indented under the tool's line)
    w("\r\n Bash command\r\n" +
      "".join("   %s\r\n" % line for line in cmd.split("\n")) +
      " Do you want to proceed?\r\n" +
      "".join(" %s %s\r\n" % ("\u276f" if i == pointer else " ", o)
              for i, o in enumerate(opts)) +
      " Esc to cancel \u00b7 Tab to amend\r\n")


def dialog_permission(question=False):
    # FAKE_AGENT_QUEUE=FILE: a JSON list of commands, asked one after the
    # other as queued tool calls are (the next dialog drawn as soon as one
    # is answered yes); the log names each ("dialog 2 answered yes").
    queue = os.environ.get("FAKE_AGENT_QUEUE")
    if queue and not question:
        with open(queue) as f:
            cmds = json.load(f)
        for i, cmd in enumerate(cmds):
            answer = dialog_one(question, cmd, last=i == len(cmds) - 1)
            mark("dialog %d answered %s" % (i + 1, answer))
            if answer == "no":
                return
        return
    dialog_one(question, os.environ.get("FAKE_AGENT_COMMAND", "touch x"))


def dialog_one(question, cmd, last=True):
    tool = "AskUserQuestion" if question else "Bash"
    hook("PreToolUse", tool_name=tool, tool_input={} if question else
         {"command": cmd}, tool_use_id="t1")
    if CLAUDE:
        title("\u2733 " + title_text)
        mark("title idle")
        session("waiting", "permission prompt")
        # FAKE_CLAUDE_HOOK_LATE=FILE: its PermissionRequest hook only once
        # FILE exists, after the dialog is drawn (as on a loaded machine);
        # FAKE_CLAUDE_HOOK_COMMAND: the command the hook says, if not the
        # one drawn.
        late = os.environ.get("FAKE_CLAUDE_HOOK_LATE")
        asked = dict(tool_name=tool, tool_input={} if question else {
            "command": os.environ.get("FAKE_CLAUDE_HOOK_COMMAND", cmd)})
        if not late:
            hook("PermissionRequest", **asked)
        if question:
            # (FAKE_QUESTION_OPTIONS: its options' texts, "|" between)
            opts = os.environ.get("FAKE_QUESTION_OPTIONS",
                                  "Option A|Option B").split("|")
            w("\r\n \u2610 Choice\r\nPick one\r\n" + "".join(
                "%s %d. %s\r\n" % ("\u276f" if i == 0 else " ", i + 1, o)
                for i, o in enumerate(opts)) +
              "Enter to select \u00b7 \u2191/\u2193 to "
              "navigate \u00b7 Esc to cancel\r\n")
        else:
            claude_dialog(cmd, 0)
        if late:
            threading.Thread(target=lambda: (wait_file(late), hook(
                "PermissionRequest", **asked)), daemon=True).start()
        # As the real one: its Notification hook (permission_prompt) 6 s
        # after the dialog, while it still waits.
        notify = threading.Timer(float(os.environ.get(
            "FAKE_CLAUDE_NOTIFY", "6")), hook, ("Notification",), dict(
            notification_type="permission_prompt",
            message="Claude needs your permission"))
        notify.daemon = True
        notify.start()
    else:
        osc7501("state=blocked:app=codex:kind=permission")
        # The real Codex draws its dialog ~0.9 s after saying "blocked".
        sleep(float(os.environ.get("FAKE_CODEX_DIALOG_DELAY", "0")))
        w("\r\nWould you like to run the following command?\r\n$ %s\r\n"
          "\u203a 1. Yes, proceed (y)\r\n  2. Yes, and don't ask again for "
          "commands that start with `%s` (p)\r\n  3. No, and tell Codex "
          "what to do differently (esc)\r\nPress enter to confirm or esc "
          "to cancel\r\n" % (cmd.replace("\n", "\r\n"), cmd.split()[0]))
    # As the real ones: one key answers (a number, Codex's letters, Enter
    # for the option the pointer is on, Esc); others are ignored. Codex
    # blinks its title while it waits; Claude writes nothing.
    # (y and n too: older tests' shortcuts; the log says which key came.)
    if question:
        keys = {"1": "yes", "2": "yes", "y": "yes", "\r": "yes", "\n": "yes"}
    elif CLAUDE:
        keys = {"1": "yes", "2": "always", "3": "no", "y": "yes", "n": "no",
                "\r": "yes", "\n": "yes"}
    else:
        keys = {"y": "yes", "p": "always", "n": "no", "\r": "yes", "\n": "yes"}
    keys["\033"] = "no"
    pointer = 0
    # FAKE_AGENT_LOSE_KEY=1: the dialog's first key is lost, as Claude
    # Code 2.1.332 lost one sent while it was still drawing.
    lose = os.environ.get("FAKE_AGENT_LOSE_KEY") == "1"
    while True:
        key = read_key(blink=not CLAUDE, clock=DIALOG_CLOCK)
        if lose:
            lose = False
            mark("lost key %r" % key)
            continue
        # FAKE_AGENT_POINTER=1: a number moves the pointer, Enter picks
        # (as Copilot CLI's dialog); the dialog is drawn again.
        if POINTER and CLAUDE and not question and key in "123":
            pointer = int(key) - 1
            claude_dialog(cmd, pointer)
            mark("pointer %d" % (pointer + 1))
            continue
        came = key
        if POINTER and key in "\r\n":
            key = "123"[pointer] if CLAUDE and not question else key
        if key in keys:
            break
    if CLAUDE:
        notify.cancel()
    answer = keys[key]
    key = came
    mark("answer %s %r" % (answer, key))
    # The TUI redraws: the answered dialog is gone from the screen.
    w("\033[2J\033[H")
    if answer != "no" and not last:
        # The next queued call's dialog, drawn at once.
        hook("PostToolUse", tool_name=tool, tool_response={}, duration_ms=5)
        return answer
    if answer != "no":
        hook("PostToolUse", tool_name=tool, tool_response={}, duration_ms=5)
        session("busy")
        osc7501("state=working:app=codex")
        busy(1, "Working")
        turn_end("Ran it." if answer == "yes" else "Ran it; won't ask again.")
    else:
        transcript({"type": "user", "message": {"role": "user", "content": [
            {"type": "text", "text": "[Request interrupted by user]"}]}})
        osc7501("state=idle:app=codex")
        idle()
        w("\r\n  \u23bf  Interrupted \u00b7 What should Claude do instead?\r\n"
          if CLAUDE else "\r\n\u25a0 Conversation interrupted\r\n")
        idle_screen()
    return answer


# FAKE_AGENT_DIALOG_CLOCK=1: the seconds waited, redrawn once a second on
# a line over the dialog, as Copilot CLI counts them on its tool's line.
DIALOG_CLOCK = os.environ.get("FAKE_AGENT_DIALOG_CLOCK") == "1"


def read_key(blink=False, clock=False):
    """One key, read raw (no echo, no line editing), as a TUI's dialog
    does; what came with it stays for the next read."""
    import select, termios
    buf = PENDING[0]
    if buf:
        PENDING[0] = buf[1:]
        return buf[:1].decode(errors="replace")
    fd = 0
    try:
        old = termios.tcgetattr(fd)
        new = termios.tcgetattr(fd)
        new[3] &= ~(termios.ICANON | termios.ECHO)
        new[6][termios.VMIN], new[6][termios.VTIME] = 1, 0
        termios.tcsetattr(fd, termios.TCSANOW, new)
    except termios.error:
        old = None
    try:
        i = 0
        while True:
            if blink:
                title("[ %s ] Action Required | %s" % ("!" if i % 2 else ".",
                                                       title_text))
            if clock:
                # (the top row: saved and restored around it)
                w("\0337\033[1;1H\033[2K waited %ds\0338" % i)
            i += 1
            r, _, _ = select.select([0], [], [], 1.0 if blink or clock
                                    else None)
            if r:
                c = os.read(0, 1024)
                if not c:
                    sys.exit(0)
                PENDING[0] = c[1:]
                return c[:1].decode(errors="replace")
    finally:
        if old is not None:
            termios.tcsetattr(fd, termios.TCSANOW, old)


PENDING = [b""]


def read_line(blink=False):
    """Read one line from the terminal (canonical mode), optionally
    blinking Codex's Action Required title once a second meanwhile.
    Lines that came together are all read, one per call."""
    import select
    buf, PENDING[0] = PENDING[0], b""
    if b"\n" in buf:
        line, PENDING[0] = buf.split(b"\n", 1)
        return line.decode(errors="replace")
    i = 0
    while True:
        if blink:
            title("[ %s ] Action Required | %s" % ("!" if i % 2 else ".",
                                                   title_text))
            i += 1
        r, _, _ = select.select([0], [], [], 1.0 if blink else None)
        if r:
            c = os.read(0, 1024)
            if not c:
                sys.exit(0)
            buf += c
            if b"\n" in buf:
                line, PENDING[0] = buf.split(b"\n", 1)
                return line.decode(errors="replace")


def leave(code):
    if CLAUDE:
        hook("SessionEnd", reason="prompt_input_exit")
        try:
            os.unlink(SESSION)
        except OSError:
            pass
        title("")
        w("\r\nResume this session with:\r\nclaude --resume %s\r\n" % session_id)
    else:
        osc7501("state=idle:app=codex")
        title("")
        osc7501("state=clear")
        w("\033[?1049l\r\nDisconnected from this task. Any running work "
          "continues.\r\nTo reconnect, run:\r\n  codex resume %s\r\n" % session_id)
    sys.exit(code)


def print_mode(fail):
    """claude -p / codex exec: no title, no OSC, output then exit."""
    session(None)
    hook("SessionStart", source="startup")
    sleep(1)
    if fail:
        w("API Error: 400 Invalid request (fake)\n")
        hook("StopFailure", error="unknown")
        code = 1
    else:
        w("The answer is 42.\n")
        hook("Stop", last_assistant_message="42")
        code = 0
    try:
        os.unlink(SESSION)
    except OSError:
        pass
    hook("SessionEnd", reason="other")
    sys.exit(code)


COPILOT_LOG = None


def own_logs(first_prompt):
    """What Copilot CLI and OpenCode log of their sessions (lisa reads
    their ids there): Copilot, its process log as it starts; OpenCode, the
    shared log's "created" line at the first prompt (a subagent's first,
    which has a parent)."""
    global COPILOT_LOG
    if NAME == "copilot" and not first_prompt:
        d = os.path.join(os.environ.get("COPILOT_HOME") or
                         os.path.join(HOME, ".copilot"), "logs")
        os.makedirs(d, exist_ok=True)
        if COPILOT_LOG is None:
            COPILOT_LOG = os.path.join(d, "process-%d-%d.log" %
                                       (int(time.time() * 1000), pid))
        with open(COPILOT_LOG, "a") as f:
            f.write("2026-01-01T00:00:00.000Z [INFO] Workspace initialized: "
                    "%s (checkpoints: 0)\n" % session_id)
        ws = os.path.join(os.path.dirname(d), "session-state", session_id)
        os.makedirs(ws, exist_ok=True)
        with open(os.path.join(ws, "workspace.yaml"), "w") as f:
            f.write("id: %s\ncwd: %s\nclient_name: github/cli\n" %
                    (session_id, os.getcwd()))
    if OPENCODE_DIR and first_prompt and not RESUMED:
        d = os.path.join(os.environ.get("XDG_DATA_HOME") or
                         os.path.join(HOME, ".local", "share"), OPENCODE_DIR, "log")
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "opencode.log"), "a") as f:
            for sid, parent in (("ses_fakesub%08d" % pid, session_id),
                                (session_id, "undefined")):
                now = time.time()
                f.write("timestamp=%s.%03dZ level=INFO run=fake "
                        "message=created id=%s slug=x version=1 projectID=global "
                        "directory=%s path=x workspaceID=undefined parentID=%s "
                        "title=x\n" % (time.strftime("%Y-%m-%dT%H:%M:%S",
                                                      time.gmtime(now)),
                                        int(now * 1000) % 1000, sid,
                                        os.getcwd(), parent))


def main():
    global session_id
    args = sys.argv[1:]
    if "--print" in args or "-p" in args or "exec" in args:
        print_mode("--fail" in args)
    if not CLAUDE:
        w("\033[?1049h")
    if RESUMED:
        mark("resumed %s" % RESUMED)
    if "--trust" in args:
        if CLAUDE:
            w("Accessing workspace:\r\n\r\nQuick safety check: Is this a "
              "project you created or one you trust?\r\n\u276f 1. Yes, I "
              "trust this folder\r\n  2. No, exit\r\nEnter to confirm \u00b7 "
              "Esc to cancel\r\n")
        else:
            w("Folder access\r\nTrust this folder? Codex can read, edit, "
              "and run files here\r\n\u203a 1. Trust and continue\r\n")
        if read_line().strip() not in ("1", "y", ""):
            sys.exit(1)
    w("\u256d\u2500\u2500\u2500 %s (fake) \u2500\u2500\u2500\u256e\r\n" %
      ("Claude Code" if CLAUDE else ">_ OpenAI Codex"))
    # A slow start (a loaded machine): output before any other signal.
    boot = float(os.environ.get("FAKE_AGENT_BOOT", "0"))
    while boot > 0:
        w("loading\u2026 %.1f\r\n" % boot)
        sleep(0.2)
        boot -= 0.2
    sleep(0.3)
    session(None)
    own_logs(False)
    hook("SessionStart", source="startup", model="fake")
    idle()
    osc7501("state=idle:app=codex")
    idle_screen()
    prompted = False
    while True:
        line = read_line().strip()
        words = line.split()
        if not words:
            continue
        if not prompted:
            prompted = True
            own_logs(True)
        cmd, arg = words[0], (words[1] if len(words) > 1 else "2")
        if cmd in ("/exit", "/quit"):
            leave(0)
        elif cmd == "/clear" and NAME == "copilot":
            # Copilot CLI 1.0.102: a new session in the same process, its
            # id in the same log.
            session_id = "0000fa4e-c1ea-4000-8000-%012d" % pid
            own_logs(False)
        elif cmd == "exit":
            leave(int(arg))
        elif cmd == "work":
            turn_start(line)
            busy(float(arg), "Percolating\u2026" if CLAUDE else "Working")
            turn_end()
        elif cmd == "tool":
            turn_start(line)
            hook("PreToolUse", tool_name="Bash",
                 tool_input={"command": "sleep " + arg}, tool_use_id="t1")
            w("\r\n\u25cf Bash(sleep %s)\r\n  \u23bf  Running\u2026\r\n" % arg
              if CLAUDE else "\r\n\u2022 Running sleep %s\r\n" % arg)
            child = subprocess.Popen(["sleep", str(float(arg) / SPEED)])
            busy(0, "Working", child=child)
            hook("PostToolUse", tool_name="Bash", tool_response={},
                 duration_ms=int(float(arg) * 1000))
            turn_end()
        elif cmd == "permission":
            turn_start(line)
            busy(0.5, "Working")
            dialog_permission()
        elif cmd == "permission-now" and CLAUDE:
            # Its reply at once: "busy" and "waiting" written together,
            # the dialog drawn where its prompt was.
            transcript({"type": "user", "message": {"role": "user",
                                                    "content": line}})
            dialog_permission()
        elif cmd == "question" and CLAUDE:
            turn_start(line)
            busy(0.5, "Working")
            dialog_permission(question=True)
        elif cmd == "limitwait" and not CLAUDE:
            # Codex given a 429 with a long retry-after: it waits it out by
            # itself, spinner and all (notes: "Server is busy").
            turn_start(line)
            w("\r\n  \u2514 Exceeded retry limit, last status: 429 Too Many "
              "Requests\033[1A")
            busy(float(arg), "Server is busy, reconnecting 1/5")
            w("\r\n")
            turn_end()
        elif cmd == "retry":
            turn_start(line)
            busy(float(arg), "API error \u00b7 Retrying in 3s \u00b7 attempt "
                 "1/10" if CLAUDE else "Reconnecting... 1/5")
            turn_end()
        elif cmd == "error":
            turn_start(line)
            busy(0.5, "Working")
            if CLAUDE:
                w("\r\n\u25cf API Error: 500 Internal server error.\r\n")
                transcript({"type": "assistant", "isApiErrorMessage": True,
                            "error": "server_error", "message": {
                                "role": "assistant", "content": [
                                    {"type": "text", "text": "API Error: 500"}]}})
                # Claude 2.1.197 closes a failed turn like any other.
                transcript({"type": "system", "subtype": "turn_duration",
                            "durationMs": 500})
                transcript({"type": "last-prompt"})
                hook("StopFailure", error="server_error")
                idle()
            else:
                osc7501("state=error:app=codex")
                title(title_text)
                w("\r\n\u25a0 We\u2019re currently experiencing high demand\r\n")
            idle_screen()
        elif cmd == "background" and CLAUDE:
            turn_start(line)
            busy(0.3, "Working")
            try:
                child = subprocess.Popen(["sleep", str(float(arg) / SPEED)])
            except ValueError:
                # Until that file exists: as long as a test needs.
                child = subprocess.Popen(["sh", "-c", 'while [ ! -e "$0" ]; '
                                          'do sleep 0.05; done', arg])
            task = "bfake%d" % child.pid
            transcript({"type": "user", "message": {"role": "user", "content": [
                {"tool_use_id": "t1", "type": "tool_result",
                 "content": "Command running in background with ID: %s. "
                            "Output is being written to: /tmp/%s.output." % (task, task)}]}})
            turn_end("Started it in the background.")
            w("\u273b done \u00b7 1 shell still running\r\n")
            if not os.environ.get("FAKE_AGENT_OLD_SESSION"):
                session("shell")

            def ended(child=child, task=task):
                child.wait()
                transcript({"type": "user", "message": {"role": "user", "content":
                            "<task-notification>\n<task-id>%s</task-id>\n"
                            "<status>completed</status>\n</task-notification>" % task}})
                session("busy")
                busy(0.3, "Working")
                turn_end("The background command finished.")
            threading.Thread(target=ended, daemon=True).start()
        elif cmd == "usage" and CLAUDE and len(words) == 5:
            turn_start(line)
            busy(0.3, "Working")
            n = [int(x) for x in words[1:]]
            turn_end("Used tokens.", usage={
                "input_tokens": n[0], "output_tokens": n[1],
                "cache_read_input_tokens": n[2],
                "cache_creation_input_tokens": n[3]})
        elif cmd == "limit":
            # What the real CLIs show on HTTP 429 (docs/classification.md).
            turn_start(line)
            busy(0.5, "Working")
            if CLAUDE:
                text = ("API Error: Request rejected (429) \u00b7 This request "
                        "would exceed your account's rate limit. Please try "
                        "again later.")
                w("\r\n\u25cf %s\r\n" % text)
                transcript({"type": "assistant", "isApiErrorMessage": True,
                            "error": "rate_limit", "apiErrorStatus": 429,
                            "message": {"role": "assistant", "model": "<synthetic>",
                                        "usage": {"input_tokens": 0, "output_tokens": 0},
                                        "content": [{"type": "text", "text": text}]}})
                transcript({"type": "system", "subtype": "turn_duration",
                            "durationMs": 40})
                hook("StopFailure", error="rate_limit",
                     last_assistant_message=text)
                idle()
            else:
                osc7501("state=error:app=codex")
                title(title_text)
                w("\r\n\u25a0 exceeded retry limit, last status: 429 Too Many "
                  "Requests\r\n")
            idle_screen()
        elif cmd == "corrupt" and CLAUDE:
            fd = os.open(SESSION, os.O_WRONLY | os.O_TRUNC | os.O_CREAT |
                         os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write('{"pid": %d, "status": "bu' % pid)
            mark("session corrupt")
            idle_screen()
        elif cmd == "spin":
            # Works without a word: CPU only, no output, no child; a third
            # word is the share of a core it takes, in percent.
            turn_start(line)
            if CLAUDE:
                title("%s %s" % (BRAILLE_CLAUDE[0], title_text))
            else:
                title("%s %s" % (BRAILLE_CODEX[0], title_text))
            share = float(words[2]) / 100 if len(words) > 2 else 1.0
            end = time.time() + float(arg) / SPEED
            while time.time() < end:
                if share < 1:
                    time.sleep(0.01 * (1 - share))
                    t = time.time() + 0.01 * share
                    while time.time() < t:
                        pass
            turn_end()
        elif cmd == "hang":
            turn_start(line)
            if CLAUDE:
                title("%s %s" % (BRAILLE_CLAUDE[0], title_text))
            else:
                title("%s %s" % (BRAILLE_CODEX[0], title_text))
            while True:
                time.sleep(3600)
        else:
            w("\r\nunknown command: %s\r\n" % cmd)
            idle_screen()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        sys.exit(130)

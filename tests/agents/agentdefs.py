"""The agents the conformance suite drives (tests/agents/conformance.py):
how each starts, its home and settings, its mock, its prompts, and where
its own tables say what lisa must report."""
import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# LISA_BIN_DIR: other binaries than the tree's (as tests/run.sh takes it).
BIN = os.environ.get("LISA_BIN_DIR") or os.path.join(ROOT, "bin")
LISA = os.path.join(BIN, "lisa")
LISAD = os.path.join(BIN, "lisad")
# model_context_window in the test CODEX_HOME. Codex works with 95% of it
# (and of its own table's: 272000 for a model it does not know, as 258400).
CODEX_WINDOW = 200000
# The mock model's window in OpenCode's config (its limit.context).
OPENCODE_WINDOW = 131072
# The mock model's window in pi's models.json (its contextWindow).
PI_WINDOW = 250000


class Failure(Exception):
    pass


def kill_started_from(env_item, in_cmdline=None):
    """SIGKILL every process whose environment holds ENV_ITEM ("NAME=value")
    or whose command line holds IN_CMDLINE: an agent's daemons that outlive
    it (Codex's app-server, Cline's hub)."""
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % p, "rb") as f:
                cl = f.read().decode("utf-8", "replace")
            with open("/proc/%s/environ" % p, "rb") as f:
                envb = f.read().split(b"\0")
        except OSError:
            continue
        if env_item.encode() in envb or (in_cmdline and in_cmdline in cl):
            try:
                os.kill(int(p), signal.SIGKILL)
            except OSError:
                pass


class Agent:
    """What differs between agents: their home, how they start, the mock."""

    name = None
    mock = None
    # Its process among the pane's: argv[0]'s base name one of PROC_BASE or
    # an argument's one of PROC_ARG; the first found, or with PROC_DEEPEST
    # the last down the tree (a wrapper's native child, the one a crash
    # takes down).
    proc_base = ()
    proc_arg = ()
    proc_deepest = False

    def __init__(self, binary, version, top, hooks):
        self.bin = binary
        self.version = version
        self.top = top
        self.hooks = hooks
        self.work = os.path.join(top, "work")
        os.makedirs(self.work, exist_ok=True)
        self.mock_proc = None
        self.port = None

    def start_mock(self):
        self.mock_proc = subprocess.Popen(
            [sys.executable, os.path.join(HERE, self.mock), "--log",
             os.path.join(self.top, "mock.log")],
            stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, **getattr(self, "mock_env", {})))
        line = self.mock_proc.stdout.readline()
        m = re.match(r"port (\d+)", line)
        if not m:
            raise Failure("the mock did not start")
        self.port = int(m.group(1))

    def stop(self):
        if self.mock_proc:
            self.mock_proc.terminate()
            self.mock_proc.wait()

    def env(self):
        raise NotImplementedError

    def install_hooks(self, server, **where):
        """`lisa hooks install AGENT` into the test's home, as a user would."""
        p = subprocess.run([LISA, "hooks", "install", self.name],
                           env=dict(server.env, **where), capture_output=True, text=True)
        if p.returncode != 0:
            raise Failure("lisa hooks install %s: %s" % (self.name, p.stderr))

    def shell_command(self):
        """A pane command: an interactive shell with the agent's environment."""
        env = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in self.env().items())
        return ("cd %s && exec env %s PS1='$ ' bash --norc --noprofile -i"
                % (shlex.quote(self.work), env))

    def run_command(self, args):
        """A pane command that is the agent itself (as a launcher runs it)."""
        env = " ".join("%s=%s" % (k, shlex.quote(v)) for k, v in self.env().items())
        return "cd %s && exec env %s %s %s" % (
            shlex.quote(self.work), env, shlex.quote(self.bin),
            " ".join(shlex.quote(a) for a in args))


class Claude(Agent):
    name = "claude"
    proc_base = ("claude",)
    mock = "mock_anthropic.py"
    prompts = {"tool": "#mock bash sleep 6", "permission": "#mock bash touch lisa-perm",
               "question": "#mock ask Which option?", "exit": "/exit"}
    error_detail = "error"
    tool_done = "after_tool"
    answer_prompt = "#mock bash touch %s"
    # A command of several lines, allowed whole (" ;; " between lines).
    multiline_prompt = "#mock bashlines touch %s-1 ;; touch %s-2"
    refusal_words = ["doesn't want to proceed"]
    kill_detail = "signal 9"
    oneshot_name = "print mode"
    resumes = True
    # /clear begins a new conversation (a new sessionId in sessions/<pid>.json).
    clear_command = "/clear"
    oneshot_ok = ["-p", "say hello"]
    oneshot_fail = ["-p", "#mock error 400"]

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        os.makedirs(os.path.join(self.home, ".claude"), exist_ok=True)
        cfg = {"hasCompletedOnboarding": True, "theme": "dark",
               "customApiKeyResponses": {"approved": ["sk-ant-dummy"], "rejected": []},
               "projects": {self.work: {"hasTrustDialogAccepted": True,
                                        "allowedTools": []}}}
        with open(os.path.join(self.home, ".claude.json"), "w") as f:
            json.dump(cfg, f)
        # sleep runs without asking, so "tool" is a tool and not a dialog;
        # anything else asks (newer versions default to "auto" mode, which
        # decides by itself)
        settings = {"permissions": {"allow": ["Bash(sleep:*)"],
                                    "defaultMode": "default"}}
        with open(os.path.join(self.home, ".claude", "settings.json"), "w") as f:
            json.dump(settings, f)
        if self.hooks:
            self.install_hooks(server, HOME=self.home)

    def env(self):
        return {"HOME": self.home, "ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % self.port,
                "ANTHROPIC_API_KEY": "sk-ant-dummy", "DISABLE_TELEMETRY": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                "DISABLE_AUTOUPDATER": "1", "CLAUDE_CODE_MAX_RETRIES": "3",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass

    def model_window(self):
        """The window of the model Claude last used, by Claude Code's own
        model table (context.window for each first_party id), read out of
        the installed binary: Claude's word for it, not lisa's copy. None
        if the table or the model cannot be found."""
        top = os.path.realpath(self.bin)
        while top != "/" and os.path.basename(top) != "node_modules":
            top = os.path.dirname(top)
        table = {}
        for d, _, files in os.walk(top):
            for f in files:
                path = os.path.join(d, f)
                if f != "claude" or os.path.getsize(path) < 10 << 20:
                    continue
                with open(path, "rb") as fh:
                    data = fh.read()
                for m in re.finditer(rb"context:\{window:([0-9e.]+)", data):
                    ids = re.findall(rb'first_party:"(claude-[a-z0-9-]+)"',
                                     data[max(0, m.start() - 1500):m.start()])
                    if ids:
                        table[ids[-1].decode()] = int(float(m.group(1)))
        model = None
        for t in sorted(glob.glob(os.path.join(self.home, ".claude", "projects",
                                               "*", "*.jsonl")), key=os.path.getmtime):
            with open(t, errors="replace") as fh:
                for m in re.finditer(r'"model":"(claude-[^"]+)"', fh.read()):
                    model = m.group(1)
        if not table or model is None:
            return None
        if model in table:
            return table[model]
        return next((w for k, w in table.items() if k.startswith(model + "-")), 200000)


class Codex(Agent):
    name = "codex"
    proc_base = ("codex",)
    proc_deepest = True   # node wrapper -> native codex
    mock = "mock_openai.py"
    prompts = {"tool": "#mock run sleep 6", "permission": "#mock escalate touch lisa-perm",
               "exit": "/quit"}
    error_detail = "error"
    tool_done = "after_tool"
    answer_prompt = "#mock escalate touch %s"
    refusal_words = ["</turn_aborted>"]
    kill_detail = None
    oneshot_name = "exec"
    resumes = True
    # /new begins a new thread (a new rollout) in the same process.
    clear_command = "/new"
    oneshot_ok = ["exec", "--skip-git-repo-check", "say hello"]
    oneshot_fail = ["exec", "--skip-git-repo-check", "#mock error 500"]

    def setup(self, server):
        # Codex refuses to put its helper binaries under a temporary
        # directory, so its home lives in the cache (removed at the end).
        cache = os.environ.get("LISA_AGENTS_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lisa-agents")
        self.home = os.path.join(cache, "homes", "%d-%s" % (os.getpid(),
                                                              "hooks" if self.hooks else "plain"))
        shutil.rmtree(self.home, ignore_errors=True)
        os.makedirs(self.home)
        cfg = ('model = "mock-model"\nmodel_provider = "mock"\n\n'
               '[model_providers.mock]\nname = "Mock"\n'
               'base_url = "http://127.0.0.1:%d/v1"\nenv_key = "MOCK_API_KEY"\n'
               'wire_api = "responses"\nrequest_max_retries = 4\n'
               'stream_max_retries = 2\n\n[projects.%s]\ntrust_level = "trusted"\n'
               % (self.port, json.dumps(self.work)))
        # A window of our choosing, so that lisa's number is checked
        # against one it could not have taken from anywhere else.
        cfg = "model_context_window = %d\n" % CODEX_WINDOW + cfg
        with open(os.path.join(self.home, "config.toml"), "w") as f:
            f.write(cfg)
        if self.hooks:
            self.install_hooks(server, CODEX_HOME=self.home)

    def env(self):
        # A HOME of its own: Codex's daemon snapshots a login shell, which
        # would source the machine's ~/.bashrc (pyenv's rehash once kept
        # such a shell alive for a minute, a "tool" under the agent).
        home = os.path.join(self.home, "user-home")
        os.makedirs(home, exist_ok=True)
        return {"CODEX_HOME": self.home, "HOME": home, "MOCK_API_KEY": "mock-key",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        # Codex's app-server daemon outlives the TUI (and `codex app-server
        # daemon stop` can hang): end everything started from this home.
        kill_started_from("CODEX_HOME=" + self.home, self.home + "/")
        shutil.rmtree(self.home, ignore_errors=True)


class Gemini(Agent):
    name = "gemini"
    proc_arg = (b"gemini", b"gemini.js")
    proc_deepest = True   # it relaunches itself: the inner node works
    mock = "mock_gemini.py"
    prompts = {"exit": "/quit"}
    answer_prompt = "#mock run touch %s"
    # The refused call is dropped from the history: the denied prompt is
    # followed at once by the next user turn, the reply.
    refusal_words = ['touch lisa-deny"}],"role":"user"},{"parts":[{"text":"']
    kill_detail = None
    resumes = True
    # /clear: a new chat (a new log, its own sessionId) in the same process.
    clear_command = "/clear"
    oneshot_name = "print mode"
    oneshot_ok = ["-p", "say hello"]
    oneshot_fail = ["-p", "#mock error 400"]

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        os.makedirs(os.path.join(self.home, ".gemini"), exist_ok=True)
        settings = {"security": {"auth": {"selectedType": "gemini-api-key"}},
                    "privacy": {"usageStatisticsEnabled": False},
                    "telemetry": {"enabled": False},
                    "general": {"enableAutoUpdate": False,
                                "enableAutoUpdateNotification": False}}
        with open(os.path.join(self.home, ".gemini", "settings.json"), "w") as f:
            json.dump(settings, f)
        with open(os.path.join(self.home, ".gemini", "trustedFolders.json"), "w") as f:
            json.dump({self.work: "TRUST_FOLDER"}, f)
        if self.hooks:
            raise Failure("lisa has no hooks for Gemini CLI")

    def env(self):
        return {"HOME": self.home, "GEMINI_API_KEY": "mock-key",
                "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:%d" % self.port,
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass

    def model_window(self):
        """The window Gemini CLI itself gives the model it last used: its
        tokenLimit(), read out of the installed bundle (the Gemma 4 models
        have their own; every other model the default). None if not found."""
        top = os.path.realpath(self.bin)
        while top != "/" and os.path.basename(top) != "node_modules":
            top = os.path.dirname(top)
        default = None
        for d, _, files in os.walk(top):
            for f in files:
                if not f.endswith(".js") or "gemini-cli" not in d:
                    continue
                with open(os.path.join(d, f), "rb") as fh:
                    m = re.search(rb"var DEFAULT_TOKEN_LIMIT = ([0-9e.]+);", fh.read())
                if m:
                    default = int(float(m.group(1)))
                    break
            if default:
                break
        model = None
        for t in sorted(glob.glob(os.path.join(self.home, ".gemini", "tmp", "*", "chats",
                                               "session-*.jsonl")), key=os.path.getmtime):
            with open(t, errors="replace") as fh:
                for m in re.finditer(r'"model":"([^"]+)"', fh.read()):
                    model = m.group(1)
        if default is None or model is None or model.startswith("gemma-4-"):
            return None
        return default


class Qwen(Agent):
    """Qwen Code (Gemini CLI's fork) on the Chat Completions mock. Its
    auto-update would run a global `npm install`: enableAutoUpdate is off."""
    name = "qwen"
    proc_arg = (b"qwen",)
    proc_deepest = True
    mock = "mock_chat.py"
    prompts = {"exit": "/quit"}
    answer_prompt = "#mock run touch %s"
    refusal_words = ["User did not allow tool call"]
    kill_detail = None
    # Offline, it sits 20 to 40 s between the model's shell call and its
    # dialog (no request, no output: its own wait), with or without hooks.
    patience = 2
    dialog_text = {"permission": "Allow execution"}
    resumes = True
    oneshot_name = "print mode"
    oneshot_ok = ["-p", "say hello"]
    oneshot_fail = ["-p", "#mock error 400"]

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        os.makedirs(os.path.join(self.home, ".qwen"), exist_ok=True)
        settings = {"security": {"auth": {"selectedType": "openai"}},
                    "privacy": {"usageStatisticsEnabled": False},
                    "telemetry": {"enabled": False},
                    "general": {"enableAutoUpdate": False},
                    "$version": 4}
        with open(os.path.join(self.home, ".qwen", "settings.json"), "w") as f:
            json.dump(settings, f)
        with open(os.path.join(self.home, ".qwen", "trustedFolders.json"), "w") as f:
            json.dump({self.work: "TRUST_FOLDER"}, f)
        if self.hooks:
            self.install_hooks(server, HOME=self.home)

    def env(self):
        return {"HOME": self.home, "OPENAI_API_KEY": "mock-key",
                "OPENAI_BASE_URL": "http://127.0.0.1:%d/v1" % self.port,
                "OPENAI_MODEL": "mock-model",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass

    def model_window(self):
        """Qwen's DEFAULT_TOKEN_LIMIT (the mock's model is in no table),
        read out of the installed package."""
        top = os.path.realpath(self.bin)
        while top != "/" and os.path.basename(top) != "qwen-code":
            top = os.path.dirname(top)
        for path in [os.path.join(top, "cli.js")] + sorted(
                glob.glob(os.path.join(top, "chunks", "*.js"))):
            try:
                with open(path, "rb") as fh:
                    m = re.search(rb"DEFAULT_TOKEN_LIMIT = ([0-9e.]+);", fh.read())
            except OSError:
                continue
            if m:
                return int(float(m.group(1)))
        return None


class OpenCode(Agent):
    """OpenCode 1.18.33 (npm opencode-ai, a native Bun binary) on the Chat
    Completions mock. Its first start in a config directory fetches its TUI
    plugin's packages from npm, so that directory lives in the cache and
    is kept; its opencode.json is written anew for each run. Bash asks
    first (permission "ask"), as a careful user sets it."""
    name = "opencode"
    proc_base = ("opencode",)
    mock = "mock_chat.py"
    prompts = {"exit": "/exit"}
    answer_prompt = "#mock run touch %s"
    refusal_words = ["The user rejected permission"]
    kill_detail = None
    # It draws its prompt before its model is loaded; typed text is lost
    # until the model shows under the input box.
    ready_text = "Build \u00b7 "
    start_timeout = 360
    double_escape = True
    stall_detail = None
    # It draws a streamed answer well behind the stream (a "slow 8" took
    # over 40 s to end on screen here): every wait is this many times.
    patience = 4
    resumes = True
    oneshot_name = "run"
    oneshot_ok = ["run", "say hello"]
    # It retries a 500 for ever; a 401 (invalid_api_key) ends `run`,
    # exit 1, after a few tries (2 minutes here, its start included).
    oneshot_fail = ["run", "#mock error 401"]
    # (Kilo, its fork, has its start_timeout of 120 s, and beside two
    # other runs its start alone took 64 s, its tries more than the rest:
    # the row timed out with Kilo still trying.)
    oneshot_fail_timeout = 360

    def setup(self, server):
        cache = os.environ.get("LISA_AGENTS_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lisa-agents")
        self.home = os.path.join(self.top, "home")
        self.config = os.path.join(cache, "homes", "opencode-config")
        cfg_dir = os.path.join(self.config, "opencode")
        os.makedirs(cfg_dir, exist_ok=True)
        plugin = os.path.join(cfg_dir, "plugins", "lisa.js")
        if os.path.exists(plugin):
            os.unlink(plugin)
        self.write_config(server, cfg_dir, "opencode.json",
                          "https://opencode.ai/config.json")

    def write_config(self, server, cfg_dir, name, schema):
        """Its config (the mock as a provider of its own, bash asks
        first) as NAME in CFG_DIR, its home, its hooks if wanted."""
        cfg = {"$schema": schema, "autoupdate": False,
               "share": "disabled", "permission": {"bash": "ask"},
               "provider": {"mock": {
                   "npm": "@ai-sdk/openai-compatible", "name": "Mock",
                   "options": {"baseURL": "http://127.0.0.1:%d/v1" % self.port,
                               "apiKey": "mock-key"},
                   "models": {"mock-model": {"name": "Mock", "limit": {
                       "context": OPENCODE_WINDOW, "output": 8192}}}}},
               "model": "mock/mock-model"}
        with open(os.path.join(cfg_dir, name), "w") as f:
            json.dump(cfg, f)
        os.makedirs(self.home, exist_ok=True)
        if self.hooks:
            self.install_hooks(server, XDG_CONFIG_HOME=self.config)

    def env(self):
        return {"HOME": self.home, "XDG_CONFIG_HOME": self.config,
                "OPENCODE_DISABLE_AUTOUPDATE": "1",
                "OPENCODE_DISABLE_MODELS_FETCH": "1",
                "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
                "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        if not hasattr(self, "config"):
            return	# setup did not run
        plugin = os.path.join(self.config, "opencode", "plugins", "lisa.js")
        if os.path.exists(plugin):
            os.unlink(plugin)


class Kilo(OpenCode):
    """Kilo Code's CLI 7.7.7 (npm @kilocode/cli), OpenCode's fork: a node
    wrapper and its native child, OpenCode's config, log and plugin in
    "kilo" directories (kilo.json). Its Reject (and Escape on a dialog)
    opens a form, "Tell Kilo what to do differently": Enter there
    declines."""
    name = "kilo"
    proc_base = (".kilo",)   # node wrapper -> its native ".kilo"
    ready_text = "\u00b7 Mock"
    start_timeout = 120
    patience = 2
    dialog_reject_form = "Tell Kilo what to do differently"
    refusal_words = ["rejected permission", "The user rejected"]
    oneshot_ok = ["run", "say hello"]
    oneshot_fail = ["run", "#mock error 401"]

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        self.config = os.path.join(self.top, "config")
        cfg_dir = os.path.join(self.config, "kilo")
        os.makedirs(cfg_dir, exist_ok=True)
        self.write_config(server, cfg_dir, "kilo.json",
                          "https://app.kilo.ai/config.json")

    def env(self):
        return {"HOME": self.home, "XDG_CONFIG_HOME": self.config,
                "KILO_DISABLE_AUTOUPDATE": "1",
                "KILO_DISABLE_MODELS_FETCH": "1",
                "KILO_DISABLE_LSP_DOWNLOAD": "1",
                "KILO_DISABLE_DEFAULT_PLUGINS": "1",
                "KILO_DISABLE_SHARE": "1",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass


class Grok(Agent):
    """Grok CLI 0.0.34 (npm @vibe-kit/grok-cli) on the Chat Completions
    mock, offline as its own help gives it: GROK_BASE_URL, GROK_API_KEY,
    GROK_MODEL. It asks before a shell command; its options are picked
    with arrows and Enter only."""
    name = "grok"
    proc_arg = (b"grok",)
    mock = "mock_chat.py"
    prompts = {"exit": "exit"}
    answer_prompt = "#mock run touch %s"
    refusal_words = ["cancelled by user"]
    kill_detail = None
    ready_text = "Ask me anything"
    dialog_text = {"permission": "Do you want to proceed with this operation?"}
    start_timeout = 60
    resumes = False
    oneshot_name = "prompt mode"
    oneshot_ok = ["-p", "say hello"]
    oneshot_fail = ["-p", "#mock error 401"]
    # Its prompt mode asks without a stream, and exits 0 after an API
    # error (printed as its answer).
    mock_env = {"MOCK_UNSTREAMED_ERRORS": "1"}
    oneshot_fail_exit = 0

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        os.makedirs(self.home, exist_ok=True)

    def env(self):
        return {"HOME": self.home, "GROK_API_KEY": "mock-key",
                "GROK_BASE_URL": "http://127.0.0.1:%d/v1" % self.port,
                "GROK_MODEL": "mock-model",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass


class Continue(Agent):
    """Continue's CLI 1.5.47 (npm @continuedev/cli, command "cn") on the
    Chat Completions mock, offline as its docs give it: a config.yaml of
    one's own in ~/.continue, a model of provider "openai" whose apiBase
    is the mock; no login (.onboarding_complete there: it asks for an
    Anthropic key or a login once, else). It asks before a shell command
    ("> Continue (tab)") and asks its own questions (AskQuestion). It
    retries a failed request ten times, about two minutes, then shows the
    error over its input box."""
    name = "continue"
    proc_arg = (b"cn", b"cn.js")   # node running its cn.js
    command = "cn"
    mock = "mock_chat.py"
    prompts = {"exit": "/exit", "permission": "#mock run touch lisa-perm",
               "question": "#mock ask Which color?"}
    answer_prompt = "#mock run touch %s"
    refusal_words = ["Permission denied by user"]
    kill_detail = None
    ready_text = "Ask anything"
    dialog_text = {"permission": "Would you like to continue?"}
    start_timeout = 60
    # Its retries: ten in two minutes, before a 429 or a 500 ends the turn.
    patience = 4
    resumes = False
    oneshot_name = "print mode"
    oneshot_ok = ["-p", "say hello"]
    oneshot_fail = ["-p", "#mock error 400"]

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        cfg = os.path.join(self.home, ".continue")
        os.makedirs(cfg, exist_ok=True)
        with open(os.path.join(cfg, "config.yaml"), "w") as f:
            f.write("name: mock\nversion: 1.0.0\nschema: v1\nmodels:\n"
                    "  - name: mock-model\n    provider: openai\n"
                    "    model: mock-model\n"
                    "    apiBase: http://127.0.0.1:%d/v1\n"
                    "    apiKey: mock-key\n    roles: [chat]\n" % self.port)
        with open(os.path.join(cfg, ".onboarding_complete"), "w") as f:
            f.write("2026-12-01T00:00:00Z")
        if self.hooks:
            raise Failure("lisa has no hooks for continue")

    def env(self):
        return {"HOME": self.home, "CONTINUE_CLI_ENABLE_TELEMETRY": "0",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass


class OpenCodex(Agent):
    """open-codex 0.1.31 (npm open-codex), a fork of Codex's first
    (TypeScript) CLI for other providers, on the Chat Completions mock as
    its own code reads it: provider "ollama" in ~/.codex/config.json, its
    base URL from OLLAMA_BASE_URL. It needs node 22 (install.sh puts npm's
    beside it). Outside a git repository it asks first ("y/N"). It asks
    before a shell command, streams nothing ("Thinking..." until the
    answer comes whole), and retries a failing API by itself (about half
    a minute) before it says so over its input box."""
    name = "open-codex"
    proc_base = ("open-codex",)   # its process.title
    mock = "mock_chat.py"
    prompts = {"exit": "q"}
    answer_prompt = "#mock run touch %s"
    # Its "No, and keep going" tells the model so itself.
    refusal_words = ["Don't do that, keep going though"]
    kill_detail = None
    ready_text = "send a message"
    trust_text = "Do you want to continue?"
    trust_key = "y"
    dialog_text = {"permission": "Allow command?"}
    start_timeout = 60
    patience = 2
    double_escape = True
    resumes = False
    oneshot_name = "quiet mode"
    oneshot_ok = ["-q", "say hello"]
    oneshot_fail = ["-q", "#mock error 400"]
    # Its quiet mode prints a refused request as its answer ("⚠️  OpenAI
    # rejected the request...") and exits 0.
    oneshot_fail_exit = 0

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        os.makedirs(os.path.join(self.home, ".codex"), exist_ok=True)
        with open(os.path.join(self.home, ".codex", "config.json"), "w") as f:
            json.dump({"provider": "ollama", "model": "mock-model"}, f)
        if self.hooks:
            raise Failure("lisa has no hooks for open-codex")

    def env(self):
        return {"HOME": self.home,
                "OLLAMA_BASE_URL": "http://127.0.0.1:%d/v1" % self.port,
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass


class Copilot(Agent):
    """GitHub Copilot CLI 1.0.102 (npm @github/copilot) on the Chat
    Completions mock, offline as its own help gives it: COPILOT_OFFLINE
    with a provider of one's own (COPILOT_PROVIDER_BASE_URL). It unpacks
    its JavaScript on its first start (40 s here) into COPILOT_CACHE_HOME,
    kept in the cache. It asks before any shell command."""
    name = "copilot"
    proc_base = ("copilot",)
    proc_deepest = True   # node wrapper -> native (MainThread)
    mock = "mock_chat.py"
    prompts = {"exit": "/exit"}
    answer_prompt = "#mock run touch %s"
    refusal_words = ["was interrupted"]
    kill_detail = None
    trust_text = "Do you trust the files in this folder?"
    dialog_text = {"permission": "Do you want to run this command?"}
    start_timeout = 120
    patience = 2
    # Its footer says it: "esc esc interrupt".
    double_escape = True
    # On a stalled stream it says "esc esc edit prompt", and neither two
    # Escapes nor Ctrl-C ("Cancelling", for minutes) stopped it here.
    stall_interruptible = False
    resumes = True
    # /clear begins a new conversation in the same process, its id in the
    # same log (lisa follows the log).
    clear_command = "/clear"
    oneshot_name = "prompt mode"
    oneshot_ok = ["-p", "say hello"]
    oneshot_fail = ["-p", "#mock error 400"]

    def setup(self, server):
        cache = os.environ.get("LISA_AGENTS_CACHE") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "lisa-agents")
        self.cache = os.path.join(cache, "homes", "copilot-cache")
        os.makedirs(self.cache, exist_ok=True)
        self.home = os.path.join(self.top, "home")
        os.makedirs(os.path.join(self.home, ".copilot"), exist_ok=True)
        with open(os.path.join(self.home, ".copilot", "settings.json"), "w") as f:
            json.dump({"trustedFolders": [self.work], "autoUpdate": False}, f)
        if self.hooks:
            self.install_hooks(server, HOME=self.home)

    def env(self):
        return {"HOME": self.home, "COPILOT_CACHE_HOME": self.cache,
                "COPILOT_OFFLINE": "true", "COPILOT_AUTO_UPDATE": "false",
                "COPILOT_PROVIDER_BASE_URL": "http://127.0.0.1:%d/v1" % self.port,
                "COPILOT_PROVIDER_API_KEY": "mock-key", "COPILOT_MODEL": "mock-model",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass


class Pi(Agent):
    """pi 1.6.0 (npm @earendil-works/pi-coding-agent) on the Chat
    Completions mock, as a provider of one's own in its models.json
    (api openai-completions), offline (PI_OFFLINE). It needs node 22:
    install.sh puts npm's node beside it, first on its PATH. It runs its
    tools without asking (no permission dialogs, by design) and retries a
    failed request three times by itself ("Retrying (1/3) in 2s")."""
    name = "pi"
    proc_base = ("pi",)   # its process.title
    mock = "mock_chat.py"
    prompts = {"tool": "#mock run sleep 6", "exit": "/quit"}
    error_detail = "error"
    tool_done = "after_tool"
    kill_detail = "signal 9"
    resumes = True
    # /new begins a new session (a new file) in the same process.
    clear_command = "/new"
    oneshot_name = "print mode"
    oneshot_ok = ["-p", "say hello"]
    oneshot_fail = ["-p", "#mock error 400"]

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        agent = os.path.join(self.home, ".pi", "agent")
        os.makedirs(agent, exist_ok=True)
        models = {"providers": {"mock": {
            "baseUrl": "http://127.0.0.1:%d/v1" % self.port,
            "api": "openai-completions", "apiKey": "mock-key",
            "models": [{"id": "mock-model", "contextWindow": PI_WINDOW}]}}}
        with open(os.path.join(agent, "models.json"), "w") as f:
            json.dump(models, f)
        # Its changelog is shown once per version: taken as read.
        settings = {"defaultProvider": "mock", "defaultModel": "mock-model",
                    "lastChangelogVersion": self.version}
        with open(os.path.join(agent, "settings.json"), "w") as f:
            json.dump(settings, f)
        if self.hooks:
            raise Failure("lisa has no hooks for pi")

    def env(self):
        return {"HOME": self.home, "PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1",
                "PI_TELEMETRY": "0",
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        pass


class Cline(Agent):
    """Cline CLI 3.0.65 (npm cline, a native binary) on the Chat
    Completions mock, set by its own `cline auth -p openai ... -b URL`.
    Tools ask first ("toolAutoApprove"
    off, as a careful user sets it: its default approves all). Its start
    shows a notice once per notice (cli-notices.json: taken as shown) and
    it updates itself unless told not to (autoUpdateEnabled). A daemon
    of its own (its "hub") outlives the TUI: ended with the home."""
    name = "cline"
    proc_base = ("cline",)
    mock = "mock_chat.py"
    prompts = {"exit": "/exit"}
    answer_prompt = "#mock run touch %s"
    refusal_words = ["rejected by the user"]
    kill_detail = "signal 9"
    dialog_text = {"permission": "Approve tool call?",
                   "question": "Cline is asking a question"}
    resumes = True
    oneshot_name = "one-shot"
    oneshot_ok = ["say hello"]
    oneshot_fail = ["#mock error 400"]

    def setup(self, server):
        self.home = os.path.join(self.top, "home")
        settings = os.path.join(self.home, ".cline", "data", "settings")
        os.makedirs(settings, exist_ok=True)
        # Its own documented way: cline auth, an OpenAI-compatible
        # provider at the mock (into its providers.json).
        p = subprocess.run([self.bin, "auth", "-p", "openai", "-k", "mock-key",
                            "-m", "mock-model", "-b",
                            "http://127.0.0.1:%d/v1" % self.port],
                           env=dict(os.environ, **self.env()), capture_output=True,
                           text=True, timeout=120)
        if p.returncode != 0:
            raise Failure("cline auth: %s" % (p.stdout + p.stderr).strip()[-200:])
        with open(os.path.join(settings, "global-settings.json"), "w") as f:
            json.dump({"autoUpdateEnabled": False, "telemetryOptOut": True,
                       "toolAutoApprove": False}, f)
        with open(os.path.join(settings, "cli-notices.json"), "w") as f:
            json.dump({"shown": {"cline-cli-cline-pass-intro": True,
                                 "cline-cli-desktop-launch": True}}, f)
        if self.hooks:
            raise Failure("lisa has no hooks for Cline")

    def env(self):
        return {"HOME": self.home,
                "PATH": os.path.dirname(self.bin) + ":" + os.environ["PATH"]}

    def cleanup(self):
        if not hasattr(self, "home"):
            return
        kill_started_from("HOME=" + self.home)

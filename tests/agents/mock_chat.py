#!/usr/bin/env python3
"""A scripted OpenAI Chat Completions API (SSE), for agents that speak it
(Qwen Code, OpenCode, and any OpenAI-compatible client), run offline.

    python3 mock_chat.py [--port N] [--log FILE]

Listens on 127.0.0.1 (port 0 = any free port) and prints "port N" on stdout
once it accepts connections; the agent's base URL is http://127.0.0.1:N/v1.

What a streamed request gets is chosen by the last "#mock VERB [ARG]" in the
newest typed user message (text in <...> blocks is the agent's own):

    #mock slow S        stream text chunks for about S seconds
    #mock run CMD       call the shell tool with CMD (run_shell_command, or
                        bash, run_commands, Bash or shell when the request
                        offers that: OpenCode, pi, Cline, Continue,
                        open-codex)
    #mock ask Q         ask Q with two options (ask_question: Cline;
                        AskQuestion: Continue)
    #mock error STATUS  answer with HTTP STATUS
    #mock limit S       HTTP 429 as the API sends a rate limit: retry-after S,
                        x-ratelimit-* headers, code rate_limit_exceeded
    #mock usage N       a short answer whose usage says N prompt tokens
    #mock drop          a few chunks, then close without finish_reason
    #mock stall         send the headers, then nothing
    (nothing)           a short answer at once

A request whose last message is a tool result ends the turn with a short
text. A request that is not streamed (an agent's side call) gets a short
answer, JSON if it asked for JSON; with MOCK_UNSTREAMED_ERRORS=1 in the
environment, one that offers tools (Grok CLI's prompt mode asks so) gets
its "#mock error" too. Standard library only; one JSON line per request
goes to --log.
"""
import json
import os
import re
import socket
import sys
import time
import uuid

from mockserver import WORDS, Handler, directive, number, serve


def text_of(content):
    if isinstance(content, str):
        return content
    out = []
    for c in content or []:
        if isinstance(c, dict) and c.get("type") == "text":
            out.append(c.get("text", ""))
    return "\n".join(out)


def choose(req):
    msgs = req.get("messages") or []
    if msgs and msgs[-1].get("role") == "tool":
        return "after_tool", ""
    for m in reversed(msgs):
        if m.get("role") == "user":
            t = text_of(m.get("content"))
            # Copilot CLI puts <current_datetime>...</current_datetime>
            # before what was typed: the prompt is what follows it.
            typed = re.sub(r"^\s*(<([a-z_]+)>.*?</\2>\s*)+", "", t, flags=re.S)
            if "#mock" in t or typed.strip():
                return directive(t)
    return "text", ""


class Chat(Handler):
    def chunk(self, delta, finish=None, usage=None):
        obj = {"id": self.cid, "object": "chat.completion.chunk",
               "created": int(time.time()), "model": self.model,
               "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
        if usage is not None:
            obj["usage"] = usage
        self.wfile.write(("data: %s\n\n" % json.dumps(obj)).encode())
        self.wfile.flush()

    def done(self, finish, prompt=100):
        self.chunk({}, finish)
        self.chunk({}, None, {"prompt_tokens": prompt, "completion_tokens": 20,
                              "total_tokens": prompt + 20})
        self.wfile.write(b"data: [DONE]\n\n")
        self.wfile.flush()

    def do_GET(self):
        if "/models" in self.path:
            return self.reply(200, {"object": "list", "data": [
                {"id": "mock-model", "object": "model", "owned_by": "mock"}]})
        self.reply(200, {})

    def do_POST(self):
        _, req = self.read_json()
        if not self.path.split("?")[0].rstrip("/").endswith("/chat/completions"):
            return self.reply(404, {"error": {"message": "mock: unknown path"}})
        self.cid = "chatcmpl-" + uuid.uuid4().hex[:12]
        self.model = req.get("model") or "mock-model"
        verb, arg = choose(req)
        if not req.get("stream") and not (
                verb == "error" and req.get("tools") and
                os.environ.get("MOCK_UNSTREAMED_ERRORS") == "1"):
            verb = "side"
        self.answer(verb, lambda: self.perform(verb, arg, req))

    def perform(self, verb, arg, req):
        if verb == "side":
            fmt = req.get("response_format") or {}
            text = "{}" if fmt.get("type") in ("json_object", "json_schema") else \
                "Mock side answer."
            return self.reply(200, {"id": self.cid, "object": "chat.completion",
                                    "model": self.model, "choices": [{
                                        "index": 0, "finish_reason": "stop",
                                        "message": {"role": "assistant", "content": text}}],
                                    "usage": {"prompt_tokens": 10, "completion_tokens": 2,
                                              "total_tokens": 12}})
        if verb == "error":
            status = int(number(arg, 500))
            # As OpenAI's API sends them: a client error is no server's.
            kind = ("server_error" if status >= 500 else
                    "invalid_api_key" if status == 401 else "invalid_request_error")
            return self.reply(status, {"error": {"message": "mock error %d" % status,
                                                 "type": kind, "code": kind}})
        if verb == "limit":
            return self.openai_limit(int(number(arg, 60)))
        self.start_sse()
        self.chunk({"role": "assistant", "content": ""})
        if verb == "stall":
            return self.hang()
        if verb == "slow":
            for i in range(max(1, int(number(arg, 10) * 5))):
                self.chunk({"content": WORDS[i % len(WORDS)] + " "})
                time.sleep(0.2)
            self.chunk({"content": "\n\nDone."})
            self.done("stop")
        elif verb == "drop":
            for w in WORDS[:4]:
                self.chunk({"content": w + " "})
                time.sleep(0.2)
            self.connection.shutdown(socket.SHUT_RDWR)
        elif verb == "run":
            self.chunk({"content": "I will run the command now.\n"})
            names = [t.get("function", {}).get("name") for t in req.get("tools") or []]
            # Qwen Code's shell tool, OpenCode's (and pi's), Cline's,
            # Continue's.
            tool = next((n for n in ("run_shell_command", "bash", "run_commands",
                                     "Bash", "shell")
                         if n in names), "run_shell_command")
            args = {"command": arg or "true", "description": "the mock command"}
            if tool == "run_commands":
                args = {"commands": [arg or "true"]}
            elif tool == "shell":	# open-codex's: an argv
                args = {"command": ["bash", "-lc", arg or "true"]}
            self.call(tool, args)
        elif verb == "ask":
            # A question with options, where the agent has a tool for it
            # (Cline's ask_question, Continue's AskQuestion).
            self.chunk({"content": "I have a question.\n"})
            names = [t.get("function", {}).get("name") for t in req.get("tools") or []]
            self.call("AskQuestion" if "AskQuestion" in names else "ask_question",
                      {"question": arg or "Which option?",
                       "options": ["Option A", "Option B"]})
        elif verb == "after_tool":
            self.chunk({"content": "The command finished. Mock turn complete."})
            self.done("stop")
        elif verb == "usage":
            self.chunk({"content": "Mock answer: a full context."})
            self.done("stop", int(number(arg, 100)))
        else:
            self.chunk({"content": "Mock answer: done."})
            self.done("stop")


    def call(self, tool, args):
        call = {"index": 0, "id": "call_" + uuid.uuid4().hex[:12], "type": "function",
                "function": {"name": tool, "arguments": json.dumps(args)}}
        self.chunk({"tool_calls": [call]})
        self.done("tool_calls")


if __name__ == "__main__":
    sys.exit(serve(Chat, __doc__))

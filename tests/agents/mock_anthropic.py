#!/usr/bin/env python3
"""A scripted Anthropic Messages API for running the real Claude Code offline.

    python3 mock_anthropic.py [--port N] [--log FILE]

Listens on 127.0.0.1 (port 0 = any free port) and prints "port N" on stdout
once it accepts connections. Claude Code reaches it through
ANTHROPIC_BASE_URL=http://127.0.0.1:N.

What a request gets is chosen by the last "#mock VERB [ARG]" in the newest
typed user prompt (Claude folds a failed prompt into the next one, so the
last one wins):

    #mock slow S        stream filler text for about S seconds
    #mock bash CMD      call the Bash tool with CMD (to end of line)
    #mock bashlines A ;; B   the Bash tool with a command of lines A, B
    #mock background CMD  the same, run_in_background: the turn ends while
                        CMD still runs
    #mock ask           call AskUserQuestion with two options
    #mock error STATUS  answer every request of that prompt with HTTP STATUS
    #mock stall         accept the request and never answer
    #mock limit S       HTTP 429 as the API sends a usage limit: retry-after
                        S and the unified rate-limit headers (rejected,
                        reset in S seconds)
    #mock usage N       a short answer whose usage says N cache-read input
                        tokens (and 10 new, 500 cache written, as the API
                        reports a long conversation)
    (nothing)           a short answer at once

A request whose newest message carries a tool_result ("after_tool" in the
log) ends the turn with a short text. Requests without the Bash tool
(session titles and other side requests) get an instant answer shaped by
their JSON schema, if any.
Standard library only; one JSON line per request goes to --log.
"""
import json
import sys
import time

from mockserver import Handler, directive, number, serve

FILLER = "lisa conformance filler text, streamed slowly on purpose. "
ERRORS = {
    400: ("invalid_request_error", "Invalid request (mock)"),
    401: ("authentication_error", "invalid x-api-key"),
    429: ("rate_limit_error", "Rate limited (mock)"),
    500: ("api_error", "Internal server error"),
    529: ("overloaded_error", "Overloaded"),
}
counter = [0]


def texts(content):
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content or []
            if isinstance(b, dict) and b.get("type") == "text"]


def typed(content):
    return [t for t in texts(content) if not t.lstrip().startswith("<")]


def last_prompt(messages):
    for m in reversed(messages):
        if m.get("role") == "user" and typed(m.get("content")):
            return "\n".join(typed(m.get("content")))
    return ""


def ends_with_tool_result(messages):
    """The newest message answers a tool call and says nothing else (after
    a refused tool, Claude sends the refusal and the next prompt together)."""
    if not messages or messages[-1].get("role") != "user":
        return False
    c = messages[-1].get("content")
    if not isinstance(c, list) or typed(c):
        return False
    return any(isinstance(b, dict) and b.get("type") == "tool_result" for b in c)


def sample(schema, name):
    kind = (schema or {}).get("type")
    if kind == "object":
        return {k: sample(v, k) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        return 0
    if kind == "boolean":
        return False
    return "Mock session title" if name == "title" else "mock"


def choose(req):
    """(verb, arg) for one /v1/messages request."""
    tools = [t.get("name") for t in req.get("tools") or [] if isinstance(t, dict)]
    if "Bash" not in tools:
        fmt = (req.get("output_config") or {}).get("format") or {}
        if fmt.get("type") == "json_schema":
            return "text", json.dumps(sample(fmt.get("schema"), "value"))
        return "text", "Mock side answer."
    messages = req.get("messages") or []
    # A background command ended: Claude starts a turn to say so.
    if messages and messages[-1].get("role") == "user" and any(
            "<task-notification>" in t
            for t in texts(messages[-1].get("content"))):
        return "text", "The background command finished."
    if ends_with_tool_result(messages):
        return "after_tool", "The tool finished. Mock turn complete."
    return directive(last_prompt(messages),
                     ("text", "Hello from the mock model. Task done."))


class Anthropic(Handler):
    def event(self, name, obj):
        self.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(obj))).encode())
        self.wfile.flush()

    def do_GET(self):
        if self.path.startswith("/v1/models"):
            return self.reply(200, {"data": [{"type": "model", "id": "claude-mock",
                                              "display_name": "Mock"}],
                                    "has_more": False})
        self.reply(200, {})

    def do_POST(self):
        body, req = self.read_json()
        path = self.path.split("?")[0]
        if path == "/v1/messages/count_tokens":
            return self.reply(200, {"input_tokens": max(1, len(body) // 4)})
        if path != "/v1/messages":
            return self.reply(200, {})
        verb, arg = choose(req)
        self.answer(verb, lambda: self.perform(verb, arg, req))

    def perform(self, verb, arg, req):
        if verb == "error":
            status = int(number(arg, 500))
            kind, msg = ERRORS.get(status, ("api_error", "Mock error"))
            return self.reply(status, {"type": "error",
                                       "error": {"type": kind, "message": msg}})
        if verb == "stall":
            return self.hang()
        if verb == "limit":
            secs = int(number(arg, 3600))
            reset = int(time.time()) + secs
            return self.reply(429, {"type": "error", "error": {
                "type": "rate_limit_error",
                "message": "This request would exceed your account's rate limit. "
                           "Please try again later."}}, (
                ("retry-after", str(secs)),
                ("anthropic-ratelimit-unified-status", "rejected"),
                ("anthropic-ratelimit-unified-reset", str(reset)),
                ("anthropic-ratelimit-unified-5h-status", "rejected"),
                ("anthropic-ratelimit-unified-5h-reset", str(reset)),
                ("anthropic-ratelimit-unified-representative-claim", "five_hour"),
                ("anthropic-ratelimit-requests-reset",
                 time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(reset)))))
        if verb == "bash":
            blocks = [("text", "I will run a command."),
                      ("tool", "Bash", {"command": arg or "true",
                                        "description": "Run the mock command"})]
        elif verb == "bashlines":
            # A command of several lines: " ;; " between them.
            blocks = [("text", "I will run a script."),
                      ("tool", "Bash", {"command": arg.replace(" ;; ", "\n"),
                                        "description": "Run the mock script"})]
        elif verb == "background":
            blocks = [("text", "I will start a command in the background."),
                      ("tool", "Bash", {"command": arg or "sleep 30",
                                        "description": "Run the mock command",
                                        "run_in_background": True})]
        elif verb == "ask":
            q = {"question": arg or "Which option do you prefer?", "header": "Choice",
                 "multiSelect": False,
                 "options": [{"label": "Option A", "description": "First"},
                             {"label": "Option B", "description": "Second"}]}
            blocks = [("text", "I have a question."),
                      ("tool", "AskUserQuestion", {"questions": [q]})]
        elif verb == "slow":
            blocks = [("slow", number(arg, 10))]
        elif verb == "usage":
            return self.send(req, [("text", "Mock answer, a long context.")],
                             {"input_tokens": 10, "output_tokens": 1,
                              "cache_read_input_tokens": int(number(arg, 0)),
                              "cache_creation_input_tokens": 500})
        else:
            blocks = [("text", arg or "Mock answer.")]
        self.send(req, blocks)

    def send(self, req, blocks, usage=None):
        counter[0] += 1
        mid = "msg_mock_%d" % counter[0]
        model = req.get("model") or "claude-mock"
        tool = any(b[0] == "tool" for b in blocks)
        stop = "tool_use" if tool else "end_turn"
        if not req.get("stream"):
            content = []
            for b in blocks:
                if b[0] == "tool":
                    content.append({"type": "tool_use", "id": "toolu_%d" % counter[0],
                                    "name": b[1], "input": b[2]})
                else:
                    content.append({"type": "text", "text": b[1] if b[0] == "text"
                                    else FILLER})
            return self.reply(200, {"id": mid, "type": "message", "role": "assistant",
                                    "model": model, "content": content,
                                    "stop_reason": stop, "stop_sequence": None,
                                    "usage": usage or {"input_tokens": 10,
                                                       "output_tokens": 10}})
        self.start_sse()
        self.event("message_start", {"type": "message_start", "message": {
            "id": mid, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": usage or {"input_tokens": 10, "output_tokens": 1}}})
        for i, b in enumerate(blocks):
            if b[0] == "tool":
                self.event("content_block_start", {
                    "type": "content_block_start", "index": i,
                    "content_block": {"type": "tool_use", "id": "toolu_%d" % counter[0],
                                      "name": b[1], "input": {}}})
                self.event("content_block_delta", {
                    "type": "content_block_delta", "index": i,
                    "delta": {"type": "input_json_delta", "partial_json": json.dumps(b[2])}})
            else:
                self.event("content_block_start", {
                    "type": "content_block_start", "index": i,
                    "content_block": {"type": "text", "text": ""}})
                self.stream_text(i, b)
            self.event("content_block_stop", {"type": "content_block_stop", "index": i})
        self.event("message_delta", {"type": "message_delta",
                                     "delta": {"stop_reason": stop, "stop_sequence": None},
                                     "usage": {"output_tokens": 20}})
        self.event("message_stop", {"type": "message_stop"})

    def stream_text(self, index, block):
        if block[0] == "text":
            chunks, delay = [block[1]], 0
        else:
            words = FILLER.split(" ")
            n = max(1, int(block[1] * 5))
            chunks, delay = [words[i % len(words)] + " " for i in range(n)], 0.2
        for c in chunks:
            self.event("content_block_delta", {"type": "content_block_delta", "index": index,
                                               "delta": {"type": "text_delta", "text": c}})
            if delay:
                time.sleep(delay)


if __name__ == "__main__":
    sys.exit(serve(Anthropic, __doc__))

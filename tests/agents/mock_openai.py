#!/usr/bin/env python3
"""A scripted OpenAI Responses API (SSE) for running the real Codex CLI offline.

    python3 mock_openai.py [--port N] [--log FILE]

Listens on 127.0.0.1 (port 0 = any free port) and prints "port N" on stdout
once it accepts connections. Codex reaches it through a custom provider in
$CODEX_HOME/config.toml (base_url http://127.0.0.1:N/v1, wire_api
"responses").

What a request gets is chosen by the last "#mock VERB [ARG]" in the newest
typed user message (Codex's own <environment_context> blocks are skipped):

    #mock slow S        stream text deltas for about S seconds
    #mock run CMD       call exec_command with CMD (runs in the sandbox)
    #mock escalate CMD  the same, asking to leave the sandbox (approval)
    #mock error STATUS  answer every request of that turn with HTTP STATUS
    #mock limit S       HTTP 429 as the API sends a rate limit: retry-after S,
                        x-ratelimit-* headers, code rate_limit_exceeded
    #mock stall         send response.created, then nothing
    #mock usage N       a short answer whose usage says N input tokens
                        (N-1000 of them cached)
    (nothing)           a short answer at once

A request whose newest item is a function_call_output ends the turn with a
short text. Codex's hidden thread-title request (a json_schema with a
"title" property) always gets {"title": "Mock task title"} at once.
Standard library only; one JSON line per request goes to --log.
"""
import json
import sys
import time
import uuid

from mockserver import WORDS, Handler, directive, number, serve


def user_text(items):
    out = []
    for item in items or []:
        if item.get("type") != "message" or item.get("role") != "user":
            continue
        for c in item.get("content") or []:
            t = c.get("text", "") if isinstance(c, dict) else ""
            if c.get("type") == "input_text" and not t.lstrip().startswith("<"):
                out.append(t)
    return out[-1] if out else ""


def choose(req):
    items = req.get("input") or []
    fmt = (req.get("text") or {}).get("format") or {}
    if "title" in json.dumps(fmt.get("schema") or {}):
        return "title", ""
    if items and items[-1].get("type") == "function_call_output":
        return "after_tool", ""
    return directive(user_text(items))


class OpenAI(Handler):
    def event(self, obj):
        self.wfile.write(("event: %s\ndata: %s\n\n" % (obj["type"], json.dumps(obj))).encode())
        self.wfile.flush()

    def do_GET(self):
        if "/models" in self.path:
            return self.reply(200, {"object": "list", "data": [], "models": []})
        self.reply(200, {})

    def do_POST(self):
        _, req = self.read_json()
        if not self.path.split("?")[0].rstrip("/").endswith("/responses"):
            return self.reply(404, {"error": {"message": "mock: unknown path"}})
        verb, arg = choose(req)
        self.answer(verb, lambda: self.perform(verb, arg))

    def perform(self, verb, arg):
        if verb == "error":
            status = int(number(arg, 500))
            return self.reply(status, {"error": {"message": "mock error %d" % status,
                                                 "type": "server_error",
                                                 "code": "server_error"}},
                              [("retry-after", "1")] if status == 429 else [])
        if verb == "limit":
            return self.openai_limit(int(number(arg, 60)))
        rid = "resp_" + uuid.uuid4().hex[:12]
        self.start_sse()
        self.event({"type": "response.created", "response": {"id": rid, "status": "in_progress"}})
        if verb == "stall":
            return self.hang()
        if verb == "title":
            self.message(0, [json.dumps({"title": "Mock task title"})], 0)
        elif verb == "slow":
            n = max(1, int(number(arg, 10) * 5))
            self.message(0, [WORDS[i % len(WORDS)] + " " for i in range(n)], 0.2)
        elif verb in ("run", "escalate"):
            self.message(0, ["I will run the command now."], 0)
            args = {"cmd": arg or "true", "yield_time_ms": 30000}
            if verb == "escalate":
                args["sandbox_permissions"] = "require_escalated"
                args["justification"] = "The mock needs to run this outside the sandbox."
            item = {"type": "function_call", "id": "fc_" + uuid.uuid4().hex[:12],
                    "call_id": "call_" + uuid.uuid4().hex[:12], "name": "exec_command",
                    "arguments": ""}
            self.event({"type": "response.output_item.added", "output_index": 1, "item": item})
            item = dict(item, arguments=json.dumps(args))
            self.event({"type": "response.output_item.done", "output_index": 1, "item": item})
        elif verb == "usage":
            self.message(0, ["Mock answer: a long context."], 0)
        elif verb == "after_tool":
            self.message(0, ["The command finished. Mock turn complete."], 0)
        else:
            self.message(0, ["Mock answer: done."], 0)
        tokens = int(number(arg, 100)) if verb == "usage" else 100
        self.event({"type": "response.completed", "response": {
            "id": rid, "status": "completed",
            "usage": {"input_tokens": tokens,
                      "input_tokens_details": {"cached_tokens": max(0, tokens - 1000)},
                      "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 0},
                      "total_tokens": tokens + 20}}})

    def message(self, index, chunks, delay):
        mid = "msg_" + uuid.uuid4().hex[:12]
        self.event({"type": "response.output_item.added", "output_index": index,
                    "item": {"type": "message", "role": "assistant", "id": mid, "content": []}})
        for c in chunks:
            self.event({"type": "response.output_text.delta", "item_id": mid,
                        "output_index": index, "content_index": 0, "delta": c})
            if delay:
                time.sleep(delay)
        self.event({"type": "response.output_item.done", "output_index": index,
                    "item": {"type": "message", "role": "assistant", "id": mid,
                             "content": [{"type": "output_text", "text": "".join(chunks)}]}})


if __name__ == "__main__":
    sys.exit(serve(OpenAI, __doc__))

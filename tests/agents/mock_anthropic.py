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
    #mock ask           call AskUserQuestion with two options
    #mock error STATUS  answer every request of that prompt with HTTP STATUS
    #mock stall         accept the request and never answer
    (nothing)           a short answer at once

A request whose newest message carries a tool_result ends the turn with a
short text. Requests without the Bash tool (session titles and other
side requests) get an instant answer shaped by their JSON schema, if any.
Standard library only; one JSON line per request goes to --log.
"""
import argparse
import json
import re
import select
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MOCK_RE = re.compile(r"#mock\s+([a-z]+)[ \t]*([^\n]*)")
FILLER = "lisa conformance filler text, streamed slowly on purpose. "
ERRORS = {
    400: ("invalid_request_error", "Invalid request (mock)"),
    401: ("authentication_error", "invalid x-api-key"),
    429: ("rate_limit_error", "Rate limited (mock)"),
    500: ("api_error", "Internal server error"),
    529: ("overloaded_error", "Overloaded"),
}

log_lock = threading.Lock()
log_file = None
counter = [0]


def log(entry):
    if log_file is None:
        return
    entry["t"] = round(time.time(), 3)
    with log_lock:
        log_file.write(json.dumps(entry) + "\n")
        log_file.flush()


def texts(content):
    if isinstance(content, str):
        return [content]
    return [b.get("text", "") for b in content or []
            if isinstance(b, dict) and b.get("type") == "text"]


def last_prompt(messages):
    for m in reversed(messages):
        if m.get("role") != "user":
            continue
        typed = [t for t in texts(m.get("content")) if not t.lstrip().startswith("<")]
        if typed:
            return "\n".join(typed)
    return ""


def ends_with_tool_result(messages):
    """The newest message answers a tool call and says nothing else (after
    a refused tool, Claude sends the refusal and the next prompt together)."""
    if not messages or messages[-1].get("role") != "user":
        return False
    c = messages[-1].get("content")
    if not isinstance(c, list):
        return False
    typed = [t for t in texts(c) if not t.lstrip().startswith("<")]
    return not typed and any(
        isinstance(b, dict) and b.get("type") == "tool_result" for b in c)


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


def number(arg, default):
    try:
        return float(arg.split()[0])
    except (IndexError, ValueError):
        return default


def choose(req):
    """(verb, arg) for one /v1/messages request."""
    tools = [t.get("name") for t in req.get("tools") or [] if isinstance(t, dict)]
    if "Bash" not in tools:
        fmt = (req.get("output_config") or {}).get("format") or {}
        if fmt.get("type") == "json_schema":
            return "text", json.dumps(sample(fmt.get("schema"), "value"))
        return "text", "Mock side answer."
    messages = req.get("messages") or []
    if ends_with_tool_result(messages):
        return "text", "The tool finished. Mock turn complete."
    found = MOCK_RE.findall(last_prompt(messages))
    if not found:
        return "text", "Hello from the mock model. Task done."
    return found[-1][0], found[-1][1].strip()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def event(self, name, obj):
        self.wfile.write(("event: %s\ndata: %s\n\n" % (name, json.dumps(obj))).encode())
        self.wfile.flush()

    def hang(self):
        """Hold the request until the client goes away (at most an hour)."""
        end = time.time() + 3600
        while time.time() < end:
            r, _, _ = select.select([self.connection], [], [], 1.0)
            if r and self.connection.recv(1, 2) == b"":	# MSG_PEEK
                return

    def do_GET(self):
        if self.path.startswith("/v1/models"):
            return self.reply(200, {"data": [{"type": "model", "id": "claude-mock",
                                              "display_name": "Mock"}],
                                    "has_more": False})
        self.reply(200, {})

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        try:
            req = json.loads(body or b"{}")
        except ValueError:
            req = {}
        path = self.path.split("?")[0]
        if path == "/v1/messages/count_tokens":
            return self.reply(200, {"input_tokens": max(1, len(body) // 4)})
        if path != "/v1/messages":
            return self.reply(200, {})
        verb, arg = choose(req)
        log({"verb": verb, "arg": arg, "stream": bool(req.get("stream"))})
        try:
            self.perform(verb, arg, req)
        except (BrokenPipeError, ConnectionResetError):
            pass
        log({"done": verb})

    def perform(self, verb, arg, req):
        if verb == "error":
            status = int(number(arg, 500))
            kind, msg = ERRORS.get(status, ("api_error", "Mock error"))
            return self.reply(status, {"type": "error",
                                       "error": {"type": kind, "message": msg}})
        if verb == "stall":
            return self.hang()
        blocks = []
        if verb == "bash":
            blocks = [("text", "I will run a command."),
                      ("tool", "Bash", {"command": arg or "true",
                                        "description": "Run the mock command"})]
        elif verb == "ask":
            q = {"question": arg or "Which option do you prefer?", "header": "Choice",
                 "multiSelect": False,
                 "options": [{"label": "Option A", "description": "First"},
                             {"label": "Option B", "description": "Second"}]}
            blocks = [("text", "I have a question."),
                      ("tool", "AskUserQuestion", {"questions": [q]})]
        elif verb == "slow":
            blocks = [("slow", number(arg, 10))]
        else:
            blocks = [("text", arg or "Mock answer.")]
        self.send(req, blocks)

    def send(self, req, blocks):
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
                                    "usage": {"input_tokens": 10, "output_tokens": 10}})
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True
        self.event("message_start", {"type": "message_start", "message": {
            "id": mid, "type": "message", "role": "assistant", "model": model,
            "content": [], "stop_reason": None, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 1}}})
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


def main():
    global log_file
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--log")
    args = ap.parse_args()
    if args.log:
        log_file = open(args.log, "a")
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    srv.daemon_threads = True
    print("port %d" % srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())

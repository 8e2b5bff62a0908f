"""What the scripted model servers share: the "#mock VERB ARG" directive,
a JSON-lines request log, HTTP helpers and the command line.

Standard library only. The servers bind 127.0.0.1 and print "port N" on
stdout once they accept connections (port 0 picks a free one).
"""
import argparse
import json
import re
import select
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

REPLY_MARK = b"LISA-REPLY-"
TURN_MARK = re.compile(rb"LISA-TURN-[0-9]+")
MOCK_RE = re.compile(r"#mock\s+([a-z]+)[ \t]*([^\n]*)")
WORDS = "lisa conformance filler text, streamed slowly on purpose.".split(" ")

_log_lock = threading.Lock()
_log_file = None


def log(entry):
    """One line per request ({"verb"}) and per finished answer ({"done"})."""
    if _log_file is None:
        return
    entry["t"] = round(time.time(), 3)
    with _log_lock:
        _log_file.write(json.dumps(entry) + "\n")
        _log_file.flush()


def directive(text, default=("text", "")):
    """(verb, arg) of the last #mock directive in text."""
    found = MOCK_RE.findall(text or "")
    if not found:
        return default
    return found[-1][0], found[-1][1].strip()


def number(arg, default):
    """The first word of arg as a number ("8 write a long answer" -> 8)."""
    try:
        return float(arg.split()[0])
    except (IndexError, ValueError):
        return default


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, obj, headers=()):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def openai_limit(self, secs):
        """HTTP 429 as OpenAI's APIs send a rate limit (Responses and Chat
        Completions alike): retry-after and the x-ratelimit-* headers."""
        self.reply(429, {"error": {
            "message": "Rate limit reached for requests. Please try again in "
                       "%ds." % secs,
            "type": "requests", "code": "rate_limit_exceeded"}}, [
            ("retry-after", str(secs)),
            ("x-ratelimit-limit-requests", "60"),
            ("x-ratelimit-remaining-requests", "0"),
            ("x-ratelimit-reset-requests", "%ds" % secs)])

    def start_sse(self):
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("connection", "close")
        self.end_headers()
        self.close_connection = True

    def hang(self):
        """Hold the request until the client goes away (at most an hour)."""
        end = time.time() + 3600
        while time.time() < end:
            r, _, _ = select.select([self.connection], [], [], 1.0)
            if r and self.connection.recv(1, socket.MSG_PEEK) == b"":
                return

    def do_HEAD(self):
        self.send_response(200)
        self.send_header("content-length", "0")
        self.end_headers()

    def read_json(self):
        body = self.rfile.read(int(self.headers.get("content-length") or 0))
        # A reply typed by `lisa answer` (answers.py): the request that
        # carries it, and what came before it in that request (where the
        # agent says it was refused).
        i = body.find(REPLY_MARK)
        if i != -1:
            j = i + len(REPLY_MARK)
            while j < len(body) and body[j:j + 1].isdigit():
                j += 1
            log({"reply": body[i:j].decode(), "before":
                 body[max(0, i - 4000):i].decode(errors="replace")})
        # Turns typed by resume.py: each request, the ones it carries (a
        # resumed conversation sends the turns before it again).
        turns = sorted(set(m.decode() for m in TURN_MARK.findall(body)))
        if turns:
            log({"turns": turns})
        try:
            return body, json.loads(body or b"{}")
        except ValueError:
            return body, {}

    def answer(self, verb, perform):
        """Log the request, run perform(), log when it is done."""
        log({"verb": verb})
        try:
            perform()
        except (BrokenPipeError, ConnectionResetError):
            pass
        log({"done": verb})


def serve(handler, doc):
    global _log_file
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--log")
    args = ap.parse_args()
    if args.log:
        _log_file = open(args.log, "a")
    srv = ThreadingHTTPServer(("127.0.0.1", args.port), handler)
    srv.daemon_threads = True
    print("port %d" % srv.server_address[1], flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit("mockserver.py is a module of the mock_*.py servers")

#!/usr/bin/env python3
"""A scripted Gemini API (v1beta) for running the real Gemini CLI offline.

    python3 mock_gemini.py [--port N] [--log FILE]

Listens on 127.0.0.1 (port 0 = any free port) and prints "port N" on stdout
once it accepts connections. Gemini CLI reaches it through
GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:N with GEMINI_API_KEY set and
security.auth.selectedType "gemini-api-key" in its settings.

What a streamed request gets is chosen by the last "#mock VERB [ARG]" in the
newest typed user text:

    #mock slow S        stream text chunks for about S seconds
    #mock run CMD       call run_shell_command with CMD
    #mock error STATUS  answer with HTTP STATUS (Gemini retries silently)
    #mock limit S       HTTP 429 as the API sends a daily quota: RESOURCE_EXHAUSTED
                        with a QuotaFailure (quotaId ...PerDay...) and a
                        RetryInfo of S seconds
    #mock usage N       a short answer whose usageMetadata says N prompt tokens
    #mock drop          a few chunks, then close without a finish reason
    #mock stall         send the headers, then nothing
    (nothing)           a short answer at once

A request whose newest part is a functionResponse ends the turn with a short
text. Side calls (:generateContent: routing, next-speaker checks) get an
answer shaped by their JSON schema. Standard library only; one JSON line per
request goes to --log.
"""
import json
import socket
import sys
import time

from mockserver import WORDS, Handler, directive, number, serve


def last_user(contents):
    """(text of the newest typed user part, kind of the newest part)."""
    text, kind = "", None
    for c in contents or []:
        for p in c.get("parts") or []:
            if "functionResponse" in p:
                kind = "functionResponse"
            elif "functionCall" in p:
                kind = "functionCall"
            elif "text" in p:
                kind = "text"
                if c.get("role") == "user" and not p["text"].lstrip().startswith("<"):
                    text = p["text"]
    return text, kind


def sample(schema, name):
    if not isinstance(schema, dict):
        return "mock"
    if schema.get("enum"):
        for pick in ("user", "flash"):
            if pick in schema["enum"]:
                return pick
        return schema["enum"][0]
    kind = str(schema.get("type", "")).lower()
    if kind == "object" or "properties" in schema:
        return {k: sample(v, k) for k, v in (schema.get("properties") or {}).items()}
    if kind == "array":
        return []
    if kind == "boolean":
        return False
    if kind in ("number", "integer"):
        return schema.get("minimum", 1)
    return "user" if name == "next_speaker" else "mock"


class Gemini(Handler):
    def chunk(self, parts, finish=None, prompt=100):
        obj = {"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}]}
        if finish:
            obj["candidates"][0]["finishReason"] = finish
            obj["usageMetadata"] = {"promptTokenCount": prompt, "candidatesTokenCount": 20,
                                    "totalTokenCount": prompt + 20}
        self.wfile.write(("data: %s\r\n\r\n" % json.dumps(obj)).encode())
        self.wfile.flush()

    def do_GET(self):
        self.reply(200, {"models": [{"name": "models/gemini-mock", "displayName": "mock"}]})

    def do_POST(self):
        _, req = self.read_json()
        path = self.path
        if ":countTokens" in path:
            return self.reply(200, {"totalTokens": 100})
        if ":generateContent" in path:
            cfg = req.get("generationConfig") or {}
            schema = cfg.get("responseJsonSchema") or cfg.get("responseSchema")
            text = json.dumps(sample(schema, "")) if schema else "Mock side answer."
            return self.reply(200, {"candidates": [{
                "content": {"role": "model", "parts": [{"text": text}]},
                "finishReason": "STOP", "index": 0}]})
        if ":streamGenerateContent" not in path:
            return self.reply(404, {"error": {"code": 404, "message": "mock: unknown path"}})
        text, kind = last_user(req.get("contents"))
        verb, arg = directive(text)
        if kind == "functionResponse":
            verb = "after_tool"
        self.answer(verb, lambda: self.perform(verb, arg))

    def perform(self, verb, arg):
        if verb == "error":
            status = int(number(arg, 500))
            return self.reply(status, {"error": {"code": status, "message": "mock error",
                                                 "status": "INTERNAL"}})
        if verb == "limit":
            secs = int(number(arg, 60))
            return self.reply(429, {"error": {
                "code": 429, "status": "RESOURCE_EXHAUSTED",
                "message": "You exceeded your current quota, please check your plan and "
                           "billing details.\n* Quota exceeded for metric: "
                           "generativelanguage.googleapis.com/generate_content_free_tier_requests"
                           ", limit: 250\nPlease retry in %d.0s." % secs,
                "details": [
                    {"@type": "type.googleapis.com/google.rpc.QuotaFailure",
                     "violations": [{
                         "quotaMetric": "generativelanguage.googleapis.com/"
                                        "generate_content_free_tier_requests",
                         "quotaId": "GenerateRequestsPerDayPerProjectPerModel-FreeTier",
                         "quotaDimensions": {"location": "global", "model": "gemini-mock"},
                         "quotaValue": "250"}]},
                    {"@type": "type.googleapis.com/google.rpc.RetryInfo",
                     "retryDelay": "%ds" % secs}]}})
        self.start_sse()
        if verb == "stall":
            return self.hang()
        if verb == "slow":
            for i in range(max(1, int(number(arg, 10) * 5))):
                self.chunk([{"text": WORDS[i % len(WORDS)] + " "}])
                time.sleep(0.2)
            self.chunk([{"text": "\n\nDone."}], finish="STOP")
        elif verb == "drop":
            for w in WORDS[:4]:
                self.chunk([{"text": w + " "}])
                time.sleep(0.2)
            self.connection.shutdown(socket.SHUT_RDWR)
        elif verb == "run":
            self.chunk([{"text": "I will run the command now.\n"}])
            self.chunk([{"functionCall": {"name": "run_shell_command", "args": {
                "command": arg or "true", "description": "the mock command"}}}],
                finish="STOP")
        elif verb == "after_tool":
            self.chunk([{"text": "The command finished. Mock turn complete."}], finish="STOP")
        elif verb == "usage":
            self.chunk([{"text": "Mock answer: a full context."}], finish="STOP",
                       prompt=int(number(arg, 100)))
        else:
            self.chunk([{"text": "Mock answer: done."}], finish="STOP")


if __name__ == "__main__":
    sys.exit(serve(Gemini, __doc__))

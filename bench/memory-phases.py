#!/usr/bin/env python3
"""Row 5's session in phases: the daemon's peak and resident memory (VmHWM / VmRSS) after each.

    python3 bench/memory-phases.py [--maskd .build/release/maskd] [--lines 100000] [--keys 30]

The session is row 5's (`maskd-bench --only keystrokes`): initialize; a `didOpen` of N lines of 100 bytes, each
with a card one digit short at columns 14-32 (10 MB for 100,000); a `maskd/openField` (card preset) on every line,
pipelined in chunks of 2,000, every answer read as it comes; the publication of N diagnostics; keystrokes typed
and deleted at line 0's field, each waiting for its `maskd/didFormat`, then the publication after the pause.
Prints one line per phase, peak / resident in MB (10^6 bytes). Unlike the bench's client, this one reads the
answers as fast as they come, so the bench's queue of answers waiting to be read does not show here.
"""
import argparse
import json
import os
import subprocess
import sys
import threading
import queue

FIELD_TEXT = "4000 1234 5678 901"
FIELD_START, FIELD_END = 14, 32


def big_line(i):
    number = str(i)
    head = "field " + "0" * max(0, 6 - len(number)) + number + ": "
    body = head + FIELD_TEXT + " ; note: the rest of the line is prose that no field owns"
    return body[:99] + "." * max(0, 99 - len(body))


class Daemon:
    def __init__(self, path):
        self.process = subprocess.Popen([path, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, bufsize=0)
        self.messages = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.process.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                name, _, value = line.partition(b":")
                if name.lower() == b"content-length":
                    length = int(value)
            body = b""
            while len(body) < length:
                chunk = out.read(length - len(body))
                if not chunk:
                    self.messages.put(None)
                    return
                body += chunk
            self.messages.put(json.loads(body))

    def send(self, message):
        body = json.dumps(message, separators=(",", ":")).encode()
        return b"Content-Length: %d\r\n\r\n" % len(body) + body

    def write(self, data):
        self.process.stdin.write(data)

    def request(self, method, params):
        self.next_id += 1
        self.write(self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}))
        return self.next_id

    def notify(self, method, params):
        self.write(self.send({"jsonrpc": "2.0", "method": method, "params": params}))

    def wait(self, accept, timeout=600):
        """Reads messages until `accept` says yes to one; returns it."""
        while True:
            message = self.messages.get(timeout=timeout)
            if message is None:
                sys.exit("maskd ended")
            if accept(message):
                return message

    def wait_response(self, id):
        return self.wait(lambda m: m.get("id") == id and "method" not in m)

    def memory(self):
        values = {}
        with open("/proc/%d/status" % self.process.pid) as status:
            for line in status:
                name, _, value = line.partition(":")
                if name in ("VmHWM", "VmRSS"):
                    values[name] = int(value.split()[0]) * 1024 / 1e6
        return values["VmHWM"], values["VmRSS"]


def main():
    options = argparse.ArgumentParser()
    options.add_argument("--maskd", default=".build/release/maskd")
    options.add_argument("--lines", type=int, default=100_000)
    options.add_argument("--keys", type=int, default=30)
    options.add_argument("--until", choices=["open", "fields", "publication", "typing"], default="typing",
                         help="the last phase to run (for a run under valgrind)")
    options = options.parse_args()

    daemon = Daemon(options.maskd)
    def report(phase):
        peak, resident = daemon.memory()
        print("%-28s %6.1f / %5.1f" % (phase, peak, resident), flush=True)

    id = daemon.request("initialize", {"processId": os.getpid(), "rootUri": None,
                                       "capabilities": {"general": {"positionEncodings": ["utf-16"]}}})
    daemon.wait_response(id)
    daemon.notify("initialized", {})
    report("idle")

    uri = "file:///maskd-bench/big.txt"
    lines = [big_line(i) for i in range(options.lines)]
    daemon.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext", "version": 1,
                                                            "text": "\n".join(lines) + "\n"}})
    daemon.wait_response(daemon.request("maskd/fields", {"textDocument": {"uri": uri}}))
    report("after the didOpen")
    if options.until == "open":
        return stop(daemon)

    def range_(line, start, end):
        return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}

    for first in range(0, options.lines, 2000):
        chunk = []
        ids = set()
        for line in range(first, min(first + 2000, options.lines)):
            daemon.next_id += 1
            ids.add(daemon.next_id)
            chunk.append(daemon.send({"jsonrpc": "2.0", "id": daemon.next_id, "method": "maskd/openField",
                                      "params": {"textDocument": {"uri": uri}, "range": range_(line, FIELD_START, FIELD_END),
                                                 "mask": {"preset": "card"}}}))
        daemon.write(b"".join(chunk))
        while ids:
            message = daemon.wait(lambda m: "method" not in m)
            ids.discard(message.get("id"))
    report("after the fields")
    if options.until == "fields":
        return stop(daemon)

    def publication(m):
        return (m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri
                and len(m["params"]["diagnostics"]) >= options.lines - 1)
    daemon.wait(publication)
    report("after the publication")
    if options.until == "publication":
        return stop(daemon)

    version = 1
    line = lines[0]
    caret = FIELD_END
    for key in range(options.keys):
        version += 1
        if key % 2 == 0:
            change = {"range": range_(0, caret, caret), "text": "2"}
            line = line[:caret] + "2" + line[caret:]
            caret += 1
        else:
            change = {"range": range_(0, caret - 1, caret), "text": ""}
            line = line[:caret - 1] + line[caret:]
            caret -= 1
        daemon.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                 "contentChanges": [change]})
        formatted = daemon.wait(lambda m: m.get("method") == "maskd/didFormat")
        edits = formatted["params"].get("edits", [])
        if edits:
            version += 1
            changes = []
            for edit in edits:
                r = edit["range"]
                a, b = r["start"]["character"], r["end"]["character"]
                line = line[:a] + edit["newText"] + line[b:]
                changes.append({"range": r, "text": edit["newText"]})
            daemon.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                                     "contentChanges": changes})
        caret = FIELD_END + (key % 2 == 0)
    # The last key leaves the field as it was, so the pause's diagnostics are the ones already sent and are sent
    # again only if the problems changed: wait a little for them, not for sure.
    try:
        daemon.wait(publication, timeout=3)
    except queue.Empty:
        pass
    report("after typing")
    stop(daemon)


def stop(daemon):
    daemon.wait_response(daemon.request("shutdown", None))
    daemon.notify("exit", None)
    daemon.process.wait(timeout=600)


if __name__ == "__main__":
    main()

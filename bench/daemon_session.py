#!/usr/bin/env python3
"""bench/daemon_session.py: the client half of bench/daemon-instructions.

  daemon_session.py keys KEYS OUT -- DAEMON...   a one-line typing session in lockstep
  daemon_session.py apply COUNT OUT               writes COUNT pipelined maskd/apply requests to OUT
  daemon_session.py recording KEYS_OUT RECORDING  the first period's didFormat params of a `keys` output (one
                                                  per line): what bench/contract-floor.c replays

`keys` runs DAEMON (under valgrind, as the caller gives it) and drives maskd-bench's one-line session:
`initialize`, `didOpen` of `card: `, `maskd/openField` with the card preset at its end, then KEYS keystrokes
typing the 19 digits, backspacing them away and typing them again, each `didChange` waiting for its
`maskd/didFormat`, whose edits are applied and echoed back in a `didChange` of their own (as maskd-bench's
`EditorClient.press`). Everything the daemon writes is copied to OUT, so two daemons' outputs can be compared
with `cmp`.
"""
import json
import subprocess
import sys

DIGITS = "4000123456789017123"
URI = "file:///maskd-bench/one-line.txt"
PREFIX = "card: "
CARD = {"preset": "card"}


def frame(message):
    body = json.dumps(message, separators=(",", ":")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def initialize(id_):
    return {"jsonrpc": "2.0", "id": id_, "method": "initialize",
            "params": {"processId": None, "clientInfo": {"name": "daemon-instructions"}, "rootUri": None,
                       "capabilities": {"general": {"positionEncodings": ["utf-16"]}}}}


def notification(method, params):
    return {"jsonrpc": "2.0", "method": method, "params": params}


def position(line, character):
    return {"line": line, "character": character}


def change(line, start, end, text):
    return {"range": {"start": position(line, start), "end": position(line, end)}, "text": text}


class Daemon:
    def __init__(self, argv, out):
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.out = out

    def send(self, message):
        self.process.stdin.write(frame(message))
        self.process.stdin.flush()

    def read(self):
        length = None
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("daemon_session: the daemon closed its output")
            self.out.write(line)
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        body = self.process.stdout.read(length)
        self.out.write(body)
        return json.loads(body)

    def request(self, id_, message):
        self.send(message)
        while True:
            answer = self.read()
            if answer.get("id") == id_ and "method" not in answer:
                if "error" in answer:
                    raise SystemExit("daemon_session: %s failed: %s" % (message["method"], answer["error"]))
                return answer["result"]

    def close(self):
        self.process.stdin.close()
        # What is left (a publication of diagnostics, say) is part of the output compared.
        rest = self.process.stdout.read()
        self.out.write(rest)
        return self.process.wait()


def keys(count, out_path, argv):
    with open(out_path, "wb") as out:
        daemon = Daemon(argv, out)
        daemon.request(1, initialize(1))
        daemon.send(notification("initialized", {}))
        line = PREFIX
        daemon.send(notification("textDocument/didOpen", {"textDocument": {
            "uri": URI, "languageId": "plaintext", "version": 1, "text": line}}))
        opened = daemon.request(2, {"jsonrpc": "2.0", "id": 2, "method": "maskd/openField", "params": {
            "textDocument": {"uri": URI}, "range": {"start": position(0, len(PREFIX)), "end": position(0, len(PREFIX))},
            "mask": CARD}})
        if "field" not in opened:
            raise SystemExit("daemon_session: openField answered %r" % opened)
        version, caret, entered, typing = 1, len(PREFIX), 0, True
        for _ in range(count):
            if typing:
                start, inserted = caret, DIGITS[entered]
                entered += 1
                typing = entered < len(DIGITS)
            else:
                start, inserted = caret - 1, ""
                entered -= 1
                typing = entered == 0
            line = line[:start] + inserted + line[caret:]
            version += 1
            daemon.send(notification("textDocument/didChange", {
                "textDocument": {"uri": URI, "version": version}, "contentChanges": [change(0, start, caret, inserted)]}))
            while True:
                message = daemon.read()
                if message.get("method") == "maskd/didFormat" and message["params"]["textDocument"]["version"] == version:
                    break
            params = message["params"]
            echo = []
            # Sorted and disjoint: applied from the last, each leaves the earlier ranges in place.
            for edit in reversed(params["edits"]):
                r = edit["range"]
                start_, end_ = r["start"]["character"], r["end"]["character"]
                line = line[:start_] + edit["newText"] + line[end_:]
                echo.append(change(0, start_, end_, edit["newText"]))
            caret = params["cursor"]["character"]
            if echo:
                version += 1
                daemon.send(notification("textDocument/didChange", {
                    "textDocument": {"uri": URI, "version": version}, "contentChanges": echo}))
        daemon.request(3, {"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
        daemon.send({"jsonrpc": "2.0", "method": "exit"})
        status = daemon.close()
        if status != 0:
            raise SystemExit("daemon_session: the daemon exited with %d" % status)


def card_text(count):
    """The card preset's text for the first `count` digits (Visa: groups of four)."""
    digits = DIGITS[:count]
    return " ".join(digits[i:i + 4] for i in range(0, len(digits), 4))


def apply(count, out_path):
    with open(out_path, "wb") as out:
        out.write(frame(initialize(1)))
        out.write(frame(notification("initialized", {})))
        for r in range(count):
            k = r % len(DIGITS)
            text = card_text(k)
            n = len(text)
            out.write(frame({"jsonrpc": "2.0", "id": 10 + r, "method": "maskd/apply", "params": {
                "mask": CARD, "text": text, "edit": {"start": n, "end": n, "text": DIGITS[k]}}}))
        out.write(frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        out.write(frame({"jsonrpc": "2.0", "method": "exit"}))


def recording(keys_out, recording_path):
    """One period of the typing (the digits typed, then backspaced away) of maskd's didFormats in `keys_out`."""
    with open(keys_out, "rb") as out:
        data = out.read()
    formats, at = [], 0
    while at < len(data) and len(formats) < 2 * len(DIGITS):
        head_end = data.index(b"\r\n\r\n", at)
        length = next(int(line.split(b":")[1]) for line in data[at:head_end].split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        message = json.loads(data[head_end + 4:head_end + 4 + length])
        at = head_end + 4 + length
        if message.get("method") == "maskd/didFormat":
            formats.append(message["params"])
    if len(formats) < 2 * len(DIGITS):
        raise SystemExit("daemon_session: %s holds %d didFormats, not a period's %d" % (keys_out, len(formats),
                                                                                        2 * len(DIGITS)))
    with open(recording_path, "w") as out:
        for params in formats:
            out.write(json.dumps(params, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    if sys.argv[1] == "keys":
        keys(int(sys.argv[2]), sys.argv[3], sys.argv[5:])
    elif sys.argv[1] == "apply":
        apply(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "recording":
        recording(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(__doc__)

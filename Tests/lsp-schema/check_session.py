#!/usr/bin/env python3
"""Drives maskd through full LSP sessions and checks every message it sends against LSP 3.17.

Each message the daemon sends (responses, notifications, and its own requests) is structured
with lsprotocol's converter into the type LSP 3.17 gives it (`HoverResponse`,
`PublishDiagnosticsNotification`, `ApplyWorkspaceEditRequest`, `ResponseErrorMessage`, ...), then
unstructured again and compared with what was received, so a coerced value (a string where a
number belongs) or an unknown member fails too. `maskd/*` extension messages are skipped.

The sessions play an editor: a maskd plugin (applies `maskd/didFormat`), a plain client
(`initializationOptions.edits = "applyEdit"`), and an old client (no `CodeAction` literals, no
`documentChanges`). Every standard request the daemon serves is made at least once.

Usage: check_session.py MASKD_BINARY. Prints failures, then "N passed, N failed, N skipped".
"""

import json
import os
import queue
import subprocess
import sys
import threading

from lsprotocol import types
from lsprotocol.converters import get_converter

CONVERTER = get_converter()
TIMEOUT = 10


class Results:
    """Counts checked messages and remembers which kinds were seen."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.skipped = 0
        self.kinds = set()

    def fail(self, what):
        self.failed += 1
        print(f"FAIL {what}")


RESULTS = Results()


def normalised(value):
    """A JSON value with object members sorted, for comparison."""
    return json.loads(json.dumps(value, sort_keys=True))


def check(message, method):
    """Structures one message the daemon sent into its LSP 3.17 type and back."""
    if method.startswith("maskd/"):
        RESULTS.skipped += 1
        return
    entry = types.METHOD_TO_TYPES.get(method)
    if entry is None:
        RESULTS.fail(f"{method}: not an LSP 3.17 method: {json.dumps(message)}")
        return
    if "method" in message:
        kind, cls = ("request" if "id" in message else "notification"), entry[0]
    elif "error" in message:
        kind, cls = "error", types.ResponseErrorMessage
    else:
        kind, cls = "response", entry[1]
    label = f"{method} {kind}"
    if kind == "response" and method == "textDocument/codeAction" and isinstance(message.get("result"), list):
        check_code_actions(message, label)
        return
    try:
        structured = CONVERTER.structure(message, cls)
    except Exception as error:  # cattrs raises several kinds, all of them a failure here.
        RESULTS.fail(f"{label} does not structure as {cls.__name__}: {error!r}\n  {json.dumps(message)}")
        return
    back = normalised(CONVERTER.unstructure(structured))
    if back != normalised(message):
        RESULTS.fail(f"{label} changes when read as {cls.__name__}:\n  sent {json.dumps(message)}\n"
                     f"  read {json.dumps(back)}")
        return
    RESULTS.passed += 1
    RESULTS.kinds.add(label)


def check_code_actions(message, label):
    """A `(Command | CodeAction)[]` result, each item read as the type its shape names.

    lsprotocol's converter reads every item of this union as a `Command` first, turning a
    `CodeAction`'s `command` object into a string; an item whose `command` is a string is a
    `Command`, any other a `CodeAction`.
    """
    if message.get("jsonrpc") != "2.0" or not isinstance(message.get("id"), int) or set(message) != {
            "jsonrpc", "id", "result"}:
        RESULTS.fail(f"{label}: not a response envelope: {json.dumps(message)}")
        return
    for item in message["result"]:
        cls = types.Command if isinstance(item.get("command"), str) else types.CodeAction
        try:
            back = normalised(CONVERTER.unstructure(CONVERTER.structure(item, cls)))
        except Exception as error:
            RESULTS.fail(f"{label}: an item does not structure as {cls.__name__}: {error!r}\n  {json.dumps(item)}")
            return
        if back != normalised(item):
            RESULTS.fail(f"{label}: an item changes when read as {cls.__name__}:\n  sent {json.dumps(item)}\n"
                         f"  read {json.dumps(back)}")
            return
    RESULTS.passed += 1
    RESULTS.kinds.add(label)


class Document:
    """The editor's copy of one document; ASCII only, so UTF-16 positions are string offsets."""

    def __init__(self, uri, text):
        self.uri = uri
        self.lines = text.split("\n")
        self.version = 1

    def offset(self, position):
        return sum(len(line) + 1 for line in self.lines[:position["line"]]) + position["character"]

    def apply(self, edits):
        text = "\n".join(self.lines)
        for edit in sorted(edits, key=lambda e: self.offset(e["range"]["start"]), reverse=True):
            start, end = self.offset(edit["range"]["start"]), self.offset(edit["range"]["end"])
            text = text[:start] + edit["newText"] + text[end:]
        self.lines = text.split("\n")

    def line_range(self, line, start, end):
        return {"start": {"line": line, "character": start}, "end": {"line": line, "character": end}}


class Session:
    """One daemon process and the editor talking to it."""

    def __init__(self, binary, name, initialization_options=None, literals=True, document_changes=True, pull=False):
        self.name = name
        self.process = subprocess.Popen([binary, "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=None if os.environ.get("MASKD_SCHEMA_STDERR") else subprocess.DEVNULL)
        self.inbox = queue.Queue()
        self.methods = {}
        self.next_id = 0
        self.documents = {}
        self.drop_formats = False
        threading.Thread(target=self._read, daemon=True).start()
        capabilities = {
            "general": {"positionEncodings": ["utf-16"]},
            "workspace": {"applyEdit": True, "workspaceEdit": {"documentChanges": document_changes},
                          "inlayHint": {"refreshSupport": True}},
            "textDocument": {
                "synchronization": {"dynamicRegistration": False},
                "hover": {"contentFormat": ["markdown", "plaintext"]},
                "inlayHint": {},
                "publishDiagnostics": {"versionSupport": True},
            },
        }
        if pull:
            capabilities["textDocument"]["diagnostic"] = {"dynamicRegistration": False}
            capabilities["workspace"]["diagnostics"] = {"refreshSupport": True}
        if literals:
            capabilities["textDocument"]["codeAction"] = {"codeActionLiteralSupport": {
                "codeActionKind": {"valueSet": ["quickfix", "refactor", "refactor.rewrite"]}}}
        params = {"processId": None, "rootUri": None, "capabilities": capabilities}
        if initialization_options is not None:
            params["initializationOptions"] = initialization_options
        self.request("initialize", params)
        self.notify("initialized", {})

    def _read(self):
        stream = self.process.stdout
        while True:
            length = None
            while True:
                header = stream.readline()
                if not header:
                    self.inbox.put(None)
                    return
                header = header.strip()
                if not header:
                    break
                name, _, value = header.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            self.inbox.put(json.loads(stream.read(length)))

    def send(self, message):
        body = json.dumps(message).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        """Sends a request and handles everything the daemon sends until its response."""
        self.next_id += 1
        request_id = self.next_id
        self.methods[request_id] = method
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        return self.pump(lambda m: m.get("id") == request_id and "method" not in m)

    def pump(self, until):
        while True:
            try:
                message = self.inbox.get(timeout=TIMEOUT)
            except queue.Empty:
                raise RuntimeError(f"{self.name}: the daemon sent nothing for {TIMEOUT} s")
            if message is None:
                raise RuntimeError(f"{self.name}: the daemon closed its output")
            if "method" in message:
                check(message, message["method"])
                self.handle(message)
            else:
                check(message, self.methods.get(message.get("id"), "?"))
            if until(message):
                return message

    def sync(self):
        """Handles everything the daemon sent before the answer to a cheap request; twice, since what it sends once a
        read's messages are handled (a plain client's held edits) may follow the first answer, never the second."""
        self.request("maskd/fields", {"textDocument": {"uri": next(iter(self.documents))}})
        self.request("maskd/fields", {"textDocument": {"uri": next(iter(self.documents))}})

    def handle(self, message):
        """Plays the editor: applies edits the daemon sends, echoing them, and answers requests."""
        method, params = message["method"], message.get("params") or {}
        if method == "workspace/applyEdit":
            edit = params["edit"]
            applied = True
            for change in edit.get("documentChanges", []):
                document = self.documents[change["textDocument"]["uri"]]
                if change["textDocument"]["version"] != document.version:
                    applied = False
                    continue
                self.apply(document, change["edits"])
            for uri, edits in edit.get("changes", {}).items():
                self.apply(self.documents[uri], edits)
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": {"applied": applied}})
        elif method in ("workspace/inlayHint/refresh", "workspace/diagnostic/refresh"):
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif method == "maskd/didFormat" and not self.drop_formats:
            document = self.documents[params["textDocument"]["uri"]]
            if params["textDocument"]["version"] == document.version and params["edits"]:
                self.apply(document, params["edits"])

    def apply(self, document, edits):
        document.apply(edits)
        document.version += 1
        changes = [{"range": e["range"], "text": e["newText"]}
                   for e in sorted(edits, key=lambda e: document.offset(e["range"]["start"]), reverse=True)]
        self.notify("textDocument/didChange", {"textDocument": {"uri": document.uri, "version": document.version},
                                               "contentChanges": changes})

    def open(self, uri, text):
        document = Document(uri, text)
        self.documents[uri] = document
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "plaintext",
                                                              "version": 1, "text": text}})
        return document

    def type(self, document, line, character, keys):
        """Types `keys` one by one at a position, as a person does; returns the end position."""
        for key in keys:
            text = document.lines[line]
            document.lines[line] = text[:character] + key + text[character:]
            document.version += 2
            self.notify("textDocument/didChange", {
                "textDocument": {"uri": document.uri, "version": document.version},
                "contentChanges": [{"range": document.line_range(line, character, character), "text": key}]})
            self.sync()
            character = len(document.lines[line]) if character >= len(text) else character + 1
        return character

    def code_actions(self, document, range_):
        return self.request("textDocument/codeAction", {"textDocument": {"uri": document.uri}, "range": range_,
                                                        "context": {"diagnostics": []}})["result"]

    def run(self, actions, title):
        """Executes the command of the action called `title` (a `CodeAction` or a bare `Command`)."""
        chosen = [a for a in actions if a["title"] == title]
        if not chosen:
            raise RuntimeError(f"{self.name}: no action '{title}' among {[a['title'] for a in actions]}")
        command = chosen[0]["command"] if isinstance(chosen[0].get("command"), dict) else chosen[0]
        self.request("workspace/executeCommand", {"command": command["command"], "arguments": command["arguments"]})
        self.sync()

    def finish(self):
        self.request("shutdown", None)
        self.notify("exit", None)
        code = self.process.wait(timeout=TIMEOUT)
        if code != 0:
            RESULTS.fail(f"{self.name}: exit code {code}, not 0")
        while not self.inbox.empty():
            message = self.inbox.get()
            if message is not None:
                check(message, message.get("method") or self.methods.get(message.get("id"), "?"))


def plugin_session(binary):
    """A client with a maskd plugin: every standard request, diagnostics, a refused change."""
    # Diagnostics pushed as soon as the messages of a read are handled, so the session's pushes are all checked.
    s = Session(binary, "plugin", initialization_options={"diagnosticsDelay": 0})
    form = s.open("file:///form.txt", "Card: 4111111111111112\nTel: \nDate: 20240229\nNote: x")
    s.run(s.code_actions(form, form.line_range(0, 6, 22)), "Format as card")
    assert form.lines[0] == "Card: 4111 1111 1111 1112", form.lines
    s.request("textDocument/hover", {"textDocument": {"uri": form.uri}, "position": {"line": 0, "character": 9}})
    s.request("textDocument/hover", {"textDocument": {"uri": form.uri}, "position": {"line": 3, "character": 1}})
    s.request("workspace/executeCommand", {"command": "maskd.openField", "arguments": [
        {"textDocument": {"uri": form.uri}, "range": form.line_range(1, 5, 5), "mask": {"preset": "phone.us"}}]})
    s.type(form, 1, 5, "555123")
    assert form.lines[1] == "Tel: +1 (555) 123", form.lines
    s.request("textDocument/inlayHint", {"textDocument": {"uri": form.uri}, "range": form.line_range(0, 0, 0)
                                         | {"end": {"line": 3, "character": 7}}})
    s.run(s.code_actions(form, form.line_range(2, 6, 14)), "Format as date")
    # Dropped didFormats leave a field out of form; formatting brings it back.
    s.drop_formats = True
    s.type(form, 1, 17, "4567")
    s.drop_formats = False
    edits = s.request("textDocument/rangeFormatting", {"textDocument": {"uri": form.uri},
                                                       "range": form.line_range(1, 0, 5),
                                                       "options": {"tabSize": 4, "insertSpaces": True}})["result"]
    s.apply(form, edits)
    edits = s.request("textDocument/formatting", {"textDocument": {"uri": form.uri},
                                                  "options": {"tabSize": 4, "insertSpaces": True}})["result"]
    s.apply(form, edits) if edits else None
    assert form.lines[1] == "Tel: +1 (555) 123-4567", form.lines
    s.run(s.code_actions(form, form.line_range(0, 8, 8)), "Close maskd field")
    # Errors and warnings: an unknown document, a stale change, a second didOpen.
    s.request("textDocument/hover", {"textDocument": {"uri": "file:///nowhere"}, "position": {"line": 0, "character": 0}})
    s.request("workspace/executeCommand", {"command": "maskd.nothing", "arguments": []})
    s.notify("textDocument/didChange", {"textDocument": {"uri": form.uri, "version": 1},
                                        "contentChanges": [{"text": "stale"}]})
    s.open(form.uri, "\n".join(form.lines))
    s.sync()
    s.notify("textDocument/didClose", {"textDocument": {"uri": form.uri}})
    s.finish()


def plain_session(binary):
    """A client without a plugin: formatting arrives as versioned workspace/applyEdit."""
    s = Session(binary, "plain", initialization_options={"edits": "applyEdit", "diagnosticsDelay": 0,
                                                            "applyEditDelay": 0})
    form = s.open("file:///plain.txt", "Card: \nId: 110105194912310021")
    s.request("workspace/executeCommand", {"command": "maskd.openField", "arguments": [
        {"textDocument": {"uri": form.uri}, "range": form.line_range(0, 6, 6), "mask": {"preset": "card"}}]})
    s.type(form, 0, 6, "4111111111111111")
    assert form.lines[0] == "Card: 4111 1111 1111 1111", form.lines
    s.run(s.code_actions(form, form.line_range(1, 4, 22)), "Format as id.cn")
    assert form.lines[1] == "Id: 110105 19491231 0021", form.lines
    s.request("textDocument/hover", {"textDocument": {"uri": form.uri}, "position": {"line": 1, "character": 6}})
    s.finish()


def pull_session(binary):
    """A client that pulls diagnostics (textDocument/diagnostic): full reports, unchanged ones, a refresh."""
    s = Session(binary, "pull", initialization_options={"diagnosticsDelay": 0}, pull=True)
    form = s.open("file:///pull.txt", "Card: 4111111111111112")
    s.run(s.code_actions(form, form.line_range(0, 6, 22)), "Format as card")
    s.sync()
    report = s.request("textDocument/diagnostic", {"textDocument": {"uri": form.uri}})["result"]
    assert report["kind"] == "full" and len(report["items"]) == 1, report
    again = s.request("textDocument/diagnostic", {"textDocument": {"uri": form.uri},
                                                  "previousResultId": report["resultId"]})["result"]
    assert again["kind"] == "unchanged", again
    s.finish()


def old_client_session(binary):
    """A client without CodeAction literals or documentChanges: Commands and unversioned edits."""
    s = Session(binary, "old", literals=False, document_changes=False)
    form = s.open("file:///old.txt", "13800138000")
    s.run(s.code_actions(form, form.line_range(0, 0, 11)), "Format as phone.cn")
    assert form.lines[0] == "138 0013 8000", form.lines
    s.finish()


EXPECTED = {
    "initialize response", "shutdown response", "textDocument/hover response", "textDocument/inlayHint response",
    "textDocument/codeAction response", "workspace/executeCommand response", "textDocument/formatting response",
    "textDocument/rangeFormatting response", "textDocument/publishDiagnostics notification",
    "window/logMessage notification", "workspace/applyEdit request", "workspace/inlayHint/refresh request",
    "textDocument/hover error", "workspace/executeCommand error", "textDocument/diagnostic response",
    "workspace/diagnostic/refresh request",
}


def main():
    binary = sys.argv[1]
    for session in (plugin_session, plain_session, pull_session, old_client_session):
        try:
            session(binary)
        except Exception as error:  # A session that breaks off is one failure; the others still run.
            RESULTS.fail(f"{session.__name__}: {error!r}")
    for kind in sorted(EXPECTED - RESULTS.kinds):
        RESULTS.fail(f"no {kind} was checked: the sessions missed it")
    print(f"lsp-schema: {RESULTS.passed} passed, {RESULTS.failed} failed, {RESULTS.skipped} skipped")
    sys.exit(1 if RESULTS.failed else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A stand-in for maskd, for developing the Neovim plugin before the daemon exists.

It speaks the wire shapes of PROTOCOL.md section 3 (Content-Length framing, the lifecycle,
document sync, the field-session methods and `maskd/didFormat` with echo suppression) over
stdio, and fakes the engine for simple bracket masks: digit, letter and alnum slots,
required before optional, plain and `{}` literals, lazy trailing literals.
It is not the engine: `oneOf`, `number`, `…`, validators and the ambiguity check are absent,
a `*` slot takes one code point rather than one grapheme cluster, fields are not tracked
through changes that add or remove lines, and a didFormat the editor drops leaves the stub's
field state behind the buffer, where maskd formats the document again. The three tests that
need these (stale didFormat, emoji with a skin tone, the daemon's copy through other edits)
only pass against maskd.
Only the Python standard library is used.
"""

import json
import os
import sys

PRESETS = {
    "phone.us": "+1 ([000]) [000]-[0000]",
    "phone.cn": "[000] [0000] [0000]",
    "card": "[0000] [0000] [0000] [0000] [999]",
    "date": "[0000]{-}[00]{-}[00]",
}

LOG = os.environ.get("MASKD_STUB_LOG")


def log(*parts):
    if LOG:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(" ".join(str(p) for p in parts) + "\n")


# Positions -------------------------------------------------------------------------------

def u16_len(s):
    return sum(2 if ord(c) > 0xFFFF else 1 for c in s)


def u16_to_index(s, n):
    """Index of the code point at UTF-16 offset n (clamped to the string)."""
    units = 0
    for i, c in enumerate(s):
        if units >= n:
            return i
        units += 2 if ord(c) > 0xFFFF else 1
    return len(s)


# Masks -----------------------------------------------------------------------------------

SLOTS = {
    "0": ("digit", True), "9": ("digit", False),
    "A": ("letter", True), "a": ("letter", False),
    "_": ("alnum", True), "-": ("alnum", False),
    "*": ("any", True),
}


class MaskError(Exception):
    pass


def compile_mask(spec):
    """Returns (canonical notation, elements); an element is ("slot", class, required) or ("lit", ch, value)."""
    if isinstance(spec, dict):
        if "preset" in spec:
            if spec["preset"] not in PRESETS:
                raise MaskError("unknown preset '%s' at offset 0" % spec["preset"])
            spec = PRESETS[spec["preset"]]
        elif "notation" in spec:
            spec = spec["notation"]
        else:
            raise MaskError("the stub supports only notation and preset masks")
    if not isinstance(spec, str) or spec == "":
        raise MaskError("empty mask at offset 0")
    elements = []
    i, mode = 0, None
    while i < len(spec):
        c = spec[i]
        if c == "\\" and i + 1 < len(spec):
            elements.append(("lit", spec[i + 1], mode == "{"))
            i += 2
            continue
        if mode is None and c in "[{":
            mode = c
        elif mode == "[" and c == "]" or mode == "{" and c == "}":
            mode = None
        elif c in "[]{}":
            raise MaskError("unbalanced bracket at offset %d" % i)
        elif mode == "[":
            if c not in SLOTS:
                raise MaskError("unknown slot character '%s' at offset %d" % (c, i))
            elements.append(("slot",) + SLOTS[c])
        else:
            elements.append(("lit", c, mode == "{"))
        i += 1
    if mode is not None:
        raise MaskError("unbalanced bracket at offset %d" % len(spec))
    return spec, elements


def fits(cls, ch):
    if ch == "\n":
        return False
    if cls == "digit":
        return ch.isdecimal()
    if cls == "letter":
        return ch.isalpha()
    if cls == "alnum":
        return ch.isalnum()
    return True


def normalise(ch):
    return str(int(ch)) if ch.isdecimal() else ch


class Field:
    """A field's state: its mask, the entered characters and the trailing literals shown."""

    def __init__(self, fid, line, start, spec):
        self.id, self.line, self.start = fid, line, start
        self.set_mask(spec)
        self.raw, self.trail = [], 0

    def set_mask(self, spec):
        self.spec = spec
        self.notation, self.elements = compile_mask(spec)

    def cells(self, raw=None, trail=None):
        """Renders (element index, char, is_slot) cells; the second value is what did not fit."""
        raw = self.raw if raw is None else raw
        trail = self.trail if trail is None else trail
        out, i, cut = [], 0, []
        pending = []
        for p, e in enumerate(self.elements):
            if i == len(raw):
                break
            if e[0] == "lit":
                pending.append((p, e[1], False))
                continue
            while i < len(raw) and not fits(e[1], raw[i]) and e[2]:
                cut.append(raw[i])
                i += 1
            if i == len(raw):
                break
            if not fits(e[1], raw[i]):
                continue
            out += pending
            pending = []
            out.append((p, raw[i], True))
            i += 1
        cut += raw[i:]
        # Trailing literals: only those directly after the last shown cell, up to `trail` of them.
        p = out[-1][0] + 1 if out else 0
        n = 0
        while n < trail and p < len(self.elements) and self.elements[p][0] == "lit":
            out.append((p, self.elements[p][1], False))
            p += 1
            n += 1
        return out, cut

    def text(self):
        return "".join(c[1] for c in self.cells()[0])

    def caret_after_k(self, k):
        cells = self.cells()[0]
        if k == 0:
            for i, c in enumerate(cells):
                if c[2]:
                    return i
            return 0
        seen = 0
        for i, c in enumerate(cells):
            if c[2]:
                seen += 1
                if seen == k:
                    return i + 1
        return len(cells)

    def read(self, text):
        """Reads text into an empty field; returns (caret, rejected, overflow)."""
        self.raw, self.trail = [], 0
        return self.insert(0, text)

    def insert(self, caret, text):
        cells = self.cells()[0]
        k = sum(1 for c in cells[:caret] if c[2])
        p = cells[caret][0] if caret < len(cells) else (cells[-1][0] + 1 if cells else 0)
        # In trailing literals, reading goes on from the caret's own place.
        new, rejected, overflow, last = [], "", "", None
        for ch in text:
            while True:
                if p >= len(self.elements):
                    overflow += ch
                    break
                e = self.elements[p]
                if e[0] == "lit":
                    p += 1
                    if ch == e[1]:
                        last = ("lit", p)
                        break
                    continue
                if fits(e[1], ch):
                    new.append(normalise(ch))
                    p += 1
                    last = ("slot", p)
                    break
                if not e[2]:
                    p += 1
                    continue
                rejected += ch
                break
        if last is None:
            return caret, rejected, overflow
        tail = self.raw[k:]
        raw = self.raw[:k] + new + tail
        trail = self.trail if tail else 0
        if not tail and last[0] == "lit":
            # Literals the person typed after the last entered character stay shown.
            slots = [i for i, e in enumerate(self.elements[: last[1]]) if e[0] == "slot"]
            trail = last[1] - (slots[-1] + 1 if slots and raw else 0)
        cells, cut = self.cells(raw, trail)
        if cut:
            overflow += "".join(cut)
            raw = raw[: len(raw) - len(cut)]
        self.raw, self.trail = raw, trail
        cells = self.cells()[0]
        caret = len(cells)
        for i, c in enumerate(cells):
            if c[0] >= last[1]:
                caret = i
                break
        return caret, rejected, overflow

    def delete(self, s, e, forward=False):
        cells = self.cells()[0]
        inside = [i for i, c in enumerate(cells[s:e], s) if c[2]]
        before = sum(1 for c in cells[:s] if c[2])
        if inside:
            drop = set(inside)
        elif not any(c[2] for c in cells[e:]):
            # Trailing literals of a lazy field: they would not come back.
            last_slot = max([i for i, c in enumerate(cells) if c[2]], default=-1)
            self.trail = max(0, s - (last_slot + 1)) if self.raw else 0
            return s if self.raw else 0
        elif forward:
            after = [i for i, c in enumerate(cells) if c[2] and i >= e]
            drop = set(after[:1])
        else:
            prior = [i for i, c in enumerate(cells) if c[2] and i < s]
            drop = set(prior[-1:])
            before -= len(drop)
        entered = [i for i, c in enumerate(cells) if c[2]]
        keep = [self.raw[n] for n, i in enumerate(entered) if i not in drop]
        if len(keep) == before:
            self.trail = 0
        self.raw = keep
        return self.caret_after_k(before)

    def state(self, lines):
        text = self.text()
        line = lines[self.line]
        start16 = u16_len(line[: self.start])
        cells = self.cells()[0]
        p = cells[-1][0] + 1 if cells else 0
        slots = [e for e in self.elements if e[0] == "slot"]
        required = [e for e in self.elements[p:] if e[0] == "slot" and e[2] or e[0] == "lit" and e[2]]
        nxt = next((e[1] for e in self.elements[p:] if e[0] == "slot"), None)
        placeholder = "".join("_" if e[0] == "slot" else e[1] for e in self.elements[p:] if e[0] == "lit" or e[2])
        value = "".join(c[1] for c in cells if c[2] or self.elements[c[0]][2])
        complete = not required and len(self.raw) >= sum(1 for e in slots if e[2])
        st = {
            "field": self.id,
            "range": {
                "start": {"line": self.line, "character": start16},
                "end": {"line": self.line, "character": start16 + u16_len(text)},
            },
            "text": text, "value": value, "complete": complete, "valid": complete,
            "problems": [] if complete else ["incomplete"],
            "next": nxt, "placeholder": placeholder, "mask": self.notation,
        }
        if isinstance(self.spec, dict) and self.spec.get("preset") == "card":
            st["brand"] = "visa" if self.raw[:1] == ["4"] else None
        return st


# Documents -------------------------------------------------------------------------------

class Document:
    def __init__(self, uri, text, version):
        self.uri, self.version = uri, version
        self.lines = text.split("\n")
        self.fields = {}
        self.echo = None

    def text(self):
        return "\n".join(self.lines)

    def offset(self, pos):
        line = self.lines[pos["line"]] if pos["line"] < len(self.lines) else ""
        return pos["line"], u16_to_index(line, pos["character"])

    def replace(self, rng, new):
        (l1, c1), (l2, c2) = self.offset(rng["start"]), self.offset(rng["end"])
        l2 = min(l2, len(self.lines) - 1)
        head, tail = self.lines[l1][:c1], self.lines[l2][c2:]
        self.lines[l1 : l2 + 1] = (head + new + tail).split("\n")
        return l1, c1, l2, c2


class Server:
    def __init__(self):
        self.docs, self.next_id, self.shutdown = {}, 1, False

    def send(self, msg):
        msg["jsonrpc"] = "2.0"
        body = json.dumps(msg, ensure_ascii=False).encode("utf-8")
        log(">", body.decode("utf-8"))
        sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        sys.stdout.buffer.flush()

    def doc(self, params):
        uri = params["textDocument"]["uri"]
        if uri not in self.docs:
            raise RpcError(-32602, "unknown document " + uri)
        return self.docs[uri]

    def field(self, doc, params):
        f = doc.fields.get(params.get("field"))
        if f is None:
            raise RpcError(-32602, "unknown field %r" % params.get("field"))
        return f

    # Requests.
    def initialize(self, params):
        return {
            "serverInfo": {"name": "maskd", "version": "0.0.0-stub"},
            "capabilities": {
                "positionEncoding": "utf-16",
                "textDocumentSync": {"openClose": True, "change": 2},
                "experimental": {"maskd": {"version": 1, "presets": sorted(PRESETS)}},
            },
        }

    def open_field(self, params):
        doc = self.doc(params)
        rng = params["range"]
        if rng["start"]["line"] != rng["end"]["line"]:
            raise RpcError(-32602, "a field is one line")
        (line, s), (_, e) = doc.offset(rng["start"]), doc.offset(rng["end"])
        fid = params.get("field") or "f%d" % self.next_id
        self.next_id += 1
        try:
            f = Field(fid, line, s, params["mask"])
        except MaskError as err:
            raise RpcError(-32602, str(err))
        old = doc.lines[line][s:e]
        caret, rejected, overflow = f.read(old)
        doc.fields[fid] = f
        return self.field_result(doc, f, old, caret, rejected, overflow)

    def set_mask(self, params):
        doc = self.doc(params)
        f = self.field(doc, params)
        old, raw = f.text(), f.raw
        try:
            f.set_mask(params["mask"])
        except MaskError as err:
            raise RpcError(-32602, str(err))
        f.raw, f.trail = [], 0
        caret, rejected, overflow = f.insert(0, "".join(raw)) if raw else (0, "", "")
        return self.field_result(doc, f, old, caret, rejected, overflow)

    def field_result(self, doc, f, old, caret, rejected, overflow):
        new = f.text()
        line = doc.lines[f.line]
        edits = diff_edit(line, f.line, f.start, f.start + len(old), new)
        version = doc.version
        formatted = list(doc.lines)
        formatted[f.line] = line[: f.start] + new + line[f.start + len(old) :]
        if edits:
            doc.echo = "\n".join(formatted)
        cursor = {"line": f.line, "character": u16_len(line[: f.start]) + u16_len(new[:caret])}
        return {
            "field": f.id, "edits": edits, "cursor": cursor, "state": f.state(formatted), "version": version,
            "rejected": rejected, "overflow": overflow,
        }

    def close_field(self, params):
        doc = self.doc(params)
        self.field(doc, params)
        del doc.fields[params["field"]]
        return None

    def fields(self, params):
        doc = self.doc(params)
        return [f.state(doc.lines) for f in sorted(doc.fields.values(), key=lambda f: (f.line, f.start))]

    def format_hints(self, params):
        doc = self.doc(params)
        line, c = doc.offset(params["position"])
        for f in doc.fields.values():
            if f.line == line and f.start <= c <= f.start + len(f.text()):
                return f.state(doc.lines)
        return None

    # Notifications.
    def did_open(self, params):
        td = params["textDocument"]
        self.docs[td["uri"]] = Document(td["uri"], td["text"], td["version"])

    def did_close(self, params):
        self.docs.pop(params["textDocument"]["uri"], None)

    def did_change(self, params):
        doc = self.doc(params)
        doc.version = params["textDocument"]["version"]
        expected, doc.echo = doc.echo, None
        if expected is not None:
            saved = list(doc.lines)
            for ch in params["contentChanges"]:
                self.apply_change(doc, ch)
            if doc.text() == expected:
                log("echo", doc.version)
                return
            log("not an echo:", repr(doc.text()), "expected", repr(expected))
            doc.lines = saved
        touched = []
        for ch in params["contentChanges"]:
            touched += self.apply_change(doc, ch, track=True)
        if touched:
            self.did_format(doc, touched[-1])

    def apply_change(self, doc, ch, track=False):
        if "range" not in ch:
            doc.lines = ch["text"].split("\n")
            return []
        l1, c1, l2, c2 = doc.replace(ch["range"], ch["text"])
        return self.track(doc, l1, c1, l2, c2, ch["text"]) if track else []

    def track(self, doc, l1, c1, l2, c2, new):
        """Moves fields for one person's change.

        Returns what it formatted: (field, caret, rejected, overflow, naive length).
        """
        out = []
        for f in list(doc.fields.values()):
            length = len(f.text())
            fs, fe = f.start, f.start + length
            if f.line > l2:
                f.line += new.count("\n") - (l2 - l1)
                continue
            if f.line < l1 or c2 < fs and l1 == l2 and "\n" not in new:
                if f.line == l1:
                    f.start += len(new) - (c2 - c1)
                continue
            if l1 != l2 or "\n" in new or c1 > fe:
                # Line breaks and changes after the field: the stub leaves the field where it was.
                continue
            s, e = max(c1, fs) - fs, min(c2, fe) - fs
            if c1 < fs:
                f.start = c1
            if new and e == s:
                caret, rej, ovf = f.insert(s, new)
            elif not new:
                caret, rej, ovf = f.delete(s, e), "", ""
            else:
                f.delete(s, e)
                caret, rej, ovf = f.insert(min(s, len(f.text())), new)
            out.append((f, caret, rej, ovf, length - (e - s) + len(new)))
        return out

    def did_format(self, doc, touched):
        f, caret, rejected, overflow, naive_len = touched
        line = doc.lines[f.line]
        new = f.text()
        edits = diff_edit(line, f.line, f.start, f.start + naive_len, new)
        formatted = line[: f.start] + new + line[f.start + naive_len :]
        doc.lines[f.line] = formatted
        states = [g.state(doc.lines) for g in sorted(doc.fields.values(), key=lambda g: (g.line, g.start))]
        if edits:
            doc.echo = doc.text()
        doc.lines[f.line] = line
        cursor = {"line": f.line, "character": u16_len(formatted[: f.start + caret])}
        self.send({
            "method": "maskd/didFormat",
            "params": {
                "textDocument": {"uri": doc.uri, "version": doc.version},
                "edits": edits, "cursor": cursor, "fields": states,
                "rejected": rejected, "overflow": overflow,
            },
        })

    # Dispatch.
    def handle(self, msg):
        method, params, mid = msg.get("method"), msg.get("params"), msg.get("id")
        requests = {
            "initialize": self.initialize,
            "shutdown": lambda p: setattr(self, "shutdown", True),
            "maskd/openField": self.open_field,
            "maskd/setMask": self.set_mask,
            "maskd/closeField": self.close_field,
            "maskd/fields": self.fields,
            "maskd/formatHints": self.format_hints,
        }
        notifications = {
            "initialized": lambda p: None,
            "textDocument/didOpen": self.did_open,
            "textDocument/didChange": self.did_change,
            "textDocument/didClose": self.did_close,
            "exit": lambda p: sys.exit(0 if self.shutdown else 1),
        }
        if mid is not None and method in requests:
            try:
                self.send({"id": mid, "result": requests[method](params)})
            except RpcError as err:
                self.send({"id": mid, "error": {"code": err.code, "message": err.message}})
        elif mid is not None and method is not None:
            self.send({"id": mid, "error": {"code": -32601, "message": "method not found: %s" % method}})
        elif method in notifications:
            notifications[method](params)


class RpcError(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code, self.message = code, message


def diff_edit(line, lnum, start, end, new):
    """One TextEdit replacing line[start:end] by new, trimmed to the part that differs; [] when equal."""
    old = line[start:end]
    if old == new:
        return []
    a = 0
    while a < min(len(old), len(new)) and old[a] == new[a]:
        a += 1
    b = 0
    while b < min(len(old), len(new)) - a and old[len(old) - 1 - b] == new[len(new) - 1 - b]:
        b += 1
    s16 = u16_len(line[: start + a])
    e16 = u16_len(line[: end - b])
    return [{
        "range": {"start": {"line": lnum, "character": s16}, "end": {"line": lnum, "character": e16}},
        "newText": new[a : len(new) - b],
    }]


def main():
    server = Server()
    stdin = sys.stdin.buffer
    while True:
        length = None
        while True:
            header = stdin.readline()
            if not header:
                return
            header = header.strip()
            if not header:
                break
            name, _, value = header.partition(b":")
            if name.lower() == b"content-length":
                length = int(value)
        body = stdin.read(length)
        log("<", body.decode("utf-8"))
        server.handle(json.loads(body))


if __name__ == "__main__":
    main()

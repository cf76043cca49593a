"""A small LSP client for maskd over pipes, for the reliability tests (Python 3 standard library only).

It starts the real binary, frames messages with Content-Length, and reads the daemon's output on a thread into a
queue, so that every wait has a timeout and nothing blocks for ever. Reading can be paused to test a client that
does not read its replies.
"""

import json
import os
import queue
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_BINARY = os.path.join(ROOT, ".build", "debug", "maskd")


def binary_path():
    """The daemon to test: $MASKD, else .build/debug/maskd of this checkout."""
    return os.environ.get("MASKD") or DEFAULT_BINARY


def frame(body):
    """One LSP frame around `body` (bytes, or an object serialised as JSON)."""
    if not isinstance(body, (bytes, bytearray)):
        body = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Timeout(Exception):
    """A bounded wait ran out."""


class Daemon:
    """One maskd process on pipes."""

    def __init__(self, binary=None, args=("--stdio",), stderr_path=None, read=True):
        """Starts the daemon; with `read` false nothing reads its output (so closing it really closes the pipe)."""
        self.binary = binary or binary_path()
        self.stderr_path = stderr_path or os.devnull
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(
            [self.binary, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0
        )
        self.messages = queue.Queue()
        self.eof = threading.Event()
        self.reading = threading.Event()
        self.reading.set()
        self.next_id = 1
        self._buffer = b""
        self._reader = threading.Thread(target=self._read_loop, daemon=True)
        if read:
            self._reader.start()

    # Reading.

    def _read_loop(self):
        out = self.proc.stdout
        while True:
            self.reading.wait()
            try:
                chunk = os.read(out.fileno(), 1 << 16)
            except (OSError, ValueError):
                # ValueError: the test closed the pipe (or killed the daemon) while this thread waited.
                chunk = b""
            if not chunk:
                self.eof.set()
                return
            self._buffer += chunk
            try:
                self._split()
            except ValueError as error:
                # Output that is not a well-formed frame of JSON is a failure the tests must see, not a dead thread.
                self.messages.put({"__malformed__": str(error)})
                self._buffer = b""

    def _split(self):
        while True:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            length = None
            for line in self._buffer[:end].split(b"\r\n"):
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            if length is None:
                raise ValueError("the daemon wrote a header without Content-Length: %r" % self._buffer[:end])
            if len(self._buffer) < end + 4 + length:
                return
            body = self._buffer[end + 4 : end + 4 + length]
            self._buffer = self._buffer[end + 4 + length :]
            message = json.loads(body.decode("utf-8"))
            # A batch's answers arrive as one array; they are queued one by one, each marked.
            for item in message if isinstance(message, list) else [message]:
                if isinstance(message, list) and isinstance(item, dict):
                    item["__batch__"] = True
                self.messages.put(item if isinstance(item, dict) else {"__malformed__": repr(item)})

    def pause_reading(self):
        """Stops reading the daemon's output after the current read; its pipe then fills up."""
        self.reading.clear()

    def resume_reading(self):
        self.reading.set()

    def next_message(self, timeout):
        try:
            return self.messages.get(timeout=timeout)
        except queue.Empty:
            raise Timeout("no message within %.1f s" % timeout)

    def wait_for(self, predicate, timeout, keep=None):
        """The first message matching `predicate`; others go to `keep` (a list) or are dropped."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise Timeout("no matching message within %.1f s" % timeout)
            message = self.next_message(left)
            if predicate(message):
                return message
            if keep is not None:
                keep.append(message)

    def response(self, request_id, timeout=10, keep=None):
        return self.wait_for(lambda m: "method" not in m and m.get("id") == request_id, timeout, keep)

    def drain(self, quiet=0.2):
        """Every message that arrives until none has come for `quiet` seconds."""
        got = []
        while True:
            try:
                got.append(self.messages.get(timeout=quiet))
            except queue.Empty:
                return got

    # Writing.

    def write(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, message):
        self.write(frame(message))

    def notify(self, method, params=None):
        message = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)

    def request_id(self):
        request_id = self.next_id
        self.next_id += 1
        return request_id

    def request(self, method, params=None):
        """Sends a request and returns its id."""
        request_id = self.request_id()
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def call(self, method, params=None, timeout=10, keep=None):
        """Sends a request and waits for its response."""
        return self.response(self.request(method, params), timeout, keep)

    def initialize(self, encodings=("utf-16",), timeout=10):
        reply = self.call(
            "initialize",
            {"processId": None, "capabilities": {"general": {"positionEncodings": list(encodings)}}},
            timeout,
        )
        self.notify("initialized", {})
        return reply

    def is_serving(self, timeout=10, keep=None):
        """Whether a small maskd/apply is answered correctly; other messages go to `keep`."""
        try:
            reply = self.call("maskd/apply", {"mask": "[00]{.}[00]", "text": "1234"}, timeout, keep)
        except (Timeout, OSError, ValueError):
            return False
        return reply.get("result", {}).get("text") == "12.34"

    # The process.

    def rss_kib(self, field="VmRSS"):
        """The daemon's resident set (VmRSS) or peak (VmHWM) in KiB, or None once it has exited."""
        try:
            with open("/proc/%d/status" % self.proc.pid) as status:
                for line in status:
                    if line.startswith(field + ":"):
                        return int(line.split()[1])
        except OSError:
            return None
        return None

    def close_stdin(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def wait_exit(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise Timeout("the daemon did not exit within %.1f s" % timeout)

    def stderr_text(self):
        self._stderr.flush()
        if self.stderr_path == os.devnull:
            return ""
        with open(self.stderr_path, "rb") as f:
            return f.read().decode("utf-8", "replace")

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.close_stdin()
        # The reader must be done with the output's descriptor before it is closed: the next daemon's pipe may get
        # the same number, and a reader still running would read that daemon's messages (its initialize reply).
        # The process is gone, so the reader sees the end of the output at once.
        self.reading.set()
        if self._reader.is_alive():
            self._reader.join(timeout=10)
        try:
            self.proc.stdout.close()
        except OSError:
            pass
        self._stderr.close()

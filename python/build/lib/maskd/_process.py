"""One long-lived `maskd format` process that formats batches of lines.

`maskd format` reads standard input a line at a time and writes one line out per line in, flushing what it has
formatted before it waits for more input. So a batch of N lines written to it gives back exactly N lines without
closing its input, and the same process serves every batch of a column (or of a Dask or Spark partition).
"""

from __future__ import annotations

import atexit
import collections
import json
import os
import shutil
import subprocess
import threading
from typing import Iterable, List, Optional, Sequence, Union

MaskSpec = Union[str, dict]

OUTPUTS = ("text", "value", "e164", "rfc3966", "national", "international")


class MaskdError(RuntimeError):
    """The maskd process failed: it refused the mask or the options, or stopped while formatting."""


class MaskdNotFoundError(MaskdError, FileNotFoundError):
    """No maskd binary where one was looked for."""


class MaskdUsageError(MaskdError, ValueError):
    """maskd refused the mask or an option (its exit code 2), with its own message."""


def find_binary(binary: Optional[str] = None) -> str:
    """The path of the maskd binary: `binary` if given, else `$MASKD_BINARY`, else `maskd` on `PATH`."""
    if binary is None:
        binary = os.environ.get("MASKD_BINARY") or None
    if binary is None:
        found = shutil.which("maskd")
        if found is None:
            raise MaskdNotFoundError(
                "no 'maskd' on PATH: install it (scripts/install in the maskd repository puts it in ~/.local/bin) "
                "or pass binary='/path/to/maskd'"
            )
        return found
    if os.sep not in binary:
        found = shutil.which(binary)
        if found is None:
            raise MaskdNotFoundError(f"no '{binary}' on PATH")
        return found
    if not (os.path.isfile(binary) and os.access(binary, os.X_OK)):
        raise MaskdNotFoundError(f"{binary} is not an executable file")
    return os.path.abspath(binary)


def mask_argument(mask: MaskSpec) -> str:
    """The `--mask` argument: bracket notation as it is, an object form as JSON."""
    if isinstance(mask, str):
        return mask
    if isinstance(mask, dict):
        return json.dumps(mask, ensure_ascii=False, separators=(",", ":"))
    raise TypeError(f"mask must be a string (bracket notation) or a dict (a MaskSpec object), not {type(mask).__name__}")


class LineFormatter:
    """A `maskd format` process kept open; `lines(batch)` formats a batch, in order, a line out per line in.

    `as_json` asks for the result objects (`--json`) instead of the formatted lines. Safe to share between
    threads: batches take turns.
    """

    def __init__(self, mask: MaskSpec, output: str = "text", binary: Optional[str] = None,
                 jobs: Optional[int] = None, as_json: bool = False):
        if output not in OUTPUTS:
            raise ValueError(f"output must be one of {', '.join(OUTPUTS)}, not {output!r}")
        self.binary = find_binary(binary)
        command = [self.binary, "format", "--mask", mask_argument(mask)]
        if output != "text":
            command += ["--output", output]
        if jobs is not None:
            command += ["--jobs", str(int(jobs))]
        if as_json:
            command.append("--json")
        self.command = command
        self._lock = threading.Lock()
        self._stderr_tail: collections.deque = collections.deque(maxlen=20)
        try:
            self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                             stderr=subprocess.PIPE, bufsize=0)
        except OSError as error:
            raise MaskdNotFoundError(f"cannot start {self.binary}: {error}") from error
        # Standard error is always read, so reports of unreadable lines can never fill its pipe and stop maskd.
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    def _read_stderr(self) -> None:
        for raw in iter(self._process.stderr.readline, b""):
            self._stderr_tail.append(raw.decode("utf-8", "replace").rstrip("\n"))

    def _failure(self, what: str) -> MaskdError:
        code = self._process.wait()
        self._stderr_reader.join(timeout=1)
        said = "\n".join(self._stderr_tail).strip()
        if code == 2:
            return MaskdUsageError(said.splitlines()[0] if said else "maskd refused the mask or an option")
        return MaskdError(f"maskd {what} (exit code {code})" + (f": {said}" if said else ""))

    def lines(self, batch: Sequence[str]) -> List[str]:
        """Formats each string of `batch` (none may hold a line break) and gives the lines back, in order."""
        if not batch:
            return []
        payload = ("\n".join(batch) + "\n").encode("utf-8", "surrogatepass")
        with self._lock:
            if self._process.poll() is not None:
                raise self._failure("is not running")
            # A writer of its own: a batch larger than the pipes would otherwise deadlock against its own output.
            problem: List[BaseException] = []

            def write() -> None:
                try:
                    self._process.stdin.write(payload)
                    self._process.stdin.flush()
                except BaseException as error:  # a broken pipe shows as missing lines below
                    problem.append(error)

            writer = threading.Thread(target=write, daemon=True)
            writer.start()
            out: List[str] = []
            read_line = self._process.stdout.readline
            for _ in range(len(batch)):
                raw = read_line()
                if not raw:
                    writer.join(timeout=1)
                    raise self._failure("stopped while formatting")
                out.append(raw[:-1].decode("utf-8", "surrogateescape") if raw.endswith(b"\n")
                           else raw.decode("utf-8", "surrogateescape"))
            writer.join()
            return out

    def close(self) -> None:
        with self._lock:
            if self._process.poll() is None:
                try:
                    self._process.stdin.close()
                except OSError:
                    pass
                try:
                    self._process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
            for stream in (self._process.stdout, self._process.stderr):
                try:
                    stream.close()
                except OSError:
                    pass

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def __enter__(self) -> "LineFormatter":
        return self

    def __exit__(self, *_exc) -> None:
        self.close()


# Processes kept for repeated calls with the same mask in one Python process (a Dask worker formats partition
# after partition with it). Bounded: the least recently used one is closed past the limit.
_KEPT_LIMIT = 8
_kept: "collections.OrderedDict[tuple, LineFormatter]" = collections.OrderedDict()
_kept_lock = threading.Lock()


def kept_formatter(mask: MaskSpec, output: str, binary: Optional[str], jobs: Optional[int],
                   as_json: bool) -> LineFormatter:
    """A running formatter for these settings, started on first use and kept for the next call."""
    key = (find_binary(binary), mask_argument(mask), output, jobs, as_json)
    with _kept_lock:
        formatter = _kept.get(key)
        if formatter is not None and formatter.alive:
            _kept.move_to_end(key)
            return formatter
        if formatter is not None:
            formatter.close()
        formatter = LineFormatter(mask, output=output, binary=key[0], jobs=jobs, as_json=as_json)
        _kept[key] = formatter
        while len(_kept) > _KEPT_LIMIT:
            _, oldest = _kept.popitem(last=False)
            oldest.close()
        return formatter


def close_kept() -> None:
    """Closes every kept process (at exit, or when a caller wants them gone)."""
    with _kept_lock:
        while _kept:
            _, formatter = _kept.popitem()
            formatter.close()


atexit.register(close_kept)


def chunks(items: Iterable, size: int):
    batch = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch

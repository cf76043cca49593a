"""maskd for columns of data: format and check phone numbers, cards, IBANs, identifiers, dates and amounts.

Every value goes through the `maskd` binary (on `PATH`, `$MASKD_BINARY`, or `binary=`), one long-lived
`maskd format` process per mask streaming batch after batch, so a column costs one process start, not one a value:

    >>> import maskd
    >>> maskd.format(["2015550123", "(201) 555-0124"], {"preset": "phone", "region": "US"}, output="e164")
    ['+12015550123', '+12015550124']

`format` and `check` take a list (any iterable), a pandas Series or a pyarrow array and give back the same kind;
`maskd.dask` and `maskd.spark` run them over the partitions of those engines.
"""

from __future__ import annotations

import json
import math
import sys
from typing import Any, Iterable, List, NamedTuple, Optional, Tuple

from ._process import (OUTPUTS, LineFormatter, MaskdError, MaskdNotFoundError, MaskdUsageError, MaskSpec,
                       chunks, close_kept, find_binary, kept_formatter)

__all__ = ["format", "check", "Check", "LineFormatter", "MaskdError", "MaskdNotFoundError", "MaskdUsageError",
           "OUTPUTS", "find_binary", "close_kept"]

BATCH = 65536


class Check(NamedTuple):
    """What maskd says of one value: its formatted text and extracted value, and whether it is complete and valid."""
    text: Optional[str]
    value: Optional[str]
    complete: bool
    valid: bool
    problems: Tuple[str, ...]


def format(values: Any, mask: MaskSpec, output: str = "text", *, binary: Optional[str] = None,
           jobs: Optional[int] = None) -> Any:
    """Formats every value as `maskd format --mask MASK --output OUTPUT` formats a line.

    `values`: a list or other iterable, a pandas Series (the result keeps its index and name) or a pyarrow
    array (the result is a string array). Nulls (None, NaN, pandas' NA) stay null; numbers are read as their
    digits (`2015550123.0` as `2015550123`). A value holding a line break cannot be one line of input and comes
    back unchanged, as the command line copies a line it cannot read.
    `output`: `text` (the formatted text), `value` (the extracted value), or for phone masks `e164`, `rfc3966`,
    `national`, `international` (an empty string where a value is no number).
    """
    kind, cells = _column(values)
    formatter = kept_formatter(mask, output, binary, jobs, as_json=False)
    out: List[Optional[str]] = [None] * len(cells)
    for positions, batch in _batches(cells):
        for position, line in zip(positions, formatter.lines(batch)):
            out[position] = line
    for position, cell in enumerate(cells):
        if cell is not None and _holds_line_break(cell):
            out[position] = cell
    return _rebuild(kind, values, out)


def check(values: Any, mask: MaskSpec, *, binary: Optional[str] = None, jobs: Optional[int] = None) -> Any:
    """Checks every value: a `Check` per value for a list, a DataFrame (columns text, value, complete, valid,
    problems; the Series' index) for a pandas Series, a struct array for a pyarrow array.

    A null is not valid (problem `no value`); a value holding a line break is not valid (`holds a line break`).
    """
    kind, cells = _column(values)
    formatter = kept_formatter(mask, "text", binary, jobs, as_json=True)
    out: List[Check] = [Check(None, None, False, False, ("no value",))] * len(cells)
    for positions, batch in _batches(cells):
        for position, line in zip(positions, formatter.lines(batch)):
            result = json.loads(line)
            if "error" in result:
                out[position] = Check(cells[position], None, False, False, (result["error"],))
            else:
                out[position] = Check(result["text"], result["value"], bool(result["complete"]),
                                      bool(result["valid"]), tuple(result["problems"]))
    for position, cell in enumerate(cells):
        if cell is not None and _holds_line_break(cell):
            out[position] = Check(cell, None, False, False, ("holds a line break",))
    if kind == "pandas":
        pandas = sys.modules["pandas"]
        return pandas.DataFrame(
            {"text": [c.text for c in out], "value": [c.value for c in out],
             "complete": [c.complete for c in out], "valid": [c.valid for c in out],
             "problems": [list(c.problems) for c in out]},
            index=values.index)
    if kind == "arrow":
        pyarrow = sys.modules["pyarrow"]
        return pyarrow.array([c._asdict() | {"problems": list(c.problems)} for c in out],
                             type=pyarrow.struct([("text", pyarrow.string()), ("value", pyarrow.string()),
                                                  ("complete", pyarrow.bool_()), ("valid", pyarrow.bool_()),
                                                  ("problems", pyarrow.list_(pyarrow.string()))]))
    return out


def _column(values: Any) -> Tuple[str, List[Optional[str]]]:
    """The kind of column (`pandas`, `arrow`, `list`) and its cells as strings or None."""
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(values, pandas.Series):
        return "pandas", [_cell(v) for v in values.tolist()]
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None and isinstance(values, (pyarrow.Array, pyarrow.ChunkedArray)):
        return "arrow", [_cell(v) for v in values.to_pylist()]
    if isinstance(values, (str, bytes)):
        raise TypeError("values must be a column of values (a list, a pandas Series, a pyarrow array), not one string")
    return "list", [_cell(v) for v in values]


def _cell(value: Any) -> Optional[str]:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bytes):
        return value.decode("utf-8", "surrogateescape")
    if isinstance(value, float):
        if math.isnan(value):
            return None
        return str(int(value)) if value.is_integer() else repr(value)
    pandas = sys.modules.get("pandas")
    if pandas is not None and value is pandas.NA or type(value).__name__ in ("NAType", "NaTType"):
        return None
    return str(value)


def _holds_line_break(text: str) -> bool:
    return "\n" in text or "\r" in text


def _batches(cells: List[Optional[str]]) -> Iterable[Tuple[List[int], List[str]]]:
    """The positions and texts of the cells that go to maskd, a batch at a time (nulls and line breaks stay out)."""
    wanted = ((i, c) for i, c in enumerate(cells) if c is not None and not _holds_line_break(c))
    for batch in chunks(wanted, BATCH):
        yield [i for i, _ in batch], [c for _, c in batch]


def _rebuild(kind: str, values: Any, out: List[Optional[str]]) -> Any:
    if kind == "pandas":
        return sys.modules["pandas"].Series(out, index=values.index, name=values.name, dtype=object)
    if kind == "arrow":
        return sys.modules["pyarrow"].array(out, type=sys.modules["pyarrow"].string())
    return out


def __getattr__(name: str) -> Any:
    # `maskd.dask` and `maskd.spark` load on first use, so `import maskd` needs neither engine.
    if name in ("dask", "spark"):
        import importlib
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'maskd' has no attribute {name!r}")

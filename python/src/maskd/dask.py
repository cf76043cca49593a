"""maskd over a Dask series, a partition at a time: each worker streams its partitions through its own kept
`maskd format` process (the binary must be on the workers' `PATH`, or given as an absolute `binary=`)."""

from __future__ import annotations

from typing import Any, Optional

import maskd
from ._process import MaskSpec, find_binary


def _format_partition(partition, mask, output, binary):
    # jobs=1: Dask already runs one partition per worker thread or process.
    return maskd.format(partition, mask, output, binary=binary, jobs=1)


def format(series: Any, mask: MaskSpec, output: str = "text", *, binary: Optional[str] = None) -> Any:
    """`maskd.format` over every partition of a Dask series; a lazy Dask series of strings with the same
    partitions, index and name."""
    binary = find_binary(binary)
    return series.map_partitions(_format_partition, mask, output, binary, meta=(series.name, "object"))


def _check_partition(partition, mask, binary):
    return maskd.check(partition, mask, binary=binary, jobs=1)


def check(series: Any, mask: MaskSpec, *, binary: Optional[str] = None) -> Any:
    """`maskd.check` over every partition of a Dask series: a lazy Dask DataFrame with the columns text, value,
    complete, valid and problems."""
    import pandas

    binary = find_binary(binary)
    meta = pandas.DataFrame({"text": pandas.Series(dtype=object), "value": pandas.Series(dtype=object),
                             "complete": pandas.Series(dtype=bool), "valid": pandas.Series(dtype=bool),
                             "problems": pandas.Series(dtype=object)})
    return series.map_partitions(_check_partition, mask, binary, meta=meta)

"""maskd over a Spark DataFrame column through `mapInPandas`: each Python worker streams its Arrow batches
through one kept `maskd format` process (the binary must be on the executors' `PATH`, or given as an absolute
`binary=`; with `local[N]` that is this machine's)."""

from __future__ import annotations

from typing import Any, Optional

import maskd
from ._process import MaskSpec, find_binary


def format(dataframe: Any, column: str, mask: MaskSpec, output: str = "text", *,
           into: Optional[str] = None, binary: Optional[str] = None) -> Any:
    """The DataFrame with a string column `into` (default: `<column>_<output>`, e.g. `phone_e164`) holding
    `maskd.format` of `column`; every other column as it was."""
    from pyspark.sql.types import StringType, StructField, StructType

    binary = find_binary(binary)
    into = into or f"{column}_{output}"
    if column not in dataframe.columns:
        raise ValueError(f"no column {column!r} (the columns are {', '.join(dataframe.columns)})")
    if into in dataframe.columns:
        raise ValueError(f"the DataFrame already has a column {into!r}: pass another name as into=")
    schema = StructType(dataframe.schema.fields + [StructField(into, StringType(), True)])

    def batches(frames):
        for frame in frames:
            frame[into] = maskd.format(frame[column], mask, output, binary=binary, jobs=1).values
            yield frame

    return dataframe.mapInPandas(batches, schema)


def check(dataframe: Any, column: str, mask: MaskSpec, *, prefix: Optional[str] = None,
          binary: Optional[str] = None) -> Any:
    """The DataFrame with `<prefix>valid` (boolean) and `<prefix>problems` (array of strings) for `column`
    (default prefix `<column>_`)."""
    from pyspark.sql.types import ArrayType, BooleanType, StringType, StructField, StructType

    binary = find_binary(binary)
    prefix = f"{column}_" if prefix is None else prefix
    valid, problems = prefix + "valid", prefix + "problems"
    for name in (valid, problems):
        if name in dataframe.columns:
            raise ValueError(f"the DataFrame already has a column {name!r}: pass another prefix=")
    schema = StructType(dataframe.schema.fields + [StructField(valid, BooleanType(), False),
                                                   StructField(problems, ArrayType(StringType()), False)])

    def batches(frames):
        for frame in frames:
            checked = maskd.check(frame[column], mask, binary=binary, jobs=1)
            frame[valid] = checked["valid"].values
            frame[problems] = checked["problems"].values
            yield frame

    return dataframe.mapInPandas(batches, schema)

"""maskd.dask on a local cluster of two worker processes and maskd.spark on local[2], each agreeing with
`maskd format` on the same column."""
import json
import os
import random
import sys

import pandas
import pytest

import maskd

PHONE = {"preset": "phone", "region": "US"}
CARD = {"preset": "card"}


def phones(n, seed=5):
    rng = random.Random(seed)
    spellings = ["({a}) {b}-{c}", "{a}.{b}.{c}", "+1 {a} {b} {c}", "{a}{b}{c}", "{a} {b} {c} call me"]
    out = []
    for _ in range(n):
        a = f"{rng.randint(201, 989)}"
        b = f"{rng.randint(200, 999)}"
        c = f"{rng.randint(0, 9999):04d}"
        out.append(rng.choice(spellings).format(a=a, b=b, c=c))
    return out


@pytest.fixture(scope="module")
def dask_client():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def test_dask_format_on_two_workers_agrees_with_the_command_line(binary, cli, dask_client):
    import dask.dataframe

    values = phones(4000)
    series = dask.dataframe.from_pandas(pandas.Series(values, name="phone"), npartitions=8)
    out = maskd.dask.format(series, PHONE, binary=binary).compute()
    assert list(out) == cli(values, json.dumps(PHONE))
    # Both workers took partitions.
    assert len(dask_client.scheduler_info()["workers"]) == 2


def test_dask_check_gives_a_frame(binary, dask_client):
    import dask.dataframe

    series = dask.dataframe.from_pandas(pandas.Series(["4111111111111111", "4111"] * 50), npartitions=4)
    frame = maskd.dask.check(series, CARD, binary=binary).compute()
    assert list(frame["valid"]) == [True, False] * 50


@pytest.fixture(scope="module")
def spark():
    pyspark = pytest.importorskip("pyspark")
    # Spark's Python workers must run the Python that has maskd installed (this one).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (pyspark.sql.SparkSession.builder.master("local[2]").appName("maskd-test")
               .config("spark.ui.enabled", "false").config("spark.sql.shuffle.partitions", "2")
               .config("spark.sql.execution.arrow.pyspark.enabled", "true").getOrCreate())
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def test_spark_format_on_local_2_agrees_with_the_command_line(binary, cli, spark):
    values = phones(3000, seed=9)
    frame = spark.createDataFrame(pandas.DataFrame({"id": range(len(values)), "phone": values})).repartition(4)
    out = maskd.spark.format(frame, "phone", PHONE, "text", binary=binary).toPandas().sort_values("id")
    assert list(out.columns) == ["id", "phone", "phone_text"]
    assert list(out["phone"]) == values
    assert list(out["phone_text"]) == cli(values, json.dumps(PHONE))


def test_spark_check_adds_valid_and_problems(binary, spark):
    frame = spark.createDataFrame(pandas.DataFrame({"card": ["4111111111111111", "4111111111111112"]}))
    rows = maskd.spark.check(frame, "card", CARD, binary=binary).collect()
    assert [r["card_valid"] for r in rows] == [True, False]
    assert rows[0]["card_problems"] == [] and rows[1]["card_problems"]


def test_spark_refuses_an_existing_column(binary, spark):
    frame = spark.createDataFrame(pandas.DataFrame({"card": ["1"], "card_text": ["x"]}))
    with pytest.raises(ValueError, match="already has a column 'card_text'"):
        maskd.spark.format(frame, "card", CARD, binary=binary)

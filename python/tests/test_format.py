import json
import os
import random
import stat

import pandas
import pyarrow
import pytest

import maskd

CARD = {"preset": "card"}
CARD_TEXT = json.dumps(CARD)


def cards(n, seed=7):
    """n card numbers as people write them: grouped, ungrouped, short, with letters."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        digits = "".join(rng.choice("0123456789") for _ in range(rng.choice([12, 15, 16, 19])))
        style = rng.random()
        if style < 0.3:
            out.append(" ".join(digits[i:i + 4] for i in range(0, len(digits), 4)))
        elif style < 0.35:
            out.append("card " + digits)
        else:
            out.append(digits)
    return out


def test_list_matches_the_command_line(binary, cli):
    values = cards(3000)
    assert maskd.format(values, CARD, binary=binary) == cli(values, CARD_TEXT)


def test_output_value_matches_the_command_line(binary, cli):
    values = cards(500, seed=3)
    assert maskd.format(values, CARD, "value", binary=binary) == cli(values, CARD_TEXT, "--output", "value")


def test_bracket_notation_and_exact_text(binary):
    assert maskd.format(["15551234567", "555"], "+1 ([000]) [000]-[0000]", binary=binary) == \
        ["+1 (555) 123-4567", "+1 (555"]


def test_pandas_series_keeps_index_name_and_nulls(binary):
    series = pandas.Series(["4111111111111111", None, float("nan"), "378282246310005"],
                           index=[10, 20, 30, 40], name="card")
    out = maskd.format(series, CARD, binary=binary)
    assert isinstance(out, pandas.Series)
    assert list(out.index) == [10, 20, 30, 40] and out.name == "card"
    assert out[10] == "4111 1111 1111 1111"
    assert out[20] is None and out[30] is None
    assert out[40] == "3782 822463 10005"


def test_numbers_are_read_as_their_digits(binary):
    out = maskd.format(pandas.Series([2015550123, 2015550124.0]), "+1 ([000]) [000]-[0000]", binary=binary)
    assert list(out) == ["+1 (201) 555-0123", "+1 (201) 555-0124"]


def test_pyarrow_array_and_chunked_array(binary):
    array = pyarrow.array(["4111111111111111", None])
    out = maskd.format(array, CARD, binary=binary)
    assert isinstance(out, pyarrow.Array) and out.type == pyarrow.string()
    assert out.to_pylist() == ["4111 1111 1111 1111", None]
    chunked = pyarrow.chunked_array([["4111111111111111"], ["5555555555554444"]])
    assert maskd.format(chunked, CARD, binary=binary).to_pylist() == ["4111 1111 1111 1111", "5555 5555 5555 4444"]


def test_a_value_with_a_line_break_comes_back_unchanged_and_the_rest_stays_in_line(binary):
    values = ["4111111111111111", "41111\n11111111111", "5555555555554444"]
    assert maskd.format(values, CARD, binary=binary) == ["4111 1111 1111 1111", "41111\n11111111111",
                                                         "5555 5555 5555 4444"]
    checked = maskd.check(values, CARD, binary=binary)
    assert checked[1].valid is False and checked[1].problems == ("holds a line break",)


def test_check_gives_valid_flags_and_problems(binary):
    checked = maskd.check(["4111111111111111", "4111111111111112", "4111", None], CARD, binary=binary)
    assert [c.valid for c in checked] == [True, False, False, False]
    assert checked[0] == maskd.Check("4111 1111 1111 1111", "4111111111111111", True, True, ())
    assert checked[1].problems and all(isinstance(p, str) for p in checked[1].problems)
    assert checked[2].complete is False and checked[2].problems
    assert checked[3].problems == ("no value",)


def test_check_over_a_series_is_a_frame(binary):
    frame = maskd.check(pandas.Series(["4111111111111111", "4111"], index=["a", "b"]), CARD, binary=binary)
    assert list(frame.columns) == ["text", "value", "complete", "valid", "problems"]
    assert list(frame.index) == ["a", "b"]
    assert frame.loc["a", "valid"] and not frame.loc["b", "valid"]


def test_check_over_arrow_is_a_struct_array(binary):
    out = maskd.check(pyarrow.array(["4111111111111111"]), CARD, binary=binary)
    assert out.to_pylist()[0]["valid"] is True and out.to_pylist()[0]["problems"] == []


def test_one_process_serves_every_batch(binary, monkeypatch):
    monkeypatch.setattr(maskd, "BATCH", 7)
    maskd.close_kept()
    values = cards(100, seed=11)
    first = maskd.format(values, CARD, binary=binary)
    formatter = maskd._process.kept_formatter(CARD, "text", binary, None, False)
    pid = formatter._process.pid
    assert maskd.format(values, CARD, binary=binary) == first
    assert maskd._process.kept_formatter(CARD, "text", binary, None, False)._process.pid == pid


def test_a_batch_larger_than_the_pipes(binary):
    values = ["4111111111111111"] * 200_000
    out = maskd.format(values, CARD, binary=binary)
    assert len(out) == 200_000 and set(out) == {"4111 1111 1111 1111"}


def test_missing_binary_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("MASKD_BINARY", raising=False)
    with pytest.raises(maskd.MaskdNotFoundError, match="no 'maskd' on PATH"):
        maskd.format(["1"], CARD)
    with pytest.raises(FileNotFoundError, match="is not an executable file"):
        maskd.format(["1"], CARD, binary=str(tmp_path / "nothing"))


def test_maskd_on_path_is_used(binary, tmp_path, monkeypatch):
    link = tmp_path / "maskd"
    link.symlink_to(binary)
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("MASKD_BINARY", raising=False)
    assert maskd.format(["4111111111111111"], CARD) == ["4111 1111 1111 1111"]


def test_a_bad_mask_is_maskds_own_message(binary):
    with pytest.raises(ValueError, match="preset"):
        maskd.format(["1"], {"preset": "no-such-preset"}, binary=binary)
    with pytest.raises(ValueError, match="output"):
        maskd.format(["1"], CARD, "sideways", binary=binary)


def test_a_daemon_that_dies_is_reported(tmp_path):
    fake = tmp_path / "maskd"
    fake.write_text("#!/bin/sh\necho 'maskd: out of luck' >&2\nexit 3\n")
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    with pytest.raises(maskd.MaskdError, match="out of luck"):
        maskd.format(["1", "2"], CARD, binary=str(fake))

#!/usr/bin/env python3
"""maskd-bench's row 10 Python side: one column of US phone numbers formatted by the maskd Python package
(one kept `maskd format` process streaming the column) and, taking turns with it in the same process, by
phonenumbers per value (parse, then format_number INTERNATIONAL), as a pandas or plain-Python user would.

Usage: python_package_column.py MASKD LINES_FILE ROUNDS. Prints one JSON object: the lines per second of each
side per round, and the first value of each side's output.
"""
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python", "src"))

import maskd  # noqa: E402
import phonenumbers  # noqa: E402


def per_value(values):
    parse = phonenumbers.parse
    format_number = phonenumbers.format_number
    international = phonenumbers.PhoneNumberFormat.INTERNATIONAL
    out = []
    for text in values:
        try:
            out.append(format_number(parse(text, "US"), international))
        except phonenumbers.NumberParseException:
            out.append(text)
    return out


def main():
    binary, path, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(path, encoding="utf-8") as lines:
        values = [line.rstrip("\n") for line in lines]
    mask = {"preset": "phone", "region": "US"}
    # One untimed call each: the kept process starts, phonenumbers loads its metadata.
    first_maskd = maskd.format(values[:10], mask, binary=binary, jobs=1)[0]
    first_python = per_value(values[:10])[0]
    rates = {"package": [], "phonenumbers": []}
    for _ in range(rounds):
        start = time.perf_counter()
        out = maskd.format(values, mask, binary=binary, jobs=1)
        rates["package"].append(len(values) / (time.perf_counter() - start))
        assert len(out) == len(values)
        start = time.perf_counter()
        out = per_value(values)
        rates["phonenumbers"].append(len(values) / (time.perf_counter() - start))
    print(json.dumps({"rates": rates, "first": {"package": first_maskd, "phonenumbers": first_python}}))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""maskd-bench's baseline: phonenumbers' AsYouTypeFormatter typing a phone number key by key.

One formatter is made once, as a text field would keep it; each run clears it (untimed) and
types the digits from empty, timed with time.perf_counter_ns. A sample is one run's time
divided by the number of digits: nanoseconds per keystroke, as maskd-bench's engine rows.
Prints one JSON object: {"version", "formatted", "samples": [ns per keystroke, ...]}.
"""
import argparse
import json
import time

import phonenumbers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--region", default="US")
    parser.add_argument("--digits", default="2015550123")
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--warmup", type=int, default=200)
    args = parser.parse_args()

    formatter = phonenumbers.AsYouTypeFormatter(args.region)
    digits = list(args.digits)
    clock = time.perf_counter_ns
    samples = []
    formatted = ""
    for rep in range(args.warmup + args.reps):
        formatter.clear()
        t0 = clock()
        for digit in digits:
            formatted = formatter.input_digit(digit)
        t1 = clock()
        if rep >= args.warmup:
            samples.append((t1 - t0) / len(digits))
    print(json.dumps({"version": phonenumbers.__version__, "formatted": formatted, "samples": samples}))


if __name__ == "__main__":
    main()

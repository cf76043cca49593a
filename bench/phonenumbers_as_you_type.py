#!/usr/bin/env python3
"""maskd-bench's baseline: phonenumbers' AsYouTypeFormatter typing a phone number key by key.

Two ways a text field can use it, each timed with time.perf_counter_ns, in nanoseconds per
keystroke (one sample per typed number: its time divided by the number of digits):
  kept    one formatter per field, made before typing starts (untimed), fed one input_digit
          per keystroke: the formatter's own incremental design;
  remade  per keystroke, a new formatter fed every digit typed so far: a field that formats
          its whole text on every keystroke, as maskd's engine is called (text in, text out).
Prints one JSON object: {"version", "formatted", "kept": [...], "remade": [...]}.
"""
import argparse
import json
import time

import phonenumbers


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--region", default="US")
    parser.add_argument("--digits", default="2015550123")
    parser.add_argument("--reps", type=int, default=2000, help="typed numbers for 'kept'; a fifth as many for 'remade'")
    parser.add_argument("--warmup", type=int, default=200)
    args = parser.parse_args()

    digits = list(args.digits)
    clock = time.perf_counter_ns
    make = phonenumbers.AsYouTypeFormatter

    kept = []
    formatted = ""
    for rep in range(args.warmup + args.reps):
        formatter = make(args.region)
        t0 = clock()
        for digit in digits:
            formatted = formatter.input_digit(digit)
        t1 = clock()
        if rep >= args.warmup:
            kept.append((t1 - t0) / len(digits))

    remade = []
    for rep in range(max(args.warmup // 5, 1) + max(args.reps // 5, 1)):
        t0 = clock()
        for k in range(1, len(digits) + 1):
            formatter = make(args.region)
            for digit in digits[:k]:
                text = formatter.input_digit(digit)
        t1 = clock()
        if rep >= max(args.warmup // 5, 1):
            remade.append((t1 - t0) / len(digits))
        if text != formatted:
            raise SystemExit(f"the two ways disagree: {text!r} and {formatted!r}")

    print(json.dumps({"version": phonenumbers.__version__, "formatted": formatted, "kept": kept, "remade": remade}))


if __name__ == "__main__":
    main()

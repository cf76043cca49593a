#!/usr/bin/env python3
"""maskd-bench's bulk baseline: phonenumbers formatting standard input line by line.

Each line is parsed as a US number (phonenumbers.parse) and written back with
phonenumbers.format_number in the international format; a line that does not parse is
written back as it came. The whole process is timed by maskd-bench, as `maskd format` is.
"""
import sys

import phonenumbers


def main():
    parse = phonenumbers.parse
    format_number = phonenumbers.format_number
    international = phonenumbers.PhoneNumberFormat.INTERNATIONAL
    out = sys.stdout
    for line in sys.stdin:
        text = line.rstrip("\r\n")
        try:
            out.write(format_number(parse(text, "US"), international))
        except phonenumbers.NumberParseException:
            out.write(text)
        out.write("\n")


if __name__ == "__main__":
    main()

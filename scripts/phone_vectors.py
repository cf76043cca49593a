#!/usr/bin/env python3
"""Writes the phone conformance vectors: libphonenumber's example numbers of every type for every
region, typed key by key into phonenumbers' AsYouTypeFormatter, with every step's text.

Each case: region (the number's), type, mode ("national": the national format's digits typed
into a formatter for the region; "international": `+`, the calling code and the national
significant number typed into a formatter for ZZ), keys, steps (the text after each key) and
formatted (format_number NATIONAL or INTERNATIONAL), numberRegion (region_code_for_number) and
numberType (number_type, named as the field's `type`), e164 and rfc3966 (format_number E164 and
RFC3966 of the number). Every case also has the number typed with an extension: extensionKeys (the
keys, a label that `parse` reads as an extension's, its digits), extension (the digits `parse`
reads) and extensionFormatted (format_number NATIONAL or INTERNATIONAL of what `parse` reads,
extension and all, written with the region's own prefix where it has one); the labels turn over
the cases, the region's own prefix among them.
"""
import argparse
import json

import phonenumbers
from phonenumbers import PhoneNumberFormat as F
from phonenumbers.phonemetadata import PhoneMetadata

TYPES = [("fixed", "fixed_line"), ("mobile", "mobile"), ("tollFree", "toll_free"),
         ("premiumRate", "premium_rate"), ("sharedCost", "shared_cost"), ("voip", "voip"),
         ("personalNumber", "personal_number"), ("pager", "pager"), ("uan", "uan"),
         ("voicemail", "voicemail")]


TYPE_NAMES = {0: "fixed", 1: "mobile", 2: "fixedOrMobile", 3: "tollFree", 4: "premiumRate", 5: "sharedCost",
              6: "voip", 7: "personalNumber", 8: "pager", 9: "uan", 10: "voicemail"}


def typed(region, keys):
    formatter = phonenumbers.AsYouTypeFormatter(region)
    return [formatter.input_digit(k) for k in keys]


# Labels `parse` reads as an extension's, as people type them (the region's own prefix is added).
LABELS = [" ext ", "x", " ext. ", "#", ",", " x ", "ext", " extension ", ";", "~", " X"]
DIGITS = ["45", "1234", "7", "20", "987654"]


def with_extension(number_keys, parse_region, metadata, turn):
    labels = LABELS + ([metadata.preferred_extn_prefix] if metadata.preferred_extn_prefix else [])
    label = labels[turn % len(labels)]
    digits = DIGITS[turn % len(DIGITS)]
    keys = number_keys + label + digits
    parsed = phonenumbers.parse(keys, parse_region)
    assert parsed.extension == digits, (keys, parsed)
    return keys, digits, parsed


def cases_for(region, metadata, geographic):
    out = []
    turn = len(region) + metadata.country_code
    for name, attribute in TYPES:
        desc = getattr(metadata, attribute)
        if desc is None or not desc.example_number:
            continue
        number = phonenumbers.parse("+%d%s" % (metadata.country_code, desc.example_number))
        intl_keys = "+%d%s" % (metadata.country_code, phonenumbers.national_significant_number(number))
        # What libphonenumber says of the number: the region it belongs to, and its type.
        facts = {"numberRegion": phonenumbers.region_code_for_number(number),
                 "numberType": TYPE_NAMES.get(phonenumbers.number_type(number))}
        facts["e164"] = phonenumbers.format_number(number, F.E164)
        facts["rfc3966"] = phonenumbers.format_number(number, F.RFC3966)
        turn += 1
        ext_keys, digits, parsed = with_extension(intl_keys, "ZZ", metadata, turn)
        out.append({"region": region, "type": name, "mode": "international", "keys": intl_keys,
                    "steps": typed("ZZ", intl_keys), "formatted": phonenumbers.format_number(number, F.INTERNATIONAL),
                    **facts, "extensionKeys": ext_keys, "extension": digits,
                    "extensionFormatted": phonenumbers.format_number(parsed, F.INTERNATIONAL)})
        if geographic:
            national = phonenumbers.format_number(number, F.NATIONAL)
            keys = phonenumbers.normalize_diallable_chars_only(national)
            if keys and keys.isdigit():
                turn += 1
                ext_keys, digits, parsed = with_extension(keys, region, metadata, turn)
                out.append({"region": region, "type": name, "mode": "national", "keys": keys,
                            "steps": typed(region, keys), "formatted": national, **facts,
                            "extensionKeys": ext_keys, "extension": digits,
                            "extensionFormatted": phonenumbers.format_number(parsed, F.NATIONAL)})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    cases = []
    for region in sorted(phonenumbers.SUPPORTED_REGIONS):
        cases += cases_for(region, PhoneMetadata.metadata_for_region(region), True)
    for code in sorted(phonenumbers.COUNTRY_CODES_FOR_NON_GEO_REGIONS):
        cases += cases_for("001", PhoneMetadata.metadata_for_nongeo_region(code), False)
    document = {"description": "libphonenumber's example numbers typed key by key (scripts/phone-metadata --vectors)",
                "phonenumbers": phonenumbers.__version__, "cases": cases}
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("{\"description\": %s,\n \"phonenumbers\": %s,\n \"cases\": [\n" % (
            json.dumps(document["description"]), json.dumps(document["phonenumbers"])))
        out.write(",\n".join(json.dumps(case, ensure_ascii=False) for case in cases))
        out.write("\n]}\n")


if __name__ == "__main__":
    main()

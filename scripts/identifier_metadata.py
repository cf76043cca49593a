"""Generates the identifier catalogue from python-stdnum, taking facts only.

For every format of FORMATS below it reads stdnum's module (name, docstring, compact, format,
is_valid), finds valid numbers (the docstring's examples, then numbers made from them by changing
characters and searching the check characters that stdnum accepts), derives the display layout of
each length from stdnum's format(), and VERIFIES the facts written here (per-position alphabet,
check-algorithm family and parameters) against stdnum's is_valid on valid and invalid numbers.
Any disagreement stops the script with the module and the number.

Writes Sources/MaskCatalog/Identifiers/IdentifierData.swift and, with --vectors, the conformance
vectors. stdnum is LGPL: this script reads its behaviour and data; no code of it is copied.
"""
import argparse
import ast
import datetime
import importlib
import inspect
import json
import os
import random
import re
import string
import sys
import types

import stdnum
from stdnum import numdb

DIGITS = string.digits
UPPER = string.ascii_uppercase
ALNUM = DIGITS + UPPER

# ---------------------------------------------------------------------------------------------
# Check families (our own implementations; the Swift ones in CheckDigits.swift mirror them).
# A check is a tuple: (family, parameters...). `value` is the compact number.


def char_value(c, values):
    if values == 'dec':
        return int(c)
    if values == 'ord48':
        return ord(c) - 48
    if values == 'alnum36':
        return ALNUM.index(c)
    raise ValueError(values)


def weighted_sum(number, start, weights, values, fold=False):
    total = 0
    for w, c in zip(weights, number[start:start + len(weights)]):
        p = w * char_value(c, values)
        if fold:
            p = sum(int(d) for d in str(p))
        total += p
    return total


def luhn_ok(digits, alphabet=DIGITS):
    n = len(alphabet)
    total = 0
    for i, c in enumerate(reversed(digits)):
        v = alphabet.index(c)
        if i % 2:
            v *= 2
            v = v // n + v % n
        total += v
    return total % n == 0


VERHOEFF_D = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
              [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
              [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
              [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]]
VERHOEFF_P = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
              [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
              [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]]


def verhoeff_ok(digits):
    c = 0
    for i, d in enumerate(reversed(digits)):
        c = VERHOEFF_D[c][VERHOEFF_P[i % 8][int(d)]]
    return c == 0


def mod97_ok(text):
    # ISO 7064 mod 97-10: letters count A=10..Z=35.
    return int(''.join(str(ALNUM.index(c)) for c in text)) % 97 == 1


def mod11_10_ok(digits):
    check = 5
    for d in digits:
        check = (((check or 10) * 2) % 11 + int(d)) % 10
    return check == 1


def mod11_2_ok(text):
    check = 0
    for c in text:
        check = (2 * check + (10 if c == 'X' else int(c))) % 11
    return check == 1


def mod37_2_ok(text, alphabet='0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*'):
    check = 0
    for c in text:
        check = (2 * check + alphabet.index(c)) % 37
    return check == 1


def mod37_36_ok(text, alphabet=ALNUM):
    modulus = len(alphabet)
    check = modulus // 2
    for c in text:
        check = (((check or modulus) * 2) % (modulus + 1) + alphabet.index(c)) % modulus
    return check == 1


def span(number, s):
    a, b = s
    return number[a:len(number) if b is None else b]


def run_check(check, number):
    """True when `number` passes `check`."""
    family = check[0]
    p = check[1]
    if family == 'weighted':
        # Weighted sum mod m of the characters from `start`; the check character at `at` is table[sum % m].
        # An `at` of None: the table's entry for sum % m must be '0' (the sum includes the check character).
        s = weighted_sum(number, p.get('start', 0), p['weights'], p.get('values', 'dec'), p.get('fold', False))
        s += p.get('add', 0)
        expected = p['table'][s % p['mod']]
        if p.get('at') is None:
            return expected == '0'
        return expected != '?' and number[p['at']] == expected
    if family == 'luhn':
        return luhn_ok(span(number, p.get('span', (0, None))), p.get('alphabet', DIGITS))
    if family == 'verhoeff':
        return verhoeff_ok(span(number, p.get('span', (0, None))))
    if family == 'mod97':
        return mod97_ok(span(number, p.get('span', (0, None))))
    if family == 'mod11_10':
        return mod11_10_ok(span(number, p.get('span', (0, None))))
    if family == 'mod11_2':
        return mod11_2_ok(span(number, p.get('span', (0, None))))
    if family == 'mod37_2':
        return mod37_2_ok(span(number, p.get('span', (0, None))))
    if family == 'mod37_36':
        return mod37_36_ok(span(number, p.get('span', (0, None))))
    if family == 'remainder':
        # int(part) % mod indexes `table`; the character at `at` must be that entry.
        v = int(span(number, p['span'])) % p['mod']
        return number[p['at']] == p['table'][v]
    if family == 'in':
        return span(number, p['span']) in p['values']
    if family == 'notIn':
        return span(number, p['span']) not in p['values']
    if family == 'range':
        part = span(number, p['span'])
        return p['low'] <= part <= p['high']
    if family == 'notAllSame':
        part = span(number, p.get('span', (0, None)))
        return len(set(part)) > 1
    if family == 'notZero':
        return int(span(number, p.get('span', (0, None)))) != 0
    if family == 'named':
        return NAMED[p['name']](number)
    if family == 'prefixed':
        # The number is another preset's, chosen by its prefix: with the prefix cut off, or whole. A prefix that no
        # part has passes (another check tells which prefixes there are).
        parts = [(prefix, preset, whole) for prefix, preset, whole in p['parts'] if number.startswith(prefix)]
        return not parts or any(model_valid(preset, number if whole else number[len(prefix):])
                                for prefix, preset, whole in parts)
    raise ValueError(family)


# Rules too particular for a family: each has a Swift twin of the same name in IdentifierRules.swift.
def rule_de_idnr(number):
    counts = [number[:10].count(d) for d in set(number[:10])]
    repeated = [c for c in counts if c > 1]
    return len(repeated) == 1 and repeated[0] in (2, 3)


def rule_pl_pesel_date(number):
    import datetime
    month = int(number[2:4])
    if month // 20 > 4:
        return False
    year = int(number[0:2]) + {0: 1900, 1: 2000, 2: 2100, 3: 2200, 4: 1800}[month // 20]
    try:
        datetime.date(year, month % 20, int(number[4:6]))
        return True
    except ValueError:
        return False


def rule_es_cif(number):
    # The check is either the digit or the letter for the Luhn check digit of the seven digits.
    digits = number[1:8]
    for check in DIGITS:
        if luhn_ok(digits + check):
            return number[8] in (check + 'JABCDEFGHI'[int(check)])
    return False


def rule_es_nie(number):
    return number[8] == 'TRWAGMYFPDXBNJZSQVHLCKE'[int(str('XYZ'.index(number[0])) + number[1:8]) % 23]


NAMED = {
    'de.idnr.digits': rule_de_idnr,
    'pl.pesel.date': rule_pl_pesel_date,
    'es.cif.check': rule_es_cif,
    'es.nie.check': rule_es_nie,
}

# ---------------------------------------------------------------------------------------------
# The facts, format by format. `alphabet`: per length, one entry per position: 'd' digit, 'L' letter
# A-Z, 'c' letter or digit, or a string of the characters allowed there ('XYZ'). `checks`: every one
# must pass. `label` words the problem of a component check.

C10 = '0' + '0987654321'[:10]  # (11 - s) % 11 % 10 for s % 11 = 0..10


def complement(mod, ten='?', mod10=False):
    """table[r] = (mod - r) % mod, as a character; 10 becomes `ten` (or 0 when mod10)."""
    out = ''
    for r in range(mod):
        v = (mod - r) % mod
        if v >= 10:
            out += str(v % 10) if mod10 else ten
        else:
            out += str(v)
    return out


def remainder(mod, ten='?', mod10=False):
    out = ''
    for r in range(mod):
        if r >= 10:
            out += str(r % 10) if mod10 else ten
        else:
            out += str(r)
    return out


def zero_when(mod):
    return '0' + '1' * (mod - 1)


def W(**p):
    return ('weighted', p)


def fam(family, **p):
    return (family, p)


def digits(n):
    return 'd' * n


FORMATS = {
    'br.cpf': dict(alphabet={11: digits(11)}, checks=[
        fam('notZero'),
        W(at=9, weights=[10, 9, 8, 7, 6, 5, 4, 3, 2], mod=11, table=complement(11, mod10=True)),
        W(at=10, weights=[11, 10, 9, 8, 7, 6, 5, 4, 3, 2], mod=11, table=complement(11, mod10=True))]),
    'br.cnpj': dict(alphabet={14: 'c' * 12 + 'dd'}, checks=[
        fam('notIn', span=(0, 12), values=['000000000000'], label='company number'),
        W(at=12, weights=[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], mod=11, values='ord48', table=complement(11, mod10=True)),
        W(at=13, weights=[6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], mod=11, values='ord48',
          table=complement(11, mod10=True))]),
    'us.ssn': dict(alphabet={9: digits(9)}, checks=[
        fam('notIn', span=(0, 3), values=['000', '666'], label='area number'),
        fam('notIn', span=(0, 1), values=['9'], label='area number'),
        fam('notIn', span=(3, 5), values=['00'], label='group number'),
        fam('notIn', span=(5, 9), values=['0000'], label='serial number'),
        fam('notIn', span=(0, 9), values=['078051120', '457555462', '219099999'], label='number')]),
    'us.itin': dict(alphabet={9: '9' + digits(8)}, checks=[
        fam('in', span=(3, 5), values=[str(x) for x in range(70, 100) if x not in (89, 93)], label='group number')]),
    'us.ein': dict(alphabet={9: digits(9)}, checks='ein'),
    'de.idnr': dict(alphabet={11: '123456789' + digits(10)}, checks=[
        fam('named', name='de.idnr.digits', problem='one digit must appear two or three times in the first ten'),
        fam('mod11_10')]),
    'de.vat': dict(alphabet={9: '123456789' + digits(8)}, checks=[fam('mod11_10')]),
    'fr.siren': dict(alphabet={9: digits(9)}, checks=[fam('luhn')]),
    'es.dni': dict(alphabet={9: ['d'] * 8 + ['TRWAGMYFPDXBNJZSQVHLCKE']}, checks=[
        fam('remainder', span=(0, 8), mod=23, at=8, table='TRWAGMYFPDXBNJZSQVHLCKE')]),
    'es.nie': dict(alphabet={9: ['XYZ'] + ['d'] * 7 + ['TRWAGMYFPDXBNJZSQVHLCKE']}, checks=[
        fam('named', name='es.nie.check', problem='check letter does not match')]),
    'es.cif': dict(alphabet={9: 'ABCDEFGHJNPQRSUVW' + digits(7) + 'c'}, checks=[
        fam('named', name='es.cif.check', problem='check character does not match')]),
    'in.aadhaar': dict(alphabet={12: '23456789' + digits(11)}, checks=[
        fam('named', name='notPalindrome', problem='a palindrome is not an Aadhaar number'),
        fam('verhoeff')]),
    'in.pan': dict(alphabet={10: ['L', 'L', 'L', 'ABCFGHJKLPT', 'L'] + ['d'] * 4 + ['L']}, checks=[
        fam('notIn', span=(5, 9), values=['0000'], label='serial number')]),
    'gb.nhs': dict(alphabet={10: digits(10)}, checks=[
        W(weights=[10, 9, 8, 7, 6, 5, 4, 3, 2, 1], mod=11, table=zero_when(11))]),
    'nl.bsn': dict(alphabet={9: digits(9)}, checks=[
        fam('notZero'),
        W(weights=[9, 8, 7, 6, 5, 4, 3, 2, -1], mod=11, table=zero_when(11))]),
    'pl.pesel': dict(alphabet={11: digits(11)}, checks=[
        W(at=10, weights=[1, 3, 7, 9, 1, 3, 7, 9, 1, 3], mod=10, table=complement(10)),
        fam('named', name='pl.pesel.date', problem='not a valid birth date')]),
    'pl.nip': dict(alphabet={10: digits(10)}, checks=[
        W(weights=[6, 5, 7, 2, 3, 4, 5, 6, 7, -1], mod=11, table=zero_when(11))]),
    'pt.nif': dict(alphabet={9: '123456789' + digits(8)}, checks=[
        W(at=8, weights=[9, 8, 7, 6, 5, 4, 3, 2], mod=11, table=complement(11, mod10=True))]),
    'ch.ssn': dict(alphabet={13: ['7', '5', '6'] + ['d'] * 10}, checks=[
        W(at=12, weights=[1, 3] * 6, mod=10, table=complement(10))]),
    'ch.uid': dict(alphabet={12: ['C', 'H', 'E'] + ['d'] * 9}, checks=[
        W(at=11, start=3, weights=[5, 4, 3, 2, 7, 6, 5, 4], mod=11, table=complement(11))]),
    'at.uid': dict(alphabet={9: 'U' + digits(8)}, checks=[
        W(at=8, start=1, weights=[1, 2, 1, 2, 1, 2, 1], mod=10, fold=True, add=4, table=complement(10))]),
    'ca.sin': dict(alphabet={9: '1234567' + '9' + digits(8)}, checks=[fam('luhn')]),
    'au.abn': dict(alphabet={11: digits(11)}, checks=[
        W(weights=[10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19], add=-10, mod=89, table=zero_when(89))]),
    'au.tfn': dict(alphabet={8: digits(8), 9: digits(9)}, checks=[
        fam('named', name='au.tfn.check', problem='check digit does not match')]),
    'gb.utr': dict(alphabet={10: digits(10)}, checks=[
        W(at=0, start=1, weights=[6, 7, 8, 9, 10, 5, 4, 3, 2], mod=11, table='21987654321')]),
    'issn': dict(alphabet={8: ['d'] * 7 + [DIGITS + 'X']}, checks=[
        W(at=7, weights=[8, 7, 6, 5, 4, 3, 2], mod=11, table=complement(11, ten='X'))]),
    'imei': dict(alphabet={14: digits(14), 15: digits(15), 16: digits(16)}, checks=[
        fam('named', name='imei.check', problem='check digit does not match')]),
    'lei': dict(alphabet={20: 'c' * 20}, checks=[fam('mod97')]),
    'ean': dict(alphabet={8: digits(8), 12: digits(12), 13: digits(13), 14: digits(14)}, checks=[
        fam('named', name='ean.check', problem='check digit does not match')]),
}

# Per-position alphabets of one-character sets that name a family of characters.
ALPHABET_CLASSES = {'d': DIGITS, 'L': UPPER, 'c': ALNUM}


def rule_not_palindrome(number):
    return number != number[::-1]


def ean_ok(number):
    return number[-1] == str((10 - sum((3, 1)[i % 2] * int(n) for i, n in enumerate(reversed(number[:-1])))) % 10)


def rule_tfn(number):
    weights = [1, 4, 3, 7, 5, 8, 6, 9, 10] if len(number) == 9 else [1, 4, 3, 7, 5, 8, 6, 9]
    return sum(w * int(n) for w, n in zip(weights, number)) % 11 == 0


NAMED.update({
    'notPalindrome': rule_not_palindrome,
    'ean.check': ean_ok,
    'au.tfn.check': rule_tfn,
    'imei.check': lambda n: len(n) != 15 or luhn_ok(n),
})

CHECK_POSITIONS = {}
PREPARE = {}


# ---------------------------------------------------------------------------------------------
# More formats. Their rules beyond the families, each with a Swift twin of the same name.

DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'
CIF_FIRST = 'ABCDEFGHJNPQRSUVW'
FR_TVA_ALPHABET = '0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'


class _Later(datetime.date):
    """A clock for stdnum's modules that reject birth dates after today: validity never depends on today's
    date, so stdnum is asked as on the last day of 2099, when every date these numbers can spell has passed."""

    @classmethod
    def today(cls):
        return datetime.date(2099, 12, 31)


def fix_clock(module_name):
    """Makes the stdnum module `module_name` read today's date as the last day of 2099 (see `_Later`)."""
    module = importlib.import_module('stdnum.' + module_name)
    module.datetime = types.SimpleNamespace(date=_Later)


def is_date(year, month, day):
    try:
        datetime.date(year, month, day)
        return True
    except ValueError:
        return False


def rule_fr_nir(number):
    department = number[5:7]
    if not department.isdigit() and department not in ('2A', '2B'):
        return False
    body = number[:5] + {'2A': '19', '2B': '18'}.get(department, department) + number[7:13]
    return int(number[13:]) == 97 - int(body) % 97


def rule_fr_siret(number):
    if number.startswith('356000000') and number != '35600000000048':
        return sum(int(c) for c in number) % 5 == 0
    return luhn_ok(number)


def rule_fr_tva(number):
    if number[2:5] != '000' and not luhn_ok(number[2:]):
        return False
    a, b = FR_TVA_ALPHABET.index(number[0]), FR_TVA_ALPHABET.index(number[1])
    if number[:2].isdigit():
        return int(number[:2]) == int(number[2:] + '12') % 97
    check = a * 24 + b - 10 if number[0].isdigit() else a * 34 + b - 100
    return (int(number[2:]) + 1 + check // 11) % 11 == check % 11


def rule_es_nif(number):
    first = number[0]
    if first in 'KLM' or first.isdigit():
        body = number[1:8] if first in 'KLM' else number[:8]
        return number[8] == DNI_LETTERS[int(body) % 23]
    if first in 'XYZ':
        return rule_es_nie(number)
    return first in CIF_FIRST and rule_es_cif(number)


def rule_it_iva_province(number):
    p = number[7:10]
    return '001' <= p <= '100' or p in ('120', '121', '888', '999')


CF_DATE = '0123456789LMNPQRSTUV'
CF_MONTHS = 'ABCDEHLMPRST'
CF_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23]


def cf_value(c, odd):
    i = int(c) if c.isdigit() else UPPER.index(c)
    return CF_ODD[i] if odd else i


def rule_it_codicefiscale(number):
    if len(number) == 11:
        return int(number[:7]) != 0 and rule_it_iva_province(number) and luhn_ok(number)
    code = sum(cf_value(c, i % 2 == 0) for i, c in enumerate(number[:15]))
    if number[15] != UPPER[code % 26]:
        return False
    year = (CF_DATE.index(number[6]) % 10) * 10 + CF_DATE.index(number[7]) % 10
    year += 1900 if year >= 20 else 2000
    day = ((CF_DATE.index(number[9]) % 10) * 10 + CF_DATE.index(number[10]) % 10) % 40
    return is_date(year, CF_MONTHS.index(number[8]) + 1, day)


def rule_luhn36(number):
    return luhn_ok(number, ALNUM)


def rule_gb_vat(number):
    if len(number) == 5:
        n = int(number[2:])
        return (number[:2] == 'GD' and n < 500) or (number[:2] == 'HA' and n >= 500)
    if len(number) == 11:
        n = int(number[6:9])
        if not ((number[:2] == 'GD' and n < 500) or (number[:2] == 'HA' and n >= 500)):
            return False
        return n % 97 == int(number[9:11])
    s = sum(w * int(c) for w, c in zip((8, 7, 6, 5, 4, 3, 2, 10, 1), number)) % 97
    return s in (0, 42, 55) if int(number[:3]) >= 100 else s == 0


def rule_be_vat(number):
    return int(number) > 0 and (int(number[:-2]) + int(number[-2:])) % 97 == 0


HETU_CHECK = '0123456789ABCDEFHJKLMNPRSTUVWXY'


def rule_fi_hetu(number):
    century = 1800 if number[6] == '+' else 1900 if number[6] in '-YXWVU' else 2000
    if not is_date(century + int(number[4:6]), int(number[2:4]), int(number[0:2])):
        return False
    if not 2 <= int(number[7:10]) <= 899:
        return False
    return number[10] == HETU_CHECK[int(number[:6] + number[7:10]) % 31]


def rule_cl_rut(number):
    s = sum(int(c) * (4 + (5 - i) % 6) for i, c in enumerate(reversed(number[:-1])))
    return number[-1] == '0123456789K'[s % 11]


def rule_co_nit(number):
    weights = (3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71)
    s = sum(w * int(c) for w, c in zip(weights, reversed(number[:-1]))) % 11
    return number[-1] == '01987654321'[s]


def rule_za_idnr_date(number):
    # Two-digit years: 2000 and 1900 differ only in 00, which stdnum reads as 2000 (a leap year) from 2000 on.
    return is_date(2000 + int(number[0:2]), int(number[2:4]), int(number[4:6]))


def rule_kr_rrn_date(number):
    century = 1900 if number[6] in '1256' else 2000 if number[6] in '3478' else 1800
    return is_date(century + int(number[0:2]), int(number[2:4]), int(number[4:6]))


def rule_cn_ric_date(number):
    return int(number[6:10]) > 0 and is_date(int(number[6:10]), int(number[10:12]), int(number[12:14]))


CN_COUNTIES = {}


def rule_cn_ric_place(number):
    ranges = CN_COUNTIES.get(number[:6])
    if ranges is None:
        return False
    year = int(number[6:10])
    return any((lo is None or year >= lo) and (hi is None or year <= hi) for lo, hi in ranges)


def load_cn_counties():
    """Every county code of stdnum's cn/loc table with the years it was assigned (None: open), read through
    numdb's own lookup so entries of one code merge as stdnum merges them."""
    db = numdb.get('cn/loc')
    codes = set()
    for length, low, high, _, children in db.prefixes:
        for p in range(int(low), int(high) + 1):
            for clength, clow, chigh, _, _ in children:
                for c in range(int(clow), int(chigh) + 1):
                    codes.add('%0*d%0*d' % (length, p, clength, c))
    for code in sorted(codes):
        info = {k: v for _, props in db.info(code) for k, v in props.items()}
        if 'county' not in info:
            continue
        ranges = []
        for name in info['county'].split(','):
            m = re.match(r'\[(\d*)-(\d*)\]', name)
            if m:
                ranges.append((int(m.group(1)) if m.group(1) else None, int(m.group(2)) if m.group(2) else None))
            else:
                ranges.append((None, None))
        CN_COUNTIES[code] = ranges


NAMED.update({
    'fr.nir.check': rule_fr_nir,
    'fr.siret.check': rule_fr_siret,
    'fr.tva.check': rule_fr_tva,
    'es.nif.check': rule_es_nif,
    'it.iva.province': rule_it_iva_province,
    'it.codicefiscale.check': rule_it_codicefiscale,
    'luhn36': rule_luhn36,
    'gb.vat.check': rule_gb_vat,
    'be.vat.check': rule_be_vat,
    'fi.hetu.check': rule_fi_hetu,
    'cl.rut.check': rule_cl_rut,
    'co.nit.check': rule_co_nit,
    'za.idnr.date': rule_za_idnr_date,
    'kr.rrn.date': rule_kr_rrn_date,
    'cn.ric.date': rule_cn_ric_date,
    'cn.ric.place': rule_cn_ric_place,
})

CF_D = '0123456789LMNPQRSTUV'
NIF_LAST = ''.join(sorted(set(DNI_LETTERS + DIGITS + 'JABCDEFGHI')))

FORMATS.update({
    'cn.ric': dict(alphabet={18: ['d'] * 17 + [DIGITS + 'X']}, checks=[
        fam('mod11_2'),
        fam('named', name='cn.ric.date', problem='not a valid birth date'),
        fam('named', name='cn.ric.place', problem='no county had this code in the year of birth')]),
    'fr.nir': dict(alphabet={15: ['d'] * 5 + ['d', DIGITS + 'AB'] + ['d'] * 8}, checks=[
        fam('named', name='fr.nir.check', problem='check digits do not match')]),
    'fr.siret': dict(alphabet={14: digits(14)}, checks=[
        fam('luhn', span=(0, 9)),
        fam('named', name='fr.siret.check', problem='check digit does not match')]),
    'fr.tva': dict(alphabet={11: [FR_TVA_ALPHABET] * 2 + ['d'] * 9}, checks=[
        fam('named', name='fr.tva.check', problem='check digits do not match')]),
    'es.nif': dict(alphabet={9: [DIGITS + 'KLMXYZ' + CIF_FIRST] + ['d'] * 7 + [NIF_LAST]}, checks=[
        fam('named', name='es.nif.check', problem='check character does not match')]),
    'it.iva': dict(alphabet={11: digits(11)}, checks=[
        fam('notZero', span=(0, 7)),
        fam('named', name='it.iva.province', problem='not a province code'),
        fam('luhn')]),
    'it.codicefiscale': dict(alphabet={11: digits(11), 16: ['L'] * 6 + [CF_D] * 2 + [CF_MONTHS] + [CF_D] * 2 + ['L'] + [CF_D] * 3 + ['L']}, checks=[
        fam('named', name='it.codicefiscale.check', problem='check character or birth date does not match')]),
    'in.gstin': dict(alphabet={15: ['d', 'd', 'L', 'L', 'L', 'ABCFGHJKLPT', 'L'] + ['d'] * 4 + ['L', DIGITS[1:] + UPPER, 'Z', 'c']}, checks=[
        fam('in', span=(0, 2), values=['%02d' % n for n in range(1, 38)], label='state code'),
        fam('notIn', span=(7, 11), values=['0000'], label='serial number'),
        fam('named', name='luhn36', problem='check character does not match')]),
    'gb.vat': dict(alphabet={5: ['GH', 'DA', 'd', 'd', 'd'], 9: digits(9), 11: ['GH', 'DA', '8', '8', '8', '8'] + ['d'] * 5,
                             12: digits(12)}, checks=[
        fam('named', name='gb.vat.check', problem='check digits do not match')]),
    'be.vat': dict(alphabet={10: ['01'] + ['d'] * 9}, checks=[
        fam('named', name='be.vat.check', problem='check digits do not match')]),
    'fi.hetu': dict(alphabet={11: ['0123', 'd', '01', 'd', 'd', 'd', '-+ABCDEFYXWVU', 'd', 'd', 'd', HETU_CHECK]}, checks=[
        fam('named', name='fi.hetu.check', problem='birth date, individual number or check character does not match')]),
    'ca.bn': dict(alphabet={9: digits(9), 15: ['d'] * 9 + ['R', 'CMPT'] + ['d'] * 4}, checks=[fam('luhn', span=(0, 9))]),
    'ar.cuit': dict(alphabet={11: ['2345'] + ['d'] * 10}, checks=[
        fam('in', span=(0, 2), values=['20', '23', '24', '27', '30', '33', '34', '50', '51', '55'], label='type'),
        W(at=10, weights=[5, 4, 3, 2, 7, 6, 5, 4, 3, 2], mod=11, table=''.join('012345678990'[11 - r] for r in range(11)))]),
    'cl.rut': dict(alphabet={8: ['d'] * 7 + [DIGITS + 'K'], 9: ['d'] * 8 + [DIGITS + 'K']}, checks=[
        fam('named', name='cl.rut.check', problem='check digit does not match')]),
    'co.nit': dict(alphabet={n: digits(n) for n in range(8, 17)}, checks=[
        fam('named', name='co.nit.check', problem='check digit does not match')]),
    'za.idnr': dict(alphabet={13: ['d'] * 10 + ['01', 'd', 'd']}, checks=[
        fam('named', name='za.idnr.date', problem='not a valid birth date'),
        fam('luhn')]),
    'kr.rrn': dict(alphabet={13: digits(13)}, checks=[
        fam('named', name='kr.rrn.date', problem='not a valid birth date'),
        fam('notIn', span=(7, 9), values=['97', '98', '99'], label='place of birth'),
        W(at=12, weights=[2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5], mod=11, table=''.join(str((11 - r) % 10) for r in range(11)))]),
    'jp.cn': dict(alphabet={13: digits(13)}, checks=[
        W(at=0, start=1, weights=[2, 1] * 6, mod=9, table='987654321')]),
})

CHECK_POSITIONS.update({
    'fr.nir': lambda n: [n - 2, n - 1], 'fr.siret': lambda n: [8, n - 1], 'fr.tva': lambda n: [0, 1],
    'be.vat': lambda n: [n - 2, n - 1], 'jp.cn': lambda n: [0], 'gb.vat': lambda n: [n - 2, n - 1] if n in (9, 11) else [n - 1],
    'it.codicefiscale': lambda n: [n - 1],
})
# Made valid in a part before the search of the check characters (the SIREN inside a TVA).
PREPARE.update({
    'fr.tva': lambda chars: chars if not ''.join(chars[2:10]).isdigit() else
    chars[:10] + [next(d for d in DIGITS if luhn_ok(''.join(chars[2:10]) + d))],
})


def rule_nl_btw(number):
    bsn = sum(w * int(c) for w, c in zip((9, 8, 7, 6, 5, 4, 3, 2, -1), number[:9])) % 11 == 0
    return bsn or mod97_ok('NL' + number)


def rule_isin(number):
    return luhn_ok(''.join(str(ALNUM.index(c)) for c in number))


def rule_iso6346(number):
    alphabet = '0123456789A BCDEFGHIJK LMNOPQRSTU VWXYZ'
    return number[10] == str(sum(alphabet.index(c) * 2 ** i for i, c in enumerate(number[:10])) % 11 % 10)


def rule_isbn(number):
    if len(number) == 10:
        check = sum((i + 1) * int(c) for i, c in enumerate(number[:9])) % 11
        return number[9] == ('X' if check == 10 else str(check))
    return ean_ok(number)


def rule_ismn(number):
    return ean_ok('9790' + number[1:] if len(number) == 10 else number)


CURP_ALPHABET = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ'


def rule_mx_curp_date(number):
    return is_date((1900 if number[16].isdigit() else 2000) + int(number[4:6]), int(number[6:8]), int(number[8:10]))


def rule_mx_curp_check(number):
    check = sum(CURP_ALPHABET.index(c) * (18 - i) for i, c in enumerate(number[:17]))
    return number[17] == str((10 - check % 10) % 10)


NAMED.update({
    'nl.btw.check': rule_nl_btw,
    'isin.check': rule_isin,
    'iso6346.check': rule_iso6346,
    'isbn.check': rule_isbn,
    'ismn.check': rule_ismn,
    'mx.curp.date': rule_mx_curp_date,
    'mx.curp.check': rule_mx_curp_check,
})


def module_set(module_name, attribute):
    """A table of codes a stdnum module holds (country codes, state codes), sorted."""
    return sorted(getattr(importlib.import_module('stdnum.' + module_name), attribute))


FORMATS.update({
    'nl.btw': dict(alphabet={12: ['d'] * 9 + ['B', 'd', 'd']}, checks=[
        fam('notZero', span=(0, 9)), fam('notZero', span=(10, 12)),
        fam('named', name='nl.btw.check', problem='check digit does not match')]),
    'isin': dict(alphabet={12: ['L', 'L'] + ['c'] * 9 + ['d']}, checks=[
        fam('in', span=(0, 2), values=module_set('isin', '_country_codes'), label='country code'),
        fam('named', name='isin.check', problem='check digit does not match')]),
    'bic': dict(alphabet={8: ['L'] * 6 + ['c'] * 2, 11: ['L'] * 6 + ['c'] * 5}, checks=[
        fam('in', span=(4, 6), values=module_set('bic', '_country_codes'), label='country code')]),
    'iso6346': dict(alphabet={11: ['c'] * 3 + ['UJZR'] + ['d'] * 7}, checks=[
        fam('named', name='iso6346.check', problem='check digit does not match')]),
    'grid': dict(alphabet={18: 'c' * 18}, checks=[fam('mod37_36')]),
    'isbn': dict(alphabet={10: ['d'] * 9 + [DIGITS + 'X'], 13: ['9', '7', '89'] + ['d'] * 10}, display='compact', checks=[
        fam('named', name='isbn.check', problem='check digit does not match')]),
    'ismn': dict(alphabet={10: ['M'] + ['d'] * 9, 13: ['9', '7', '9', '0'] + ['d'] * 9}, display='compact', checks=[
        fam('named', name='ismn.check', problem='check digit does not match')]),
    'mx.curp': dict(alphabet={18: ['L'] * 4 + ['d'] * 6 + ['HM'] + ['L'] * 5 + ['c', 'd']}, checks=[
        fam('notIn', span=(0, 4), values=module_set('mx.curp', '_name_blacklist'), label='name code'),
        fam('named', name='mx.curp.date', problem='not a valid birth date'),
        fam('in', span=(11, 13), values=module_set('mx.curp', '_valid_states'), label='state code'),
        fam('named', name='mx.curp.check', problem='check digit does not match')]),
})
CHECK_POSITIONS.update({'isbn': lambda n: [n - 1], 'grid': lambda n: [n - 1]})

# The facts modules, in order: each reads the helpers above (and `layouts` the formats before it, which it composes),
# then adds its formats, its named rules, and where it has them, its check positions and preparations.
import identifier_formats_world as world  # noqa: E402
import identifier_formats_europe_a as europe_a  # noqa: E402
import identifier_formats_europe_b as europe_b  # noqa: E402
import identifier_formats_tables as tables  # noqa: E402
import identifier_formats_layouts as layout_formats  # noqa: E402
import identifier_formats_register as register  # noqa: E402
import identifier_formats_gs1 as gs1  # noqa: E402
for facts in (world, europe_a, europe_b, tables, layout_formats, register, gs1):
    if hasattr(facts, 'define'):
        facts.define(sys.modules[__name__])
    FORMATS.update(facts.FORMATS)
    NAMED.update(facts.RULES)
    CHECK_POSITIONS.update(getattr(facts, 'CHECK_POSITIONS', {}))
    PREPARE.update(getattr(facts, 'PREPARE', {}))


def positions(alphabet):
    """The allowed characters of each position of an alphabet string."""
    out = []
    i = 0
    while i < len(alphabet):
        c = alphabet[i]
        out.append(ALPHABET_CLASSES.get(c, c))
        i += 1
    return out


def expand_alphabet(entry):
    # Entries are written position by position; a run of explicit characters ('XYZ') is one position.
    # A string like '9' + digits(8) means a '9' position: explicit characters are written as one
    # position only when they are not class letters, so parse greedily by known lengths instead.
    return entry


# Alphabets in FORMATS mix class letters and explicit sets; written as a list they are unambiguous.
def alphabet_positions(module, length):
    spec = FORMATS[module]['alphabet'][length]
    return parse_alphabet(spec, length, module)


def parse_alphabet(spec, length, module):
    """Reads an alphabet string: class letters d, L, c are one position each; a maximal run of other
    characters is one position (its set of characters), so '123456789' + 'dddd' is 5 positions."""
    out = []
    i = 0
    if isinstance(spec, list):
        out = [ALPHABET_CLASSES.get(p, p) for p in spec]
        spec = ''
    while i < len(spec):
        c = spec[i]
        if c in ALPHABET_CLASSES:
            out.append(ALPHABET_CLASSES[c])
            i += 1
        else:
            j = i
            while j < len(spec) and spec[j] not in ALPHABET_CLASSES:
                j += 1
            out.append(spec[i:j])
            i = j
    if len(out) != length:
        sys.exit(f'{module}: alphabet for length {length} has {len(out)} positions')
    return out


# ---------------------------------------------------------------------------------------------
# Reading stdnum


def preset_name(module_name):
    return '.'.join(part.rstrip('_') for part in module_name.split('.')[1:])


def docstring_examples(module):
    doc = module.__doc__ or ''
    found = []
    for m in re.finditer(r">>> (?:validate|format|compact|is_valid)\('([^']*)'", doc):
        found.append(m.group(1))
    return found


def stdnum_valid(module, number):
    """stdnum's is_valid of a compact form; an exception other than its validation errors (cn.ric's lookup of a
    province code with no county raises KeyError, gh.tin's int() of a letter ValueError, meid's compact() of a
    letter past F its ValidationError) counts as invalid. A text stdnum's compact() changes (a country prefix it
    strips: `GB888828009` is the 9-digit `888828009`) is not what is typed into a preset's slots, unless the facts
    say the preset shows the text as `typed` (`de.handelsregisternummer`: compact() reorders and respaces it)."""
    try:
        if not FORMATS.get(preset_name(module.__name__), {}).get('typed') and module.compact(number) != number:
            return False
        return module.is_valid(number)
    except (KeyError, ValueError):
        return False


def in_alphabet(number, alphabet):
    return len(number) == len(alphabet) and all(c in a for c, a in zip(number, alphabet))


def check_positions(module_name, length):
    """Where the check characters stand, to be searched when making numbers valid."""
    if module_name in CHECK_POSITIONS:
        return CHECK_POSITIONS[module_name](length)
    p = {'gb.utr': [0], 'au.abn': [0, 1], 'de.idnr': [10], 'gb.nhs': [9], 'nl.bsn': [8], 'pl.nip': [9],
         'au.tfn': [length - 1]}
    return p.get(module_name, [length - 1] if module_name not in ('br.cpf', 'br.cnpj', 'ch.ssn', 'lei')
                 else [length - 2, length - 1])


def search_valid(module, name, number, alphabets, rng, prepare=True):
    """Changes the check characters of `number` until stdnum accepts it, or None."""
    where = check_positions(name, len(number))
    if prepare and name in PREPARE:
        number = ''.join(PREPARE[name](list(number)))
    options = [sorted(alphabets[i]) for i in where]
    chars = list(number)
    if len(where) == 1:
        for a in options[0]:
            chars[where[0]] = a
            if stdnum_valid(module, ''.join(chars)):
                return ''.join(chars)
        return None
    for a in options[0]:
        for b in options[1]:
            chars[where[0]] = a
            chars[where[1]] = b
            if stdnum_valid(module, ''.join(chars)):
                return ''.join(chars)
    return None


def make_numbers(module, name, rng, want=40):
    facts = FORMATS[name]
    # A format may search fewer numbers (`want`: many lengths, or costly searches), and start from numbers made of
    # other formats' (`seeds`).
    want = facts.get('want', want)
    examples = []
    for e in docstring_examples(module) + (facts['seeds']() if 'seeds' in facts else []):
        try:
            c = e if facts.get('typed') else module.compact(e)
        except Exception:
            continue
        if stdnum_valid(module, c) and c not in examples:
            examples.append(c)
    valid = {length: [] for length in facts['alphabet']}
    for e in examples:
        if len(e) in valid:
            valid[len(e)].append(e)
    documented = list(examples)
    for length, found in valid.items():
        alphabets = alphabet_positions(name, length)
        seeds = list(found)
        tries = 0
        while len(found) < want and tries < want * 60:
            tries += 1
            if seeds:
                chars = list(rng.choice(found))
                for _ in range(rng.randint(1, 4)):
                    i = rng.randrange(length)
                    chars[i] = rng.choice(alphabets[i])
            else:
                chars = [rng.choice(a) for a in alphabets]
            made = search_valid(module, name, ''.join(chars), alphabets, rng)
            if made and made not in found:
                found.append(made)
        if not found:
            sys.exit(f'{name}: no valid number of length {length} found')
    return documented, valid


def layout_of(module, number):
    """The display of `number` as a notation: '[000].[000]-[00]' style with slot letters by position."""
    shown = displayed(module, number)
    out = []
    i = 0
    for ch in shown:
        if i < len(number) and ch == number[i]:
            out.append(None)
            i += 1
        else:
            out.append(ch)
    if i != len(number):
        return None
    return out


def displayed(module, number):
    """What the preset shows for a compact number: stdnum's format(), or the compact form where it has none or
    where the facts say `display='compact'` (its hyphenation reads range tables no per-length layout holds)."""
    name = preset_name(module.__name__)
    display = FORMATS.get(name, {}).get('display')
    if callable(display):
        # The format's own display (stdnum's format() without the zeros it pads with, or the characters it adds).
        return display(module, number)
    if not hasattr(module, 'format') or display == 'compact':
        return number
    return module.format(number)


def first_line(module):
    line = (module.__doc__ or '').strip().split('\n')[0].strip()
    return line.rstrip('.')


def verify(module, name, valid):
    """Our facts against stdnum's is_valid on the valid numbers and on changed ones."""
    rng = random.Random(7)
    facts = FORMATS[name]
    checked = 0
    invalid = []
    for length, numbers in valid.items():
        alphabets = alphabet_positions(name, length)
        for number in numbers:
            if not model_valid(name, number):
                sys.exit(f'{name}: stdnum accepts {number}, our facts refuse it ({failing(name, number)})')
            for _ in range(30):
                chars = list(number)
                kind = rng.random()
                if kind < 0.7 or length == 1:
                    i = rng.randrange(length)
                    chars[i] = rng.choice(alphabets[i])
                else:
                    i = rng.randrange(length - 1)
                    chars[i], chars[i + 1] = chars[i + 1], chars[i]
                changed = ''.join(chars)
                ours = model_valid(name, changed)
                theirs = stdnum_valid(module, changed)
                checked += 1
                if ours != theirs:
                    sys.exit(f'{name}: {changed}: stdnum says {theirs}, our facts say {ours}')
                if not theirs and in_alphabet(changed, alphabets) and changed not in invalid:
                    invalid.append(changed)
            # A character outside the position's alphabet must never make a valid number.
            for i in range(length):
                for c in rng.sample(ALNUM, 8):
                    if c in alphabets[i]:
                        continue
                    chars = list(number)
                    chars[i] = c
                    if i in check_positions(name, length):
                        made = ''.join(chars) if stdnum_valid(module, ''.join(chars)) else None
                    else:
                        made = search_valid(module, name, ''.join(chars), alphabets_with(alphabets, i, c), rng, prepare=False)
                    if made:
                        sys.exit(f'{name}: stdnum accepts {made}, which has {c!r} at {i}, outside our alphabet')
    return checked, invalid


def alphabets_with(alphabets, i, c):
    out = list(alphabets)
    out[i] = alphabets[i] + c
    return out


def model_valid(name, number):
    facts = FORMATS[name]
    if len(number) not in facts['alphabet']:
        return False
    if not in_alphabet(number, alphabet_positions(name, len(number))):
        return False
    return failing(name, number) is None


def failing(name, number):
    checks = FORMATS[name]['checks']
    for check in checks:
        if not run_check(check, number):
            return check
    return None


def ein_checks():
    """us.ein: the campus prefixes of stdnum's us/ein database."""
    db = numdb.get('us/ein')
    prefixes = []
    for n in range(100):
        p = '%02d' % n
        if db.info(p + '0000000')[0][1]:
            prefixes.append(p)
    return [fam('in', span=(0, 2), values=prefixes, label='campus prefix')]


# ---------------------------------------------------------------------------------------------
# Output

def swift_string(s):
    return json.dumps(s, ensure_ascii=False)


def swift_check(check):
    family, p = check
    sp = p.get('span', (0, None))
    span_text = f'{sp[0]}, {sp[1] if sp[1] is not None else -1}'
    if family == 'weighted':
        at = p.get('at')
        return (f'.weighted(start: {p.get("start", 0)}, weights: {p["weights"]}, modulus: {p["mod"]}, '
                f'add: {p.get("add", 0)}, values: .{p.get("values", "dec")}, fold: {str(p.get("fold", False)).lower()}, '
                f'table: {swift_string(p["table"])}, at: {at if at is not None else -1})')
    if family == 'luhn':
        return f'.luhn(span: ({span_text}))'
    if family in ('verhoeff', 'mod97', 'mod11_10', 'mod11_2', 'mod37_2', 'mod37_36'):
        swift = {'mod11_10': 'mod11_10', 'mod11_2': 'mod11_2', 'mod37_2': 'mod37_2', 'mod37_36': 'mod37_36'}
        return f'.{swift.get(family, family)}(span: ({span_text}))'
    if family == 'remainder':
        return f'.remainder(span: ({span_text}), modulus: {p["mod"]}, table: {swift_string(p["table"])}, at: {p["at"]})'
    if family in ('in', 'notIn'):
        return (f'.{"member" if family == "in" else "notMember"}(span: ({span_text}), values: '
                f'{swift_string(",".join(p["values"]))}, label: {swift_string(p["label"])})')
    if family == 'notAllSame':
        return f'.notAllSame(span: ({span_text}))'
    if family == 'notZero':
        return f'.notZero(span: ({span_text}))'
    if family == 'named':
        return f'.named({swift_string(p["name"])}, problem: {swift_string(p["problem"])})'
    if family == 'prefixed':
        parts = ','.join(f'{prefix}={"*" if whole else ""}{preset}' for prefix, preset, whole in p['parts'])
        return f'.prefixed({swift_string(parts)}, problem: {swift_string(p["problem"])})'
    raise ValueError(family)


def notation_of(layout, alphabets, definitions, lead_literals=True, literals=True):
    """Bracket notation: single-character positions become `{c}` literals of the value, the rest slots.
    Without `lead_literals`, those before the first slot are one-character slots: in a `oneOf` of several
    lengths, a literal shown by itself at the start would take the place of the keys of another length
    (`978` of a 13-digit ISBN against a 10-digit one that starts with 9). Without `literals`, all are: a format
    whose lengths share no layout (`eu.vat`'s, by country) keeps each typed character in a cell, so the length that
    holds them all is the one chosen."""
    out = ''
    slots = iter(alphabets)
    in_slot = False
    seen_slot = False
    for item in layout:
        if item is None:
            allowed = next(slots)
            if len(allowed) == 1 and literals and (lead_literals or seen_slot):
                if in_slot:
                    out += ']'
                    in_slot = False
                out += '{' + allowed + '}'
                continue
            if not in_slot:
                out += '['
                in_slot = True
            seen_slot = True
            out += slot_char(allowed, definitions)
        else:
            if in_slot:
                out += ']'
                in_slot = False
            out += '\\' + item if item in '[]{}\\' else item
    if in_slot:
        out += ']'
    return out


DEFINITION_NAMES = 'BCDEFGHIJKLMNOPQRSTUVWYZbcdefghijklmnopqrstuvwxyz'


def slot_char(allowed, definitions):
    if allowed == DIGITS:
        return '0'
    regex = '[' + char_class(allowed) + ']'
    for k, v in definitions.items():
        if v == regex:
            return k
    name = DEFINITION_NAMES[len(definitions)]
    definitions[name] = regex
    return name


def char_class(allowed):
    chars = sorted(set(allowed))
    out = '-' if '-' in chars else ''  # first, where it stands for itself (`+-A` would be a range)
    chars = [c for c in chars if c != '-']
    i = 0
    while i < len(chars):
        j = i
        while j + 1 < len(chars) and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out += chars[i] if j == i else (chars[i] + chars[j] if j == i + 1 else chars[i] + '-' + chars[j])
        i = j + 1
    return out


COUNTRIES = {
    'ar': 'Argentina', 'at': 'Austria', 'au': 'Australia', 'be': 'Belgium', 'br': 'Brazil', 'ca': 'Canada',
    'ch': 'Switzerland', 'cl': 'Chile', 'cn': 'China', 'co': 'Colombia', 'de': 'Germany', 'dk': 'Denmark',
    'es': 'Spain', 'fi': 'Finland', 'fr': 'France', 'gb': 'United Kingdom', 'in': 'India', 'it': 'Italy',
    'jp': 'Japan', 'kr': 'South Korea', 'mx': 'Mexico', 'nl': 'Netherlands', 'no': 'Norway', 'pl': 'Poland',
    'pt': 'Portugal', 'se': 'Sweden', 'us': 'United States', 'za': 'South Africa',
}
COUNTRIES.update(world.COUNTRIES)
COUNTRIES.update(europe_a.COUNTRIES)
COUNTRIES.update(europe_b.COUNTRIES)
COUNTRIES.update(tables.COUNTRIES)
COUNTRIES.update(layout_formats.COUNTRIES)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('--vectors')
    ap.add_argument('--conformance')
    ap.add_argument('--only', help='comma-separated formats to verify, writing nothing')
    args = ap.parse_args()
    rng = random.Random(1)
    FORMATS['us.ein']['checks'] = ein_checks()
    load_cn_counties()
    entries = []
    vectors = []
    conformance = []
    report = []
    for name in (args.only.split(',') if args.only else FORMATS):
        module = importlib.import_module('stdnum.' + '.'.join(
            p + '_' if p in ('in', 'is') else p for p in name.split('.')))
        documented, valid = make_numbers(module, name, rng)
        checked, invalid = verify(module, name, valid)
        if 'verify' in FORMATS[name]:  # a format's own comparison with stdnum beyond changed characters
            checked += FORMATS[name]['verify'](module)
        upper = all(module.compact(n.lower()) == n for ns in valid.values() for n in ns)
        definitions = {}
        notations = []
        for length in sorted(valid):
            alphabets = alphabet_positions(name, length)
            layouts = {json.dumps(layout_of(module, n)) for n in valid[length]}
            if len(layouts) != 1 or None in [json.loads(x) for x in layouts]:
                sys.exit(f'{name}: format() of length {length} does not follow one layout: {sorted(layouts)[:3]}')
            notations.append(notation_of(json.loads(layouts.pop()), alphabets, definitions,
                                         lead_literals=len(valid) == 1, literals=FORMATS[name].get('literals', True)))
        if 'notation' in FORMATS[name]:  # layouts of the facts' own (a free length's: optional slots past the shortest)
            notations, definitions = FORMATS[name]['notation'], dict(FORMATS[name]['definitions'])
            notations = notations if isinstance(notations, list) else [notations]
        case = FORMATS[name].get('case', 'upper' if upper else None)  # facts may say 'lower', or None for neither
        cc = name.split('.')[0] if '.' in name else ''
        country = COUNTRIES.get(cc, 'International')
        example = (documented or valid[sorted(valid)[0]])[0]
        shown = displayed(module, example)
        entries.append(dict(name=name, country=country, title=first_line(module), example=shown,
                            notations=notations, definitions=definitions, upper=case == 'upper', lower=case == 'lower',
                            checks=[swift_check(c) for c in FORMATS[name]['checks']]))
        report.append(f'{name}: {sum(len(v) for v in valid.values())} valid, {checked} checked')
        # Vectors: typed key by key, the compact form gives stdnum's format; validity is stdnum's.
        all_valid = [n for ns in valid.values() for n in ns]
        picks = documented[:1] + [n for n in all_valid if n not in documented[:1]]
        for i, n in enumerate(picks[:12]):
            case = vector(name, module, n, True)
            (vectors if i == 0 else conformance).append(case)
        for i, n in enumerate(invalid[:8]):
            case = vector(name, module, n, False)
            (vectors if i == 0 else conformance).append(case)
    if args.only:
        print('\n'.join(report), file=sys.stderr)
        return
    write_swift(args.out, entries)
    tables.write_swift_tables(os.path.join(os.path.dirname(args.out), 'IdentifierTables.swift'), stdnum.__version__)
    register.write_swift_courts(os.path.join(os.path.dirname(args.out), 'GermanCourts.swift'), stdnum.__version__)
    gs1.write_swift(os.path.join(os.path.dirname(args.out), 'GS1ApplicationIdentifiers.swift'), stdnum.__version__)
    if args.vectors:
        write_vectors(args.vectors, vectors, 'identifier presets (python-stdnum): one valid and one invalid number '
                      'of each, typed key by key; text from stdnum format(), valid from stdnum is_valid')
    if args.conformance:
        write_vectors(args.conformance, conformance, 'identifier presets (python-stdnum): more numbers of each, '
                      'valid and invalid, typed key by key; read by the Swift engine tests only')
    print('\n'.join(report), file=sys.stderr)


def vector(name, module, number, valid):
    text = displayed(module, number)
    expect = {'text': text, 'caret': len(text.encode('utf-16-le')) // 2, 'value': number, 'complete': True,
              'valid': stdnum_valid(module, number)}
    assert expect['valid'] == valid
    return {'name': f'{name} {number} {"valid" if valid else "invalid"}', 'mask': {'preset': name},
            'steps': [{'keys': number, 'expect': expect}]}


def write_vectors(path, cases, description):
    with open(path, 'w') as f:
        json.dump({'description': description, 'cases': cases}, f, ensure_ascii=False, indent=1)
        f.write('\n')


def write_swift(path, entries):
    lines = [
        '// Generated by scripts/identifier-metadata from python-stdnum ' + stdnum.__version__ + ': facts only',
        '// (layouts from its format(), alphabets and check families verified against its is_valid); see',
        '// LICENSE-stdnum beside this file. Do not edit by hand.',
        '',
        'extension IdentifierCatalog {',
        '    static let generated: [IdentifierFormat] = [',
    ]
    for e in entries:
        defs = ', '.join(f'"{k}": {swift_string(v)}' for k, v in sorted(e['definitions'].items())) or ':'
        lines.append('        IdentifierFormat(')
        lines.append(f'            name: {swift_string(e["name"])}, country: {swift_string(e["country"])},')
        lines.append(f'            title: {swift_string(e["title"])},')
        lines.append(f'            example: {swift_string(e["example"])}, upper: {str(e["upper"]).lower()}'
                     + (', lower: true,' if e['lower'] else ','))
        lines.append(f'            notations: [{", ".join(swift_string(n) for n in e["notations"])}],')
        lines.append(f'            definitions: [{defs}],')
        lines.append(f'            checks: [')
        for c in e['checks']:
            lines.append(f'                {c},')
        lines.append('            ]),')
    lines.append('    ]')
    lines.append('')
    lines.append('    /// Each IBAN country\'s BBAN layout from the IBAN registry: `n` digits, `a` letters, `c` either.')
    lines.append('    static let ibanLayouts: [String: String] = [')
    for cc, bban in iban_layouts():
        lines.append(f'        "{cc}": "{bban}",')
    lines.append('    ]')
    lines.append('')
    lines.append('    /// The county codes of cn.ric, space-separated, each with `:from-to|from-to` when it stood only for some')
    lines.append('    /// years (an end left out is open).')
    lines.append('    static let chineseCounties = ' + swift_string(chinese_counties()))
    lines.append('}')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')


def chinese_counties():
    out = []
    for code, ranges in sorted(CN_COUNTIES.items()):
        if (None, None) in ranges:
            out.append(code)
        else:
            out.append(code + ':' + '|'.join(f"{lo or ''}-{hi or ''}" for lo, hi in ranges))
    return ' '.join(out)


def iban_layouts():
    import stdnum.iban as iban
    db = numdb.get('iban')
    out = []
    for cc in sorted(set(a + b for a in UPPER for b in UPPER)):
        info = db.info(cc)
        props = info[0][1]
        if props.get('bban'):
            layout = ''
            for count, kind in re.findall(r'([1-9][0-9]*)!([nac])', props['bban']):
                layout += kind * int(count)
            out.append((cc, layout))
    return out


if __name__ == '__main__':
    main()

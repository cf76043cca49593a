"""Identifier formats whose validity rests on a table (registries of banks, places, agencies, codes) or on a rule
of their own, and the postal codes stdnum has as identifiers: facts for identifier_metadata.py.

`define(m)` fills FORMATS and RULES, given the identifier_metadata module `m` (its check families, helpers and
tables); each rule of RULES has a Swift twin of the same name in IdentifierRulesTables.swift. The tables those
rules read are written by `write_swift_tables` into IdentifierTables.swift beside the generated data.
"""
import importlib

from stdnum import numdb

FORMATS = {}
RULES = {}
COUNTRIES = {'ru': 'Russia', 'id': 'Indonesia'}

m = None


def module_attribute(module_name, attribute):
    return getattr(importlib.import_module('stdnum.' + module_name), attribute)


# ---------------------------------------------------------------------------------------------
# Tables read by rules (written to Swift by write_swift_tables)

DO_CEDULA_LISTED = sorted(module_attribute('do.cedula', 'whitelist'))
ID_PROVINCES = sorted(p[1] for p in numdb.get('id/loc').prefixes if p[3])


def nz_branches():
    """Each bank of stdnum's nz/banks table with its branches, as bank code to a list of (low, high) ranges."""
    out = {}
    for _, low, high, props, children in numdb.get('nz/banks').prefixes:
        if 'bank' not in props:
            continue
        ranges = [(int(clow), int(chigh)) for _, clow, chigh, cprops, _ in children if 'branch' in cprops]
        for bank in range(int(low), int(high) + 1):
            out.setdefault('%02d' % bank, []).extend(ranges)
    return out


NZ_BRANCHES = nz_branches()


def cfi_table():
    """Each category and group of stdnum's CFI table with the letters each of the four attributes may take (X,
    not applicable, always among them)."""
    from stdnum import cfi
    out = {}
    for a in m.UPPER:
        for b in m.UPPER:
            if len(cfi._cfidb.info(a + b + 'XXXX')) != 6 or not cfi.is_valid(a + b + 'XXXX'):
                continue
            allowed = []
            for i in range(4):
                letters = ''
                for c in m.UPPER:
                    code = list(a + b + 'XXXX')
                    code[2 + i] = c
                    if cfi.is_valid(''.join(code)):
                        letters += c
                allowed.append(letters)
            out[a + b] = allowed
    return out


CFI = {}


def oui_tables():
    """The IEEE registry of stdnum's oui table: the 24-bit prefixes assigned to an organisation, and for each
    prefix divided into smaller blocks, those blocks as (hex digits after the prefix, low, high)."""
    assigned, divided = set(), {}
    for _, low, high, props, children in numdb.get('oui').prefixes:
        for prefix in range(int(low, 16), int(high, 16) + 1):
            if 'o' in props:
                assigned.add(prefix)
            for length, clow, chigh, cprops, _ in children:
                if 'o' in cprops:
                    divided.setdefault(prefix, []).append((length, int(clow, 16), int(chigh, 16)))
    return assigned, divided


OUI_ASSIGNED, OUI_DIVIDED = oui_tables()


# ---------------------------------------------------------------------------------------------
# Rules


def rule_ru_inn(number):
    def check(weights, digits):
        return str(sum(w * int(c) for w, c in zip(weights, digits)) % 11 % 10)
    if len(number) == 10:
        return number[9] == check((2, 4, 10, 3, 5, 9, 4, 6, 8), number)
    return (number[10] == check((7, 2, 4, 10, 3, 5, 9, 4, 6, 8), number)
            and number[11] == check((3, 7, 2, 4, 10, 3, 5, 9, 4, 6, 8), number))


def rule_ru_ogrn(number):
    # Thirteen digits: the rest of the first twelve by 11, its last digit; fifteen: the rest by 13, which must be
    # one digit.
    if len(number) == 13:
        return int(number[-1]) == int(number[:-1]) % 11 % 10
    return int(number[-1]) == int(number[:-1]) % 13


def rule_do_cedula(number):
    # Numbers issued before the Luhn check digit are listed.
    return number in DO_CEDULA_LISTED or m.luhn_ok(number)


def rule_id_nik_date(number):
    # DDMMYY, women adding 40 to the day; the year is 19YY or 20YY, which differ only in 29 February 00.
    return m.is_date(2000 + int(number[10:12]), int(number[8:10]), int(number[6:8]) % 40)


def rule_id_nik_place(number):
    return number[:2] in ID_PROVINCES


def rule_id_npwp(number):
    # Fifteen digits: Luhn over the first nine. Sixteen: a 0 and the older number (Luhn over ten), or a NIK.
    if len(number) == 15:
        return m.luhn_ok(number[:9])
    if number[0] == '0':
        return m.luhn_ok(number[:10])
    return rule_id_nik_date(number) and rule_id_nik_place(number)


NZ_ALGORITHMS = {
    '01': 'A', '02': 'A', '03': 'A', '04': 'A', '06': 'A', '08': 'D', '09': 'E', '10': 'A', '11': 'A', '12': 'A',
    '13': 'A', '14': 'A', '15': 'A', '16': 'A', '17': 'A', '18': 'A', '19': 'A', '20': 'A', '21': 'A', '22': 'A',
    '23': 'A', '24': 'A', '25': 'F', '26': 'G', '27': 'A', '28': 'G', '29': 'G', '30': 'A', '31': 'X', '33': 'F',
    '35': 'A', '38': 'A',
}
# Per algorithm: the weights of the sixteen digits, the modulus each product is reduced by (when above it) and the
# modulus of the sum.
NZ_CHECKS = {
    'A': ((0, 0, 6, 3, 7, 9, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0), 11, 11),
    'B': ((0, 0, 0, 0, 0, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0), 11, 11),
    'D': ((0, 0, 0, 0, 0, 0, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0), 11, 11),
    'E': ((0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 4, 3, 2, 0, 0, 1), 9, 11),
    'F': ((0, 0, 0, 0, 0, 0, 1, 7, 3, 1, 7, 3, 1, 0, 0, 0), 10, 10),
    'G': ((0, 0, 0, 0, 0, 0, 1, 3, 7, 1, 3, 7, 1, 3, 7, 1), 9, 10),
}


def rule_nz_bankaccount_check(number):
    algorithm = NZ_ALGORITHMS.get(number[:2], 'X')
    if algorithm == 'X':
        return True
    if algorithm == 'A' and number[6:13] >= '0990000':
        algorithm = 'B'
    weights, reduce, modulus = NZ_CHECKS[algorithm]
    products = (w * int(c) for w, c in zip(weights, number))
    return sum(p % reduce if p > reduce else p for p in products) % modulus == 0


def rule_nz_bankaccount_branch(number):
    branch = int(number[2:6])
    return any(low <= branch <= high for low, high in NZ_BRANCHES.get(number[:2], ()))


def rule_by_unp(number):
    # Two letters of ABCEHKMOPT (the second read as its place in that list) or two digits, then seven digits;
    # weights 29 23 19 17 13 7 5 3 over 0-9, A-Z as 10 to 35; a rest of 10 has no check digit.
    first, second = number[0], number[1]
    if first.isdigit() != second.isdigit():
        return False
    if not second.isdigit():
        second = str('ABCEHKMOPT'.index(second))
    values = [m.ALNUM.index(c) for c in first + second + number[2:8]]
    rest = sum(w * v for w, v in zip((29, 23, 19, 17, 13, 7, 5, 3), values)) % 11
    return rest < 10 and number[8] == str(rest)


ISIL_AGENCIES = sorted(p[1][:-1] for p in numdb.get('isil').prefixes if p[1].endswith('$') and p[3])


def rule_isil_agency(number):
    # The agency before the first hyphen, in any case, is one of the registry's.
    return number.split('-')[0].upper() in ISIL_AGENCIES


def isil_with_agency(chars):
    """An ISIL of the length of `chars` that starts with a registered agency (picked by the characters)."""
    agency = ISIL_AGENCIES[sum(map(ord, chars)) % len(ISIL_AGENCIES)]
    if len(agency) + 1 >= len(chars):
        agency = 'O'
    return list((agency + '-' + ''.join(chars))[:len(chars)]) if len(chars) > 1 else ['O']


def rule_eu_at_02(number):
    # ISO 7064 mod 97-10 over the characters after the creditor business code, then the first four.
    return m.mod97_ok(number[7:] + number[:4])


def rule_mac_manufacturer(number):
    # stdnum's default: a universally administered address (bit 2 of the first octet clear) must belong to a
    # registered organisation; a locally administered one checks nothing.
    digits = number.replace(':', '')
    if int(digits[:2], 16) & 2:
        return True
    prefix = int(digits[:6], 16)
    for length, low, high in OUI_DIVIDED.get(prefix, ()):
        if low <= int(digits[6:6 + length], 16) <= high:
            return True
    return prefix in OUI_ASSIGNED


BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
BECH32_GENERATOR = (0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3)


def sha256d(data):
    import hashlib
    return hashlib.sha256(hashlib.sha256(data).digest()).digest()


def base58_bytes(text):
    """The bytes a base58 text stands for: a zero byte per leading 1, then the number's bytes (at least one)."""
    value = 0
    for c in text:
        value = value * 58 + BASE58.index(c)
    ones = len(text) - len(text.lstrip('1'))
    return bytes(ones) + value.to_bytes(max(1, (value.bit_length() + 7) // 8), 'big')


def bech32_polymod(values):
    check = 1
    for v in values:
        top = check >> 25
        check = (check & 0x1ffffff) << 5 ^ v
        for i, g in enumerate(BECH32_GENERATOR):
            if top >> i & 1:
                check ^= g
    return check


def bech32_program(values):
    """The bytes of five-bit values, or None when more than four bits or a bit that is not zero are left over."""
    acc, bits, out = 0, 0, []
    for v in values:
        acc = acc << 5 | v
        bits += 5
        if bits >= 8:
            bits -= 8
            out.append(acc >> bits & 0xff)
    if bits >= 5 or acc & ((1 << bits) - 1):
        return None
    return out


def rule_bitcoin(number):
    # Base58 with a double SHA-256 checksum (pay to a key's or a script's hash), or Bech32 (segregated witness).
    if number[0] in '13':
        if any(c not in BASE58 for c in number):
            return False
        data = base58_bytes(number)
        return len(data) == 25 and sha256d(data[:21])[:4] == data[21:]
    if not number.startswith('bc1') or any(c not in BECH32 for c in number[3:]) or not 11 <= len(number) <= 90:
        return False
    values = [BECH32.index(c) for c in number[3:]]
    if bech32_polymod([3, 3, 0, 2, 3] + values) != 1:  # 'bc' expanded: high bits, 0, low bits
        return False
    program = bech32_program(values[1:-6])
    if program is None or values[0] > 16 or not 2 <= len(program) <= 40:
        return False
    return values[0] != 0 or len(program) in (20, 32)


def bitcoin_pool():
    """Valid addresses of every length one can have, made from random hashes and programs, by length."""
    import random
    rng = random.Random(5)
    pool = {}
    for _ in range(3000):
        version = rng.choice((0, 5))
        zeros = rng.randrange(21) if version == 0 else 0
        body = bytes([version]) + bytes(zeros) + bytes(rng.randrange(256) for _ in range(20 - zeros))
        data = body + sha256d(body)[:4]
        value = int.from_bytes(data, 'big')
        text = ''
        while value:
            value, r = divmod(value, 58)
            text = BASE58[r] + text
        text = '1' * (len(data) - len(data.lstrip(bytes(1)))) + text
        pool.setdefault(len(text), []).append(text)
    for length in range(4, 65):
        program_values = [rng.randrange(32) for _ in range(length)]
        program = bech32_program(program_values)
        if program is None:
            program_values[-1] &= ~((1 << (length * 5 % 8)) - 1) & 31
            program = bech32_program(program_values)
        if program is None or not 2 <= len(program) <= 40:
            continue
        for version in ([0] if len(program) in (20, 32) else []) + [1, rng.randrange(2, 17)]:
            values = [version] + program_values
            polymod = bech32_polymod([3, 3, 0, 2, 3] + values + [0] * 6) ^ 1
            values += [(polymod >> 5 * (5 - i)) & 31 for i in range(6)]
            pool.setdefault(3 + len(values), []).append('bc1' + ''.join(BECH32[v] for v in values))
    return pool


BITCOIN = {}


def bitcoin_made(chars):
    """A valid address of the length of `chars`, picked by its characters."""
    found = BITCOIN[len(chars)]
    return list(found[sum(map(ord, chars)) % len(found)])


def rule_cfi(number):
    allowed = CFI.get(number[:2])
    return allowed is not None and all(c in a for c, a in zip(number[2:], allowed))


RULES.update({
    'ru.inn.check': rule_ru_inn,
    'ru.ogrn.check': rule_ru_ogrn,
    'do.cedula.check': rule_do_cedula,
    'id.nik.date': rule_id_nik_date,
    'id.npwp.check': rule_id_npwp,
    'nz.bankaccount.check': rule_nz_bankaccount_check,
    'nz.bankaccount.branch': rule_nz_bankaccount_branch,
    'by.unp.check': rule_by_unp,
    'cfi.check': rule_cfi,
    'isil.agency': rule_isil_agency,
    'bitcoin.check': rule_bitcoin,
    'mac.manufacturer': rule_mac_manufacturer,
    'eu.at_02.check': rule_eu_at_02,
})


# ---------------------------------------------------------------------------------------------
# Formats


def define(meta):
    """Fills FORMATS from the helpers of identifier_metadata (`meta`)."""
    global m
    m = meta
    fam, W, digits = m.fam, m.W, m.digits
    nonzero = '123456789'
    CFI.update(cfi_table())
    cz_banks = [p[1] for p in numdb.get('cz/banks').prefixes if 'bank' in p[3]]
    office = sorted(module_attribute('es.cae', '_OFFICES'))
    activity = sorted(module_attribute('es.cae', '_ACTIVITY_KEYS'))
    postleitzahl = [p[1] for p in numdb.get('at/postleitzahl').prefixes if p[3]]
    FORMATS.update({
        'ru.inn': dict(alphabet={10: digits(10), 12: digits(12)}, checks=[
            fam('named', name='ru.inn.check', problem='check digit does not match')]),
        'ru.ogrn': dict(alphabet={13: nonzero + digits(12), 15: '34' + digits(14)}, checks=[
            fam('named', name='ru.ogrn.check', problem='check digit does not match')]),
        'ar.cbu': dict(alphabet={22: digits(22)}, checks=[
            W(at=7, weights=[7, 1, 3, 9, 7, 1, 3], mod=10, table=m.complement(10)),
            W(at=21, start=8, weights=[3, 9, 7, 1] * 3 + [3], mod=10, table=m.complement(10))]),
        # The compact form is stdnum's: prefix and account number padded with zeros, and their separators.
        'cz.bankaccount': dict(alphabet={22: ['d'] * 6 + ['-'] + ['d'] * 10 + ['/'] + ['d'] * 4}, checks=[
            W(weights=[10, 5, 8, 4, 2, 1], mod=11, table=m.zero_when(11)),
            W(start=7, weights=[6, 3, 7, 9, 10, 5, 8, 4, 2, 1], mod=11, table=m.zero_when(11)),
            fam('in', span=(18, 22), values=cz_banks, label='bank code')]),
        'do.cedula': dict(alphabet={11: digits(11)}, checks=[
            fam('named', name='do.cedula.check', problem='check digit does not match')]),
        'id.nik': dict(alphabet={16: digits(16)}, checks=[
            fam('in', span=(0, 2), values=ID_PROVINCES, label='province code'),
            fam('named', name='id.nik.date', problem='not a valid birth date')]),
        'id.npwp': dict(alphabet={15: digits(15), 16: digits(16)}, checks=[
            fam('named', name='id.npwp.check', problem='check digit, place or birth date does not match')]),
        'nz.bankaccount': dict(alphabet={16: digits(16)}, checks=[
            fam('named', name='nz.bankaccount.check', problem='check digit does not match'),
            fam('named', name='nz.bankaccount.branch', problem='no such bank branch')]),
        'by.unp': dict(alphabet={9: ['1234567ABCEHKM', m.DIGITS + 'ABCEHKMOPT'] + ['d'] * 7}, checks=[
            fam('named', name='by.unp.check', problem='check digit does not match')]),
        # The language codes' letters are slots, not literals, in both lengths: a literal counts as no typed
        # character, and MWST's would never make the longer layout keep more than TVA's.
        'ch.vat': dict(alphabet={15: ['C', 'H', 'E'] + ['d'] * 9 + ['IMT', 'PVW', 'AVS'],
                                 16: ['C', 'H', 'E'] + ['d'] * 9 + ['IMT', 'PVW', 'AVS', 'T']},
                       notation=['[B]{HE}-[000].[000].[000] [CDE]', '[B]{HE}-[000].[000].[000] [CDEF]'],
                       definitions={'B': '[C]', 'C': '[IMT]', 'D': '[PVW]', 'E': '[AVS]', 'F': '[T]'}, checks=[
            W(at=11, start=3, weights=[5, 4, 3, 2, 7, 6, 5, 4], mod=11, table=m.complement(11)),
            fam('in', span=(12, None), values=['MWST', 'TVA', 'IVA', 'TPV'], label='language code')]),
        'es.cae': dict(alphabet={13: ['E', 'S', '0', '0', '0', ''.join(sorted({o[0] for o in office})), 'd',
                                      ''.join(sorted({a[0] for a in activity})), ''.join(sorted({a[1] for a in activity})),
                                      'd', 'd', 'd', 'L']}, checks=[
            fam('in', span=(5, 7), values=office, label='office'),
            fam('in', span=(7, 9), values=activity, label='activity key')]),
        'cfi': dict(alphabet={6: [''.join(sorted({k[0] for k in CFI})), ''.join(sorted({k[1] for k in CFI}))] + ['L'] * 4},
                    checks=[fam('named', name='cfi.check', problem='not a category, group and attributes of the standard')]),
        'at.postleitzahl': dict(alphabet={4: nonzero + digits(3)}, checks=[
            fam('in', span=(0, 4), values=postleitzahl, label='postal code')]),
        'es.postal_code': dict(alphabet={5: '012345' + digits(4)}, checks=[
            fam('in', span=(0, 2), values=['%02d' % n for n in range(1, 53)], label='province')]),
        'nl.postcode': dict(alphabet={6: [nonzero, 'd', 'd', 'd', 'L', 'L']}, checks=[
            fam('notIn', span=(4, 6), values=list(module_attribute('nl.postcode', '_postcode_blacklist')),
                label='letters')]),
        'se.postnummer': dict(alphabet={5: nonzero + digits(4)}, checks=[]),
    })
    hexadecimal = '0123456789abcdef'
    FORMATS.update({
        'mac': dict(alphabet={17: ([hexadecimal, hexadecimal, ':'] * 6)[:17]}, case='lower', checks=[
            fam('named', name='mac.manufacturer', problem='no manufacturer has this address block')]),
    })
    BITCOIN.update(bitcoin_pool())
    bitcoin = ''.join(sorted(set(BASE58 + BECH32)))
    # Free lengths: one layout whose slots past the shortest are optional, verified at every length.
    isil = m.DIGITS + m.UPPER + m.UPPER.lower() + '-:/'
    nace = [c for c in list(m.UPPER) + ['%0*d' % (n, v) for n in (2, 3, 4) for v in range(10 ** n)]
            if importlib.import_module('stdnum.eu.nace').is_valid(c)]
    FORMATS.update({
        # stdnum's format() upper-cases a known agency; the preset shows the ISIL as typed (case is the ISIL's own).
        'isil': dict(alphabet={n: [isil] * n for n in range(1, 16)}, display='compact', case=None,
                     notation='[I' + 'i' * 14 + ']', definitions={'I': '[\\-/0-9:A-Za-z]', 'i': '[\\-/0-9:A-Za-z]?'},
                     checks=[fam('named', name='isil.agency', problem='not a registered agency')]),
        # Register numbers of up to nine digits (stdnum takes any number of them) and a lower-case check letter.
        'at.businessid': dict(alphabet={n: ['d'] * (n - 1) + [m.UPPER.lower()] for n in range(2, 11)}, case=None,
                              notation='[0' + '9' * 8 + 'l]', definitions={'l': '[a-z]'}, checks=[]),
        # Up to the 35 characters of a SEPA creditor identifier; stdnum checks only the characters' check digits.
        'eu.at_02': dict(alphabet={n: ['c'] * n for n in range(8, 36)}, notation='[' + 'C' * 8 + 'c' * 27 + ']',
                         definitions={'C': '[0-9A-Z]', 'c': '[0-9A-Z]?'}, checks=[
                             fam('named', name='eu.at_02.check', problem='check digits do not match')]),
        # Base58 addresses start with 1 or 3, Bech32 ones with bc1, in lower case as stdnum's compact makes them.
        'bitcoin': dict(alphabet={n: ['13b'] + [bitcoin] * (n - 1) for n in sorted(BITCOIN)}, case=None,
                        notation='[S' + 'R' * 13 + 'r' * 60 + ']',
                        definitions={'S': '[13b]', 'R': '[0-9A-HJ-NP-Za-z]', 'r': '[0-9A-HJ-NP-Za-z]?'},
                        checks=[fam('named', name='bitcoin.check', problem='not a valid address')]),
        'eu.nace': dict(alphabet={1: ['L'], 2: digits(2), 3: digits(3), 4: digits(4)}, checks=[
            fam('in', span=(0, None), values=nace, label='activity code')]),
    })
    m.PREPARE['isil'] = isil_with_agency
    m.PREPARE['bitcoin'] = bitcoin_made
    m.CHECK_POSITIONS.update({
        'eu.at_02': lambda n: [2, 3], 'isil': lambda n: [n - 1], 'mac': lambda n: [1],
        'ar.cbu': lambda n: [7, 21], 'cz.bankaccount': lambda n: [5, 16], 'ru.inn': lambda n: [n - 2, n - 1],
        'id.nik': lambda n: [0, 7], 'ch.vat': lambda n: [11],
    })


# ---------------------------------------------------------------------------------------------
# Swift


def base36(n):
    digits = '0123456789abcdefghijklmnopqrstuvwxyz'
    out = ''
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def oui_assigned():
    out, last = [], 0
    for prefix in sorted(OUI_ASSIGNED):
        out.append(base36(prefix - last))
        last = prefix
    return ' '.join(out)


def oui_divided():
    out = []
    for prefix, blocks in sorted(OUI_DIVIDED.items()):
        for length in sorted({b[0] for b in blocks}):
            ranges = ('%0*X' % (length, lo) + ('' if lo == hi else '-%0*X' % (length, hi))
                      for n, lo, hi in blocks if n == length)
            out.append('%06X.%d:' % (prefix, length) + ','.join(ranges))
    return ' '.join(out)


def write_swift_tables(path, version):
    """Writes the tables the rules of IdentifierRulesTables.swift read."""
    swift = m.swift_string
    nz = ' '.join(bank + ':' + ','.join(str(lo) if lo == hi else f'{lo}-{hi}' for lo, hi in ranges)
                  for bank, ranges in sorted(NZ_BRANCHES.items()))
    cfi = ' '.join(k + ':' + '/'.join(v) for k, v in sorted(CFI.items()))
    lines = [
        '// Generated by scripts/identifier-metadata from python-stdnum ' + version + ': facts only (its tables of',
        '// registered numbers and codes); see LICENSE-stdnum beside this file. Do not edit by hand.',
        '',
        'extension IdentifierCatalog {',
        '    /// The Dominican cédulas issued before the check digit, valid whatever their last digit.',
        '    static let dominicanListedCedulas = ' + swift(' '.join(DO_CEDULA_LISTED)),
        '',
        '    /// The two-digit province codes of Indonesian NIKs.',
        '    static let indonesianProvinces = ' + swift(' '.join(ID_PROVINCES)),
        '',
        '    /// Each New Zealand bank with its branch numbers (`bank:branch,low-high,...`).',
        '    static let newZealandBranches = ' + swift(nz),
        '',
        '    /// The agencies of the ISIL registry (the part of an ISIL before its first hyphen).',
        '    static let isilAgencies = ' + swift(' '.join(ISIL_AGENCIES)),
        '',
        '    /// The 24-bit prefixes of MAC addresses assigned to an organisation in the IEEE registry, each the',
        '    /// difference from the one before in base 36.',
        '    static let ouiAssigned = ' + swift(oui_assigned()),
        '',
        '    /// The 24-bit prefixes the registry divides into smaller blocks, in hexadecimal with the blocks\' number of',
        '    /// hexadecimal digits after the prefix and their values or ranges: `PREFIX.length:low,low-high,...`.',
        '    static let ouiDivided = ' + swift(oui_divided()),
        '',
        '    /// Each CFI category and group with the letters each of its four attributes may take (`CG:a/b/c/d`).',
        '    static let cfiAttributes = ' + swift(cfi),
        '}',
    ]
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')

"""Identifier formats whose layout is more than stdnum's format() of one length: creditor references, per-country
IBANs, numbers stdnum pads with zeros or adds check characters to, numbers whose validity stdnum reads from the
clock, the Leitweg-ID's parts and the RCS number's town of varying length, and numbers of other presets behind a
country prefix (`composite`: ro.cf, eu.vat, vatin). Facts for identifier_metadata.py.

`define(m)` fills FORMATS and RULES, given the identifier_metadata module `m` (its check families, helpers and
tables); each rule of RULES has a Swift twin of the same name in IdentifierRulesLayouts.swift.
"""
import datetime
import importlib
import random

FORMATS = {}
RULES = {}
CHECK_POSITIONS = {}
PREPARE = {}
COUNTRIES = {'sg': 'Singapore'}

m = None

HEX = '0123456789ABCDEF'


# ---------------------------------------------------------------------------------------------
# Displays: what the preset shows for a compact number where stdnum's format() is not a layout of its characters.


def unpadded(width):
    """stdnum's format() of a number it first pads with zeros to `width` digits, without that padding and the
    separators before the first digit of the number: no layout can show zeros nobody typed."""
    def display(module, number):
        shown = module.format(number)
        padding = width - len(number)
        i = 0
        while padding > 0:
            if shown[i] == '0':
                padding -= 1
            i += 1
        while i < len(shown) and not shown[i].isalnum():
            i += 1
        return shown[i:]
    return display


def rcs_display(module, number):
    """stdnum's format() of an RCS number, which groups its SIREN in threes; for a number it refuses (and so cannot
    format) too, as the preset shows what is typed whether valid or not."""
    return number[:-9] + ' '.join((number[-9:-6], number[-6:-3], number[-3:]))


def without_check_digits(module, number):
    """stdnum's format() of an ISAN without the check characters it computes and adds: a layout shows what was
    typed."""
    return module.format(number, add_check_digits=False)


# ---------------------------------------------------------------------------------------------
# Rules


def rule_iban_check(number):
    # The first four characters move to the end; then ISO 7064 mod 97-10 (ISO 11649's RF references alike).
    return m.mod97_ok(number[4:] + number[:4])


def rule_be_iban_check(number):
    # The Belgian account number's own check: its first ten digits modulo 97 (97 for 0) are the last two.
    return int(number[-2:]) == (int(number[4:-2]) % 97 or 97)


def rule_es_iban_ccc(number):
    # The Spanish IBAN holds a CCC: es.ccc's checks on the characters after the IBAN's four.
    return m.model_valid('es.ccc', number[4:])


def kontonr(number):
    """A Norwegian account number as stdnum compacts it: the postgiro bank code 0000 is dropped."""
    return number[4:] if number.startswith('0000') else number


def rule_no_iban_kontonr(number):
    # The Norwegian IBAN holds an account number: no.kontonr's checks on it.
    return m.model_valid('no.kontonr', kontonr(number[4:]))


def rule_no_kontonr_check(number):
    if len(number) == 7:
        return m.luhn_ok(number)
    return number[-1] == str(sum(w * int(c) for w, c in zip((6, 7, 8, 9, 4, 5, 6, 7, 8, 9), number)) % 11)


ESR_TABLE = (0, 9, 4, 6, 8, 2, 7, 1, 3, 5)


def rule_ch_esr_check(number):
    # Modulo 10, recursive: each digit moves the carry through a fixed table.
    carry = 0
    for c in number[:-1]:
        carry = ESR_TABLE[(int(c) + carry) % 10]
    return number[-1] == str((10 - carry) % 10)


UEN_ENTITY_TYPES = [
    'CC', 'CD', 'CH', 'CL', 'CM', 'CP', 'CS', 'CX', 'DP', 'FB', 'FC', 'FM', 'FN', 'GA', 'GB', 'GS', 'HS', 'LL', 'LP',
    'MB', 'MC', 'MD', 'MH', 'MM', 'MQ', 'NB', 'NR', 'PA', 'PB', 'PF', 'RF', 'RP', 'SM', 'SS', 'TC', 'TU', 'VH', 'XL']
UEN_OTHER_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWX0123456789'


def rule_sg_uen_check(number):
    if len(number) == 9:
        # A business: eight digits and a check letter.
        if not number[:8].isdigit():
            return False
        s = sum(w * int(c) for w, c in zip((10, 4, 9, 3, 8, 2, 7, 1), number))
        return number[8] == 'XMKECAWLJDB'[s % 11]
    if number[0].isdigit():
        # A local company: the year of registration (up to 2099: validity never depends on today's date), five
        # digits and a check letter.
        if not number[:9].isdigit() or number[:4] > '2099':
            return False
        s = sum(w * int(c) for w, c in zip((10, 8, 6, 4, 9, 7, 5, 3, 1), number))
        return number[9] == 'ZKCMDNERGWH'[s % 11]
    # Another entity: R, S or T and a two-digit year, the entity type, four digits and a check character.
    if number[0] not in 'RST' or not number[1:3].isdigit() or number[3:5] not in UEN_ENTITY_TYPES:
        return False
    if not number[5:9].isdigit():
        return False
    s = sum(w * UEN_OTHER_ALPHABET.index(c) for w, c in zip((4, 3, 5, 3, 10, 2, 2, 5, 7), number))
    return number[9] == UEN_OTHER_ALPHABET[(s - 5) % 11]


# The longest town name an RCS number takes as typed (Saint-Germain-en-Laye has 21 letters).
RCS_TOWN_LONGEST = 30

ONRC_COUNTIES = list(range(1, 41)) + [51, 52]


def rule_ro_onrc_check(number):
    if '/' in number:
        # The old form: county, serial and year between slashes, the year from 1990 to 2024.
        parts = number[1:].split('/')
        if len(parts) != 3 or not all(p.isdigit() for p in parts):
            return False
        county, serial, year = parts
        return (len(county) == 2 and int(county) in ONRC_COUNTIES and 1 <= len(serial) <= 5 and len(year) == 4
                and 1990 <= int(year) <= 2024)
    # The new form: the year (from 1990; up to 2099, validity never depends on today's date), six digits, the county
    # (0 from 2025 on, either in 2024) and a check digit.
    if not number[1:].isdigit() or len(number) != 14:
        return False
    year, county = int(number[1:5]), int(number[11:13])
    if not 1990 <= year <= 2099:
        return False
    if year < 2024 and county not in ONRC_COUNTIES:
        return False
    if year == 2024 and county not in ONRC_COUNTIES + [0]:
        return False
    if year > 2024 and county != 0:
        return False
    digits = str(ord(number[0]) % 10) + number[1:]
    return number[-1] == str(sum(int(c) for c in digits[:-1]) % 10)


LEITWEG_STATES = ['%02d' % n for n in range(1, 17)] + ['99']


def rule_de_leitweg_check(number):
    # The coarse part (two to twelve digits, the first two a state's or the federation's code), the fine part (a dash
    # and up to thirty letters and digits, or nothing), a dash and two check digits: ISO 7064 mod 97-10 without dashes.
    parts = number[:-3].split('-')
    if len(parts) > 2 or not parts[0].isdigit() or not 2 <= len(parts[0]) <= 12:
        return False
    if len(parts) == 2 and len(parts[1]) > 30:
        return False
    return number[:2] in LEITWEG_STATES and m.mod97_ok(number.replace('-', ''))


def rule_fr_rcs_check(number):
    # RCS or rcs, the town, A or B, and a SIREN: Luhn over its nine digits.
    return number[:3] in ('RCS', 'rcs') and m.luhn_ok(number[-9:])


RULES.update({
    'fr.rcs.check': rule_fr_rcs_check,
    'de.leitweg.check': rule_de_leitweg_check,
    'iban.check': rule_iban_check,
    'be.iban.check': rule_be_iban_check,
    'es.iban.ccc': rule_es_iban_ccc,
    'no.iban.kontonr': rule_no_iban_kontonr,
    'no.kontonr.check': rule_no_kontonr_check,
    'ch.esr.check': rule_ch_esr_check,
    'sg.uen.check': rule_sg_uen_check,
    'ro.onrc.check': rule_ro_onrc_check,
})


def places(preset, n):
    """The characters each place of `preset`'s numbers of length `n` takes (identifier_metadata's reading of an
    alphabet, which this module's definitions come before)."""
    spec = m.FORMATS[preset]['alphabet'][n]
    if isinstance(spec, list):
        return [m.ALPHABET_CLASSES.get(p, p) for p in spec]
    out, i = [], 0
    while i < len(spec):
        j = i + 1
        if spec[i] not in m.ALPHABET_CLASSES:
            while j < len(spec) and spec[j] not in m.ALPHABET_CLASSES:
                j += 1
        out.append(m.ALPHABET_CLASSES.get(spec[i:j], spec[i:j]))
        i = j
    return out


def widened(taken):
    """The narrowest of digits, letters, or letters and digits (with any other characters it holds) that holds
    `taken`: the places of a composite of very many countries in few character classes."""
    for family in (m.DIGITS, m.UPPER, m.ALNUM):
        if set(taken) <= set(family):
            return family
    return ''.join(sorted(set(m.ALNUM + taken)))


def composite(parts, problem, extra_checks=(), want=6, widen=False):
    """A format whose numbers are other presets' numbers chosen by a prefix (`parts`: prefix, preset, and whether the
    preset reads the whole number rather than what follows the prefix). Each length's places take what any part's
    number of that length takes there; the `prefixed` check runs the part's own preset, its data and rules."""
    def alphabets():
        by_length = {}
        for prefix, preset, whole in parts:
            for n in m.FORMATS[preset]['alphabet']:
                taken = ([] if whole else list(prefix)) + places(preset, n)
                known = by_length.setdefault(len(taken), [''] * len(taken))
                by_length[len(taken)] = [''.join(sorted(set(a + b))) for a, b in zip(known, taken)]
        if widen:
            return {n: [widened(taken) for taken in by_length[n]] for n in by_length}
        return by_length

    def seeds():
        # Valid numbers of each part, found as the part's own are, with a generator of their own (the others'
        # numbers stay what they are).
        rng = random.Random(problem)
        out = []
        for prefix, preset, whole in parts:
            module = importlib.import_module('stdnum.' + '.'.join(
                p + '_' if p in ('in', 'is') else p for p in preset.split('.')))
            _, valid = m.make_numbers(module, preset, rng, want=2)
            out += [(n if whole else prefix + n) for ns in valid.values() for n in ns]
        return out
    return dict(alphabet=alphabets(), seeds=seeds, want=want, literals=False, checks=list(extra_checks) + [
        m.fam('prefixed', parts=parts, problem=problem)])


class _LaterNow(datetime.datetime):
    """A clock for stdnum's modules that read `datetime.now()`: asked as on the last day of 2099 (see
    identifier_metadata's `_Later`)."""

    @classmethod
    def now(cls, tz=None):
        return datetime.datetime(2099, 12, 31)


def define(meta):
    """Fills FORMATS from the helpers of identifier_metadata (`meta`)."""
    global m
    m = meta
    fam, digits = m.fam, m.digits
    m.fix_clock('ro.onrc')
    importlib.import_module('stdnum.sg.uen').datetime = _LaterNow
    iban = fam('named', name='iban.check', problem='check digits do not match')
    banks = m.numdb.get('be/banks')
    belgian_banks = [p for p in ('%03d' % n for n in range(1000)) if banks.info(p)[0][1]]
    uen_last = ''.join(sorted(set('XMKECAWLJDB' + 'ZKCMDNERGWH' + UEN_OTHER_ALPHABET)))
    onrc_old = {n: ['JFC', 'd', 'd', '/'] + ['d'] * (n - 9) + ['/'] + ['d'] * 4 for n in range(10, 14)}
    FORMATS.update({
        'iso11649': dict(want=10, alphabet={n: ['R', 'F'] + ['c'] * (n - 2) for n in range(5, 26)}, checks=[
            fam('named', name='iban.check', problem='check digits do not match')]),
        'be.iban': dict(want=10, alphabet={16: ['B', 'E', 'c', 'c'] + ['d'] * 12}, checks=[
            iban,
            fam('named', name='be.iban.check', problem='account check digits do not match'),
            fam('in', span=(4, 7), values=belgian_banks, label='bank code')]),
        'es.iban': dict(want=10, alphabet={24: ['E', 'S', 'c', 'c'] + ['d'] * 20}, checks=[
            iban, fam('named', name='es.iban.ccc', problem='account check digits do not match')]),
        'me.iban': dict(want=10, alphabet={22: ['M', 'E', 'c', 'c'] + ['d'] * 18}, checks=[
            iban, fam('mod97', span=(4, None))]),
        'no.iban': dict(want=10, alphabet={15: ['N', 'O', 'c', 'c'] + ['d'] * 11}, checks=[
            iban, fam('named', name='no.iban.kontonr', problem='account check digit does not match')]),
        'no.kontonr': dict(alphabet={7: digits(7), 11: digits(11)}, display=unpadded(11), checks=[
            fam('notIn', span=(0, 4), values=['0000'], label='bank code'),
            fam('named', name='no.kontonr.check', problem='check digit does not match')]),
        'ch.esr': dict(alphabet={n: ['123456789'] + ['d'] * (n - 1) for n in range(2, 28)}, display=unpadded(27),
                       checks=[fam('named', name='ch.esr.check', problem='check digit does not match')]),
        'isan': dict(alphabet={16: [HEX] * 16, 24: [HEX] * 24}, display=without_check_digits, checks=[]),
        'sg.uen': dict(alphabet={9: ['d'] * 8 + ['ABCDEJKLMWX'],
                                 10: [m.DIGITS + 'RST', 'd', 'd', m.DIGITS + 'CDFGHLMNPRSTVX',
                                      m.DIGITS + 'ABCDFHLMNPQRSUX', 'd', 'd', 'd', 'd', uen_last]}, checks=[
            fam('named', name='sg.uen.check', problem='check character, year or entity type does not match')]),
        'ro.onrc': dict(alphabet={**onrc_old, 14: ['JFC', 'd', 'd', '/' + m.DIGITS] + ['d'] * 5
                                  + ['/' + m.DIGITS] + ['d'] * 4}, checks=[
            fam('named', name='ro.onrc.check', problem='county, year or check digit does not match')]),
    })
    def leitweg_seeds():
        # Numbers of every length: a coarse part as long as it can be, then a fine part, then the check digits.
        mod_97_10 = importlib.import_module('stdnum.iso7064.mod_97_10')
        rng = random.Random('de.leitweg')
        out = []
        for n in range(5, 47):
            coarse = '04' + ''.join(rng.choice(m.DIGITS) for _ in range(min(n - 3, 12) - 2))
            fine = '' if n - 3 <= 12 else '-' + ''.join(rng.choice(m.ALNUM) for _ in range(n - 16))
            out.append(coarse + fine + '-' + mod_97_10.calc_check_digits((coarse + fine).replace('-', '')))
        return out
    FORMATS['de.leitweg'] = dict(
        alphabet={n: ['d', 'd'] + [m.ALNUM + '-'] * (n - 5) + ['-', 'd', 'd'] for n in range(5, 47)},
        seeds=leitweg_seeds, want=4, literals=False, checks=[
            fam('named', name='de.leitweg.check', problem='parts or check digits do not match')])

    def rcs_seeds():
        # A number of each length of the town's name, with a valid SIREN.
        rng = random.Random('fr.rcs')
        out = []
        for n in range(1, RCS_TOWN_LONGEST + 1):
            town = ''.join(rng.choice(m.UPPER.lower()) for _ in range(n)).capitalize()
            body = ''.join(rng.choice(m.DIGITS) for _ in range(8))
            siren = next(body + d for d in m.DIGITS if m.luhn_ok(body + d))
            out.append('RCS %s %s %s' % (town, rng.choice('AB'), siren))
        return out
    town = m.ALNUM + m.UPPER.lower() + "-'"
    FORMATS['fr.rcs'] = dict(
        alphabet={n + 16: ['Rr', 'Cc', 'Ss', ' '] + [town] * n + [' ', 'AB', ' '] + ['d'] * 9
                  for n in range(1, RCS_TOWN_LONGEST + 1)},
        seeds=rcs_seeds, want=4, literals=False, display=rcs_display, checks=[
            fam('named', name='fr.rcs.check', problem='check digit does not match')])

    # The composites below read these formats' facts through identifier_metadata's tables.
    m.FORMATS.update(FORMATS)

    # Numbers of other presets behind a prefix: Romania's tax code, and VAT numbers by country. Only the parts
    # whose stdnum module is a preset are read: the others' prefixes are refused.
    FORMATS['ro.cf'] = m.FORMATS['ro.cf'] = composite(
        [('', 'ro.cui', False), ('', 'ro.cnp', False), ('RO', 'ro.cui', False), ('RO', 'ro.cnp', False)],
        'not a valid CUI or CNP')
    oss = importlib.import_module('stdnum.eu.oss')
    FORMATS['eu.oss'] = m.FORMATS['eu.oss'] = dict(
        alphabet={11: ['E', 'U'] + ['d'] * 9, 12: ['I', 'M'] + ['d'] * 10}, checks=[
        fam('in', span=(2, 5), values=sorted(oss.ISO_3166_1_MEMBER_STATES), label='member state code')])
    eu_vat = importlib.import_module('stdnum.eu.vat')
    states = sorted(cc.upper() for cc in eu_vat.MEMBER_STATES)
    FORMATS['eu.excise'] = m.FORMATS['eu.excise'] = dict(
        alphabet={13: [''.join(sorted({cc[0] for cc in states})), ''.join(sorted({cc[1] for cc in states}))]
                  + ['c'] * 11},
        checks=[fam('in', span=(0, 2), values=states, label='member state'),
                fam('prefixed', parts=[('FR', 'fr.accise', True)], problem='not a valid French excise number')])

    def vat_parts(module_of, codes, within_eu):
        # Each country's VAT preset reads what follows its code. In eu.vat a Romanian number is a CUI or a CNP after
        # RO, and EU and IM start OSS numbers, read whole; vatin takes the EU VAT number of any member state after EU
        # (EUATU13585627), and an OSS number whole.
        parts = []
        for cc in codes:
            preset = '.'.join(part.rstrip('_') for part in module_of(cc).__name__.split('.')[1:])
            if preset == 'eu.oss':
                parts.append((cc.upper(), 'eu.oss', True))
            elif preset == 'ro.cf' and within_eu:
                parts += [(cc.upper(), 'ro.cui', False), (cc.upper(), 'ro.cnp', False)]
            elif preset == 'eu.vat':
                parts += [(cc.upper(), 'eu.vat', False), (cc.upper(), 'eu.oss', True)]
            elif preset in m.FORMATS:
                parts.append((cc.upper(), preset, False))
        return parts
    eu_codes = sorted((eu_vat.MEMBER_STATES - {'gr'}) | {'el', 'eu', 'im'})
    eu_parts = vat_parts(eu_vat._get_cc_module, eu_codes, True)
    FORMATS['eu.vat'] = m.FORMATS['eu.vat'] = composite(eu_parts, 'not a valid VAT number of its country', [
        fam('in', span=(0, 2), values=sorted({p[0] for p in eu_parts}), label='country code')])
    vatin = importlib.import_module('stdnum.vatin')
    vatin_codes = []
    for a in m.UPPER.lower():
        for b in m.UPPER.lower():
            try:
                vatin._get_cc_module(a + b)
                vatin_codes.append(a + b)
            except Exception:
                pass
    vatin_parts = vat_parts(vatin._get_cc_module, vatin_codes, False)
    FORMATS['vatin'] = m.FORMATS['vatin'] = composite(vatin_parts, 'not a valid VAT number of its country', [
        fam('in', span=(0, 2), values=sorted({p[0] for p in vatin_parts}), label='country code')], widen=True)
    CHECK_POSITIONS.update({
        'iso11649': lambda n: [2, 3], 'be.iban': lambda n: [2, 3], 'es.iban': lambda n: [2, 3],
        'me.iban': lambda n: [2, 3], 'no.iban': lambda n: [2, 3], 'no.kontonr': lambda n: [n - 1],
        'sg.uen': lambda n: [n - 1], 'ro.onrc': lambda n: [n - 1], 'de.leitweg': lambda n: [n - 2, n - 1],
        'fr.rcs': lambda n: [n - 1],
    })
    # The account inside an IBAN made valid before the IBAN's own check digits are searched.
    be_iban = importlib.import_module('stdnum.be.iban')
    ccc = importlib.import_module('stdnum.es.ccc')
    no_kontonr = importlib.import_module('stdnum.no.kontonr')

    def me_account(body):
        return '%02d' % (98 - int(body + '00') % 97)
    PREPARE.update({
        'be.iban': lambda c: c[:14] + list(be_iban._calc_check_digits(''.join(c[4:14]))),
        'es.iban': lambda c: c[:12] + list(ccc.calc_check_digits(''.join(c[4:24]))) + c[14:],
        'me.iban': lambda c: c[:20] + list(me_account(''.join(c[4:20]))),
        'no.iban': lambda c: c[:14] + list(no_kontonr._calc_check_digit(''.join(c[4:14])))[-1:],
    })

"""Identifier formats of European countries, Iceland to Ukraine, and international schemes: facts for
identifier_metadata.py.

`define(m)` fills FORMATS and RULES, given the identifier_metadata module `m` (its check families, helpers and
tables); each rule of RULES has a Swift twin of the same name in IdentifierRulesEuropeB.swift.
"""

FORMATS = {}
RULES = {}
COUNTRIES = {
    'is': 'Iceland', 'li': 'Liechtenstein', 'lt': 'Lithuania', 'lu': 'Luxembourg', 'lv': 'Latvia', 'mc': 'Monaco',
    'md': 'Moldova', 'me': 'Montenegro', 'mk': 'North Macedonia', 'mt': 'Malta', 'ro': 'Romania', 'rs': 'Serbia',
    'si': 'Slovenia', 'sk': 'Slovakia', 'sm': 'San Marino', 'ua': 'Ukraine',
}

m = None


def is_date(year, month, day):
    return m.is_date(year, month, day)


# ---------------------------------------------------------------------------------------------
# Rules


def rule_is_kennitala_date(number):
    # Organisations add 40 to the day; the last digit gives the century (9: 1900s, 0: 2000s).
    day = int(number[0:2])
    year = int(number[4:6]) + (1900 if number[9] == '9' else 2000)
    return is_date(year, int(number[2:4]), day - 40 if day >= 40 else day)


AIC_BASE32 = '0123456789BCDFGHJKLMNPQRSTUVWXYZ'


def aic_check_ok(digits):
    s = sum(sum(divmod(w * int(c), 10)) for w, c in zip((1, 2) * 4, digits))
    return digits[0] == '0' and digits[8] == str(s % 10)


def rule_it_aic_check(number):
    # The six-character form is the nine-digit one written in base 32.
    if len(number) == 6:
        value = 0
        for c in number:
            value = value * 32 + AIC_BASE32.index(c)
        if value >= 10 ** 9:
            return False
        number = '%09d' % value
    return aic_check_ok(number)


def rule_lt_asmens_date(number):
    # A first digit of 9 marks a number without a birth date; 1 to 8 give the century and sex.
    if number[0] == '9':
        return True
    if number[0] not in '12345678':
        return False
    century = 1800 + (int(number[0]) - 1) // 2 * 100
    return is_date(century + int(number[1:3]), int(number[3:5]), int(number[5:7]))


def rule_lu_tva_check(number):
    return int(number[:6]) % 89 == int(number[6:8])


def rule_lv_pvn_check(number):
    if number[0] > '3':
        # Legal entities.
        return sum(w * int(c) for w, c in zip((9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1), number)) % 11 == 3
    if not number.startswith('32'):
        # DDMMYY and a century digit (0: 1800s, 1: 1900s, 2: 2000s).
        year = 1800 + int(number[6]) * 100 + int(number[4:6])
        if not is_date(year, int(number[2:4]), int(number[0:2])):
            return False
    s = 1 + sum(w * int(c) for w, c in zip((10, 5, 8, 4, 2, 1, 6, 3, 7, 9), number))
    return number[10] == str(s % 11 % 10)


def rule_mc_tva_check(number):
    return m.rule_fr_tva(number[2:])


def rule_nl_onderwijsnummer_check(number):
    return sum(w * int(c) for w, c in zip((9, 8, 7, 6, 5, 4, 3, 2, -1), number)) % 11 == 5


def rule_no_fodselsnummer_date(number):
    # D-numbers add 40 to the day, H-numbers 40 to the month; FH-numbers (day from 80) carry no date. The
    # individual number and the two-digit year give the century.
    day, month, year, individual = int(number[0:2]), int(number[2:4]), int(number[4:6]), int(number[6:9])
    if day >= 80:
        return False
    if day > 40:
        day -= 40
    if month > 40:
        month -= 40
    if individual < 500:
        year += 1900
    elif individual < 750 and year >= 54:
        year += 1800
    elif individual < 1000 and year < 40:
        year += 2000
    elif individual >= 900 and year >= 40:
        year += 1900
    else:
        return False
    return is_date(year, month, day)


def rule_pl_regon_long(number):
    # The 14-digit REGON ends in a check digit of its own over the first 13 digits.
    if len(number) != 14:
        return True
    s = sum(w * int(c) for w, c in zip((2, 4, 8, 5, 0, 9, 7, 3, 6, 1, 2, 4, 8), number))
    return number[13] == str(s % 11 % 10)


def rule_pt_cc_check(number):
    # From the right, before the check digit: every other value doubled, less 9 past 9; letters count 10 to 35.
    s = 0
    for i, c in enumerate(reversed(number[:-1])):
        v = m.ALNUM.index(c)
        if i % 2 == 0:
            v *= 2
            if v > 9:
                v -= 9
        s += v
    return number[-1] == str((10 - s) % 10)


RO_CNP_CENTURIES = {'1': 1900, '2': 1900, '3': 1800, '4': 1800, '5': 2000, '6': 2000}


def rule_ro_cnp_date(number):
    year = RO_CNP_CENTURIES.get(number[0], 1900) + int(number[1:3])
    return is_date(year, int(number[3:5]), int(number[5:7]))


def rule_ro_cui_check(number):
    # The weights stand under the last nine digits before the check digit.
    body = number[:-1].zfill(9)
    s = 10 * sum(w * int(c) for w, c in zip((7, 5, 3, 2, 1, 7, 5, 3, 2), body))
    return number[-1] == str(s % 11 % 10)


def rule_se_personnummer_date(number):
    # YYYYMMDD-NNNN, or YYMMDD-NNNN within the last hundred years (+ for a hundred years more). Read at any date
    # of the 2000s the two forms differ only in 00: with - it is 2000, a leap year, with + it is 1900.
    if len(number) == 13:
        return int(number[0:4]) > 0 and is_date(int(number[0:4]), int(number[4:6]), int(number[6:8]))
    year = 1900 if number[0:2] == '00' and number[6] == '+' else 2000 + int(number[0:2])
    return is_date(year, int(number[2:4]), int(number[4:6]))


def rule_se_personnummer_check(number):
    return m.luhn_ok(number[-11:-5] + number[-4:])


def rule_si_emso_date(number):
    year = int(number[4:7])
    return is_date(year + (2000 if year < 800 else 1000), int(number[2:4]), int(number[0:2]))


SM_COE_LOW = [2, 4, 6, 7, 8, 9, 10, 11, 13, 16, 18, 19, 20, 21, 25, 26, 30, 32, 33, 35, 36, 37, 38, 39, 40, 42,
              45, 47, 49, 51, 52, 55, 56, 57, 58, 59, 61, 62, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76,
              79, 80, 81, 84, 85, 87, 88, 91, 92, 94, 95, 96, 97, 99]


def rule_sm_coe_low(number):
    # Only some numbers below 100 were issued.
    return len(number) >= 3 or int(number) in SM_COE_LOW


def rule_ua_edrpou_check(number):
    weights = [7, 1, 2, 3, 4, 5, 6] if number[0] in '345' else [1, 2, 3, 4, 5, 6, 7]
    s = sum(w * int(c) for w, c in zip(weights, number)) % 11
    if s == 10:
        s = sum((w + 2) * int(c) for w, c in zip(weights, number)) % 11 % 10
    return number[7] == str(s)


SECURITIES_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ*@#'


def rule_securities_check(number):
    # CUSIP and FIGI: values 0-9, A-Z as 10 to 35 (and *, @, # as 36 to 38), every second doubled; the decimal
    # digits of all are summed and the check digit brings the sum to a multiple of 10.
    text = ''.join(str((1, 2)[i % 2] * SECURITIES_ALPHABET.index(c)) for i, c in enumerate(number[:-1]))
    return number[-1] == str((10 - sum(int(d) for d in text)) % 10)


def rule_casrn_check(number):
    digits = number.replace('-', '')
    return number[-1] == str(sum((i + 1) * int(c) for i, c in enumerate(reversed(digits[:-1]))) % 10)


def rule_sk_dph_check(number):
    # A Slovak birth number, or a company's: no leading 0, a third digit of 2-4 or 7-9, a multiple of 11.
    birth_number = m.NAMED['cz.rc.date'](number) and m.NAMED['cz.rc.check'](number)
    return birth_number or (number[0] != '0' and number[2] in '234789' and int(number) % 11 == 0)


RULES.update({
    'is.kennitala.date': rule_is_kennitala_date,
    'it.aic.check': rule_it_aic_check,
    'lt.asmens.date': rule_lt_asmens_date,
    'lt.pvm.type': lambda number: number[-2] == '1',
    'lu.tva.check': rule_lu_tva_check,
    'lv.pvn.check': rule_lv_pvn_check,
    'mc.tva.check': rule_mc_tva_check,
    'nl.onderwijsnummer.check': rule_nl_onderwijsnummer_check,
    'no.fodselsnummer.date': rule_no_fodselsnummer_date,
    'pl.regon.long': rule_pl_regon_long,
    'pt.cc.check': rule_pt_cc_check,
    'ro.cnp.date': rule_ro_cnp_date,
    'ro.cui.check': rule_ro_cui_check,
    'se.personnummer.date': rule_se_personnummer_date,
    'se.personnummer.check': rule_se_personnummer_check,
    'si.emso.date': rule_si_emso_date,
    'sm.coe.low': rule_sm_coe_low,
    'sk.dph.check': rule_sk_dph_check,
    'ua.edrpou.check': rule_ua_edrpou_check,
    'securities.check': rule_securities_check,
    'casrn.check': rule_casrn_check,
})


# ---------------------------------------------------------------------------------------------
# Formats


def define(meta):
    """Fills FORMATS from the helpers of identifier_metadata (`meta`)."""
    global m
    m = meta
    fam, W, digits = m.fam, m.W, m.digits
    nonzero = '123456789'
    m.fix_clock('no.fodselsnummer')
    FORMATS.update({
        'is.kennitala': dict(alphabet={10: ['01234567', 'd', '01'] + ['d'] * 6 + ['09']}, checks=[
            fam('named', name='is.kennitala.date', problem='not a valid date'),
            W(weights=[3, 2, 7, 6, 5, 4, 3, 2, 1, 0], mod=11, table=m.zero_when(11))]),
        'is.vsk': dict(alphabet={5: digits(5), 6: digits(6)}, checks=[]),
        'it.aic': dict(alphabet={6: ['012'] + [AIC_BASE32] * 5, 9: '0' + digits(8)}, checks=[
            fam('named', name='it.aic.check', problem='check digit does not match')]),
        'li.peid': dict(alphabet={n: nonzero + digits(n - 1) for n in range(4, 13)}, checks=[]),
        'lt.asmens': dict(alphabet={11: digits(11)}, checks=[
            fam('named', name='lt.asmens.date', problem='not a valid birth date'),
            fam('named', name='baltic.check', problem='check digit does not match')]),
        # The 1 before the check digit is a slot of the nine-digit form, not a literal: a literal there would
        # count as no entered character, and the twelve-digit form would read those nine keys as more of its own.
        'lt.pvm': dict(alphabet={9: digits(9), 12: ['d'] * 10 + ['1', 'd']}, checks=[
            fam('named', name='lt.pvm.type', problem='the digit before the check digit must be 1'),
            fam('named', name='baltic.check', problem='check digit does not match')]),
        'lu.tva': dict(alphabet={8: digits(8)}, checks=[
            fam('named', name='lu.tva.check', problem='check digits do not match')]),
        'lv.pvn': dict(alphabet={11: digits(11)}, checks=[
            fam('named', name='lv.pvn.check', problem='check digit or birth date does not match')]),
        'mc.tva': dict(alphabet={13: ['F', 'R', m.FR_TVA_ALPHABET, m.FR_TVA_ALPHABET, '0', '0', '0'] + ['d'] * 6},
                       checks=[fam('named', name='mc.tva.check', problem='check digits do not match')]),
        'md.idno': dict(alphabet={13: digits(13)}, checks=[
            W(at=12, weights=[7, 3, 1] * 4, mod=10, table=m.remainder(10))]),
        'me.pib': dict(alphabet={8: digits(8)}, checks=[
            W(at=7, weights=[8, 7, 6, 5, 4, 3, 2], mod=11, table=m.complement(11, mod10=True))]),
        'mk.edb': dict(alphabet={13: digits(13)}, checks=[
            W(at=12, weights=[7, 6, 5, 4, 3, 2] * 2, mod=11, table=m.complement(11, mod10=True))]),
        'mt.vat': dict(alphabet={8: nonzero + digits(7)}, checks=[
            W(weights=[3, 4, 6, 7, 8, 9, 10, 1], mod=37, table=m.zero_when(37))]),
    })
    letter_no_o = m.UPPER.replace('O', '')
    FORMATS.update({
        'nl.brin': dict(alphabet={4: ['d', 'd', 'L', 'L'], 6: ['d', 'd', 'L', 'L', 'd', 'd']}, checks=[]),
        'nl.identiteitskaartnummer': dict(alphabet={9: [letter_no_o] * 2 + [m.DIGITS + letter_no_o] * 6 + ['d']},
                                          checks=[]),
        'nl.onderwijsnummer': dict(alphabet={9: ['1', '0'] + ['d'] * 7}, checks=[
            fam('named', name='nl.onderwijsnummer.check', problem='check digit does not match')]),
        'no.fodselsnummer': dict(alphabet={11: ['01234567', 'd', '0145'] + ['d'] * 8}, checks=[
            fam('named', name='no.fodselsnummer.date', problem='not a valid birth date'),
            W(at=9, weights=[3, 7, 6, 1, 8, 9, 4, 5, 2], mod=11, table=m.complement(11)),
            W(at=10, weights=[5, 4, 3, 2, 7, 6, 5, 4, 3, 2], mod=11, table=m.complement(11))]),
        'no.orgnr': dict(alphabet={9: digits(9)}, checks=[
            W(weights=[3, 2, 7, 6, 5, 4, 3, 2, 1], mod=11, table=m.zero_when(11))]),
        'no.mva': dict(alphabet={12: ['d'] * 9 + ['M', 'V', 'A']}, checks=[
            W(weights=[3, 2, 7, 6, 5, 4, 3, 2, 1], mod=11, table=m.zero_when(11))]),
        'pl.regon': dict(alphabet={9: digits(9), 14: digits(14)}, checks=[
            W(at=8, weights=[8, 9, 2, 3, 4, 5, 6, 7], mod=11, table=m.remainder(11, mod10=True)),
            fam('named', name='pl.regon.long', problem='check digit does not match')]),
        'pt.cc': dict(alphabet={12: ['d'] * 9 + ['c', 'c', 'd']}, checks=[
            fam('named', name='pt.cc.check', problem='check digit does not match')]),
        'ro.cnp': dict(alphabet={13: [nonzero, 'd', 'd', '01', 'd', '0123'] + ['d'] * 7}, checks=[
            fam('named', name='ro.cnp.date', problem='not a valid birth date'),
            fam('in', span=(7, 9), values=m.module_set('ro.cnp', '_COUNTIES'), label='county'),
            W(at=12, weights=[2, 7, 9, 1, 4, 6, 3, 5, 8, 2, 7, 9], mod=11, table=m.remainder(11)[:10] + '1')]),
        'ro.cui': dict(alphabet={n: nonzero + digits(n - 1) for n in range(2, 11)}, checks=[
            fam('named', name='ro.cui.check', problem='check digit does not match')]),
    })
    ddv_table = '?0' + ''.join(str(11 - r) for r in range(2, 11))
    FORMATS.update({
        'rs.pib': dict(alphabet={9: digits(9)}, checks=[fam('mod11_10')]),
        'se.orgnr': dict(alphabet={10: digits(10)}, checks=[fam('luhn')]),
        'se.personnummer': dict(alphabet={11: ['d', 'd', '01', 'd', '0123', 'd', '-+'] + ['d'] * 4,
                                          13: ['d'] * 4 + ['01', 'd', '0123', 'd', '-+'] + ['d'] * 4}, checks=[
            fam('named', name='se.personnummer.date', problem='not a valid birth date'),
            fam('named', name='se.personnummer.check', problem='check digit does not match')]),
        'se.vat': dict(alphabet={12: ['d'] * 10 + ['0', '1']}, checks=[fam('luhn', span=(0, 10))]),
        'si.ddv': dict(alphabet={8: nonzero + digits(7)}, checks=[
            W(at=7, weights=[8, 7, 6, 5, 4, 3, 2], mod=11, table=ddv_table)]),
        'si.emso': dict(alphabet={13: ['0123', 'd', '01'] + ['d'] * 10}, checks=[
            fam('named', name='si.emso.date', problem='not a valid birth date'),
            W(at=12, weights=[7, 6, 5, 4, 3, 2] * 2, mod=11, table=m.complement(11, mod10=True))]),
        'si.maticna': dict(alphabet={7: digits(7), 10: ['d'] * 7 + ['c', 'd', 'd']}, checks=[
            W(at=6, weights=[7, 6, 5, 4, 3, 2], mod=11, table=ddv_table),
            fam('notIn', span=(7, 10), values=['000'], label='unit number')]),
        # The Slovak birth number is the Czech one (the two were one until 1993).
        'sk.rc': dict(alphabet={9: digits(9), 10: digits(10)}, checks=[
            fam('named', name='cz.rc.date', problem='not a valid birth date'),
            fam('named', name='cz.rc.check', problem='check digit does not match')]),
        'sk.dph': dict(alphabet={10: digits(10)}, checks=[
            fam('named', name='sk.dph.check', problem='check digit does not match')]),
        'sm.coe': dict(alphabet={n: nonzero + digits(n - 1) for n in range(1, 6)}, checks=[
            fam('named', name='sm.coe.low', problem='not an issued number')]),
        'ua.edrpou': dict(alphabet={8: digits(8)}, checks=[
            fam('named', name='ua.edrpou.check', problem='check digit does not match')]),
        'ua.rntrc': dict(alphabet={10: digits(10)}, checks=[
            W(at=9, weights=[-1, 5, 7, 9, 4, 6, 10, 5, 7], mod=11, table=m.remainder(11, mod10=True))]),
    })
    figi = '0123456789BCDFGHJKLMNPQRSTVWXYZ'
    figi_letters = ''.join(c for c in figi if not c.isdigit())
    imsi_db = m.numdb.get('imsi')
    mccs = [p for p in ('%03d' % n for n in range(1000)) if len(imsi_db.split(p + '0' * 12)) >= 2]
    FORMATS.update({
        'cusip': dict(alphabet={9: [SECURITIES_ALPHABET] * 8 + ['d']}, checks=[
            fam('named', name='securities.check', problem='check digit does not match')]),
        'figi': dict(alphabet={12: [figi_letters, figi_letters, 'G'] + [figi] * 8 + ['d']}, checks=[
            fam('notIn', span=(0, 2), values=['BS', 'BM', 'GG', 'GB', 'VG'], label='prefix'),
            fam('named', name='securities.check', problem='check digit does not match')]),
        'imo': dict(alphabet={7: digits(7)}, checks=[
            W(at=6, weights=[7, 6, 5, 4, 3, 2], mod=10, table=m.remainder(10))]),
        'isni': dict(alphabet={16: ['d'] * 15 + [m.DIGITS + 'X']}, checks=[fam('mod11_2')]),
        'iso9362': dict(m.FORMATS['bic']),
        'isrc': dict(alphabet={12: ['L', 'L', 'c', 'c', 'c'] + ['d'] * 7}, checks=[
            fam('in', span=(0, 2), values=m.module_set('isrc', '_country_codes'), label='country code')]),
        'meid': dict(alphabet={14: ['0123456789ABCDEF'] * 14}, checks=[]),
        'casrn': dict(alphabet={n: [nonzero] + ['d'] * (n - 6) + ['-', 'd', 'd', '-', 'd'] for n in range(7, 13)},
                      checks=[fam('named', name='casrn.check', problem='check digit does not match')]),
        'imsi': dict(alphabet={14: digits(14), 15: digits(15)}, checks=[
            fam('in', span=(0, 3), values=mccs, label='mobile country code')]),
    })
    m.CHECK_POSITIONS.update({
        'se.vat': lambda n: [9], 'si.maticna': lambda n: [6], 'sm.coe': lambda n: [0],
        'no.fodselsnummer': lambda n: [9, 10], 'no.mva': lambda n: [8], 'pl.regon': lambda n: [8] if n == 9 else [8, 13],
        'is.kennitala': lambda n: [8], 'lu.tva': lambda n: [6, 7], 'mc.tva': lambda n: [2, 3],
    })

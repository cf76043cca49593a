"""Identifier formats of European countries, Andorra to Ireland, and of the EU: facts for identifier_metadata.py.

`define(m)` fills FORMATS and RULES, given the identifier_metadata module `m` (its check families, helpers and
tables); each rule of RULES has a Swift twin of the same name in IdentifierRulesEuropeA.swift.
"""
import importlib
import string

UPPER = string.ascii_uppercase

FORMATS = {}
RULES = {}
COUNTRIES = {
    'ad': 'Andorra', 'al': 'Albania', 'bg': 'Bulgaria', 'by': 'Belarus', 'cy': 'Cyprus', 'cz': 'Czechia',
    'ee': 'Estonia', 'fo': 'Faroe Islands', 'gr': 'Greece', 'hr': 'Croatia', 'hu': 'Hungary', 'ie': 'Ireland',
    'eu': 'European Union',
}

m = None


def is_date(year, month, day):
    return m.is_date(year, month, day)


# ---------------------------------------------------------------------------------------------
# Rules


def rule_ad_nrt_range(number):
    digits = number[1:7]
    if number[0] == 'F':
        return digits <= '699999'
    if number[0] in 'AL':
        return '699999' < digits < '800000'
    return True


def rule_be_mod97(number):
    # The first ten digits modulo 97 (97 for 0) are the last two.
    return (int(number[:10]) % 97 or 97) == int(number[10:12])


def rule_be_nn_check(number):
    # 97 minus the first nine digits modulo 97 are the last two, with a 2 before them for births from 2000.
    return any(97 - int(body) % 97 == int(number[9:11]) for body in (number[:9], '2' + number[:9]))


def rule_bg_egn_date(number):
    year, month = 1900 + int(number[0:2]), int(number[2:4])
    if month > 40:
        year, month = year + 100, month - 40
    elif month > 20:
        year, month = year - 100, month - 20
    return is_date(year, month, int(number[4:6]))


def bg_egn_ok(number):
    s = sum(w * int(c) for w, c in zip((2, 4, 8, 5, 10, 9, 7, 3, 6), number))
    return rule_bg_egn_date(number) and number[9] == str(s % 11 % 10)


def rule_bg_vat(number):
    if len(number) == 9:
        s = sum((i + 1) * int(c) for i, c in enumerate(number[:8])) % 11
        if s == 10:
            s = sum((i + 3) * int(c) for i, c in enumerate(number[:8])) % 11
        return number[8] == str(s % 10)
    if bg_egn_ok(number):
        return True
    if number[9] == str(sum(w * int(c) for w, c in zip((21, 19, 17, 13, 11, 9, 7, 3, 1), number)) % 10):
        return True
    return number[9] == str((11 - sum(w * int(c) for w, c in zip((4, 3, 2, 7, 6, 5, 4, 3, 2), number))) % 11)


CY_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21]


def rule_cy_vat(number):
    s = sum(CY_ODD[int(c)] for c in number[0:8:2]) + sum(int(c) for c in number[1:8:2])
    return number[8] == m.UPPER[s % 26]


def rule_cz_rc_date(number):
    year = 1900 + int(number[0:2])
    if len(number) == 9:
        if year >= 1980:
            year -= 100
        if year > 1953:
            return False
    elif year < 1954:
        year += 100
    return is_date(year, int(number[2:4]) % 50 % 20, int(number[4:6]))


def rule_cz_rc_check(number):
    return len(number) == 9 or number[9] == str(int(number[:9]) % 11 % 10)


def cz_rc_ok(number):
    return rule_cz_rc_date(number) and rule_cz_rc_check(number)


def rule_cz_dic(number):
    if len(number) == 8:
        s = sum((8 - i) * int(c) for i, c in enumerate(number[:7]))
        return number[7] == str(((11 - s) % 11 or 1) % 10)
    if len(number) == 9 and number[0] == '6':
        s = sum((8 - i) * int(c) for i, c in enumerate(number[1:8])) % 11
        return number[8] == str((8 - (10 - s) % 11) % 10)
    return cz_rc_ok(number)


def rule_dk_cpr_date(number):
    year, seventh = int(number[4:6]), number[6]
    if seventh in '5678' and year >= 58:
        year += 1800
    elif seventh in '0123' or (seventh in '49' and year >= 37):
        year += 1900
    else:
        year += 2000
    return is_date(year, int(number[2:4]), int(number[0:2]))


def rule_ee_ik_date(number):
    century = {'1': 1800, '2': 1800, '3': 1900, '4': 1900, '5': 2000, '6': 2000, '7': 2100, '8': 2100}[number[0]]
    return is_date(century + int(number[1:3]), int(number[3:5]), int(number[5:7]))


def rule_baltic_check(number):
    # Estonian and Lithuanian personal and company numbers. Weights 1 to 9, 1, ...; a sum of 10 modulo 11 is taken again with weights 3 to 9, 1, 2, ...
    body = number[:-1]
    s = sum((i % 9 + 1) * int(c) for i, c in enumerate(body)) % 11
    if s == 10:
        s = sum(((i + 2) % 9 + 1) * int(c) for i, c in enumerate(body)) % 11
    return number[-1] == str(s % 10)


STNR_PREFIXES = sorted({'28', '11', '30', '24', '22', '26', '40', '23', '27', '10', '32', '31', '21', '41'}
                       | {'%d%d' % (a, b) for a in (5, 9) for b in range(10)})


def rule_de_stnr_region(number):
    # The 13-digit national form starts with a state's two digits (Bavaria 9 and NRW 5 with a digit of the office)
    # and has a 0 after the four.
    return len(number) != 13 or (number[:2] in STNR_PREFIXES and number[4] == '0')


RULES.update({
    'ad.nrt.range': rule_ad_nrt_range,
    'be.mod97': rule_be_mod97,
    'be.nn.check': rule_be_nn_check,
    'bg.egn.date': rule_bg_egn_date,
    'bg.vat.check': rule_bg_vat,
    'cy.vat.check': rule_cy_vat,
    'cz.rc.date': rule_cz_rc_date,
    'cz.rc.check': rule_cz_rc_check,
    'cz.dic.check': rule_cz_dic,
    'dk.cpr.date': rule_dk_cpr_date,
    'ee.ik.date': rule_ee_ik_date,
    'baltic.check': rule_baltic_check,
    'de.stnr.region': rule_de_stnr_region,
})


def rule_es_ccc(number):
    # Each check digit: the digits weighted 1, 2, 4, 8, ... modulo 11, as 11 minus that (0 and 1 stay).
    def check(digits):
        s = sum(int(c) * 2 ** i for i, c in enumerate(digits)) % 11
        return str(s if s < 2 else 11 - s)
    return number[8:10] == check('00' + number[:8]) + check(number[10:20])


ES_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE'


def rule_es_cups(number):
    high, low = divmod(int(number[2:18]) % 529, 23)
    return number[18:20] == ES_LETTERS[high] + ES_LETTERS[low]


CATASTRO_LETTERS = 'MQWERTYUIOPASDFGHJKLBZX'


def rule_es_referenciacatastral(number):
    # Letters count from A = 1 with the Spanish alphabet's Ñ after N; digits are their value.
    def check(part):
        s = sum(w * (int(c) if c.isdigit() else 'ABCDEFGHIJKLMNÑOPQRSTUVWXYZ'.index(c) + 1)
                for w, c in zip((13, 15, 12, 5, 4, 17, 9, 21, 3, 7, 1), part))
        return CATASTRO_LETTERS[s % 23]
    return number[18:20] == check(number[0:7] + number[14:18]) + check(number[7:14] + number[14:18])


FI_ASSOCIATION_LOW = {1, 6, 7, 9, 12, 14, 15, 16, 18, 22, 23, 24, 27, 28, 29, 35, 36, 38, 40, 41, 42, 43, 45, 46,
                      50, 52, 55, 58, 60, 64, 65, 68, 72, 75, 76, 77, 78, 83, 84, 85, 89, 92}


def rule_fi_associationid_low(number):
    return len(number) >= 3 or int(number) in FI_ASSOCIATION_LOW


def rule_fr_nif(number):
    return int(number[10:13]) == int(number[:10]) % 511


def rule_gb_sedol_digits(number):
    # A SEDOL that starts with a digit is all digits.
    return not number[0].isdigit() or number.isdigit()


UPN_ALPHABET = 'ABCDEFGHJKLMNPQRTUVWXYZ0123456789'


def rule_gb_upn(number):
    return number[0] == UPN_ALPHABET[sum(i * UPN_ALPHABET.index(c) for i, c in enumerate(number[1:], 2)) % 23]


def rule_gr_amka_date(number):
    day, month, year = int(number[0:2]), int(number[2:4]), 1900 + int(number[4:6])
    return is_date(year, month, day) or is_date(year + 100, month, day)


IE_ALPHABET = 'WABCDEFGHIJKLMNOPQRSTUV'


def ie_check(body, extra):
    # Seven digits weighted 8 to 2 and the letter after the check letter (W or none is 0) weighted 9, modulo 23.
    body = body.zfill(7)
    return IE_ALPHABET[(sum((8 - i) * int(c) for i, c in enumerate(body)) + 9 * IE_ALPHABET.index(extra)) % 23]


def rule_ie_pps(number):
    extra = number[8] if len(number) == 9 and number[8] in 'ABH' else ''
    return number[7] == ie_check(number[:7], extra)


def rule_ie_vat(number):
    if number[:7].isdigit():
        return number[7] == ie_check(number[:7], number[8:])
    if number[1] in UPPER + '+*':
        return number[7] == ie_check(number[2:7] + number[0], '')
    return False


def rule_eu_ecnumber(number):
    digits = number.replace('-', '')
    return digits[6] == str(sum((i + 1) * int(c) for i, c in enumerate(digits[:6])) % 11)[0]


EIC_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-'


def rule_eu_eic(number):
    s = sum((16 - i) * EIC_ALPHABET.index(c) for i, c in enumerate(number[:15]))
    return number[15] == EIC_ALPHABET[36 - (s - 1) % 37]


def rule_eu_banknote(number):
    return sum(int(c) if c.isdigit() else ord(c) for c in number) % 9 == 0


RULES.update({
    'es.ccc.check': rule_es_ccc,
    'es.cups.check': rule_es_cups,
    'es.referenciacatastral.check': rule_es_referenciacatastral,
    'fi.associationid.low': rule_fi_associationid_low,
    'fr.nif.check': rule_fr_nif,
    'gb.sedol.digits': rule_gb_sedol_digits,
    'gb.upn.check': rule_gb_upn,
    'gr.amka.date': rule_gr_amka_date,
    'ie.pps.check': rule_ie_pps,
    'ie.vat.check': rule_ie_vat,
    'eu.ecnumber.check': rule_eu_ecnumber,
    'eu.eic.check': rule_eu_eic,
    'eu.banknote.check': rule_eu_banknote,
})


# ---------------------------------------------------------------------------------------------
# Formats


def define(meta):
    """Fills FORMATS from the helpers of identifier_metadata (`meta`)."""
    global m
    m = meta
    fam, W, digits, DIGITS, UPPER = m.fam, m.W, m.digits, m.DIGITS, m.UPPER
    for name in ('be.nn', 'dk.cpr'):
        m.fix_clock(name)
    at_offices = [p for p in ('%02d' % n for n in range(100)) if m.numdb.get('at/fa').info(p)[0][1]]
    nn_months = ['%02d' % n for n in range(0, 13)]
    bis_months = ['%02d' % n for n in list(range(20, 33)) + list(range(40, 53))]
    FORMATS.update({
        'ad.nrt': dict(alphabet={8: ['ACDEFGLOPU'] + ['d'] * 6 + ['L']}, checks=[
            fam('named', name='ad.nrt.range', problem='number is outside the range of its type of entity')]),
        'al.nipt': dict(alphabet={10: ['ABCDEFGHIJKLM'] + ['d'] * 8 + ['L']}, checks=[]),
        'at.tin': dict(alphabet={9: digits(9)}, checks=[
            fam('luhn'),
            fam('in', span=(0, 2), values=at_offices, label='tax office')]),
        'at.vnr': dict(alphabet={10: ['123456789'] + ['d'] * 9}, checks=[
            W(at=3, weights=[3, 7, 9, 0, 5, 8, 4, 2, 1, 6], mod=11, table=m.remainder(11))]),
        'be.nn': dict(alphabet={11: digits(11)}, checks=[
            fam('named', name='be.nn.check', problem='check digits do not match'),
            fam('in', span=(2, 4), values=nn_months, label='month')]),
        'be.bis': dict(alphabet={11: digits(11)}, checks=[
            fam('named', name='be.nn.check', problem='check digits do not match'),
            fam('in', span=(2, 4), values=bis_months, label='month')]),
        'be.ssn': dict(alphabet={11: digits(11)}, checks=[
            fam('named', name='be.nn.check', problem='check digits do not match'),
            fam('in', span=(2, 4), values=nn_months + bis_months, label='month')]),
        'be.eid': dict(alphabet={12: digits(12)}, checks=[
            fam('named', name='be.mod97', problem='check digits do not match')]),
        'be.ogm_vcs': dict(alphabet={12: digits(12)}, checks=[
            fam('named', name='be.mod97', problem='check digits do not match')]),
        'bg.egn': dict(alphabet={10: ['d', 'd', '012345', 'd', '0123'] + ['d'] * 5}, checks=[
            fam('named', name='bg.egn.date', problem='not a valid birth date'),
            W(at=9, weights=[2, 4, 8, 5, 10, 9, 7, 3, 6], mod=11, table=m.remainder(11, mod10=True))]),
        'bg.pnf': dict(alphabet={10: digits(10)}, checks=[
            W(at=9, weights=[21, 19, 17, 13, 11, 9, 7, 3, 1], mod=10, table=m.remainder(10))]),
        'bg.vat': dict(alphabet={9: digits(9), 10: digits(10)}, checks=[
            fam('named', name='bg.vat.check', problem='check digit does not match')]),
        'cy.vat': dict(alphabet={9: ['d'] * 8 + ['L']}, checks=[
            fam('notIn', span=(0, 2), values=['12'], label='prefix'),
            fam('named', name='cy.vat.check', problem='check letter does not match')]),
        'cz.rc': dict(alphabet={9: digits(9), 10: digits(10)}, checks=[
            fam('named', name='cz.rc.date', problem='not a valid birth date'),
            fam('named', name='cz.rc.check', problem='check digit does not match')]),
        'cz.dic': dict(alphabet={8: ['012345678'] + ['d'] * 7, 9: digits(9), 10: digits(10)}, checks=[
            fam('named', name='cz.dic.check', problem='check digit or birth date does not match')]),
        'de.stnr': dict(alphabet={10: digits(10), 11: digits(11), 13: digits(13)}, checks=[
            fam('named', name='de.stnr.region', problem='not the number of a state\'s tax office')]),
        'de.wkn': dict(alphabet={6: ['0123456789ABCDEFGHJKLMNPQRSTUVWXYZ'] * 6}, checks=[]),
        'dk.cpr': dict(alphabet={10: ['0123'] + ['d'] + ['01'] + ['d'] * 7}, checks=[
            fam('named', name='dk.cpr.date', problem='not a valid birth date')]),
        'dk.cvr': dict(alphabet={8: ['123456789'] + ['d'] * 7}, checks=[
            W(weights=[2, 7, 6, 5, 4, 3, 2, 1], mod=11, table=m.zero_when(11))]),
        'ee.ik': dict(alphabet={11: ['12345678', 'd', 'd', '01', 'd', '0123'] + ['d'] * 5}, checks=[
            fam('named', name='ee.ik.date', problem='not a valid birth date'),
            fam('named', name='baltic.check', problem='check digit does not match')]),
        'ee.kmkr': dict(alphabet={9: digits(9)}, checks=[
            W(weights=[3, 7, 1, 3, 7, 1, 3, 7, 1], mod=10, table=m.zero_when(10))]),
        'ee.registrikood': dict(alphabet={8: ['1789'] + ['d'] * 7}, checks=[
            fam('named', name='baltic.check', problem='check digit does not match')]),
    })
    m.CHECK_POSITIONS.update({
        'at.vnr': lambda n: [3], 'be.nn': lambda n: [9, 10], 'be.bis': lambda n: [9, 10], 'be.ssn': lambda n: [9, 10],
        'be.eid': lambda n: [10, 11], 'be.ogm_vcs': lambda n: [10, 11],
        'dk.cvr': lambda n: [7], 'dk.cpr': lambda n: [0, 1],
    })

    sedol = '0123456789BCDFGHJKLMNPQRSTVWXYZ'
    upn_las = sorted(str(n) for n in importlib.import_module('stdnum.gb.upn')._la_numbers)
    FORMATS.update({
        'es.ccc': dict(alphabet={20: digits(20)}, checks=[
            fam('named', name='es.ccc.check', problem='check digits do not match')]),
        'es.cups': dict(alphabet={20: ['E', 'S'] + ['d'] * 16 + [ES_LETTERS] * 2,
                                  22: ['E', 'S'] + ['d'] * 16 + [ES_LETTERS] * 2 + ['d', 'FPRCXYZ']}, checks=[
            fam('named', name='es.cups.check', problem='check letters do not match')]),
        'es.referenciacatastral': dict(alphabet={20: ['c'] * 18 + [CATASTRO_LETTERS] * 2}, checks=[
            fam('named', name='es.referenciacatastral.check', problem='check letters do not match')]),
        'fi.alv': dict(alphabet={8: digits(8)}, checks=[
            W(weights=[7, 9, 10, 5, 8, 4, 2, 1], mod=11, table=m.zero_when(11))]),
        'fi.ytunnus': dict(alphabet={8: digits(8)}, checks=[
            W(weights=[7, 9, 10, 5, 8, 4, 2, 1], mod=11, table=m.zero_when(11))]),
        'fi.associationid': dict(alphabet={n: digits(n) for n in range(1, 7)}, checks=[
            fam('named', name='fi.associationid.low', problem='not a number of one of the oldest associations')]),
        'fi.veronumero': dict(alphabet={12: digits(12)}, checks=[]),
        'fo.vn': dict(alphabet={6: digits(6)}, checks=[]),
        'fr.nif': dict(alphabet={13: ['0123'] + ['d'] * 12}, checks=[
            fam('named', name='fr.nif.check', problem='check digits do not match')]),
        'fr.accise': dict(alphabet={13: ['F', 'R', '0'] + ['d'] * 5 + ['ENCB'] + ['d'] * 3 + ['c']}, checks=[]),
        'gb.sedol': dict(alphabet={7: [sedol] * 6 + ['d']}, checks=[
            fam('named', name='gb.sedol.digits', problem='a SEDOL that starts with a digit has only digits'),
            W(at=6, weights=[1, 3, 1, 7, 3, 9], mod=10, values='alnum36', table=m.complement(10))]),
        'gb.upn': dict(alphabet={13: [UPN_ALPHABET[:23]] + ['d'] * 11 + [UPN_ALPHABET]}, checks=[
            fam('in', span=(1, 4), values=upn_las, label='local authority'),
            fam('named', name='gb.upn.check', problem='check letter does not match')]),
        'gr.amka': dict(alphabet={11: ['0123', 'd', '01'] + ['d'] * 8}, checks=[
            fam('luhn'),
            fam('named', name='gr.amka.date', problem='not a valid birth date')]),
        'gr.vat': dict(alphabet={9: digits(9)}, checks=[
            W(at=8, weights=[256, 128, 64, 32, 16, 8, 4, 2], mod=11, table=m.remainder(11, mod10=True))]),
        'hr.oib': dict(alphabet={11: digits(11)}, checks=[fam('mod11_10')]),
        'hu.anum': dict(alphabet={8: digits(8)}, checks=[
            W(weights=[9, 7, 3, 1, 9, 7, 3, 1], mod=10, table=m.zero_when(10))]),
        'ie.pps': dict(alphabet={8: ['d'] * 7 + ['ABCDEFGHIJKLMNOPQRSTUVW'],
                                 9: ['d'] * 7 + ['ABCDEFGHIJKLMNOPQRSTUVW', 'ABHWTX']}, checks=[
            fam('named', name='ie.pps.check', problem='check letter does not match')]),
        'ie.vat': dict(alphabet={8: ['d', DIGITS + UPPER + '+*'] + ['d'] * 5 + ['ABCDEFGHIJKLMNOPQRSTUVW'],
                                 9: ['d', DIGITS + UPPER + '+*'] + ['d'] * 5 + ['ABCDEFGHIJKLMNOPQRSTUVW'] * 2}, checks=[
            fam('named', name='ie.vat.check', problem='check letter does not match')]),
        'eu.ecnumber': dict(alphabet={9: ['d', 'd', 'd', '-', 'd', 'd', 'd', '-', 'd']}, checks=[
            fam('named', name='eu.ecnumber.check', problem='check digit does not match')]),
        'eu.eic': dict(alphabet={16: [m.ALNUM + '-'] * 15 + ['c']}, checks=[
            fam('named', name='eu.eic.check', problem='check character does not match')]),
        'eu.banknote': dict(alphabet={12: ['BCDEFGHJLMNPRSTUVWXYZ', 'c'] + ['d'] * 10}, checks=[
            fam('named', name='eu.banknote.check', problem='check digit does not match')]),
    })
    m.CHECK_POSITIONS.update({
        'es.ccc': lambda n: [8, 9], 'es.cups': lambda n: [18, 19], 'es.referenciacatastral': lambda n: [18, 19],
        'fr.nif': lambda n: [11, 12], 'gb.sedol': lambda n: [6], 'gb.upn': lambda n: [0], 'ie.pps': lambda n: [7],
        'ie.vat': lambda n: [7], 'hu.anum': lambda n: [7], 'fi.alv': lambda n: [7], 'fi.ytunnus': lambda n: [7],
    })
    m.PREPARE.update({
        'fr.nif': lambda chars: chars if not ''.join(chars[:10]).isdigit() else
        chars[:10] + list('%03d' % (int(''.join(chars[:10])) % 511)),
    })

"""Identifier formats of the Americas, Africa, Asia and Oceania: the facts of each (alphabets per length,
check families, named rules) and the Python twins of their rules in IdentifierRulesWorld.swift.

identifier_metadata.py merges FORMATS, RULES, CHECK_POSITIONS and COUNTRIES into its own tables and
verifies every format here against stdnum's is_valid like its own. This module needs nothing of it: the
few helpers are written out again so the two import in one direction only.
"""
import string

DIGITS = string.digits
UPPER = string.ascii_uppercase
ALNUM = DIGITS + UPPER


def fam(family, **p):
    return (family, p)


def W(**p):
    return ('weighted', p)


def digits(n):
    return 'd' * n


def luhn_ok(number):
    total = 0
    for i, c in enumerate(reversed(number)):
        v = int(c) * (2 if i % 2 else 1)
        total += v // 10 + v % 10
    return total % 10 == 0


def is_date(year, month, day):
    import datetime
    try:
        datetime.date(year, month, day)
        return True
    except ValueError:
        return False


def table(mod, check):
    """The check character for each remainder of a weighted sum modulo `mod`; `?` where there is none."""
    return ''.join(check(r) for r in range(mod))


# ---------------------------------------------------------------------------------------------
# Rules no family expresses, each with a Swift twin of the same name.

USCC_ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY'


def rule_cn_uscc(number):
    weights = (1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28)
    total = sum(USCC_ALPHABET.index(c) * w for c, w in zip(number, weights))
    return number[17] == USCC_ALPHABET[-total % 31]


def rule_cu_ni_date(number):
    century = 1800 if number[6] == '9' else 1900 if number[6] <= '5' else 2000
    return is_date(century + int(number[0:2]), int(number[2:4]), int(number[4:6]))


DO_RNC_WHITELIST = ['101581601', '101582245', '101595422', '101595785', '131188691', '401007374', '501341601',
                    '501378067', '501620371', '501651319', '501651823', '501651845', '501651926', '501656006',
                    '501658167', '501670785', '501676936', '501680158', '504654542', '504680029', '504681442',
                    '505038691']


def rule_do_rnc(number):
    s = sum(w * int(c) for w, c in zip((7, 9, 8, 6, 5, 4, 3, 2), number)) % 11
    return number in DO_RNC_WHITELIST or number[8] == str((10 - s) % 9 + 1)


DO_NCF_TYPES = ['01', '02', '03', '04', '11', '12', '13', '14', '15', '16', '17']
DO_ECF_TYPES = ['31', '32', '33', '34', '41', '43', '44', '45', '46', '47']


def rule_do_ncf(number):
    if len(number) == 13:
        return number[1:3] in DO_ECF_TYPES
    return (number[1:3] if len(number) == 11 else number[9:11]) in DO_NCF_TYPES


def ec_ci_ok(number):
    """The cedula's check over the first ten digits: weights 2, 1, each product's digits added."""
    return sum((lambda x: x - 9 if x > 9 else x)((2, 1)[i % 2] * int(c)) for i, c in enumerate(number[:10])) % 10 == 0


def rule_ec_ruc(number):
    """A person's (third digit below 6: the cedula and an establishment), a public body's (6: weights over nine
    digits and a four-digit establishment; else as a person's) or a company's (9: as a public body's, else
    weights over ten digits and an establishment)."""
    def weighted(weights):
        return sum(w * int(c) for w, c in zip(weights, number)) % 11 == 0

    natural = number[10:] != '000' and ec_ci_ok(number)
    public = number[9:] != '0000' and weighted((3, 2, 7, 6, 5, 4, 3, 2, 1))
    if number[2] < '6':
        return natural
    if number[2] == '6':
        return public or natural
    return public or number[10:] != '000' and weighted((4, 3, 2, 7, 6, 5, 4, 3, 2, 1))


def rule_gt_nit(number):
    s = sum(i * int(c) for i, c in enumerate(reversed(number[:-1]), 2))
    return number[-1] == '0123456789K'[-s % 11]


def rule_kr_brn(number):
    return number[:3] >= '101' and number[3:5] != '00' and number[5:9] != '0000'


def rule_ma_ice(number):
    return int(number) % 97 == 0


def rule_mu_nid_date(number):
    return is_date(2000 + int(number[5:7]), int(number[3:5]), int(number[1:3]))


def rule_mx_rfc_date(number):
    at = 3 if len(number) == 12 else 4
    return is_date(2000 + int(number[at:at + 2]), int(number[at + 2:at + 4]), int(number[at + 4:at + 6]))


def rule_my_nric_date(number):
    # stdnum tries the 1900s, then the 2000s: a day of either is a day of the 2000s (1900 was no leap year).
    return is_date(2000 + int(number[0:2]), int(number[2:4]), int(number[4:6]))


def rule_nz_ird(number):
    if not 10000000 < int(number) < 150000000:
        return False
    body = number[:-1].zfill(8)
    s = -sum(w * int(c) for w, c in zip((3, 2, 7, 6, 5, 4, 3, 2), body)) % 11
    if s == 10:
        s = -sum(w * int(c) for w, c in zip((7, 4, 3, 2, 5, 2, 7, 6), body)) % 11
    return number[-1] == str(s)


def rule_pe_cui(number):
    if len(number) == 8:
        return True
    r = sum(w * int(c) for w, c in zip((3, 2, 7, 6, 5, 4, 3, 2), number)) % 11
    return number[8] in ('65432110987'[r], 'KJIHGFEDCBA'[r])


def rule_py_ruc(number):
    s = sum(i * int(c) for i, c in enumerate(reversed(number[:-1]), 2))
    return number[-1] == str(-s % 11 % 10)


SN_COFI_LETTERS = 'ABCDEFGHJKLMNPQRSTUVWZ'


def rule_sn_ninea(number):
    body = number[:9] if len(number) in (9, 12) else number[:7]
    return sum(int(c) * (1, 2)[i % 2] for i, c in enumerate(body.zfill(9))) % 10 == 0


def rule_sv_nit(number):
    if number[10:13] <= '100':
        return number[13] == str(sum(int(c) * w for c, w in zip(number, range(14, 1, -1))) % 11 % 10)
    weights = (2, 7, 6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2)
    return number[13] == str(-sum(int(c) * w for c, w in zip(number, weights)) % 11 % 10)


def rule_tn_mf(number):
    return len(number) == 8 or number[9] == 'E' or number[10:] == '000'


def rule_tr_vkn(number):
    s = 0
    for i, c in enumerate(reversed(number[:9]), 1):
        c1 = (int(c) + i) % 10
        if c1:
            s += c1 * 2 ** i % 9 or 9
    return number[9] == str(-s % 10)


def rule_tw_ubn(number):
    s = sum(sum(int(d) for d in str(w * int(c))) for w, c in zip((1, 2, 1, 2, 1, 2, 4, 1), number)) % 10
    return s == 0 or s == 9 and number[6] == '7'


VE_RIF_TYPES = {'V': 4, 'E': 8, 'J': 12, 'P': 16, 'G': 20}


def rule_ve_rif(number):
    c = VE_RIF_TYPES[number[0]] + sum(w * int(n) for w, n in zip((3, 2, 7, 6, 5, 4, 3, 2), number[1:9]))
    return number[9] == '00987654321'[c % 11]


RULES = {
    'cn.uscc.check': rule_cn_uscc,
    'cu.ni.date': rule_cu_ni_date,
    'do.rnc.check': rule_do_rnc,
    'do.ncf.type': rule_do_ncf,
    'ec.ruc.check': rule_ec_ruc,
    'gt.nit.check': rule_gt_nit,
    'kr.brn.parts': rule_kr_brn,
    'ma.ice.check': rule_ma_ice,
    'mu.nid.date': rule_mu_nid_date,
    'mx.rfc.date': rule_mx_rfc_date,
    'my.nric.date': rule_my_nric_date,
    'nz.ird.check': rule_nz_ird,
    'pe.cui.check': rule_pe_cui,
    'py.ruc.check': rule_py_ruc,
    'sn.ninea.check': rule_sn_ninea,
    'sv.nit.check': rule_sv_nit,
    'tn.mf.establishment': rule_tn_mf,
    'tr.vkn.check': rule_tr_vkn,
    'tw.ubn.check': rule_tw_ubn,
    've.rif.check': rule_ve_rif,
}

# ---------------------------------------------------------------------------------------------
# The facts. Alphabets as in identifier_metadata.py: per length, one entry per position ('d' digit,
# 'L' letter, 'c' letter or digit, or the characters allowed there).

CR_CPJ_CLASSES = ['2100', '2200', '2300', '2400', '4000', '5001'] + ['3' + t for t in (
    '002', '003', '004', '005', '006', '007', '008', '009', '010', '011', '012', '013', '014', '101', '102', '103',
    '104', '105', '106', '107', '108', '109', '110')]

EC_PROVINCES = ['%02d' % n for n in range(1, 25)] + ['30', '50']
MX_RFC_LETTERS = UPPER + '&'


def mx_rfc_blacklist():
    import stdnum.mx.rfc
    return sorted(stdnum.mx.rfc._name_blacklist)


MX_RFC_BLACKLIST = mx_rfc_blacklist()

MY_BIRTH_PLACES = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12', '13', '14', '15', '16'] + [
    '%02d' % n for n in range(21, 69)] + ['71', '72', '74', '75', '76', '77', '78', '79'] + [
    '%02d' % n for n in range(82, 94)] + ['98', '99']
TH_CHECK = W(at=12, weights=list(range(2, -10, -1)), mod=11, table=table(11, lambda r: str((1 - r) % 10)))
TN_MF_KEYS = 'ABCDEFGHJKLMNPQRSTVWXYZ'

FORMATS = {
    'ar.dni': dict(alphabet={7: digits(7), 8: digits(8)}, checks=[]),
    'au.acn': dict(alphabet={9: digits(9)}, checks=[
        W(at=8, weights=[-8, -7, -6, -5, -4, -3, -2, -1], mod=10, table=DIGITS)]),
    'az.voen': dict(alphabet={10: ['d'] * 9 + ['12']}, checks=[
        W(at=8, weights=[4, 1, 8, 6, 2, 7, 5, 3], mod=11, table=DIGITS + '?')]),
    'ca.bc_phn': dict(alphabet={10: ['9'] + ['d'] * 9}, checks=[
        W(at=9, start=1, weights=[2, 4, 8, 5, 10, 9, 7, 3], mod=11, table=table(11, lambda r: str(-r % 11) if r != 1 else '?'))]),
    'cn.uscc': dict(alphabet={18: ['d'] * 8 + [USCC_ALPHABET] * 10}, checks=[
        fam('named', name='cn.uscc.check', problem='check character does not match')]),
    'cr.cpf': dict(alphabet={10: ['0'] + ['d'] * 9}, checks=[]),
    'cr.cpj': dict(alphabet={10: ['2345'] + ['d'] * 9}, checks=[
        fam('in', span=(0, 4), values=CR_CPJ_CLASSES, label='class and type')]),
    'cr.cr': dict(alphabet={11: ['1'] + ['d'] * 10, 12: ['1'] + ['d'] * 11}, checks=[]),
    'cu.ni': dict(alphabet={11: digits(11)}, checks=[
        fam('named', name='cu.ni.date', problem='not a valid birth date')]),
    'do.rnc': dict(alphabet={9: digits(9)}, checks=[
        fam('named', name='do.rnc.check', problem='check digit does not match')]),
    'do.ncf': dict(alphabet={11: ['B'] + ['d'] * 10, 13: ['E'] + ['d'] * 12, 19: ['AP'] + ['d'] * 18}, checks=[
        fam('named', name='do.ncf.type', problem='not a document type')]),
    'dz.nif': dict(alphabet={15: digits(15), 20: digits(20)}, checks=[]),
    'ec.ci': dict(alphabet={10: ['d', 'd', '0123456'] + ['d'] * 7}, checks=[
        fam('in', span=(0, 2), values=EC_PROVINCES, label='province'),
        W(weights=[2, 1] * 5, fold=True, mod=10, table='0' + '1' * 9)]),
    'ec.ruc': dict(alphabet={13: ['d', 'd', '01234569'] + ['d'] * 10}, checks=[
        fam('in', span=(0, 2), values=EC_PROVINCES, label='province'),
        fam('named', name='ec.ruc.check', problem='check digit or establishment number does not match')]),
    'eg.tn': dict(alphabet={9: digits(9)}, checks=[]),
    'gh.tin': dict(alphabet={11: ['PCGQV', '0', '0'] + ['d'] * 7 + [DIGITS + 'X']}, checks=[
        W(at=10, start=1, weights=list(range(1, 10)), mod=11, table=DIGITS + 'X')]),
    'gn.nifp': dict(alphabet={9: digits(9)}, checks=[fam('luhn')]),
    'gt.nit': dict(alphabet={n: ['123456789'] + ['d'] * (n - 2) + [DIGITS + 'K'] for n in range(2, 13)}, checks=[
        fam('named', name='gt.nit.check', problem='check digit does not match')]),
    'il.hp': dict(alphabet={9: ['5'] + ['d'] * 8}, checks=[fam('luhn')]),
    'il.idnr': dict(alphabet={9: digits(9)}, checks=[fam('notZero'), fam('luhn')]),
    'in.epic': dict(alphabet={10: ['L'] * 3 + ['d'] * 7}, checks=[fam('luhn', span=(3, None))]),
    'in.vid': dict(alphabet={16: ['23456789'] + ['d'] * 15}, checks=[
        fam('named', name='notPalindrome', problem='a palindrome is not a VID'),
        fam('verhoeff')]),
    'jp.in': dict(alphabet={12: digits(12)}, checks=[
        W(at=11, weights=[6, 5, 4, 3, 2, 7, 6, 5, 4, 3, 2], mod=11, table=table(11, lambda r: str(-r % 11 % 10)))]),
    'ke.pin': dict(alphabet={11: ['AP'] + ['d'] * 9 + ['L']}, checks=[]),
    'kr.brn': dict(alphabet={10: digits(10)}, checks=[
        fam('named', name='kr.brn.parts', problem='office, type or serial number is not issued')]),
    'ma.ice': dict(alphabet={15: digits(15)}, checks=[
        fam('named', name='ma.ice.check', problem='check digits do not match')]),
    'mu.nid': dict(alphabet={14: ['L'] + ['d'] * 12 + ['0123456789ABCDEFG']}, checks=[
        W(at=13, weights=list(range(14, 1, -1)), values='alnum36', mod=17, table=table(17, lambda r: ALNUM[-r % 17])),
        fam('named', name='mu.nid.date', problem='not a valid birth date')]),
    'mx.rfc': dict(alphabet={10: [MX_RFC_LETTERS] * 4 + ['d'] * 6, 12: [MX_RFC_LETTERS] * 3 + ['d'] * 6 + ['c'] * 3,
                             13: [MX_RFC_LETTERS] * 4 + ['d'] * 6 + ['c'] * 3}, checks=[
        fam('notIn', span=(0, 4), values=MX_RFC_BLACKLIST, label='name code'),
        fam('named', name='mx.rfc.date', problem='not a valid date')]),
    'my.nric': dict(alphabet={12: digits(12)}, checks=[
        fam('named', name='my.nric.date', problem='not a valid birth date'),
        fam('in', span=(6, 8), values=MY_BIRTH_PLACES, label='birth place')]),
    'mz.nuit': dict(alphabet={9: digits(9)}, checks=[
        W(at=8, weights=[8, 9, 4, 5, 6, 7, 8, 9], mod=11, table='01234567891')]),
    'nz.ird': dict(alphabet={8: ['123456789'] + ['d'] * 7, 9: ['01'] + ['d'] * 8}, checks=[
        fam('named', name='nz.ird.check', problem='check digit does not match')]),
    'pe.cui': dict(alphabet={8: digits(8), 9: ['d'] * 8 + [DIGITS + 'ABCDEFGHIJK']}, checks=[
        fam('named', name='pe.cui.check', problem='check character does not match')]),
    'pe.ruc': dict(alphabet={11: ['12', '0257'] + ['d'] * 9}, checks=[
        fam('in', span=(0, 2), values=['10', '15', '17', '20'], label='type'),
        W(at=10, weights=[5, 4, 3, 2, 7, 6, 5, 4, 3, 2], mod=11, table=table(11, lambda r: str((11 - r) % 10)))]),
    'pk.cnic': dict(alphabet={13: ['1234567'] + ['d'] * 11 + ['123456789']}, checks=[]),
    'py.ruc': dict(alphabet={n: digits(n) for n in range(2, 10)}, checks=[
        fam('named', name='py.ruc.check', problem='check digit does not match')]),
    'sn.ninea': dict(alphabet={7: digits(7), 9: digits(9), 10: ['d'] * 7 + ['012', SN_COFI_LETTERS, 'd'],
                               12: ['d'] * 9 + ['012', SN_COFI_LETTERS, 'd']}, checks=[
        fam('named', name='sn.ninea.check', problem='check digit does not match')]),
    'sv.nit': dict(alphabet={14: ['019'] + ['d'] * 13}, checks=[
        fam('named', name='sv.nit.check', problem='check digit does not match')]),
    'th.moa': dict(alphabet={13: ['0'] + ['d'] * 12}, checks=[TH_CHECK]),
    'th.pin': dict(alphabet={13: ['12345678'] + ['d'] * 12}, checks=[TH_CHECK]),
    'th.tin': dict(alphabet={13: ['012345678'] + ['d'] * 12}, display='compact', checks=[TH_CHECK]),
    'tn.mf': dict(alphabet={8: ['d'] * 7 + [TN_MF_KEYS], 13: ['d'] * 7 + [TN_MF_KEYS, 'APBDN', 'MPCNE', 'd', 'd', 'd']},
                  checks=[fam('named', name='tn.mf.establishment', problem='establishment number must be 000')]),
    'tr.tckimlik': dict(alphabet={11: ['123456789'] + ['d'] * 10}, checks=[
        W(at=9, weights=[3, 1] * 4 + [3], mod=10, table=table(10, lambda r: str(-r % 10))),
        W(at=10, weights=[1] * 10, mod=10, table=DIGITS)]),
    'tr.vkn': dict(alphabet={10: digits(10)}, checks=[
        fam('named', name='tr.vkn.check', problem='check digit does not match')]),
    'tw.ubn': dict(alphabet={8: digits(8)}, checks=[
        fam('named', name='tw.ubn.check', problem='check digit does not match')]),
    'us.atin': dict(alphabet={9: digits(9)}, checks=[]),
    'us.ptin': dict(alphabet={9: ['P'] + ['d'] * 8}, checks=[]),
    'us.rtn': dict(alphabet={9: digits(9)}, checks=[
        W(at=8, weights=[7, 3, 9, 7, 3, 9, 7, 3], mod=10, table=DIGITS)]),
    'us.tin': dict(alphabet={9: [DIGITS + 'P'] + ['d'] * 8}, display='compact', checks=[]),
    'uy.rut': dict(alphabet={12: ['012', 'd'] + ['d'] * 6 + ['0', '0', '1', 'd']}, checks=[
        fam('in', span=(0, 2), values=['%02d' % n for n in range(1, 23)], label='type'),
        fam('notIn', span=(2, 8), values=['000000'], label='number'),
        W(at=11, weights=[4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], mod=11, table=table(11, lambda r: str(-r % 11) if r != 1 else '?'))]),
    've.rif': dict(alphabet={10: ['VEJPG'] + ['d'] * 9}, checks=[
        fam('named', name='ve.rif.check', problem='check digit does not match')]),
    'vn.mst': dict(alphabet={10: digits(10), 13: digits(13)}, checks=[
        fam('notIn', span=(2, 9), values=['0000000'], label='number'),
        fam('notIn', span=(10, 13), values=['000'], label='branch'),
        W(at=9, weights=[31, 29, 23, 19, 17, 13, 7, 5, 3], mod=11, table='?9876543210')]),
    'za.tin': dict(alphabet={10: ['01239'] + ['d'] * 9}, checks=[fam('luhn')]),
}

CHECK_POSITIONS = {
    'au.acn': lambda n: [8], 'az.voen': lambda n: [8, 9], 'ec.ruc': lambda n: [8, 9], 'ma.ice': lambda n: [13, 14],
    'mu.nid': lambda n: [13], 'nz.ird': lambda n: [n - 1], 'pe.cui': lambda n: [n - 1],
    'tr.tckimlik': lambda n: [9, 10], 'tn.mf': lambda n: [n - 1], 'vn.mst': lambda n: [9],
}

COUNTRIES = {
    'az': 'Azerbaijan', 'cr': 'Costa Rica', 'cu': 'Cuba', 'do': 'Dominican Republic', 'dz': 'Algeria',
    'ec': 'Ecuador', 'eg': 'Egypt', 'gh': 'Ghana', 'gn': 'Guinea', 'gt': 'Guatemala', 'il': 'Israel', 'ke': 'Kenya',
    'ma': 'Morocco', 'mu': 'Mauritius', 'my': 'Malaysia', 'mz': 'Mozambique', 'nz': 'New Zealand', 'pe': 'Peru',
    'pk': 'Pakistan', 'py': 'Paraguay', 'sn': 'Senegal', 'sv': 'El Salvador', 'th': 'Thailand', 'tn': 'Tunisia',
    'tr': 'Turkey', 'tw': 'Taiwan', 'uy': 'Uruguay', 've': 'Venezuela', 'vn': 'Vietnam',
}

"""GS1-128 data (stdnum's `gs1_128`): a run of application identifiers (AIs), each followed by its value, with no
group separator (stdnum's `is_valid` is asked without one). Facts for identifier_metadata.py.

Which AI starts a field decides how long its value is (the longest its format allows, or what is left) and how
stdnum reads it: as text, a GTIN, an IBAN, an integer, a decimal with the AI's last digit as decimal places, or a
date. `define(m)` fills FORMATS and RULES; the rule `gs1_128.check` has a Swift twin of the same name in
IdentifierRulesGS1.swift, and `write_swift` writes the AI table it reads into GS1ApplicationIdentifiers.swift.
"""
import datetime
import importlib
import random
import re

from stdnum import numdb

FORMATS = {}
RULES = {}

m = None

# What GS1 data may hold as typed: printable ASCII but the parentheses stdnum's `compact` drops around AIs and the
# backquote it turns into an apostrophe (neither is in a compact form). The space stays: stdnum pads a variable
# value that is not last with spaces where no separator ends it.
CHARACTERS = ''.join(chr(c) for c in range(0x20, 0x7f) if chr(c) not in '()`')
CLASS = "[ !-'*-_a-~]"


# ---------------------------------------------------------------------------------------------
# The AI table: stdnum's gs1_ai.dat, read through numdb.


def longest_value(fmt):
    """The most characters a value of `fmt` holds: the sum of each `+` part's maximum (`N3+N..15` is 18, `N13[+X..17]`
    30), or None for a format whose parts stdnum cannot read (`N6+[-]`, `Z..90`): its AIs are never valid."""
    total = 0
    for part in fmt.split('+'):
        found = re.fullmatch(r'[NXY](?:[0-9]*\.\.)?([0-9]+)[\[\]]?', part)
        if not found:
            return None
        total += int(found.group(1))
    return total


def read_table():
    """Each entry of the AI table: first and last AI of its range, format, type and longest value."""
    out = []
    for length, low, high, props, children in numdb.get('gs1_ai').prefixes:
        assert not children and len(low) == len(high) == length
        out.append(dict(low=low, high=high, format=props['format'], type=props['type'],
                        longest=longest_value(props['format'])))
    return out


TABLE = read_table()


def entry_at(number, i):
    """The entry whose AI starts `number` at `i`, with the AI's length, or (None, 0). As numdb looks a number up:
    an AI of `length` characters is in a range when it sorts between its first and last AI."""
    for e in TABLE:
        ai = number[i:i + len(e['low'])]
        if len(ai) == len(e['low']) and e['low'] <= ai <= e['high']:
            return e, len(ai)
    return None, 0


# ---------------------------------------------------------------------------------------------
# Reading values as Python reads them (stdnum hands them to int(), Decimal() and strptime()).

INTEGER = re.compile(r'[+-]?[0-9](?:_?[0-9])*')
DECIMAL = re.compile(r'[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?'
                     r'|[iI][nN][fF](?:[iI][nN][iI][tT][yY])?|[sS]?[nN][aA][nN][0-9]*)')


def integer_ok(value):
    # int(): spaces around, a sign, digits with single underscores between them.
    return INTEGER.fullmatch(value.strip(' ')) is not None


def decimal_ok(value):
    # Decimal(): spaces around are dropped first, then every underscore; then a number, an infinity or a NaN.
    return DECIMAL.fullmatch(value.strip(' ').replace('_', '')) is not None


def decimal_value_ok(ai, fmt, value):
    # An `N3+` format's first three characters are read apart (as text); the AI's last digit places the decimal
    # point that many characters from the end of the rest.
    if fmt.startswith('N3+'):
        value = value[3:]
    places = int(ai[-1])
    if places:
        cut = max(0, len(value) - places)
        value = value[:cut] + '.' + value[cut:]
    return decimal_ok(value)


# strptime's pattern of each directive: alternatives tried in order, each a run of character sets.
D = '0123456789'
DIRECTIVES = {
    'y': [[D, D]],
    'm': [['1', '012'], ['0', '123456789'], ['123456789']],
    'd': [['3', '01'], ['12', D], ['0', '123456789'], ['123456789'], [' ', '123456789']],
    'H': [['2', '0123'], ['01', D], [D]],
    'M': [['012345', D], [D]],
    'S': [['6', '01'], ['012345', D], [D]],
}
MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def strptime_ok(value, directives):
    """Whether strptime reads `value` whole with `directives` (`ymd`: `%y%m%d`) as a valid date and time. Its
    pattern is not anchored at the end: the first match, alternatives tried in order, must take every character."""
    def first(k, i):
        # The first way directives k... match from i: their texts, or None.
        if k == len(directives):
            return []
        for alternative in DIRECTIVES[directives[k]]:
            piece = value[i:i + len(alternative)]
            if len(piece) == len(alternative) and all(c in s for c, s in zip(piece, alternative)):
                rest = first(k + 1, i + len(piece))
                if rest is not None:
                    return [piece] + rest
        return None
    pieces = first(0, 0)
    if pieces is None or sum(len(p) for p in pieces) != len(value):
        return False
    read = dict(zip(directives, (int(p) for p in pieces)))
    year = read.get('y', 0)
    month, day = read.get('m', 1), read.get('d', 1)
    leap = year % 4 == 0  # two-digit years are 1969 to 2068
    return day <= MONTH_DAYS[month - 1] and (month != 2 or day <= 28 or leap) and read.get('S', 0) <= 59


# stdnum reads twelve characters of these formats as two dates.
DATE_PAIRS = ('N12', 'N6..12', 'N6[+N6]')
# The formats whose single date or date and time stdnum's encode() writes back (it raises for the others).
DATE_WRITTEN = ('N6', 'N6..12', 'N6[+N6]', 'N10', 'N6+N..4', 'N6[+N..4]', 'N6[+N4]', 'N8+N..4', 'N8[+N..4]')


def day_ok(value):
    # Six characters: YYMMDD, day 00 standing for the month's last.
    if value[4:] == '00':
        return strptime_ok(value[:4], 'ym')
    return strptime_ok(value, 'ymd')


def date_value_ok(fmt, value):
    if len(value) == 12 and fmt in DATE_PAIRS:
        return day_ok(value[:6]) and day_ok(value[6:])
    if fmt not in DATE_WRITTEN:
        return False
    if len(value) == 6:
        return day_ok(value)
    # Other lengths as a date and time of the first characters of `%y%m%d%H%M%S`: an odd length ends in a stray %.
    return len(value) % 2 == 0 and strptime_ok(value, 'ymdHMS'[:len(value) // 2])


# The AIs whose value stdnum hands to another module.
VALIDATED = {}


def gtin_ok(value):
    # stdnum's ean: spaces and hyphens dropped, then 8, 12, 13 or 14 digits with their check digit.
    number = value.replace(' ', '').replace('-', '')
    return number.isdigit() and number.isascii() and len(number) in (8, 12, 13, 14) and m.ean_ok(number)


IBAN_LAYOUTS = {}
IBAN_CLASSES = {'n': '0123456789', 'a': 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'c': '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'}


def iban_ok(value):
    # stdnum's iban: spaces, hyphens and dots dropped and letters upper-cased; then the registry's layout of the
    # country, the ISO 7064 mod 97-10 check, and the country's own IBAN preset where stdnum has a module for it.
    number = ''.join(c for c in value if c not in ' -.').upper()
    layout = IBAN_LAYOUTS.get(number[:2])
    if layout is None or len(number) != 4 + len(layout):
        return False
    if not all(c in IBAN_CLASSES['c'] for c in number[2:4]):
        return False
    if not all(c in IBAN_CLASSES[k] for c, k in zip(number[4:], layout)):
        return False
    if not m.NAMED['iban.check'](number):
        return False
    own = number[:2].lower() + '.iban'
    return own not in m.FORMATS or m.model_valid(own, number)


def rule_gs1_128_check(number):
    # The compact form: no space at either end (stdnum's compact strips them), and something.
    if not number or number[0] == ' ' or number[-1] == ' ':
        return False
    i = 0
    while i < len(number):
        entry, n = entry_at(number, i)
        if entry is None or entry['longest'] is None:
            return False
        ai = number[i:i + n]
        value = number[i + n:i + n + entry['longest']]
        i += n + len(value)
        kind = entry['type']
        if kind == 'str' and VALIDATED.get(ai) == 'ean' and not gtin_ok(value):
            return False
        if kind == 'str' and VALIDATED.get(ai) == 'iban' and not iban_ok(value):
            return False
        if kind == 'int' and not integer_ok(value):
            return False
        if kind == 'decimal' and not decimal_value_ok(ai, entry['format'], value):
            return False
        if kind == 'date' and not date_value_ok(entry['format'], value):
            return False
    return True


RULES['gs1_128.check'] = rule_gs1_128_check


# ---------------------------------------------------------------------------------------------
# Numbers to start from: fields of many AIs of each kind, each but the last as long as its format allows (a
# variable text padded with spaces, as stdnum's encode() pads it), the last of any length.

def valid_value(rng, ai, entry, full):
    """A valid value for `ai` of `entry`: of the longest length when `full`, else of a length of its own."""
    longest, kind, fmt = entry['longest'], entry['type'], entry['format']
    fixed = '..' not in fmt
    if kind == 'date':
        lengths = [n for n in (0, 2, 4, 6, 8, 10, 12) if n <= longest]
        return date_value(rng, fmt, longest if full else rng.choice(lengths))
    if kind == 'int':
        n = longest if full else rng.randint(1, longest)
        digits = ''.join(rng.choice(D) for _ in range(n))
        if not full and n > 1 and rng.random() < 0.3:
            digits = rng.choice(['+', '-', ' ']) + digits[1:]
        return digits
    if kind == 'decimal':
        n = longest if full or fixed else rng.randint(1 + 3 * fmt.startswith('N3+'), longest)
        return ''.join(rng.choice(D) for _ in range(n))
    if VALIDATED.get(ai) == 'ean':
        return gtin(rng, full)
    if VALIDATED.get(ai) == 'iban':
        return iban(rng, longest if full else None)
    digits_only = fmt[0] == 'N' and '+X' not in fmt
    n = longest if full or fixed else rng.randint(0, longest)
    chars = D if digits_only else CHARACTERS
    text = ''.join(rng.choice(chars) for _ in range(n))
    if full and not fixed and rng.random() < 0.5:
        text = text[:rng.randint(0, longest)].ljust(longest)
    return text


def date_value(rng, fmt, n):
    def day(zero=True):
        # Day 00 (the month's last) only where six characters are read as a date.
        y, mo = rng.randrange(100), rng.randint(1, 12)
        last = MONTH_DAYS[mo - 1] - (mo == 2 and y % 4 != 0)
        d = rng.choice([0 if zero else 1, last, rng.randint(1, last)])
        return '%02d%02d%02d' % (y, mo, d)
    if n == 12 and fmt in DATE_PAIRS:
        return day() + day()
    if n <= 6:
        return day()[:n]
    return (day(zero=False) + '%02d%02d%02d' % (rng.randrange(24), rng.randrange(60), rng.randrange(60)))[:n]


def gtin(rng, full):
    n = rng.choice([8, 12, 13, 14])
    body = ''.join(rng.choice(D) for _ in range(n - 1))
    number = body + next(c for c in D if m.ean_ok(body + c))
    if full:
        # Fourteen characters: a shorter GTIN with the spaces or hyphens stdnum's ean drops.
        while len(number) < 14:
            i = rng.randint(0, len(number))
            number = number[:i] + rng.choice(' -') + number[i:]
    return number


IBANS = []


def iban(rng, width):
    number = rng.choice(IBANS)
    if rng.random() < 0.3:
        number = number.lower()
    if width:
        number = number.ljust(width)
    return number


def make_ibans():
    """Valid IBANs of every country of the registry (a Belgian, Spanish, Montenegrin and Norwegian one made by
    their presets' own search), with the check digits ISO 7064 gives."""
    rng = random.Random('gs1_128 iban')
    out = []
    for cc, layout in sorted(IBAN_LAYOUTS.items()):
        own = cc.lower() + '.iban'
        if own in m.FORMATS:
            module = importlib.import_module('stdnum.' + own)
            _, valid = m.make_numbers(module, own, rng, want=2)
            out += [n for ns in valid.values() for n in ns]
            continue
        bban = ''.join(rng.choice(IBAN_CLASSES[k]) for k in layout)
        rest = int(''.join(str(m.ALNUM.index(c)) for c in bban + cc + '00')) % 97
        out.append(cc + '%02d' % (98 - rest) + bban)
    return out


def seeds():
    rng = random.Random('gs1_128')
    # stdnum's own examples first: the lengths are verified in this order, and the first number's changes give the
    # invalid vector the editor plugins type.
    out = ['013842587609507417181119371', '0138425876095074']
    # Each AI of each entry at least once, as the last field and inside a run.
    for entry in TABLE:
        if entry['longest'] is None or entry['low'] in ('7250',):
            continue
        ais = [entry['low'][:-1] + c for c in D if entry['low'] <= entry['low'][:-1] + c <= entry['high']]
        for ai in ais[:3] + ais[-1:]:
            before, _ = random_field(rng, full=True)
            out.append(before + ai + valid_value(rng, ai, entry, full=False))
            after, _ = random_field(rng, full=False)
            out.append(ai + valid_value(rng, ai, entry, full=True) + after)
    # Runs of up to six fields.
    for _ in range(150):
        fields = [random_field(rng, full=True)[0] for _ in range(rng.randint(0, 5))]
        out.append(''.join(fields) + random_field(rng, full=False)[0])
    # Dates at their edges: day 00, leap days, the end of a month, times at their last minute and second.
    for text in ['11240229', '11000229', '17230200', '17241200', '1599022917251', '7007240229240300',
                 '70112402292359', '800824022923595', '80082402292359', '4324991231', '43259912312359',
                 '7251240229000229', '70032501 5', '172501 5', '8008250101', '700625010', '700625']:
        out.append(text)
    return [n for n in out if n and n[0] != ' ' and n[-1] != ' ']


def random_field(rng, full):
    while True:
        entry = rng.choice(TABLE)
        if entry['longest'] is not None and entry['low'] != '7250':
            break
    ais = [entry['low'][:-1] + c for c in D if entry['low'] <= entry['low'][:-1] + c <= entry['high']]
    ai = rng.choice(ais)
    if entry['low'] == '7251':
        full = True
    return ai + valid_value(rng, ai, entry, full), entry


# ---------------------------------------------------------------------------------------------
# Verification beyond identifier_metadata's changes of single characters.

def check_facts(gs1_128):
    """The table's facts against stdnum's own reading of them."""
    for e in TABLE:
        try:
            theirs = gs1_128._max_length(e['format'])
        except AttributeError:
            theirs = None
        assert theirs == e['longest'], (e, theirs)
        # A range's AIs differ in their last digit only, so only digits fall in it.
        assert e['low'][:-1] == e['high'][:-1] and e['low'].isdigit() and e['high'].isdigit(), e
    # No AI starts another: the first entry that matches is the one numdb's lookup (shortest match) finds.
    ais = [e['low'][:-1] + c for e in TABLE for c in D if e['low'] <= e['low'][:-1] + c <= e['high']]
    assert not [(a, b) for a in ais for b in ais if a != b and b.startswith(a)]
    for e in TABLE:
        if e['type'] != 'date':
            continue
        pair = isinstance(gs1_128._decode_date(e['format'], '250101120102'), tuple)
        assert pair == (e['format'] in DATE_PAIRS), e
        try:
            gs1_128._encode_date(e['format'], datetime.datetime(2025, 1, 2, 3, 4, 5))
            written = True
        except ValueError:
            written = False
        assert written == (e['format'] in DATE_WRITTEN), e


# Pieces of values that Python's readings turn on: signs, underscores, spaces, exponents, infinities and NaNs,
# months, days, hours, minutes and seconds at their edges.
TOKENS = {
    'decimal': ['0', '1', '7', '42', '9', '.', '_', ' ', '+', '-', 'e', 'E', 'e+', 'E-', 'NaN', 'nan', 'sNaN', 'inf',
                'Inf', 'Infinity', 'iNfInItY', 'n', 'i'],
    'int': ['0', '1', '7', '42', '9', '_', ' ', '+', '-', '__'],
    'date': ['0', '1', '2', '3', '00', '01', '02', '09', '10', '12', '13', '19', '20', '23', '24', '28', '29', '30',
             '31', '32', '59', '60', '61', '99', ' ', ' 1', ' 9'],
}


def token_field(rng, full):
    """A field of a date, decimal or integer AI whose value is made of TOKENS (as long as its format allows when
    `full`)."""
    while True:
        field, entry = random_field(rng, full=True)
        if entry['type'] in TOKENS:
            break
    ai = field[:len(entry['low'])]
    value = ''
    while len(value) < entry['longest'] and (full or rng.random() < 0.8):
        value += rng.choice(TOKENS[entry['type']])
    return ai + (value[:entry['longest']].ljust(entry['longest'], '0') if full else value[:entry['longest']])


def fuzz_texts(count):
    """Random GS1 strings: fields of random AIs with values near valid ones, values made of the pieces Python's
    readings turn on, characters changed, pieces cut off, any AI of the table followed by any characters."""
    rng = random.Random('gs1_128 fuzz')
    pool = {
        'date': D * 4 + ' ',
        'decimal': D * 3 + '.eE+-_ naNiIfFsStTyY',
        'int': D * 3 + '+-_ ',
    }
    for k in range(count):
        fields = []
        for _ in range(rng.randint(1, 4)):
            field, entry = random_field(rng, full=rng.random() < 0.7)
            if rng.random() < 0.5:
                # Characters of the value drawn from what its reading turns on.
                chars = list(field)
                for _ in range(rng.randint(1, 3)):
                    i = rng.randrange(len(chars))
                    chars[i] = rng.choice(pool.get(entry['type'], CHARACTERS))
                field = ''.join(chars)
            if rng.random() < 0.1:
                field = field[:rng.randint(0, len(field))]
            fields.append(field)
        text = ''.join(fields)
        if k % 3 == 1:
            text = ''.join(token_field(rng, True) for _ in range(rng.randint(0, 2))) + token_field(rng, False)
        if k % 10 == 0:
            e = rng.choice(TABLE)
            text = e['low'] + ''.join(rng.choice(CHARACTERS + D * 5) for _ in range(rng.randint(0, 40)))
        if text:
            yield text


def fuzz(module, count=100000):
    """`fuzz_texts` compared with stdnum's is_valid; the number compared."""
    valid = 0
    for text in fuzz_texts(count):
        ours = rule_gs1_128_check(text)
        theirs = m.stdnum_valid(module, text)
        if ours != theirs:
            raise SystemExit(f'gs1_128: {text!r}: stdnum says {theirs}, our facts say {ours}')
        valid += theirs
    assert valid > count // 10, valid
    return count


def define(meta):
    """Fills FORMATS from the helpers of identifier_metadata (`meta`)."""
    global m
    m = meta
    gs1_128 = importlib.import_module('stdnum.gs1_128')
    check_facts(gs1_128)
    for ai, module in gs1_128._ai_validators.items():
        VALIDATED[ai] = module.split('.')[-1]
    assert set(VALIDATED.values()) == {'ean', 'iban'}, VALIDATED
    alphabet = {}

    def numbers():
        # Made when first wanted, as they use the IBAN presets and helpers defined after this module is read. Each
        # length of a valid one gets its alphabet here, before identifier_metadata reads the lengths.
        if not IBANS:
            IBAN_LAYOUTS.update(m.iban_layouts())
            # The countries whose IBAN stdnum checks with a module of their own are those with a preset of their own.
            iban = importlib.import_module('stdnum.iban')
            assert {cc for cc in IBAN_LAYOUTS if iban._get_cc_module(cc)} == \
                {cc for cc in IBAN_LAYOUTS if cc.lower() + '.iban' in m.FORMATS}
            IBANS.extend(make_ibans())
        made = [n for n in seeds() if m.stdnum_valid(gs1_128, n)]
        for n in made:
            alphabet[len(n)] = [CHARACTERS] * len(n)
        return made
    FORMATS['gs1_128'] = dict(
        alphabet=alphabet, seeds=numbers, want=2, case=None, notation='[g…]', definitions={'g': CLASS},
        verify=fuzz, checks=[m.fam('named', name='gs1_128.check',
                                   problem='an application identifier is unknown or its value is not valid')])


# ---------------------------------------------------------------------------------------------
# Output


def write_swift(path, version):
    """Writes the AI table the Swift rule reads."""
    lines = [
        '// Generated by scripts/identifier-metadata from python-stdnum ' + version + ': facts only (its table of GS1',
        '// application identifiers, gs1_ai.dat); see LICENSE-stdnum beside this file. Do not edit by hand.',
        '',
        'extension IdentifierRules {',
        '    /// Each range of GS1 application identifiers: its first and last AI, the longest value its format allows',
        '    /// (-1 where stdnum cannot read the format: never valid), and how stdnum reads the value.',
        '    static let gs1ApplicationIdentifiers: [GS1ApplicationIdentifier] = [',
    ]
    for e in TABLE:
        kind = e['type']
        if kind == 'str':
            reading = {'ean': '.gtin', 'iban': '.iban'}.get(VALIDATED.get(e['low']), '.text')
        elif kind == 'int':
            reading = '.integer'
        elif kind == 'decimal':
            reading = f'.decimal(textFirst: {3 if e["format"].startswith("N3+") else 0})'
        else:
            reading = (f'.date(pairs: {str(e["format"] in DATE_PAIRS).lower()}, '
                       f'written: {str(e["format"] in DATE_WRITTEN).lower()})')
        longest = -1 if e['longest'] is None else e['longest']
        lines.append(f'        .init("{e["low"]}", "{e["high"]}", longest: {longest}, reading: {reading}),'
                     f'  // {e["format"]}')
    lines += ['    ]', '}']
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')

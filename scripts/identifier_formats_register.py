"""The German commercial register number (Handelsregisternummer): a register court's name, the register's type and
the company's number, in either order (`Aachen HRA 11223`, `HRB 44123 Aachen`), shown as typed. Facts for
identifier_metadata.py.

`define(m)` reads stdnum's courts, their other names and the register types, and fills FORMATS and RULES; the rule
of RULES has a Swift twin of the same name in IdentifierRulesRegister.swift, which reads the courts and register
types from GermanCourts.swift (`write_swift_courts`).
"""
import ast
import importlib
import inspect
import random
import string
import sys

FORMATS = {}
RULES = {}

NAME = 'de.handelsregisternummer'
# The courts as stdnum lists them, the other names it takes for some (`Berlin`, `Kempten`), and the register types.
COURTS = []
ALIASES = []
REGISTRIES = []
# Every court's and other name's key (`court_key`): what a typed court is looked up by.
COURT_KEYS = set()
# The characters the preset takes: those of the courts' names, ASCII letters and digits, the comma and the space.
CHARACTERS = ''

m = None

QUALIFIER = string.ascii_letters + 'Öö'
# Umlauts are compared as their vowels (stdnum decomposes them and keeps the letters a to z).
FOLDED = {'ä': 'a', 'ö': 'o', 'ü': 'u', 'Ä': 'a', 'Ö': 'o', 'Ü': 'u'}


def court_key(text):
    """A court's name as stdnum compares it: lower case, an umlaut as its vowel, only the letters a to z kept (so ß,
    digits, spaces and punctuation are dropped: `Frankfurt/Oder` is `frankfurtoder`)."""
    out = ''
    for c in text:
        c = FOLDED.get(c, c.lower())
        if c in string.ascii_lowercase:
            out += c
    return out


# ---------------------------------------------------------------------------------------------
# The rule: stdnum reads the text as register type, number and court if it can (whatever the court), else as court,
# register type and number; the court must then be one it knows.


def spaces_end(s, i):
    while i < len(s) and s[i] == ' ':
        i += 1
    return i


def registry_end(s, i):
    """The end of a register type (any case) at `i`, or None."""
    for registry in REGISTRIES:
        if s[i:i + len(registry)].lower() == registry.lower():
            return i + len(registry)
    return None


def number_end(s, i):
    """The end of a register number at `i`: a digit 1 to 9 and up to five more digits; None when there is none."""
    if i >= len(s) or s[i] not in '123456789':
        return None
    j = i + 1
    while j < len(s) and j - i < 6 and s[j] in string.digits:
        j += 1
    return j


def after_separator(s, i):
    """What follows an optional comma and at least one space at `i`, or None."""
    if i < len(s) and s[i] == ',':
        i += 1
        if i >= len(s) or s[i] != ' ':
            return None
    elif i >= len(s) or s[i] != ' ':
        return None
    return s[spaces_end(s, i):]


def registry_first(s):
    """The court of `s` read as register type, number, an optional qualifier of one to three letters, an optional
    comma, and the court; None when `s` does not start so. The qualifier takes as many letters as leave a separator
    after them, so in `HRB 5 Bad Hersfeld` it is `Bad` and the court `Hersfeld`."""
    i = registry_end(s, 0)
    if i is None or spaces_end(s, i) == i:
        return None
    end = number_end(s, spaces_end(s, i))
    if end is None:
        return None
    start = spaces_end(s, end)
    letters = start
    while letters < len(s) and letters - start < 3 and s[letters] in QUALIFIER:
        letters += 1
    for qualifier_end in range(letters, start, -1):
        court = after_separator(s, qualifier_end)
        if court is not None:
            return court
    return after_separator(s, end)


def register_tail(s, i):
    """Whether `s` from `i` is an optional comma, spaces, a register type, spaces, a number and an optional qualifier
    (spaces allowed before it), to its end."""
    if i < len(s) and s[i] == ',':
        i += 1
    j = spaces_end(s, i)
    if j == i:
        return False
    i = registry_end(s, j)
    if i is None:
        return False
    j = spaces_end(s, i)
    if j == i:
        return False
    end = number_end(s, j)
    if end is None:
        return False
    if end == len(s):
        return True
    start = spaces_end(s, end)
    return 1 <= len(s) - start <= 3 and all(c in QUALIFIER for c in s[start:])


def tail_letters():
    """The most characters other than spaces after a court: a comma, the longest register type, six digits and a
    qualifier of three letters."""
    return 1 + max(len(r) for r in REGISTRIES) + 6 + 3


def court_first(s):
    """The court of `s` read as court, register type, number and qualifier: the longest start after which the rest
    is one (`Aachen, HRB 5` has the court `Aachen,`); None when no rest is. The rest holds at most `tail_letters()`
    characters other than spaces, so no start before that is tried."""
    others = 0
    for c in range(len(s), -1, -1):
        if c < len(s) and s[c] != ' ':
            others += 1
        if others > tail_letters():
            break
        if register_tail(s, c):
            return s[:c]
    return None


def rule_de_handelsregisternummer_check(number):
    s = number.strip(' ')
    court = registry_first(s)
    if court is None:
        court = court_first(s)
    return court is not None and court_key(court) in COURT_KEYS


RULES['de.handelsregisternummer.check'] = rule_de_handelsregisternummer_check


# ---------------------------------------------------------------------------------------------
# Facts


def read_facts(module):
    """The courts, the other names of some (in stdnum's table of (name, court) pairs, read as literals) and the register
    types of stdnum's module."""
    COURTS[:] = list(module.GERMAN_COURTS)
    REGISTRIES[:] = list(module.REGISTRY_TYPES)
    ALIASES[:] = []
    for node in ast.walk(ast.parse(inspect.getsource(module))):
        if isinstance(node, ast.Tuple) and len(node.elts) == 2 and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts) and (
                node.elts[1].value in COURTS):
            ALIASES.append(node.elts[0].value)
    names = COURTS + ALIASES
    COURT_KEYS.clear()
    COURT_KEYS.update(court_key(n) for n in names)
    # Our keys are stdnum's: the same set of courts and names is looked up.
    if COURT_KEYS != set(module._courts):
        sys.exit(f'{NAME}: court keys differ from stdnum: {sorted(COURT_KEYS ^ set(module._courts))}')
    taken = set(''.join(names)) | set(', ' + string.ascii_letters + string.digits)
    # A letter of a court's name in either case (the comparison ignores case): Ä, Ö, Ü beside ä, ö, ü.
    taken |= {c.upper() for c in taken if len(c.upper()) == 1}
    global CHARACTERS
    CHARACTERS = ''.join(sorted(taken))
    for c in CHARACTERS:
        if court_key(c) != module._to_min(c):
            sys.exit(f'{NAME}: {c!r} is compared otherwise by stdnum')


def seeds(rng):
    """Texts of every court and other name in both orders, every register type in several cases, with and without
    a qualifier and a comma, extra spaces, numbers of one to six digits; and some stdnum refuses or reads otherwise."""
    def cased(word):
        return rng.choice([word, word.upper(), word.lower(), word.capitalize(), word.swapcase()])

    def number():
        return str(rng.randint(1, 9)) + ''.join(rng.choice(string.digits) for _ in range(rng.randint(0, 5)))

    def qualifier():
        return rng.choice(['', '', ' ' + cased(rng.choice(['X', 'AB', 'Ö', 'ö', 'HB', 'XYZ'])), 'A'])

    out = []
    for i, name in enumerate(COURTS + ALIASES):
        registry = cased(REGISTRIES[i % len(REGISTRIES)])
        gap = rng.choice([' ', ' ', '  '])
        comma = rng.choice(['', ','])
        out.append(f'{name}{comma}{gap}{registry} {number()}{qualifier()}')
        out.append(f'{registry}{gap}{number()}{qualifier()}{comma} {name}')
        out.append(f'{name} {REGISTRIES[(i + 1) % len(REGISTRIES)]} {number()}')
        out.append(f'{REGISTRIES[(i + 2) % len(REGISTRIES)]} {number()} {name}')
    out += [
        'HRB 5 Bad Hersfeld', 'HRB 5 AB Bad Hersfeld', 'HRB 5 Bad Bad Homburg', 'HRB 5, Bad Homburg v.d.H.',
        'HRB 5 Hof', 'hrb 5 Ulm', 'Ulm HRB 1234567', 'HRB 1234567 Ulm', 'Ulm HRB 0123', 'Ulm HRB 123 ABCD',
        'Würzburg HRB 1', 'Wurzburg HRB 1', 'WÜRZBURG hrb 1', 'Pößneck HRB 12', 'Poneck HRB 12', 'Kaln HRB 3',
        'Ulm,HRB 5', 'Ulm , HRB 5', 'HRB 5,Ulm', 'HRB 5 , Ulm', 'PR 1 üm HRB 5', 'Prüm HRB 5', 'Ulm HRC 5',
        'Ulmen HRB 5', 'HRB5 Ulm', 'Ulm HRB 5 Ö', 'Ulm HRB 5Ö', 'HRB 5Ö Ulm', 'HRB 5 Ö, Ulm', 'Frankfurt/Oder GnR 11223',
        'Frankfurt / Oder GnR 11223', 'Berlin (Charlottenburg) HRB 1', 'Charlottenburg (Berlin) VR 12', '1 Ulm HRB 5',
        'Ulm HRB 5 HRB 6', 'HRB 5 Ulm HRB 6',
    ]
    return out


def random_texts(rng, count):
    """Texts built of court words, register types, digits, qualifiers, spaces and commas, for a check of the rule
    against stdnum beyond the changes of valid numbers identifier_metadata tries."""
    words = [w for name in COURTS + ALIASES for w in name.split(' ')]
    names = COURTS + ALIASES
    pieces = [
        lambda: rng.choice(names),
        lambda: rng.choice(names),
        lambda: rng.choice(words),
        lambda: rng.choice(REGISTRIES + ['HRC', 'H', 'GN']),
        lambda: rng.choice(REGISTRIES).lower(),
        lambda: ''.join(rng.choice(string.digits) for _ in range(rng.randint(1, 8))),
        lambda: str(rng.randint(1, 999999)),
        lambda: rng.choice(['A', 'ab', 'Ö', 'XYZ', 'Bad', 'St.', 'ABCD', 'ö']),
    ]
    gaps = ['', ' ', ' ', '  ', ',', ', ', ' ,']
    out = []
    for _ in range(count):
        text = ''
        if rng.random() < 0.5:
            # The two orders stdnum reads, each part perhaps another piece.
            court, registry, number, qualifier = (rng.choice(pieces[:3])(), pieces[rng.choice([3, 4])](),
                                                  rng.choice(pieces[5:7])(), rng.choice(['', pieces[7]()]))
            parts = ([court, registry, number, qualifier] if rng.random() < 0.5
                     else [registry, number, qualifier, court])
            for part in parts:
                text += rng.choice(gaps + [' '] * 6) + (part if rng.random() < 0.9 else rng.choice(pieces)())
            text = text.lstrip(' ,') if rng.random() < 0.8 else text
        for _ in range(rng.choice([0, 0, 0, 1, 2]) if text else rng.randint(1, 6)):
            text += rng.choice(gaps) + rng.choice(pieces)()
        if rng.random() < 0.3:
            text += rng.choice(['', ' ', ',', ' x'])
        if rng.random() < 0.3:
            chars = list(text)
            chars[rng.randrange(len(chars))] = rng.choice(CHARACTERS)
            text = ''.join(chars)
        out.append(text)
    return out


def cross_check(module, count=20000):
    """The rule against stdnum's is_valid on `count` random texts and on the seeds; stops on any disagreement."""
    rng = random.Random(NAME)
    texts = random_texts(rng, count) + seeds(random.Random('seeds')) + [
        'Aachen' + ' ' * 300 + 'HRB 5', 'HRB 5' + ' ' * 300 + 'Aachen', 'Aachen,' + ' ' * 300 + 'hrb  5   ab']
    accepted = 0
    for text in texts:
        theirs = module.is_valid(text)
        if rule_de_handelsregisternummer_check(text) != theirs:
            sys.exit(f'{NAME}: {text!r}: stdnum says {theirs}, our rule says {not theirs}')
        accepted += theirs
    print(f'{NAME}: {len(texts)} texts of court words, register types, digits, spaces and commas agree with stdnum '
          f'({accepted} valid)', file=sys.stderr)


def define(meta):
    """Fills FORMATS from the helpers of identifier_metadata (`meta`)."""
    global m
    m = meta
    module = importlib.import_module('stdnum.de.handelsregisternummer')
    read_facts(module)
    cross_check(module)
    texts = [t for t in seeds(random.Random('seeds')) if module.is_valid(t)]
    FORMATS[NAME] = dict(
        alphabet={len(t): [CHARACTERS] * len(t) for t in texts}, seeds=lambda: texts, want=1, literals=False,
        typed=True, notation='[B…]', definitions={'B': character_class(CHARACTERS)}, case=None, checks=[
            m.fam('named', name='de.handelsregisternummer.check', problem='not a register court with '
                  + ', '.join(REGISTRIES[:-1]) + ' or ' + REGISTRIES[-1] + ' and a number')])


def character_class(chars):
    """The slot's class: runs of three or more consecutive ASCII digits or letters of one case as ranges (`0-9`), the
    other characters as they are."""
    if set(chars) & set('\\]^-['):
        sys.exit(f'{NAME}: a court name holds a character a class must escape')
    out, i = '', 0
    while i < len(chars):
        j = i
        family = next((f for f in (string.digits, string.ascii_uppercase, string.ascii_lowercase) if chars[i] in f), '')
        while j + 1 < len(chars) and chars[j + 1] in family and ord(chars[j + 1]) == ord(chars[j]) + 1:
            j += 1
        out += chars[i:j + 1] if j - i < 2 else chars[i] + '-' + chars[j]
        i = j + 1
    return '[' + out + ']'


def write_swift_courts(path, version):
    """Writes the courts' keys and the register types, which the Swift rule reads."""
    lines = [
        f'// Generated by scripts/identifier-metadata from python-stdnum {version}: facts only (its German register',
        '// courts, their other names and the register types); see LICENSE-stdnum beside this file. Do not edit by hand.',
        '',
        'extension IdentifierRules {',
        '    /// Every German register court\'s name and other name (`Berlin` for `Berlin (Charlottenburg)`) as compared:',
        '    /// lower case, an umlaut as its vowel, only the letters a to z; space-separated.',
        '    static let germanCourtKeys = "' + ' '.join(sorted(COURT_KEYS)) + '"',
        '',
        '    /// The German register types, space-separated, in the order they are tried.',
        '    static let germanRegisterTypes = "' + ' '.join(REGISTRIES) + '"',
        '}',
    ]
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')

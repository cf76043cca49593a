#!/usr/bin/env python3
"""maskd-bench row 12: checking and formatting identifiers in bulk, maskd against python-stdnum.

    identifiers_bulk.py MASKD VECTORS LINES ROUNDS

Builds LINES lines of mixed identifiers (every identifier preset that python-stdnum knows, the same share
each, in preset order) from the identifier conformance vectors, valid and invalid numbers alike, each line
the preset's name, a tab and the number, as a file of mixed identifiers holds them. Each round, taking turns:
`maskd format --tagged --check` over the file as one whole process, from spawn to exit with standard input
and output on files (the machine's cores, as a user runs it); then, in this process, stdnum's `validate`
and `format` (its `compact` where it has no format) per line over the same lines. Prints one JSON object:
the rates of each round, the lines and presets, and how many lines maskd and stdnum disagreed on (text
written, or valid).
Needs python-stdnum (bench/run installs it into bench/.venv).
"""
import datetime
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
import types

try:
    from stdnum.exceptions import ValidationError
except ImportError:
    ValidationError = None


# Where a preset shows other text than stdnum's `format()` by design (Protocol/presets.md): range-table
# hyphenation (isbn, ismn), a display chosen by the number's kind rather than its length (th.tin, us.tin), no
# zero padding or added check characters (ch.esr, no.kontonr, isan), a code or register number shown as typed (isil,
# de.handelsregisternummer, which stdnum's compact writes court first).
SHOWN_OTHERWISE = {'isbn', 'ismn', 'th.tin', 'us.tin', 'ch.esr', 'no.kontonr', 'isan', 'isil', 'de.handelsregisternummer'}
# Where `maskd format`, reading a whole line as a field's text, keeps an unfinished longer layout that shows the
# line unchanged (`108` in gt.nit, which typed key by key is `10-8`): a known limitation, in Protocol/presets.md.
# Their lines are counted apart (`known`), not as agreeing.
READ_WHOLE_DIFFERS = {'de.stnr', 'py.ruc', 'gt.nit'}


class _Later(datetime.date):
    """Validity never depends on today's date (Protocol/presets.md): stdnum is asked as on the last day of 2099,
    as the generator asks it, where it rejects dates after today."""

    @classmethod
    def today(cls):
        return datetime.date(2099, 12, 31)


class _LaterNow(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime.datetime(2099, 12, 31)


def fix_clocks():
    for name in ('be.nn', 'dk.cpr', 'no.fodselsnummer', 'ro.onrc'):
        importlib.import_module('stdnum.' + name).datetime = types.SimpleNamespace(date=_Later)
    importlib.import_module('stdnum.sg.uen').datetime = _LaterNow


def module_for(preset):
    """stdnum's module for a preset name (`in.aadhaar` is `in_.aadhaar`), or None."""
    parts = preset.split('.')
    for candidate in ('.'.join(parts), '.'.join([parts[0] + '_'] + parts[1:]),
                      '.'.join(parts[:-1] + [parts[-1] + '_'])):
        try:
            module = importlib.import_module('stdnum.' + candidate)
        except ImportError:
            continue
        if hasattr(module, 'is_valid') and hasattr(module, 'compact'):
            return module
    return None


def numbers_by_preset(vectors_path):
    with open(vectors_path, encoding='utf-8') as f:
        cases = json.load(f)['cases']
    numbers = {}
    for case in cases:
        preset = case['mask'].get('preset')
        keys = case['steps'][0]['keys']
        if preset and preset != 'id.cn':
            numbers.setdefault(preset, []).append(keys)
    return {p: n for p, n in numbers.items() if module_for(p) is not None}


def stdnum_line(module, text):
    """What stdnum makes of one line: its display form and whether it is valid."""
    try:
        module.validate(text)
    except ValidationError:
        return text, False
    show = getattr(module, 'format', module.compact)
    return show(text), True


def main():
    maskd, vectors_path, total, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if ValidationError is None:
        print(json.dumps({'skipped': 'no python-stdnum in ' + sys.prefix + ' (a full bench/run installs it)'}))
        return
    fix_clocks()
    numbers = numbers_by_preset(vectors_path)
    presets = sorted(numbers)
    share = max(1, total // len(presets))
    lines = [(preset, numbers[preset][i % len(numbers[preset])]) for preset in presets for i in range(share)]
    directory = tempfile.mkdtemp(prefix='maskd-bench-identifiers-')
    path = os.path.join(directory, 'identifiers.tsv')
    with open(path, 'w', encoding='utf-8') as f:
        f.write(''.join(f'{preset}\t{number}\n' for preset, number in lines))
    modules = {preset: module_for(preset) for preset in presets}

    def run_maskd():
        with open(path, 'rb') as source, open(path + '.out', 'wb') as sink:
            start = time.perf_counter()
            done = subprocess.run([maskd, 'format', '--tagged', '--check'],
                                  stdin=source, stdout=sink, stderr=subprocess.DEVNULL)
            elapsed = time.perf_counter() - start
        # --check exits 1 when a line is not complete and valid: these lines include invalid numbers.
        if done.returncode not in (0, 1):
            raise SystemExit(f'identifiers_bulk: maskd format exited {done.returncode}')
        return len(lines) / elapsed

    def run_stdnum():
        start = time.perf_counter()
        for preset, text in lines:
            stdnum_line(modules[preset], text)
        return len(lines) / (time.perf_counter() - start)

    maskd_rates, stdnum_rates = [], []
    run_maskd()  # untimed: the page cache and the binary warm
    for _ in range(rounds):
        maskd_rates.append(run_maskd())
        stdnum_rates.append(run_stdnum())

    # Agreement, from the last maskd run: its text for every line, and its validity from --json on the distinct
    # lines (a valid line's text is stdnum's format; an invalid one's validity is false on both sides).
    with open(path + '.out', encoding='utf-8') as f:
        written = f.read().split('\n')[:len(lines)]
    distinct = sorted(set(lines))
    checked = subprocess.run([maskd, 'format', '--tagged', '--json'],
                             input=''.join(f'{preset}\t{number}\n' for preset, number in distinct),
                             capture_output=True, text=True)
    valid = {pair: json.loads(out)['valid'] for pair, out in zip(distinct, checked.stdout.splitlines())}
    disagree = known = 0
    for (preset, text), out in zip(lines, written):
        tag, _, out = out.partition('\t')
        shown, ok = stdnum_line(modules[preset], text)
        if tag != preset or valid.get((preset, text)) != ok or (ok and preset not in SHOWN_OTHERWISE and out != shown):
            if preset in READ_WHOLE_DIFFERS:
                known += 1
            else:
                disagree += 1
    for name in (path, path + '.out'):
        os.remove(name)
    os.rmdir(directory)
    print(json.dumps({'rates': {'maskd': maskd_rates, 'stdnum': stdnum_rates}, 'lines': len(lines),
                      'presets': len(presets), 'disagree': disagree, 'known': known}))


if __name__ == '__main__':
    main()

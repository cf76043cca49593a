#!/usr/bin/env python3
"""maskd-bench row 12: checking and formatting identifiers in bulk, maskd against python-stdnum.

    identifiers_bulk.py MASKD VECTORS LINES ROUNDS

Builds LINES lines of mixed identifiers (every identifier preset that python-stdnum knows, the same share
each) from the identifier conformance vectors, valid and invalid numbers alike, one file per preset. Each
round, taking turns: `maskd format --check --mask {"preset": P}` over each file as a whole process, from
spawn to exit with standard input and output on files (the machine's cores, as a user runs it); then, in
this process, stdnum's `validate` and `format` (its `compact` where it has no format) per line over the
same lines. Prints one JSON object: the rates of each round, the lines and presets, and how many lines
maskd and stdnum disagreed on (text written, or valid).
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
    directory = tempfile.mkdtemp(prefix='maskd-bench-identifiers-')
    files = {}
    for preset in presets:
        pool = numbers[preset]
        lines = [pool[i % len(pool)] for i in range(share)]
        path = os.path.join(directory, preset + '.txt')
        with open(path, 'w', encoding='utf-8') as f:
            f.write('\n'.join(lines) + '\n')
        files[preset] = (path, lines)
    lines_total = share * len(presets)

    def run_maskd():
        elapsed = 0.0
        for preset in presets:
            path = files[preset][0]
            with open(path, 'rb') as source, open(path + '.out', 'wb') as sink:
                start = time.perf_counter()
                done = subprocess.run([maskd, 'format', '--check', '--mask', json.dumps({'preset': preset})],
                                      stdin=source, stdout=sink, stderr=subprocess.DEVNULL)
                elapsed += time.perf_counter() - start
            # --check exits 1 when a line is not complete and valid: these lines include invalid numbers.
            if done.returncode not in (0, 1):
                raise SystemExit(f'identifiers_bulk: maskd format exited {done.returncode} for {preset}')
        return lines_total / elapsed

    def run_stdnum():
        modules = {preset: module_for(preset) for preset in presets}
        start = time.perf_counter()
        for preset in presets:
            module = modules[preset]
            for text in files[preset][1]:
                stdnum_line(module, text)
        return lines_total / (time.perf_counter() - start)

    maskd_rates, stdnum_rates = [], []
    run_maskd()  # untimed: the page cache and the binary warm
    for _ in range(rounds):
        maskd_rates.append(run_maskd())
        stdnum_rates.append(run_stdnum())

    # Agreement, from the last maskd run: its text for every line, and its validity from --json on the distinct
    # numbers (a valid line's text is stdnum's format; an invalid one's validity is false on both sides).
    disagree = known = 0
    for preset in presets:
        path, lines = files[preset]
        with open(path + '.out', encoding='utf-8') as f:
            written = f.read().split('\n')[:len(lines)]
        distinct = sorted(set(lines))
        checked = subprocess.run([maskd, 'format', '--json', '--mask', json.dumps({'preset': preset})],
                                 input='\n'.join(distinct) + '\n', capture_output=True, text=True)
        valid = {n: json.loads(out)['valid'] for n, out in zip(distinct, checked.stdout.splitlines())}
        module = module_for(preset)
        compare_text = preset not in SHOWN_OTHERWISE
        for text, out in zip(lines, written):
            shown, ok = stdnum_line(module, text)
            if valid.get(text) != ok or (ok and compare_text and out != shown):
                if preset in READ_WHOLE_DIFFERS:
                    known += 1
                else:
                    disagree += 1
        os.remove(path)
        os.remove(path + '.out')
    os.rmdir(directory)
    print(json.dumps({'rates': {'maskd': maskd_rates, 'stdnum': stdnum_rates}, 'lines': lines_total,
                      'presets': len(presets), 'disagree': disagree,
                      'known': known}))


if __name__ == '__main__':
    main()

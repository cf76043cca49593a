// maskd for VS Code, tests: the shared conformance vectors played through the extension's own
// edit path, against the real daemon.
'use strict';

// Each case gets a new editor holding a line before the field and a prefix on the field's line
// (so line and UTF-16 column offsets are exercised), then the field is opened with
// "maskd: Format Field As..." over the case's text. Every step is what a person does in VS Code:
// a key is one change event over the selection, a paste one change event, backspace and delete
// delete the selection or one grapheme; the extension sends the change, applies the daemon's
// didFormat and sets the caret. Expectations are read from the editor (text, selection), from the
// field states the extension received (value, complete, ...), from the placeholder decoration,
// and from the rejected/overflow of the didFormats (or of the openField/setMask result).
//
// What VS Code cannot express is skipped and counted, with the reason:
// - a forward delete that the daemon would read differently as a backspace: a didChange says what
//   was deleted, not from which side of the caret, and the daemon takes a deletion for a backspace
//   (whether the two differ is asked of maskd/apply, which only decides that, never the answer);
// - a raw `edit` step that no key or selection in an editor gives;
// - a line break typed into a field: in an editor that is Enter, which leaves the field;
// - a caret carried into a `format` step from inside the text: the field is opened over the
//   selected text, so the caret is at its end, and openField puts it at the field's end;
// - a selection kept after a refused key: after a change VS Code has a caret, and didFormat's
//   cursor is a position;
// - an initial text that is not in form, in a case that does not begin with `format` (opening
//   the field would format it first).
// The rest of a case after a skipped step is not run; an unverifiable expectation is not checked,
// the rest of that step's expectations are.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const H = require('./helpers');

const { fake, vscode } = H;

const STATE_KEYS = ['value', 'complete', 'valid', 'problems', 'next', 'placeholder', 'mask', 'brand', 'region', 'type', 'extension', 'e164', 'rfc3966'];
const HEADER = 'vector\n';
const PREFIX = '名前: ';

const dirs = process.env.MASKD_VECTORS
  ? [path.resolve(process.env.MASKD_VECTORS)]
  : ['engine', 'presets'].map((d) => path.join(H.repoRoot, 'Protocol', 'vectors', d));

let api = null;
test.before(async () => {
  api = (await H.activate()).api;
});

const tally = { cases: 0, steps: 0, skippedCases: new Map(), unchecked: new Map() };

function count(map, reason) {
  map.set(reason, (map.get(reason) || 0) + 1);
}

class Skip extends Error {}

function skip(reason) {
  throw new Skip(reason);
}

/** The field: its text is the field's line after the prefix (no text follows a field here). */
class Field {
  constructor(editor) {
    this.editor = editor;
    this.line = 1;
  }
  get document() {
    return this.editor.document;
  }
  get base() {
    return this.document.offsetAt(new vscode.Position(this.line, PREFIX.length));
  }
  get text() {
    return this.document.lineAt(this.line).text.slice(PREFIX.length);
  }
  /** The selection as field offsets `[start, end]`. */
  get selection() {
    const s = this.editor.selection;
    return [this.document.offsetAt(s.start) - this.base, this.document.offsetAt(s.end) - this.base];
  }
  select([start, end]) {
    this.editor.select(this.base + start, this.base + end);
  }
}

for (const dir of dirs) {
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const { cases } = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    for (const c of cases) {
      test(`${path.basename(dir)}/${file}: ${c.name}`, async (t) => {
        tally.cases += 1;
        try {
          await (c.error ? runErrorCase(c) : runCase(c));
        } catch (error) {
          if (!(error instanceof Skip)) throw error;
          count(tally.skippedCases, error.message);
          t.skip(error.message);
        } finally {
          closeEditors();
        }
      });
    }
  }
}

test.after(async () => {
  const skipped = [...tally.skippedCases.values()].reduce((a, b) => a + b, 0);
  const lines = [`vectors: ${tally.cases} cases, ${tally.steps} steps run, ${skipped} cases skipped`];
  for (const [reason, n] of tally.skippedCases) lines.push(`  skipped ${n}: ${reason}`);
  for (const [reason, n] of tally.unchecked) lines.push(`  expectation not checked ${n}x: ${reason}`);
  console.log(lines.join('\n'));
  await H.deactivate();
});

function closeEditors() {
  for (const document of [...fake.documents]) fake.closeDocument(document);
}

/** A case whose mask must be refused: the command reports the daemon's error. */
async function runErrorCase(c) {
  await H.activate();
  H.openEditor(`${HEADER}${PREFIX}|`);
  const before = fake.messages.length;
  const result = await vscode.commands.executeCommand('maskd.formatFieldAs', c.mask);
  assert.equal(result, undefined, 'the mask was accepted');
  const errors = fake.messages.slice(before).filter((m) => m.kind === 'error');
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.ok(errors[0].text.includes(c.error.message), `'${errors[0].text}' lacks '${c.error.message}'`);
  if (c.error.code !== undefined) {
    const logged = fake.output('maskd').filter((l) => l.includes(c.error.message));
    assert.ok(logged.some((l) => l.includes(`(${c.error.code})`)), `no error ${c.error.code} in the log`);
  }
}

async function runCase(c) {
  const { api } = await H.activate();
  const text = c.text || '';
  const selection = c.selection || [text.length, text.length];
  const steps = (c.steps || []).map((step) => ({ ...step }));
  const formatFirst = steps.length > 0 && steps[0].format;
  if (formatFirst && (selection[0] !== text.length || selection[1] !== text.length)) {
    // The caret goes to the field's end, so only its text and state can be checked.
    steps[0].uncheckable = ['caret', 'selection'];
  }

  const editor = H.openEditor(`${HEADER}${PREFIX}|${text}|`);
  if (text.length === 0) editor.caret = editor.document.getText().length;
  const field = new Field(editor);
  const caught = { rejected: '', overflow: '' };
  const subscription = api.onDidFormat((e) => {
    if (e.document !== editor.document) return;
    caught.rejected += e.params.rejected || '';
    caught.overflow += e.params.overflow || '';
  });
  try {
    let mask = c.mask;
    const opened = await open(field, mask, caught);
    if (!formatFirst) {
      if (field.text !== text) skip('the initial text is not in form, and the case does not begin with format');
      field.select(selection);
    }
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i];
      caught.rejected = '';
      caught.overflow = '';
      if (step.format) {
        // Reading the text into an empty field: the first step opened it; a later one closes
        // the field and opens it again over its text.
        const result = i === 0 ? opened : await reopen(field, mask, step);
        caught.rejected = result.rejected || '';
        caught.overflow = result.overflow || '';
      } else if (step.setMask !== undefined) {
        const result = await setMask(field, step.setMask);
        mask = step.setMask;
        caught.rejected += result.rejected || '';
        caught.overflow += result.overflow || '';
      } else {
        await play(field, step, mask);
      }
      tally.steps += 1;
      check(field, step, caught, `step ${i} ${JSON.stringify(step)}`);
    }
  } finally {
    subscription.dispose();
  }
}

/** Opens the field over the selected text (or at the caret), as "Format Field As..." does. */
async function open(field, mask) {
  // A vector's text may hold junk the mask drops: the engine's behaviour, so forced.
  const result = await vscode.commands.executeCommand('maskd.formatFieldAs', mask, { force: true });
  assert.ok(result, `the field did not open: ${JSON.stringify(fake.messages.slice(-1))}`);
  await H.settle(field.editor);
  return result;
}

/** Closes the field and opens it again over its text ("maskd: Close Field", then "Format Field As..."). */
async function reopen(field, mask, step) {
  const [start, end] = field.selection;
  if (start !== field.text.length || end !== field.text.length) step.uncheckable = ['caret', 'selection'];
  assert.ok(await vscode.commands.executeCommand('maskd.closeField'), 'closeField failed');
  field.select([0, field.text.length]);
  return open(field, mask);
}

/** "Format Field As..." with the caret in the field: a new mask, the caret keeping its count. */
async function setMask(field, mask) {
  const [, end] = field.selection;
  field.select([end, end]);
  const result = await vscode.commands.executeCommand('maskd.formatFieldAs', mask, { force: true });
  assert.ok(result, `setMask failed: ${JSON.stringify(fake.messages.slice(-1))}`);
  await H.settle(field.editor);
  return result;
}

/** Does one step as a person would. */
async function play(field, step, mask) {
  const { editor } = field;
  if (step.keys !== undefined) {
    for (const key of vscode.graphemes(step.keys)) {
      if (/[\r\n]/.test(key)) skip('a line break typed into a field');
      editor.type(key);
      await H.settle(editor);
    }
  } else if (step.insert !== undefined) {
    if (/[\r\n]/.test(step.insert)) skip('a line break pasted into a field');
    editor.type(step.insert);
    await H.settle(editor);
  } else if (step.backspace !== undefined || step.delete !== undefined) {
    const forward = step.delete !== undefined;
    const n = (forward ? step.delete : step.backspace) ?? 1;
    for (let k = 0; k < n; k++) {
      const [start, end] = field.selection;
      if (start === end && !forward && start === 0) continue; // Nothing before the field's start.
      if (forward) {
        if (start === end && start === field.text.length) continue; // Nothing after the field's end.
        const stop = start === end ? start + vscode.graphemes(field.text.slice(start))[0].length : end;
        await requireSameAsBackspace(field, mask, start, stop);
      }
      if (forward) editor.deleteRight();
      else editor.backspace();
      await H.settle(editor);
    }
  } else if (step.select !== undefined) {
    field.select(step.select);
  } else if (step.edit !== undefined) {
    await rawEdit(field, step, mask);
  } else {
    throw new Error(`unknown step ${JSON.stringify(step)}`);
  }
}

/**
 * A raw maskd/apply edit, when a person's key gives the same change: typing or pasting over the
 * selection, backspace ending at the caret, deleting a selection, or a forward delete.
 */
async function rawEdit(field, step, mask) {
  const { start, end, text } = step.edit;
  const [s, e] = step.selection || [end, end];
  field.select([s, e]);
  if (text !== '' && s === start && e === end) {
    field.editor.type(text);
  } else if (text === '' && ((s === e && e === end) || (s === start && e === end && s !== e))) {
    fake.change(field.document, [{ start: field.base + start, end: field.base + end, text: '' }]);
    field.editor.caret = field.base + start;
  } else if (text === '' && s === e && s === start) {
    await requireSameAsBackspace(field, mask, start, end);
    fake.change(field.document, [{ start: field.base + start, end: field.base + end, text: '' }]);
    field.editor.caret = field.base + start;
  } else {
    skip('a raw edit that is no key at the selection');
  }
  await H.settle(field.editor);
}

/**
 * Skips unless deleting `[start, end)` forward gives what the daemon gives a backspace over it.
 * Only the comparison is asked of maskd/apply; the step itself goes through the editor.
 */
async function requireSameAsBackspace(field, mask, start, end) {
  const { api } = await H.activate();
  const ask = (selection) =>
    api.session.client.request('maskd/apply', {
      mask,
      text: field.text,
      selection: { start: selection, end: selection },
      edit: { start, end, text: '' },
    });
  const [forward, backward] = await Promise.all([ask(start), ask(end)]);
  if (forward.text !== backward.text || forward.caret !== backward.caret) {
    skip('a forward delete that a backspace would do differently (a didChange has no direction)');
  }
}

/** Checks a step's expectations against the editor and what the extension received. */
function check(field, step, caught, where) {
  const expect = step.expect;
  if (!expect) return;
  const uncheckable = new Set(step.uncheckable || []);
  const [start, end] = field.selection;
  for (const key of Object.keys(expect)) {
    const want = expect[key];
    if (uncheckable.has(key)) {
      count(tally.unchecked, `${key} carried into format from inside the text`);
      continue;
    }
    switch (key) {
      case 'text':
        assert.equal(field.text, want, `${where}: text`);
        break;
      case 'caret':
        assert.equal(end, want, `${where}: caret in ${JSON.stringify(field.text)}`);
        break;
      case 'selection':
        if (want[0] !== want[1] && start === end) {
          count(tally.unchecked, 'a selection kept after a change (VS Code has a caret then)');
          assert.equal(end, want[1], `${where}: caret at the selection's end`);
          break;
        }
        assert.deepEqual([start, end], want, `${where}: selection`);
        break;
      case 'rejected':
        assert.equal(caught.rejected, want, `${where}: rejected`);
        break;
      case 'overflow':
        assert.equal(caught.overflow, want, `${where}: overflow`);
        break;
      default:
        if (!STATE_KEYS.includes(key)) throw new Error(`${where}: unknown expectation ${key}`);
        checkState(field, key, want, where);
    }
  }
}

function checkState(field, key, want, where) {
  const fields = api.fieldsOf(field.document);
  assert.equal(fields.length, 1, `${where}: one field expected, got ${fields.length}`);
  const state = fields[0];
  const got = state[key] === undefined ? null : state[key];
  assert.deepEqual(got, want, `${where}: ${key}`);
  if (key === 'placeholder') {
    // The decoration shows the same tail at the field's end.
    const drawn = fake.placeholders(field.editor);
    const endOffset = field.document.offsetAt(new vscode.Position(state.range.end.line, state.range.end.character));
    assert.deepEqual(drawn, want === '' ? [] : [{ offset: endOffset, text: want }], `${where}: placeholder decoration`);
  }
}

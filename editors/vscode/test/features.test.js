// maskd for VS Code, tests: the Problems panel, the status bar item, and how field ranges follow edits.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const H = require('./helpers');
const { shiftRange } = require('../src/edits');

const { fake, vscode } = H;

/** Waits (polling, up to 10 s) until `check()` is true; the daemon publishes after a pause in typing. */
async function eventually(check, what) {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.ok(check(), `never: ${what}`);
}

function diagnosticsOf(editor) {
  return fake.diagnostics.get('maskd').get(editor.document.uri.toString()) || [];
}

test.after(() => H.deactivate());

test('the daemon\'s diagnostics are in the Problems panel: a hint while incomplete, an error when invalid', async () => {
  await H.activate();
  const editor = H.openEditor('Card: |');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'card'));
  await H.typeKeys(editor, '4111', ['Card: 4|', 'Card: 41|', 'Card: 411|', 'Card: 4111|']);
  await eventually(() => diagnosticsOf(editor).length === 1, 'a diagnostic for the incomplete card');
  const [hint] = diagnosticsOf(editor);
  assert.equal(hint.severity, vscode.DiagnosticSeverity.Hint);
  assert.equal(hint.source, 'maskd');
  assert.deepEqual([hint.range.start.character, hint.range.end.character], [6, 10]);
  editor.type(' 1111 1111 1112');
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Card: 4111 1111 1111 1112|');
  await eventually(() => diagnosticsOf(editor).some((d) => d.severity === vscode.DiagnosticSeverity.Error), 'an error for a failed Luhn check');
  fake.closeDocument(editor.document);
  assert.deepEqual(diagnosticsOf(editor), []);
});

test('the status bar shows the state of the field at the caret, and hides elsewhere', async () => {
  const { api } = await H.activate();
  const item = fake.statusItems.find((i) => !i.disposed && i.command === 'maskd.showFieldInfo');
  assert.ok(item, 'no maskd status bar item');
  const editor = H.openEditor('Tel: |');
  assert.equal(item.visible, false);
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'));
  await H.settle(editor);
  const id = api.fieldsOf(editor.document)[0].field;
  assert.equal(item.visible, true);
  assert.equal(item.text, `maskd ${id}: incomplete`);
  editor.type('5551234567');
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Tel: +1 (555) 123-4567|');
  assert.equal(item.text, `maskd ${id}: valid`);
  editor.caret = 2;
  assert.equal(item.visible, false);
  editor.caret = 8;
  assert.equal(item.visible, true);
});

test('a field\'s range follows edits: before it, at its ends, inside, across it', () => {
  const field = { start: { line: 1, character: 5 }, end: { line: 1, character: 12 } };
  const at = (sl, sc, el, ec, text) => ({ range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, text });
  const flat = (r) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
  assert.equal(flat(shiftRange(field, at(1, 12, 1, 12, '4'))), '1:5-1:13', 'typed at its end');
  assert.equal(flat(shiftRange(field, at(1, 5, 1, 5, '4'))), '1:5-1:13', 'typed at its start');
  assert.equal(flat(shiftRange(field, at(1, 0, 1, 0, 'ab'))), '1:7-1:14', 'typed before it');
  assert.equal(flat(shiftRange(field, at(1, 13, 1, 13, 'ab'))), '1:5-1:12', 'typed after it');
  assert.equal(flat(shiftRange(field, at(1, 10, 1, 14, ''))), '1:5-1:10', 'a deletion over its end');
  assert.equal(flat(shiftRange(field, at(1, 2, 1, 7, 'x'))), '1:2-1:8', 'a replacement over its start');
  assert.equal(flat(shiftRange(field, at(1, 12, 1, 12, '\n'))), '1:5-1:12', 'Enter at its end');
  assert.equal(flat(shiftRange(field, at(0, 3, 0, 3, 'a\nb'))), '2:5-2:12', 'a line added above');
  assert.equal(flat(shiftRange(field, at(0, 3, 1, 1, ''))), '0:7-0:14', 'a line joined above');
});

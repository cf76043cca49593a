// maskd for VS Code, tests: a person typing into fields, key by key, against the real daemon.
// Every step checks the whole document with `|` at the caret (VS Code's selection).
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const H = require('./helpers');
const { Method } = require('../src/protocol');

const PHONE = '+1 ([000]) [000]-[0000]';
const CARD = '[0000] [0000] [0000] [0000] [999]';

/** Opens an editor over `marked` and a field at its caret (or selection) with `mask`. */
async function fieldEditor(markedText, mask) {
  await H.activate();
  const editor = H.openEditor(markedText);
  const result = await H.vscode.commands.executeCommand('maskd.formatFieldAs', mask);
  assert.ok(result, `formatFieldAs failed: ${JSON.stringify(H.fake.messages)}`);
  await H.settle(editor);
  return editor;
}

/** Collects every handled didFormat while `body` runs. */
async function recording(body) {
  const { api } = await H.activate();
  const seen = [];
  const subscription = api.onDidFormat((e) => seen.push(e));
  try {
    await body();
  } finally {
    subscription.dispose();
  }
  return seen;
}

test.after(() => H.deactivate());

test('typing a US phone key by key formats it as it goes, lazily', async () => {
  const editor = await fieldEditor('Name: Ada\nTel: |\nEnd', PHONE);
  assert.deepEqual(H.fake.placeholders(editor), [{ offset: 15, text: '+1 (___) ___-____' }]);
  await H.typeKeys(editor, '5551234567', [
    'Name: Ada\nTel: +1 (5|\nEnd',
    'Name: Ada\nTel: +1 (55|\nEnd',
    'Name: Ada\nTel: +1 (555|\nEnd',
    'Name: Ada\nTel: +1 (555) 1|\nEnd',
    'Name: Ada\nTel: +1 (555) 12|\nEnd',
    'Name: Ada\nTel: +1 (555) 123|\nEnd',
    'Name: Ada\nTel: +1 (555) 123-4|\nEnd',
    'Name: Ada\nTel: +1 (555) 123-45|\nEnd',
    'Name: Ada\nTel: +1 (555) 123-456|\nEnd',
    'Name: Ada\nTel: +1 (555) 123-4567|\nEnd',
  ]);
  const [state] = (await H.activate()).api.fieldsOf(editor.document);
  assert.equal(state.value, '5551234567');
  assert.equal(state.complete, true);
  assert.deepEqual(H.fake.placeholders(editor), []);
  // The mask is full: an eleventh digit is cut and nothing moves.
  const seen = await recording(() => H.typeKeys(editor, '8', ['Name: Ada\nTel: +1 (555) 123-4567|\nEnd']));
  assert.equal(seen.length, 1);
  assert.equal(seen[0].params.overflow, '8');
});

test('the placeholder follows the field as it fills', async () => {
  const editor = await fieldEditor('|', PHONE);
  await H.typeKeys(editor, '555', ['+1 (5|', '+1 (55|', '+1 (555|']);
  assert.deepEqual(H.fake.placeholders(editor), [{ offset: 7, text: ') ___-____' }]);
  await H.typeKeys(editor, '1', ['+1 (555) 1|']);
  assert.deepEqual(H.fake.placeholders(editor), [{ offset: 10, text: '__-____' }]);
});

test('typing a 19-digit card key by key, then one digit too many', async () => {
  const editor = await fieldEditor('Card: |', CARD);
  await H.typeKeys(editor, '1234567890123456789', [
    'Card: 1|',
    'Card: 12|',
    'Card: 123|',
    'Card: 1234|',
    'Card: 1234 5|',
    'Card: 1234 56|',
    'Card: 1234 567|',
    'Card: 1234 5678|',
    'Card: 1234 5678 9|',
    'Card: 1234 5678 90|',
    'Card: 1234 5678 901|',
    'Card: 1234 5678 9012|',
    'Card: 1234 5678 9012 3|',
    'Card: 1234 5678 9012 34|',
    'Card: 1234 5678 9012 345|',
    'Card: 1234 5678 9012 3456|',
    'Card: 1234 5678 9012 3456 7|',
    'Card: 1234 5678 9012 3456 78|',
    'Card: 1234 5678 9012 3456 789|',
  ]);
  await H.typeKeys(editor, '0', ['Card: 1234 5678 9012 3456 789|']);
});

test('backspace after a separator deletes the digit before it, then the field empties', async () => {
  const editor = await fieldEditor('Tel: |', PHONE);
  await H.typeKeys(editor, '555123', ['Tel: +1 (5|', 'Tel: +1 (55|', 'Tel: +1 (555|', 'Tel: +1 (555) 1|', 'Tel: +1 (555) 12|', 'Tel: +1 (555) 123|']);
  editor.caret = 'Tel: +1 (555) '.length;
  await H.backspaces(editor, ['Tel: +1 (55|1) 23']);
  editor.caret = 'Tel: +1 (551)'.length;
  await H.backspaces(editor, ['Tel: +1 (55|2) 3']);
  editor.caret = editor.document.getText().length;
  await H.backspaces(editor, ['Tel: +1 (552|', 'Tel: +1 (55|', 'Tel: +1 (5|', 'Tel: |']);
  assert.deepEqual(H.fake.placeholders(editor), [{ offset: 5, text: '+1 (___) ___-____' }]);
  // Backspace over the text before an empty field does not touch the field.
  const seen = await recording(() => H.backspaces(editor, ['Tel:|']));
  assert.equal(seen.length, 0);
});

test('deleting in the middle keeps the caret after the same entered digits (Alipay rule)', async () => {
  const editor = await fieldEditor('|', PHONE);
  await H.typeKeys(editor, '5551234567', [
    '+1 (5|', '+1 (55|', '+1 (555|', '+1 (555) 1|', '+1 (555) 12|',
    '+1 (555) 123|', '+1 (555) 123-4|', '+1 (555) 123-45|', '+1 (555) 123-456|', '+1 (555) 123-4567|',
  ]);
  editor.caret = '+1 (555) 12'.length;
  // The digits re-flow to the left; the caret stays after "5551", then after "555", never after a literal.
  await H.backspaces(editor, ['+1 (555) 1|34-567', '+1 (555|) 345-67']);
  await H.typeKeys(editor, '9', ['+1 (555) 9|34-567']);
});

test('deleting in the middle of a card keeps the caret before the separator', async () => {
  const editor = await fieldEditor('|', CARD);
  editor.type('1234567890123456');
  await H.settle(editor);
  assert.equal(H.marked(editor), '1234 5678 9012 3456|');
  editor.caret = '1234 5'.length;
  await H.backspaces(editor, ['1234| 6789 0123 456']);
  // A selection across a separator deletes the digits in it.
  editor.select('1234 6'.length, '1234 6789 0'.length);
  await H.backspaces(editor, ['1234 6|123 456']);
});

test('a paste with junk keeps what fits and drops the rest', async () => {
  const editor = await fieldEditor('Tel: |', PHONE);
  const seen = await recording(async () => {
    editor.type('+1 (555) 123-4567 ext');
    await H.settle(editor);
  });
  assert.equal(H.marked(editor), 'Tel: +1 (555) 123-4567|');
  assert.equal(seen.length, 1);
  assert.equal(seen[0].params.rejected + seen[0].params.overflow, ' ext');
});

test('a pasted formatted number over a selection replaces it', async () => {
  const editor = await fieldEditor('|', PHONE);
  editor.type('555');
  await H.settle(editor);
  editor.select(0, editor.document.getText().length);
  editor.type('(212) 555-0100');
  await H.settle(editor);
  assert.equal(H.marked(editor), '+1 (212) 555-0100|');
});

test('a rejected letter changes nothing', async () => {
  const editor = await fieldEditor('Tel: |', PHONE);
  await H.typeKeys(editor, '555', ['Tel: +1 (5|', 'Tel: +1 (55|', 'Tel: +1 (555|']);
  const seen = await recording(() => H.typeKeys(editor, 'a', ['Tel: +1 (555|']));
  assert.equal(seen.length, 1);
  assert.equal(seen[0].params.rejected, 'a');
  editor.caret = 'Tel: +1 (5'.length;
  await H.typeKeys(editor, 'x', ['Tel: +1 (5|55']);
  await H.typeKeys(editor, '0', ['Tel: +1 (50|5) 5']);
});

test('a multibyte line: UTF-16 columns on both sides of the field', async () => {
  const editor = await fieldEditor('名前: |😀', PHONE);
  assert.deepEqual(H.fake.placeholders(editor), [{ offset: 4, text: '+1 (___) ___-____' }]);
  await H.typeKeys(editor, '5551234567', [
    '名前: +1 (5|😀',
    '名前: +1 (55|😀',
    '名前: +1 (555|😀',
    '名前: +1 (555) 1|😀',
    '名前: +1 (555) 12|😀',
    '名前: +1 (555) 123|😀',
    '名前: +1 (555) 123-4|😀',
    '名前: +1 (555) 123-45|😀',
    '名前: +1 (555) 123-456|😀',
    '名前: +1 (555) 123-4567|😀',
  ]);
  const [state] = (await H.activate()).api.fieldsOf(editor.document);
  assert.deepEqual(state.range, { start: { line: 0, character: 4 }, end: { line: 0, character: 21 } });
  editor.caret = '名前: +1 (555) '.length;
  await H.backspaces(editor, ['名前: +1 (55|1) 234-567😀']);
  // Typing after the emoji is outside the field: no didFormat, the field stays as it is.
  editor.caret = editor.document.getText().length;
  const seen = await recording(() => H.typeKeys(editor, '!', ['名前: +1 (551) 234-567😀!|']));
  assert.equal(seen.length, 0);
});

test('a card in a line with emoji and CJK before it', async () => {
  const editor = await fieldEditor('😀 カード: |', CARD);
  await H.typeKeys(editor, '41111', ['😀 カード: 4|', '😀 カード: 41|', '😀 カード: 411|', '😀 カード: 4111|', '😀 カード: 4111 1|']);
  await H.backspaces(editor, ['😀 カード: 4111|']);
  await H.typeKeys(editor, 'z', ['😀 カード: 4111|']);
});

test('typing faster than the daemon answers: stale didFormats are dropped, the last one formats all', async () => {
  const { api } = await H.activate();
  const editor = await fieldEditor('Tel: |', PHONE);
  const staleBefore = api.session.stats.stale;
  const seen = await recording(async () => {
    for (const key of '5551234567') editor.type(key);
    await H.settle(editor);
  });
  assert.equal(H.marked(editor), 'Tel: +1 (555) 123-4567|');
  assert.equal(seen.filter((e) => e.outcome === 'applied').length, 1);
  assert.equal(api.session.stats.stale - staleBefore, seen.length - 1);
  assert.ok(seen.length >= 2, `expected several didFormats, saw ${seen.length}`);
});

test('the extension\'s own edits are the echo: one didFormat per keystroke', async () => {
  const { api } = await H.activate();
  const editor = await fieldEditor('|', PHONE);
  const eventsBefore = H.fake.events.length;
  const seen = await recording(() => H.typeKeys(editor, '5551', ['+1 (5|', '+1 (55|', '+1 (555|', '+1 (555) 1|']));
  assert.equal(seen.length, 4);
  assert.ok(seen.every((e) => e.outcome === 'applied'));
  // Keystrokes 1 and 4 needed edits ("+1 (" and ") "): 4 keystrokes + 2 echoes.
  assert.equal(H.fake.events.length - eventsBefore, 6);
  assert.equal(api.session.stats.echo, 0);
});

test('the echo gets no didFormat: over a typed phone, didChange sent = keys + echoes, and no loop', async () => {
  const { api } = await H.activate();
  const editor = await fieldEditor('Tel: |', PHONE);
  const client = api.session.client;
  const uri = editor.document.uri.toString();
  const sent = [];
  const received = [];
  const notify = client.notify;
  client.notify = function countingNotify(method, params) {
    if (method === Method.didChange && params.textDocument.uri === uri) sent.push(params.textDocument.version);
    return notify.call(this, method, params);
  };
  const onNotification = (method, params) => {
    if (method === Method.didFormat && params.textDocument.uri === uri) received.push(params);
  };
  client.on('notification', onNotification);
  try {
    await H.typeKeys(editor, '5551234567', [
      'Tel: +1 (5|', 'Tel: +1 (55|', 'Tel: +1 (555|', 'Tel: +1 (555) 1|', 'Tel: +1 (555) 12|',
      'Tel: +1 (555) 123|', 'Tel: +1 (555) 123-4|', 'Tel: +1 (555) 123-45|', 'Tel: +1 (555) 123-456|',
      'Tel: +1 (555) 123-4567|',
    ]);
    // Time for a didFormat answering an echo, and for the echo of that, were they to come.
    await new Promise((resolve) => setTimeout(resolve, 300));
    await H.settle(editor);
  } finally {
    client.notify = notify;
    client.off('notification', onNotification);
  }
  // One didFormat per key, each answering that key's didChange.
  assert.equal(received.length, 10);
  const answered = received.map((p) => p.textDocument.version);
  assert.ok(answered.every((v) => sent.includes(v)), `answered ${answered}, sent ${sent}`);
  // "+1 (", ") " and "-": three answers had edits, and each made one more didChange, the echo.
  const withEdits = received.filter((p) => p.edits.length > 0).length;
  assert.equal(withEdits, 3);
  assert.equal(sent.length, 10 + withEdits);
  const echoes = sent.filter((v) => !answered.includes(v));
  assert.equal(echoes.length, withEdits);
  // The extension marked each echo's version as its own, and the daemon answered none of them.
  assert.ok(echoes.every((v) => api.session.echoes.isOwn(uri, v)), `echoes ${echoes}`);
});

test('an undo is not formatted again', async () => {
  const editor = await fieldEditor('|', PHONE);
  await H.typeKeys(editor, '5551', ['+1 (5|', '+1 (55|', '+1 (555|', '+1 (555) 1|']);
  // VS Code undoing the last format edit alone: ") " goes, with reason Undo.
  const seen = await recording(async () => {
    H.fake.change(editor.document, [{ start: 7, end: 9, text: '' }], H.vscode.TextDocumentChangeReason.Undo);
    editor.caret = 7;
    await H.settle(editor);
  });
  assert.equal(H.marked(editor), '+1 (555|1');
  assert.deepEqual(seen.map((e) => e.outcome), ['undo']);
  // The next key formats the field again.
  editor.caret = 8;
  await H.typeKeys(editor, '2', ['+1 (555) 12|']);
});

test('edits around a field move it; Enter after it just works', async () => {
  const editor = await fieldEditor('Tel: |', PHONE);
  await H.typeKeys(editor, '555', ['Tel: +1 (5|', 'Tel: +1 (55|', 'Tel: +1 (555|']);
  editor.caret = 0;
  await H.typeKeys(editor, '>', ['>|Tel: +1 (555']);
  editor.caret = 0;
  editor.type('Header\n');
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Header\n|>Tel: +1 (555');
  editor.caret = editor.document.getText().length;
  await H.typeKeys(editor, '1', ['Header\n>Tel: +1 (555) 1|']);
  editor.type('\n');
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Header\n>Tel: +1 (555) 1\n|');
  await H.typeKeys(editor, '9', ['Header\n>Tel: +1 (555) 1\n9|']);
});

test('a key pressed while an edit is in flight: VS Code refuses the edit, the next didFormat formats both', async () => {
  const { api } = await H.activate();
  const editor = await fieldEditor('|', PHONE);
  await H.typeKeys(editor, '555', ['+1 (5|', '+1 (55|', '+1 (555|']);
  const applyEdit = H.vscode.workspace.applyEdit;
  H.vscode.workspace.applyEdit = (edit) => {
    H.vscode.workspace.applyEdit = applyEdit;
    const pending = applyEdit(edit);
    editor.type('2'); // Lands before VS Code gets to the edit.
    return pending;
  };
  const refusedBefore = api.session.stats.refused;
  editor.type('1');
  await H.settle(editor);
  assert.equal(api.session.stats.refused - refusedBefore, 1);
  assert.equal(H.marked(editor), '+1 (555) 12|');
});

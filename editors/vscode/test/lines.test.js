// maskd for VS Code, tests: changes to a field's whole line as VS Code's API reports them (a line
// deleted and its undo, a line's text replaced then typing, lines joined, a line pasted, redo
// after undo), against the real daemon. The text is always exactly what the editor's command
// made, the caret where the editor put it, and a field the change took away is forgotten.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const H = require('./helpers');

const { Undo, Redo } = H.vscode.TextDocumentChangeReason;
const PHONE = '+1 ([000]) [000]-[0000]';
const TEL = 'Tel: +1 (201) 555-0123';
const CARD = 'Card: 3782 822463 10005';
// Offsets in `Name: Bob\n<line 1>\n<CARD>`: line 1 starts at 10.
const LINE1 = 10;

/** `Name: Bob` / `Tel: +1 (201) 555-0123` (a phone field after `Tel: `, typed) / a card line. */
async function form() {
  await H.activate();
  const editor = H.openEditor(`Name: Bob\nTel: |\n${CARD}`);
  assert.ok(await H.vscode.commands.executeCommand('maskd.formatFieldAs', PHONE));
  await H.settle(editor);
  for (const key of '2015550123') {
    editor.type(key);
    await H.settle(editor);
  }
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}|\n${CARD}`);
  return editor;
}

/** A change as VS Code's API reports it, `reason` Undo, Redo or none; the caret then goes to `caret`. */
async function change(editor, start, end, text, caret, reason) {
  H.fake.change(editor.document, [{ start, end, text }], reason);
  editor.caret = caret;
  await H.settle(editor);
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

async function fields(editor) {
  return (await H.activate()).api.fieldsOf(editor.document);
}

test.after(() => H.deactivate());

test('a deleted field line and its undo and redo give back exactly the text; the field is forgotten', async () => {
  const editor = await form();
  const [field] = await fields(editor);
  // Delete Line: the line and its break go; VS Code keeps the caret's column on the next line.
  const seen = await recording(() => change(editor, LINE1, LINE1 + TEL.length + 1, '', LINE1 + 22));
  assert.equal(H.marked(editor), `Name: Bob\nCard: 3782 822463 1000|5`);
  assert.deepEqual(seen.map((e) => [e.outcome, e.params.closed, e.params.edits.length]), [['applied', [field.field], 0]]);
  assert.deepEqual(await fields(editor), []);
  assert.deepEqual(H.fake.placeholders(editor), []);
  // Undo puts the line back, the caret where it was; no field is there any more to format it.
  await change(editor, LINE1, LINE1, `${TEL}\n`, LINE1 + 22, Undo);
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}|\n${CARD}`);
  assert.deepEqual(await fields(editor), []);
  await change(editor, LINE1, LINE1 + TEL.length + 1, '', LINE1 + 22, Redo);
  assert.equal(H.marked(editor), `Name: Bob\nCard: 3782 822463 1000|5`);
  await change(editor, LINE1, LINE1, `${TEL}\n`, LINE1 + 22, Undo);
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}|\n${CARD}`);
});

test('a half-typed field deleted with its line draws no placeholder on the next line', async () => {
  await H.activate();
  const editor = H.openEditor(`Name: Bob\nTel: |\n${CARD}`);
  assert.ok(await H.vscode.commands.executeCommand('maskd.formatFieldAs', PHONE));
  await H.settle(editor);
  for (const key of '201') {
    editor.type(key);
    await H.settle(editor);
  }
  assert.equal(H.marked(editor), `Name: Bob\nTel: +1 (201|\n${CARD}`);
  assert.equal(H.fake.placeholders(editor).length, 1);
  await change(editor, LINE1, LINE1 + 'Tel: +1 (201\n'.length, '', LINE1 + 12);
  assert.equal(H.marked(editor), `Name: Bob\nCard: 3782 8|22463 10005`);
  assert.deepEqual(H.fake.placeholders(editor), []);
  assert.deepEqual(await fields(editor), []);
  await change(editor, LINE1, LINE1, 'Tel: +1 (201\n', LINE1 + 12, Undo);
  assert.equal(H.marked(editor), `Name: Bob\nTel: +1 (201|\n${CARD}`);
  assert.deepEqual(H.fake.placeholders(editor), []);
});

test("a field line's text replaced, then typing a sentence, keeps every letter; undo and redo give it back", async () => {
  const editor = await form();
  // The line's text selected and `H` typed over it (as S does), then the rest key by key.
  editor.select(LINE1, LINE1 + TEL.length);
  const seen = await recording(async () => {
    editor.type('H');
    await H.settle(editor);
    for (const key of 'ello world') {
      editor.type(key);
      await H.settle(editor);
    }
  });
  assert.equal(H.marked(editor), `Name: Bob\nHello world|\n${CARD}`);
  assert.equal(seen.length, 1, 'only the replacement touched the field');
  assert.equal(seen[0].params.closed.length, 1);
  assert.deepEqual(await fields(editor), []);
  // Undo of the typing and of the replacement, as one change; then redo.
  await change(editor, LINE1, LINE1 + 'Hello world'.length, TEL, LINE1 + TEL.length, Undo);
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}|\n${CARD}`);
  await change(editor, LINE1, LINE1 + TEL.length, 'Hello world', LINE1 + 11, Redo);
  assert.equal(H.marked(editor), `Name: Bob\nHello world|\n${CARD}`);
  // Digits typed on the line now are plain text.
  editor.type(' 2015550199');
  await H.settle(editor);
  assert.equal(H.marked(editor), `Name: Bob\nHello world 2015550199|\n${CARD}`);
});

test('joining the field line with the next and the line before with it keeps the text and the field', async () => {
  const editor = await form();
  const end = LINE1 + TEL.length;
  // Join Lines on the field line: its break becomes a blank, the caret on it.
  await change(editor, end, end + 1, ' ', end);
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}| ${CARD}`);
  let [state] = await fields(editor);
  assert.equal(state.text, '+1 (201) 555-0123');
  await change(editor, end, end + 1, '\n', end, Undo);
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}|\n${CARD}`);
  // Join Lines on the line before: the field moves up with its text.
  await change(editor, LINE1 - 1, LINE1, ' ', LINE1 - 1);
  assert.equal(H.marked(editor), `Name: Bob| ${TEL}\n${CARD}`);
  [state] = await fields(editor);
  assert.deepEqual(state.range, { start: { line: 0, character: 15 }, end: { line: 0, character: 32 } });
  await change(editor, LINE1 - 1, LINE1, '\n', LINE1 - 1, Undo);
  assert.equal(H.marked(editor), `Name: Bob|\n${TEL}\n${CARD}`);
  await change(editor, LINE1 - 1, LINE1, ' ', LINE1 - 1, Redo);
  assert.equal(H.marked(editor), `Name: Bob| ${TEL}\n${CARD}`);
  // The field still formats what is typed in it.
  editor.caret = LINE1 + TEL.length;
  editor.backspace();
  await H.settle(editor);
  assert.equal(H.marked(editor), `Name: Bob Tel: +1 (201) 555-012|\n${CARD}`);
});

test('a pasted field line is the same text; undo and redo take it back and again', async () => {
  const editor = await form();
  const next = LINE1 + TEL.length + 1;
  // A copied whole line pasted at the start of the card line: VS Code's caret stays before the card.
  const seen = await recording(() => change(editor, next, next, `${TEL}\n`, next + TEL.length + 1));
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}\n${TEL}\n|${CARD}`);
  assert.deepEqual(seen, [], 'the paste touched no field');
  assert.equal((await fields(editor)).length, 1);
  await change(editor, next, next + TEL.length + 1, '', next, Undo);
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}\n|${CARD}`);
  await change(editor, next, next, `${TEL}\n`, next + TEL.length + 1, Redo);
  assert.equal(H.marked(editor), `Name: Bob\n${TEL}\n${TEL}\n|${CARD}`);
  const [state] = await fields(editor);
  assert.equal(state.text, '+1 (201) 555-0123');
  assert.equal(state.range.start.line, 1);
});

test('redo after undo in a field gives back the formatted text, and typing on formats again', async () => {
  await H.activate();
  const editor = H.openEditor('Tel: |');
  assert.ok(await H.vscode.commands.executeCommand('maskd.formatFieldAs', PHONE));
  await H.settle(editor);
  await H.typeKeys(editor, '5551', ['Tel: +1 (5|', 'Tel: +1 (55|', 'Tel: +1 (555|', 'Tel: +1 (555) 1|']);
  // Undo of the last key and its formatting, then its redo: neither is formatted, the caret stays.
  const seen = await recording(async () => {
    await change(editor, 12, 15, '', 12, Undo);
    assert.equal(H.marked(editor), 'Tel: +1 (555|');
    await change(editor, 12, 12, ') 1', 15, Redo);
    assert.equal(H.marked(editor), 'Tel: +1 (555) 1|');
  });
  assert.ok(seen.every((e) => e.outcome === 'undo'), JSON.stringify(seen.map((e) => e.outcome)));
  await change(editor, 12, 15, '', 12, Undo);
  await change(editor, 12, 12, ') 1', 15, Redo);
  assert.equal(H.marked(editor), 'Tel: +1 (555) 1|');
  await H.typeKeys(editor, '2', ['Tel: +1 (555) 12|']);
  const [state] = await fields(editor);
  assert.equal(state.value, '55512');
});

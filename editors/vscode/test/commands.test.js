// maskd for VS Code, tests: the commands, the quick pick, settings and the daemon's lifecycle.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const H = require('./helpers');

const { fake, vscode } = H;

/** Runs "maskd: Format Field As..." answering the quick pick with `label` (and the input box with `typed`). */
async function formatFieldAs(label, typed) {
  const shown = {};
  fake.quickPick = (items, options) => {
    shown.items = items;
    shown.options = options;
    return items.find((i) => i.label === label);
  };
  fake.inputBox = (options) => {
    shown.input = options;
    return typed;
  };
  shown.result = await vscode.commands.executeCommand('maskd.formatFieldAs');
  return shown;
}

function lastMessage(kind) {
  const list = fake.messages.filter((m) => m.kind === kind);
  return list.length > 0 ? list[list.length - 1].text : undefined;
}

test.after(() => H.deactivate());

test('a missing binary is reported, and the next command after fixing the setting works', async () => {
  await H.activate();
  fake.settings['maskd.path'] = '/nonexistent/maskd';
  const editor = H.openEditor('|');
  assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', '[00]'), undefined);
  assert.match(lastMessage('error'), /^maskd: cannot start '\/nonexistent\/maskd': .*ENOENT/);
  fake.setSetting('maskd.path', H.MASKD);
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', '[00]'));
  await H.typeKeys(editor, '12', ['1|', '12|']);
});

test('the quick pick offers the daemon\'s presets and a custom mask; a preset formats the selection', async () => {
  const editor = H.openEditor('Card: |4111111111111111|');
  const shown = await formatFieldAs('card');
  const labels = shown.items.map((i) => i.label);
  for (const preset of ['phone.us', 'phone.cn', 'card', 'iban', 'id.cn', 'date', 'amount']) assert.ok(labels.includes(preset), preset);
  assert.equal(labels[labels.length - 1], 'Custom mask...');
  assert.equal(shown.items.find((i) => i.label === 'phone.us').description, '+1 (555) 123-4567');
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Card: 4111 1111 1111 1111|');
  const [state] = (await H.activate()).api.fieldsOf(editor.document);
  assert.equal(state.brand, 'visa');
  assert.equal(state.valid, true);

  editor.caret = 8;
  const info = await vscode.commands.executeCommand('maskd.showFieldInfo');
  assert.equal(info.field, state.field);
  assert.match(lastMessage('info'), /^maskd f\d+: \[0000\] .*text "4111 1111 1111 1111", value "4111111111111111", complete, valid, brand visa/);
});

test('Format Field As on a field gives it a new mask; the caret keeps its digits', async () => {
  const editor = H.openEditor('|');
  await vscode.commands.executeCommand('maskd.formatFieldAs', '[0000] [0000] [0000] [0000]');
  editor.type('3782822463100');
  await H.settle(editor);
  assert.equal(H.marked(editor), '3782 8224 6310 0|');
  editor.caret = '3782 82'.length;
  const shown = await formatFieldAs('Custom mask...', '{"groups": [4, 6, 5]}');
  assert.equal(shown.result.field, (await H.activate()).api.fieldsOf(editor.document)[0].field);
  await H.settle(editor);
  assert.equal(H.marked(editor), '3782 82|2463 100');
  await H.typeKeys(editor, '9', ['3782 829|246 3100']);
});

test('a custom mask: JSON is checked as typed, and the daemon\'s error names the offset', async () => {
  const editor = H.openEditor('x |');
  const shown = await formatFieldAs('Custom mask...', '+1 ([000');
  assert.equal(shown.result, undefined);
  assert.match(shown.input.validateInput('{"groups": [4'), /^not JSON/);
  assert.equal(shown.input.validateInput(' {"groups": [4]}'), null);
  assert.equal(shown.input.validateInput('[00]'), null);
  assert.equal(shown.input.validateInput(''), 'a mask cannot be empty');
  assert.equal(shown.input.validateInput('+1 ([000]) [000]-[0000]'), null);
  assert.match(lastMessage('error'), /^maskd: params\.mask: unclosed '\[' \(at offset 4\)/);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document), []);

  await formatFieldAs('Custom mask...', '{"groups": [2, 2], "separator": "/"}');
  await H.typeKeys(editor, '123', ['x 1|', 'x 12|', 'x 12/3|']);
});

test('cancelling the quick pick or the input box does nothing', async () => {
  const editor = H.openEditor('|');
  const before = fake.messages.length;
  assert.equal((await formatFieldAs('nothing like this')).result, undefined);
  assert.equal((await formatFieldAs('Custom mask...', undefined)).result, undefined);
  assert.equal(fake.messages.length, before);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document), []);
});

test('a field is one line: a selection across lines is refused', async () => {
  H.openEditor('|a\nb|');
  assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', '[00]'), undefined);
  assert.equal(lastMessage('error'), 'maskd: a field is one line: select text on one line');
});

test('opening a field over text out of form formats it and puts the caret at its end', async () => {
  const editor = H.openEditor('Tel: |555 123 4567 x|\nnext');
  const result = await vscode.commands.executeCommand('maskd.formatFieldAs', '+1 ([000]) [000]-[0000]');
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Tel: +1 (555) 123-4567|\nnext');
  // The space before 4567 stands where "-" goes, and " x" is past the end: all refused.
  assert.equal(result.rejected, '  x');
  assert.ok(fake.statusMessages.some((m) => m.endsWith('refused "  x"')));
});

test('Close Field stops formatting and removes the placeholder; the text stays', async () => {
  const editor = H.openEditor('Tel: |');
  await vscode.commands.executeCommand('maskd.formatFieldAs', '+1 ([000]) [000]-[0000]');
  await H.typeKeys(editor, '55', ['Tel: +1 (5|', 'Tel: +1 (55|']);
  assert.equal(H.fake.placeholders(editor).length, 1);
  assert.ok(await vscode.commands.executeCommand('maskd.closeField'));
  assert.deepEqual(H.fake.placeholders(editor), []);
  const { api } = await H.activate();
  const seen = [];
  const sub = api.onDidFormat((e) => seen.push(e));
  await H.typeKeys(editor, '5a', ['Tel: +1 (555|', 'Tel: +1 (555a|']);
  sub.dispose();
  assert.equal(seen.length, 0);
  assert.equal(await vscode.commands.executeCommand('maskd.showFieldInfo'), undefined);
  assert.equal(lastMessage('info'), 'maskd: no field at the cursor');
  assert.equal(await vscode.commands.executeCommand('maskd.closeField'), undefined);
});

test('two fields on one line are formatted independently', async () => {
  const editor = H.openEditor('| and ');
  await vscode.commands.executeCommand('maskd.formatFieldAs', '[00]{.}[00]');
  await H.typeKeys(editor, '1231', ['1| and ', '12| and ', '12.3| and ', '12.31| and ']);
  editor.caret = editor.document.getText().length;
  await vscode.commands.executeCommand('maskd.formatFieldAs', '[0000] [0000]');
  await H.typeKeys(editor, '12345', ['12.31 and 1|', '12.31 and 12|', '12.31 and 123|', '12.31 and 1234|', '12.31 and 1234 5|']);
  // A complete field has no placeholder; the other shows its tail.
  assert.deepEqual(H.fake.placeholders(editor), [{ offset: 16, text: '___' }]);
  editor.caret = 1;
  await H.typeKeys(editor, '9', ['19|.23 and 1234 5']);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document).map((s) => s.text), ['19.23', '1234 5']);
});

test('a closed document is closed with the daemon; its fields and placeholders go', async () => {
  const editor = H.openEditor('|');
  await vscode.commands.executeCommand('maskd.formatFieldAs', '[000]');
  const { api } = await H.activate();
  assert.equal(api.fieldsOf(editor.document).length, 1);
  const types = fake.decorationTypes.size;
  fake.closeDocument(editor.document);
  assert.equal(api.fieldsOf(editor.document).length, 0);
  assert.equal(fake.decorationTypes.size, types - 1);
});

test('when the daemon dies its fields are closed, and the next command starts a new one', async () => {
  const { api } = await H.activate();
  const editor = H.openEditor('|');
  await vscode.commands.executeCommand('maskd.formatFieldAs', '[000]');
  const old = api.session.client;
  const died = new Promise((resolve) => old.once('exit', resolve));
  old.process.kill('SIGKILL');
  await died;
  assert.match(lastMessage('error'), /^maskd stopped \(signal SIGKILL\)/);
  assert.deepEqual(api.fieldsOf(editor.document), []);
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', '[000]'));
  assert.notEqual(api.session.client, old);
  await H.typeKeys(editor, '1x2', ['1|', '1|', '12|']);
});

test('deactivation shuts the daemon down cleanly', async () => {
  const { api } = await H.activate();
  await api.session.ensureStarted();
  const client = api.session.client;
  const exited = new Promise((resolve) => client.once('exit', (code) => resolve(code)));
  await H.deactivate();
  assert.equal(await exited, 0);
});

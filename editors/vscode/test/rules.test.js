// maskd for VS Code, tests: field rules from the maskd.rules setting and a workspace's .maskd.json.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const os = require('os');
const path = require('path');
const H = require('./helpers');
const { Method } = require('../src/protocol');

const { fake, vscode } = H;

/** The workspace's `.maskd.json`: phone values of YAML files. */
const PHONE_RULE = { files: '**/*.yaml', match: '^\\s*phone:\\s*(.*)$', mask: { preset: 'phone.us' } };
/** The setting's rule: card values of YAML files. */
const CARD_RULE = { files: '*.yaml', match: '^card: *(.*)$', mask: { preset: 'card' } };

const TEXT = 'name: Ann\nphone: 2015550123\ncard: 4111111111111111\nzip: 123456789\n';

/** A workspace folder holding `.maskd.json` with `rules`; returns its true path. */
function workspace(rules) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'maskd-rules-')));
  fs.writeFileSync(path.join(root, '.maskd.json'), JSON.stringify({ rules }));
  return root;
}

/** The daemon's fields of `editor`'s document: text and the rule that opened each. */
async function daemonFields(editor) {
  const { api } = await H.activate();
  await H.settle(editor);
  const states = await api.session.client.request(Method.fields, { textDocument: { uri: editor.document.uri.toString() } });
  return states.map((s) => [s.text, s.rule && s.rule.source, s.rule && s.rule.index]);
}

/** The messages the extension sent the daemon with `method` (from its debug trace). */
function sent(method) {
  return fake.output('maskd')
    .filter((line) => line.startsWith('--> '))
    .map((line) => JSON.parse(line.slice(4)))
    .filter((m) => m.method === method);
}

const root = workspace([PHONE_RULE]);
const rulesUri = `${vscode.Uri.file(root).toString()}/.maskd.json`;

test.before(async () => {
  fake.settings['maskd.rules'] = [CARD_RULE];
  fake.settings['maskd.logLevel'] = 'debug';
  fake.setWorkspaceFolders([root]);
  await H.activate();
});
test.after(() => H.deactivate());

test('a YAML file opens formatted by both rules; typing into a rule field formats; a closed one stays closed', async () => {
  const editor = H.openEditor(TEXT, { file: path.join(root, 'people', 'ann.yaml'), languageId: 'yaml' });
  await H.settle(editor);
  assert.equal(editor.document.getText(), 'name: Ann\nphone: +1 (201) 555-0123\ncard: 4111 1111 1111 1111\nzip: 123456789\n');
  const [initialize] = sent(Method.initialize);
  assert.equal(initialize.params.rootUri, vscode.Uri.file(root).toString());
  assert.deepEqual(initialize.params.workspaceFolders, [{ uri: vscode.Uri.file(root).toString(), name: path.basename(root) }]);
  assert.deepEqual(initialize.params.initializationOptions.rules, [CARD_RULE]);
  assert.deepEqual(await daemonFields(editor), [
    ['+1 (201) 555-0123', rulesUri, 0],
    ['4111 1111 1111 1111', 'initializationOptions', 0],
  ]);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document).map((f) => f.text), ['+1 (201) 555-0123', '4111 1111 1111 1111']);

  // A new maskd.rules reaches the daemon as workspace/didChangeConfiguration, and the open
  // document's lines are tried again. Right after the open's edit, the daemon's answer comes at a
  // version the extension made itself.
  fake.setSetting('maskd.rules', [CARD_RULE, { files: '*.yaml', match: '^zip: *(.*)$', mask: '[00000]-[0000]' }]);
  await H.settle(editor);
  const [change] = sent(Method.didChangeConfiguration);
  assert.equal(change.params.settings.maskd.rules[1].match, '^zip: *(.*)$');
  assert.equal(editor.document.getText(), 'name: Ann\nphone: +1 (201) 555-0123\ncard: 4111 1111 1111 1111\nzip: 12345-6789\n');

  // The caret at the phone's end: a backspace and a digit, formatted as the person types.
  editor.caret = 'name: Ann\nphone: +1 (201) 555-0123'.length;
  editor.backspace();
  await H.settle(editor);
  assert.equal(H.marked(editor), 'name: Ann\nphone: +1 (201) 555-012|\ncard: 4111 1111 1111 1111\nzip: 12345-6789\n');
  await H.typeKeys(editor, '9', ['name: Ann\nphone: +1 (201) 555-0129|\ncard: 4111 1111 1111 1111\nzip: 12345-6789\n']);

  // Closed, the card field stays closed: a digit typed on its line opens no field again.
  editor.caret = 'name: Ann\nphone: +1 (201) 555-0129\ncard: 4111'.length;
  assert.ok(await vscode.commands.executeCommand('maskd.closeField'));
  editor.caret = 'name: Ann\nphone: +1 (201) 555-0129\ncard: 4111 1111 1111 1111'.length;
  await H.typeKeys(editor, '5', ['name: Ann\nphone: +1 (201) 555-0129\ncard: 4111 1111 1111 11115|\nzip: 12345-6789\n']);
  assert.deepEqual(await daemonFields(editor), [['+1 (201) 555-0129', rulesUri, 0], ['12345-6789', 'initializationOptions', 1]]);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document).map((f) => f.text), ['+1 (201) 555-0129', '12345-6789']);
});

test('an undo of the formatting a file opened with closes its rule fields', async () => {
  const editor = H.openEditor('phone: 2015550123\n', { file: path.join(root, 'people', 'bob.yaml'), languageId: 'yaml' });
  await H.settle(editor);
  assert.equal(editor.document.getText(), 'phone: +1 (201) 555-0123\n');
  fake.change(editor.document, [{ start: 7, end: 7 + '+1 (201) 555-0123'.length, text: '2015550123' }], vscode.TextDocumentChangeReason.Undo);
  await H.settle(editor);
  assert.equal(editor.document.getText(), 'phone: 2015550123\n');
  assert.deepEqual(await daemonFields(editor), []);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document), []);
  editor.caret = 'phone: 2015550123'.length;
  await H.typeKeys(editor, '4', ['phone: 20155501234|\n']);
  assert.deepEqual(await daemonFields(editor), []);
});

test('a file the globs exclude is left as it is, and has no field', async () => {
  const editor = H.openEditor(TEXT, { file: path.join(root, 'notes.txt') });
  assert.deepEqual(await daemonFields(editor), []);
  assert.equal(editor.document.getText(), TEXT);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document), []);
});

test('an added workspace folder goes to the daemon, whose .maskd.json then formats a file in it', async () => {
  const other = workspace([{ files: '*.env', match: '^CARD=(.*)$', mask: { preset: 'card' } }]);
  fake.setWorkspaceFolders([root, other]);
  const [change] = sent(Method.didChangeWorkspaceFolders);
  assert.deepEqual(change.params, { event: { added: [{ uri: vscode.Uri.file(other).toString(), name: path.basename(other) }], removed: [] } });
  const editor = H.openEditor('CARD=4111111111111111\n', { file: path.join(other, '.env'), languageId: 'dotenv' });
  await H.settle(editor);
  assert.equal(editor.document.getText(), 'CARD=4111 1111 1111 1111\n');
  assert.deepEqual(await daemonFields(editor), [['4111 1111 1111 1111', `${vscode.Uri.file(other).toString()}/.maskd.json`, 0]]);
});

test('a .maskd.json saved goes to the daemon as workspace/didChangeWatchedFiles; an open document its new rule reaches is formatted', async () => {
  const editor = H.fake.editors.find((e) => e.document.uri.fsPath === path.join(root, 'notes.txt'));
  assert.equal(editor.document.getText(), TEXT);
  fs.writeFileSync(path.join(root, '.maskd.json'), JSON.stringify({ rules: [{ ...PHONE_RULE, files: '**/*.{yaml,txt}' }] }));
  fake.fileEvent('changed', path.join(root, '.maskd.json'));
  await H.settle(editor);
  assert.deepEqual(sent(Method.didChangeWatchedFiles).map((m) => m.params), [{ changes: [{ uri: rulesUri, type: 2 }] }]);
  assert.equal(editor.document.getText(), 'name: Ann\nphone: +1 (201) 555-0123\ncard: 4111111111111111\nzip: 123456789\n');
});

test('a daemon that exits: the rules open their fields again, the person\'s field keeps its place under a taken id', async () => {
  const { api } = await H.activate();
  api.session.restarts = [];
  const editor = H.openEditor('phone: 2015550123\ncode: 12\n', { file: path.join(root, 'people', 'cy.yaml'), languageId: 'yaml' });
  await H.settle(editor);
  const first = 'phone: +1 (201) 555-0123\n';
  assert.equal(editor.document.getText(), `${first}code: 12\n`);
  // The person's field, then a line a rule's field opens on: after a restart the rules take the
  // person's id for that line.
  editor.select(first.length + 'code: '.length, first.length + 'code: 12'.length);
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', '[00]-[00]'));
  editor.caret = editor.document.getText().length;
  // The label, then the number key by key: a line pasted whole is kept as it stands (an undo looks the same).
  editor.type('phone: ');
  await H.settle(editor);
  for (const key of '2015550124') {
    editor.type(key);
    await H.settle(editor);
  }
  assert.equal(editor.document.getText(), `${first}code: 12\nphone: +1 (201) 555-0124`);
  const ids = api.fieldsOf(editor.document).map((f) => [f.field, Boolean(f.rule)]);
  const client = api.session.client;
  const died = new Promise((resolve) => client.once('exit', resolve));
  client.process.kill('SIGKILL');
  await died;
  await H.settle(editor);
  const after = api.fieldsOf(editor.document);
  assert.deepEqual(after.map((f) => [f.text, Boolean(f.rule)]), [['+1 (201) 555-0123', true], ['12', false], ['+1 (201) 555-0124', true]]);
  assert.equal(after[2].field, ids[1][0], 'the rule took the person\'s id');
  editor.caret = first.length + 'code: 12'.length;
  await H.typeKeys(editor, '3', [`${first}code: 12-3|\nphone: +1 (201) 555-0124`]);
  assert.deepEqual(await daemonFields(editor), [
    ['+1 (201) 555-0123', rulesUri, 0], ['12-3', undefined, undefined], ['+1 (201) 555-0124', rulesUri, 0],
  ]);
});

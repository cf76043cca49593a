// maskd for VS Code, tests: the daemon exits under the person's hands, and comes back.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const H = require('./helpers');

const { fake, vscode } = H;

/** The messages shown since `from`, as `kind: text`. */
function shownSince(from) {
  return fake.messages.slice(from).map((m) => `${m.kind}: ${m.text}`);
}

/** Kills the daemon as an out-of-memory kill would; resolves once the extension has seen it. */
async function kill(api) {
  const client = api.session.client;
  const died = new Promise((resolve) => client.once('exit', resolve));
  client.process.kill('SIGKILL');
  await died;
}

/** A new editor with a phone field holding `5`, and no restarts counted yet. */
async function phoneWithFive(api) {
  api.session.restarts = [];
  const editor = H.openEditor('|');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'));
  await H.typeKeys(editor, '5', ['+1 (5|']);
  return editor;
}

test.after(() => H.deactivate());

test('killed mid-typing: restarted, fields re-opened, what was typed meanwhile formatted, one message', async () => {
  const { api } = await H.activate();
  const editor = H.openEditor('Card: |\nTel: ');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'card'));
  await H.typeKeys(editor, '4111', ['Card: 4|\nTel: ', 'Card: 41|\nTel: ', 'Card: 411|\nTel: ', 'Card: 4111|\nTel: ']);
  editor.caret = editor.document.getText().length;
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'));
  await H.typeKeys(editor, '555', ['Card: 4111\nTel: +1 (5|', 'Card: 4111\nTel: +1 (55|', 'Card: 4111\nTel: +1 (555|']);
  const before = fake.messages.length;
  const old = api.session.client;
  const died = new Promise((resolve) => old.once('exit', resolve));
  old.process.kill('SIGKILL');
  // The person types on, without waiting for anything: some keys land before the exit is seen.
  for (const key of '1234567') editor.type(key);
  await died;
  await api.session.recovering;
  await H.settle(editor);
  assert.notEqual(api.session.client, old);
  assert.equal(H.marked(editor), 'Card: 4111\nTel: +1 (555) 123-4567|');
  assert.deepEqual(shownSince(before), ['warning: maskd: the daemon exited (signal SIGKILL); restarted it and re-opened 2 fields']);
  assert.deepEqual(api.fieldsOf(editor.document).map((s) => [s.text, s.valid]), [['4111', false], ['+1 (555) 123-4567', true]]);
  // The other field is still a field, with its mask.
  editor.caret = 'Card: 4111'.length;
  await H.typeKeys(editor, '1', ['Card: 4111 1|\nTel: +1 (555) 123-4567']);
  assert.equal(api.fieldsOf(editor.document)[0].brand, 'visa');
});

test('"Restart Daemon" re-opens the fields; "Show Log" shows the output channel', async () => {
  const { api } = await H.activate();
  const editor = H.openEditor('|');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', '[000]-[000]'));
  await H.typeKeys(editor, '12', ['1|', '12|']);
  const old = api.session.client;
  assert.ok((await vscode.commands.executeCommand('maskd.restartDaemon')) >= 1);
  assert.notEqual(api.session.client, old);
  await H.typeKeys(editor, '34', ['123|', '123-4|']);
  await vscode.commands.executeCommand('maskd.showLog');
  assert.deepEqual(fake.shownOutputs, ['maskd']);
});

test('after 3 restarts within a minute, the 4th exit closes the fields; the next command starts again', async () => {
  const { api } = await H.activate();
  const editor = await phoneWithFive(api);
  const before = fake.messages.length;
  for (let i = 0; i < 3; i++) {
    await kill(api);
    await api.session.recovering;
  }
  assert.equal(shownSince(before).length, 3);
  await kill(api);
  await api.session.recovering;
  const shown = shownSince(before);
  assert.equal(shown.length, 4);
  assert.equal(shown[3], 'error: maskd: the daemon exited (signal SIGKILL), 4 times within a minute: not restarting it; fields closed until you open one');
  assert.equal(api.session.client, null);
  assert.deepEqual(api.fieldsOf(editor.document), []);
  assert.deepEqual(fake.placeholders(editor), []);
  editor.type('5');
  assert.equal(H.marked(editor), '+1 (55|');
  // Opening a field starts a daemon again (over the number at the caret, which the mask reads whole).
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', '+1 ([000]'));
  await H.typeKeys(editor, '7', ['+1 (557|']);
});

test('a daemon that exits and whose restart dies at start-up: one message, the fields closed, no loop', async () => {
  const { api } = await H.activate();
  const editor = await phoneWithFive(api);
  const before = fake.messages.length;
  fake.settings['maskd.path'] = '/bin/false';
  try {
    await kill(api);
    await api.session.recovering;
    await new Promise((resolve) => setTimeout(resolve, 300));
    const shown = shownSince(before);
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0], /^error: maskd: the daemon exited \(signal SIGKILL\) and did not restart: \/bin\/false did not start .*; fields closed until you open one$/);
    assert.equal(api.session.client, null);
    assert.equal(api.session.restarts.length, 1);
    assert.deepEqual(api.fieldsOf(editor.document), []);
  } finally {
    fake.settings['maskd.path'] = H.MASKD;
  }
  editor.type('5');
  assert.equal(H.marked(editor), '+1 (55|');
});

test('a daemon that dies at start-up: one message, no restart', async () => {
  const { api } = await H.activate();
  await api.session.stop();
  fake.settings['maskd.path'] = '/bin/false';
  try {
    H.openEditor('|');
    const before = fake.messages.length;
    assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', '[000]'), undefined);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const shown = shownSince(before);
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0], /^error: maskd: \/bin\/false did not start \(initialize: maskd ended \(exit code 1\) before answering initialize\); see maskd\.path$/);
    assert.equal(api.session.client, null);
    assert.equal(api.session.recovering, null);
  } finally {
    fake.settings['maskd.path'] = H.MASKD;
  }
});

test('a missing binary is one line naming maskd.path', async () => {
  const { api } = await H.activate();
  await api.session.stop();
  fake.settings['maskd.path'] = '/nonexistent/maskd';
  try {
    H.openEditor('|');
    const before = fake.messages.length;
    assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', '[000]'), undefined);
    assert.deepEqual(shownSince(before), [
      "error: maskd: cannot start '/nonexistent/maskd': spawn /nonexistent/maskd ENOENT; set maskd.path to the maskd executable",
    ]);
  } finally {
    fake.settings['maskd.path'] = H.MASKD;
  }
});

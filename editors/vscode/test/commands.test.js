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
  // Without field rules (no maskd.rules, no .maskd.json), opening a document starts no daemon.
  await H.settle(editor);
  assert.equal((await H.activate()).api.session.client, null);
  assert.deepEqual(fake.messages, []);
  assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', '[00]'), undefined);
  assert.match(lastMessage('error'), /^maskd: cannot start '\/nonexistent\/maskd': .*ENOENT; set maskd\.path/);
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

test('a field that would drop letters or digits is refused; Open Anyway forces it', async () => {
  const editor = H.openEditor('Tel: |555 123 4567 x|\nnext');
  assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', '+1 ([000]) [000]-[0000]'), undefined);
  const refusal = fake.messages[fake.messages.length - 1];
  assert.equal(refusal.text, "maskd: '555 123 4567 x' does not fit +1 ([000]) [000]-[0000]: x would be dropped");
  assert.deepEqual(refusal.items, ['Open Anyway']);
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Tel: |555 123 4567 x|\nnext');
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document), []);
  // Open Anyway: the field opens, what it dropped is reported, the caret goes to its end.
  fake.chooseAction = (text, items) => items[0];
  try {
    const result = await vscode.commands.executeCommand('maskd.formatFieldAs', '+1 ([000]) [000]-[0000]');
    await H.settle(editor);
    assert.equal(H.marked(editor), 'Tel: +1 (555) 123-4567|\nnext');
    // The space before 4567 stands where "-" goes, and " x" is past the end: all refused.
    assert.equal(result.rejected, '  x');
    assert.ok(fake.statusMessages.some((m) => m.endsWith('refused "  x"')));
  } finally {
    fake.chooseAction = () => undefined;
  }
});

test('opening a field over a label is refused and the text stays; an empty field takes the caret', async () => {
  const editor = H.openEditor('|Phone: 5551234567|');
  assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'), undefined);
  assert.match(lastMessage('error'), /^maskd: 'Phone: 5551234567' does not fit phone\.us: P, h, o, n, e would be dropped/);
  assert.equal(H.marked(editor), '|Phone: 5551234567|');
  editor.type('Tel: ');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'));
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Tel: |');
  // The field the caret touches is the field at the caret.
  const info = await vscode.commands.executeCommand('maskd.showFieldInfo');
  assert.equal(info.text, '');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'card'));
  await H.typeKeys(editor, '4111', ['Tel: 4|', 'Tel: 41|', 'Tel: 411|', 'Tel: 4111|']);
  assert.equal(await vscode.commands.executeCommand('maskd.closeField'), info.field);
});

test('closing a padFraction number pads it: 1,234.5 becomes 1,234.50, the caret after the pad', async () => {
  const { api } = await H.activate();
  const editor = H.openEditor('Sum: |');
  const amount = { number: { group: ',', decimal: '.', fraction: 2, padFraction: true } };
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', amount));
  await H.typeKeys(editor, '1234.5', ['Sum: 1|', 'Sum: 12|', 'Sum: 123|', 'Sum: 1,234|', 'Sum: 1,234.|', 'Sum: 1,234.5|']);
  const applied = api.session.stats.applied;
  const echo = api.session.stats.echo;
  assert.ok(await vscode.commands.executeCommand('maskd.closeField'));
  assert.equal(H.marked(editor), 'Sum: 1,234.50|');
  assert.equal(api.session.stats.applied, applied + 1, 'the closing didFormat applied');
  assert.deepEqual(api.fieldsOf(editor.document), []);
  // Its echo brings no didFormat, and typing on is plain text.
  await H.typeKeys(editor, '7', ['Sum: 1,234.507|']);
  assert.equal(api.session.stats.echo, echo, 'no didFormat for the echo');
  assert.equal(api.session.stats.applied, applied + 1, 'none for the typing after it');
  // A caret inside keeps the digits to its right.
  const inside = H.openEditor('|');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', amount));
  await H.typeKeys(inside, '12', ['1|', '12|']);
  inside.select(1, 1);
  assert.ok(await vscode.commands.executeCommand('maskd.closeField'));
  assert.equal(H.marked(inside), '1|2.00');
});

test('a bare word is a preset name; an unknown one lists the presets', async () => {
  const editor = H.openEditor('Tel: |');
  assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.uk'), undefined);
  assert.match(lastMessage('error'), /^maskd: unknown preset 'phone\.uk'; the presets are .*phone\.us, /);
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'));
  await H.typeKeys(editor, '5', ['Tel: +1 (5|']);
});

test('phone and a region code open the phone preset for that region', async () => {
  const editor = H.openEditor('Tel: |');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone gb'));
  await H.typeKeys(editor, '0121', ['Tel: 0|', 'Tel: 01|', 'Tel: 012|', 'Tel: 0121|']);
  await H.typeKeys(editor, '2', ['Tel: 0121 2|']);
  const [state] = (await H.activate()).api.fieldsOf(editor.document);
  assert.equal(state.mask, 'phone(region: GB)');
  assert.equal(state.region, 'GB');
});

test('postal and a region code, typed or picked, open the postal preset for that region', async () => {
  let editor = H.openEditor('Postcode: |');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'postal gb'));
  await H.typeKeys(editor, 'm34a', ['Postcode: M|', 'Postcode: M3|', 'Postcode: M34|', 'Postcode: M3 4A|']);
  assert.equal((await H.activate()).api.fieldsOf(editor.document)[0].mask, 'postal(region: GB)');

  const picks = [];
  const labels = ['postal', 'BR'];
  fake.quickPick = (items, options) => {
    picks.push({ items, options });
    const label = labels.shift();
    return items.find((i) => i.label === label);
  };
  editor = H.openEditor('CEP: |');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs'));
  const regions = picks[1].items.map((i) => i.label);
  for (const code of ['GB', 'US', 'BR', 'CA', 'JP']) assert.ok(regions.includes(code), code);
  assert.equal(regions.length, 181, 'every region with postal codes, once');
  await H.typeKeys(editor, '403011', ['CEP: 4|', 'CEP: 40|', 'CEP: 403|', 'CEP: 4030|', 'CEP: 40301|', 'CEP: 40301-1|']);
});

test('picking phone asks for its region: a code gives national numbers, International a +', async () => {
  const picks = [];
  /** Answers the quick picks in turn with `labels`, keeping what each offered. */
  function answer(...labels) {
    fake.quickPick = (items, options) => {
      picks.push({ items, options });
      const label = labels.shift();
      return items.find((i) => i.label === label);
    };
  }
  let editor = H.openEditor('Tel: |');
  answer('phone', 'GB');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs'));
  const regions = picks[1].items.map((i) => i.label);
  assert.equal(regions[0], 'International');
  for (const code of ['GB', 'US', 'CN', 'DE', 'JP']) assert.ok(regions.includes(code), code);
  assert.equal(regions.length, 1 + 245, 'every region libphonenumber knows, once');
  assert.match(picks[1].options.title, /phone/);
  await H.typeKeys(editor, '01212', ['Tel: 0|', 'Tel: 01|', 'Tel: 012|', 'Tel: 0121|', 'Tel: 0121 2|']);
  assert.equal((await H.activate()).api.fieldsOf(editor.document)[0].mask, 'phone(region: GB)');

  editor = H.openEditor('Tel: |');
  answer('phone', 'International');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs'));
  await H.typeKeys(editor, '44', ['Tel: +4|', 'Tel: +44 |']);
  assert.equal((await H.activate()).api.fieldsOf(editor.document)[0].mask, 'phone');

  // Escape at the region pick opens nothing.
  editor = H.openEditor('Tel: |');
  answer('phone');
  assert.equal(await vscode.commands.executeCommand('maskd.formatFieldAs'), undefined);
  assert.deepEqual((await H.activate()).api.fieldsOf(editor.document), []);
});

test('an undo of an open closes the field and gives the text back', async () => {
  const editor = H.openEditor('Phone: |5551234567|');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'));
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Phone: +1 (555) 123-4567|');
  const { api } = await H.activate();
  // VS Code's undo of the open's edit.
  fake.change(editor.document, [{ start: 7, end: 24, text: '5551234567' }], vscode.TextDocumentChangeReason.Undo);
  await H.settle(editor);
  assert.equal(editor.document.getText(), 'Phone: 5551234567');
  assert.deepEqual(api.fieldsOf(editor.document), []);
  assert.deepEqual(H.fake.placeholders(editor), []);
  // VS Code's redo: the formatted text comes back, and the field with it.
  fake.change(editor.document, [{ start: 7, end: 17, text: '+1 (555) 123-4567' }], vscode.TextDocumentChangeReason.Redo);
  await H.settle(editor);
  assert.equal(editor.document.getText(), 'Phone: +1 (555) 123-4567');
  assert.deepEqual(api.fieldsOf(editor.document).map((s) => s.text), ['+1 (555) 123-4567']);
  editor.caret = 10;
  assert.equal((await vscode.commands.executeCommand('maskd.showFieldInfo')).value, '5551234567');
  // Undo the open again: plain text again.
  fake.change(editor.document, [{ start: 7, end: 24, text: '5551234567' }], vscode.TextDocumentChangeReason.Undo);
  await H.settle(editor);
  assert.equal(editor.document.getText(), 'Phone: 5551234567');
  editor.caret = editor.document.getText().length;
  await H.typeKeys(editor, '8', ['Phone: 55512345678|']);
  assert.equal(await vscode.commands.executeCommand('maskd.showFieldInfo'), undefined);
});

test('an undo of typing after a label leaves the label as it was', async () => {
  const editor = H.openEditor('Tel: |');
  assert.ok(await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us'));
  await H.typeKeys(editor, '5', ['Tel: +1 (5|']);
  // VS Code's undo of the key and its formatting: the change it makes is its own range.
  fake.change(editor.document, [{ start: 5, end: 10, text: '' }], vscode.TextDocumentChangeReason.Undo);
  await H.settle(editor);
  assert.equal(H.marked(editor), 'Tel: |');
});

test('without a selection the daemon chooses the field at the caret: formatted text whole, not the label', async () => {
  const { api } = await H.activate();
  const editor = H.openEditor('Tel: +1 (5|55) 123-4567 x');
  const result = await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us');
  await H.settle(editor);
  assert.deepEqual(result.state.range, { start: { line: 0, character: 5 }, end: { line: 0, character: 22 } });
  assert.equal(editor.document.getText(), 'Tel: +1 (555) 123-4567 x');
  assert.equal(api.fieldsOf(editor.document).length, 1);
  // Right after a word that the label would spoil: the word alone.
  const typed = H.openEditor('Tel: 5551234567|');
  await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us');
  await H.settle(typed);
  assert.equal(H.marked(typed), 'Tel: +1 (555) 123-4567|');
});

test('a selection over lines: the daemon opens a field on each line with text, the blanks around it left out', async () => {
  const { api } = await H.activate();
  const editor = H.openEditor('Tel: 5551234567\n|  2015550123  \n\n   \n3125550199| x');
  const outcome = await vscode.commands.executeCommand('maskd.formatFieldAs', 'phone.us');
  await H.settle(editor);
  assert.equal(outcome.opened, 2);
  assert.equal(editor.document.getText(), 'Tel: 5551234567\n  +1 (201) 555-0123  \n\n   \n+1 (312) 555-0199 x');
  assert.equal(api.fieldsOf(editor.document).length, 2);
});

test('over several lines and selections, one field per line opens in one request', async () => {
  const { api } = await H.activate();
  const lines = Array.from({ length: 1000 }, () => '  411111111111111  ');
  const editor = H.openEditor(`|${lines.join('\n')}|`);
  const sent = [];
  const request = api.session.client.request.bind(api.session.client);
  api.session.client.request = (method, params) => {
    sent.push(method);
    return request(method, params);
  };
  const started = Date.now();
  let outcome;
  try {
    outcome = await vscode.commands.executeCommand('maskd.formatFieldAs', 'card');
    await H.settle(editor);
  } finally {
    delete api.session.client.request;
  }
  console.log(`# 1,000 fields opened and formatted in ${Date.now() - started} ms`);
  assert.equal(sent.filter((m) => m === 'maskd/openFields').length, 1);
  assert.equal(sent.filter((m) => m === 'maskd/openField').length, 0);
  assert.equal(outcome.opened, 1000);
  assert.equal(api.fieldsOf(editor.document).length, 1000);
  assert.equal(editor.document.getText(), lines.map(() => '  4111 1111 1111 111  ').join('\n'));
  // A key in line 500.
  const line = 499;
  editor.select(editor.document.offsetAt(new vscode.Position(line, 20)), editor.document.offsetAt(new vscode.Position(line, 20)));
  const typed = Date.now();
  editor.type('1');
  await H.settle(editor);
  console.log(`# a key in line 500 formatted in ${Date.now() - typed} ms`);
  assert.equal(editor.document.lineAt(line).text, '  4111 1111 1111 1111  ');
  assert.equal(editor.caret, editor.document.offsetAt(new vscode.Position(line, 21)));
  assert.equal(api.fieldsOf(editor.document)[line].valid, true);

  // Several selections, one over two lines: a field per line of each.
  const other = H.openEditor('a 12\n 34 \n56\nd 78');
  other.selections = [
    new vscode.Selection(new vscode.Position(0, 2), new vscode.Position(1, 4)),
    new vscode.Selection(new vscode.Position(3, 2), new vscode.Position(3, 4)),
  ];
  const few = await vscode.commands.executeCommand('maskd.formatFieldAs', '[0]-[0]');
  await H.settle(other);
  assert.equal(few.opened, 3);
  assert.equal(other.document.getText(), 'a 1-2\n 3-4 \n56\nd 7-8');
  // A line the mask cannot take is refused alone, and said once.
  const labels = H.openEditor('|a 12\n56|');
  const some = await vscode.commands.executeCommand('maskd.formatFieldAs', '[0]-[0]');
  await H.settle(labels);
  assert.equal(some.opened, 1);
  assert.equal(lastMessage('error'), "maskd: opened 1 of 2 fields; the first refused: 'a 12' does not fit [0]-[0]: a would be dropped");
  assert.equal(labels.document.getText(), 'a 12\n5-6');
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

test('deactivation shuts the daemon down cleanly', async () => {
  const { api } = await H.activate();
  await api.session.ensureStarted();
  const client = api.session.client;
  const exited = new Promise((resolve) => client.once('exit', (code) => resolve(code)));
  await H.deactivate();
  assert.equal(await exited, 0);
});

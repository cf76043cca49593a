// maskd for VS Code, tests: package.json says what the code does, and nothing outside node is needed.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const path = require('path');
const H = require('./helpers');
const { Command } = require('../src/commands');
const config = require('../src/config');

const pkg = JSON.parse(fs.readFileSync(path.join(H.extensionRoot, 'package.json'), 'utf8'));

test('package.json has what VS Code needs to load the extension', () => {
  assert.match(pkg.engines.vscode, /^\^1\.\d+\.\d+$/);
  assert.ok(fs.existsSync(path.join(H.extensionRoot, pkg.main)), pkg.main);
  assert.equal(pkg.dependencies, undefined);
  assert.equal(pkg.devDependencies, undefined);
});

test('the contributed commands are the registered ones, namespaced and in the maskd category', async () => {
  const contributed = pkg.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual(contributed, Object.values(Command).sort());
  for (const c of pkg.contributes.commands) {
    assert.match(c.command, /^maskd\.[a-zA-Z]+$/);
    assert.equal(c.category, 'maskd');
    assert.ok(pkg.activationEvents.includes(`onCommand:${c.command}`), c.command);
  }
  assert.equal(pkg.contributes.commands.find((c) => c.command === Command.formatFieldAs).title, 'Format Field As...');
  // No default keybindings: a key for "format as card" is the person's choice (README says how).
  assert.equal(pkg.contributes.keybindings, undefined);
  await H.activate();
  for (const id of contributed) assert.ok(H.fake.commands.has(id), `${id} is not registered`);
  await H.deactivate();
});

test('the settings are maskd.path, maskd.logLevel and maskd.rules under one title, with what config.js reads', () => {
  const { title, properties } = pkg.contributes.configuration;
  assert.equal(title, 'maskd');
  assert.deepEqual(Object.keys(properties).sort(), ['maskd.logLevel', 'maskd.path', 'maskd.rules']);
  assert.deepEqual(config.read(H.vscode).rules, properties['maskd.rules'].default);
  assert.deepEqual(properties['maskd.rules'].items.required, ['match', 'mask']);
  assert.deepEqual(properties['maskd.logLevel'].enum, config.LOG_LEVELS);
  const read = config.read(H.vscode);
  assert.equal(read.logLevel, properties['maskd.logLevel'].default);
  assert.deepEqual(config.serverCommand({ path: '~/bin/maskd', logLevel: 'debug' }).args, ['--stdio', '--log-level', 'debug']);
  assert.ok(config.serverCommand({ path: '~/bin/maskd', logLevel: 'warn' }).command.endsWith('/bin/maskd'));
  assert.ok(!config.serverCommand({ path: '~/bin/maskd', logLevel: 'warn' }).command.startsWith('~'));
});

test('the source needs only node, vscode and itself', () => {
  const builtin = new Set(require('module').builtinModules);
  const dir = path.join(H.extensionRoot, 'src');
  for (const file of fs.readdirSync(dir)) {
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    for (const [, name] of source.matchAll(/require\('([^']+)'\)/g)) {
      const ok = name === 'vscode' || name.startsWith('.') || builtin.has(name);
      assert.ok(ok, `${file} requires '${name}'`);
    }
    // Method names are spelled in protocol.js only.
    if (file !== 'protocol.js') assert.doesNotMatch(source, /'maskd\/|'textDocument\//, file);
  }
});

test('workspace trust: limited, and a workspace cannot choose the program maskd.path runs', () => {
  const trust = pkg.capabilities.untrustedWorkspaces;
  assert.equal(trust.supported, 'limited');
  assert.deepEqual(trust.restrictedConfigurations, ['maskd.path']);
  assert.ok(trust.description.length > 0);
});

test('the package has a LICENSE and a repository, and leaves the tests and the fake vscode out', () => {
  assert.ok(fs.readFileSync(path.join(H.extensionRoot, 'LICENSE'), 'utf8').startsWith(`${pkg.license} License`));
  assert.equal(pkg.repository.directory, 'editors/vscode');
  const ignored = fs.readFileSync(path.join(H.extensionRoot, '.vscodeignore'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  assert.ok(ignored.includes('test/**'), 'test/** is packaged');
  // What would be packaged: everything under the folder outside the ignored globs.
  const packaged = [];
  const walk = (dir) => {
    for (const name of fs.readdirSync(path.join(H.extensionRoot, dir))) {
      const rel = dir ? `${dir}/${name}` : name;
      if (fs.statSync(path.join(H.extensionRoot, rel)).isDirectory()) walk(rel);
      else packaged.push(rel);
    }
  };
  walk('');
  const kept = packaged.filter((f) => !f.startsWith('test/') && !f.endsWith('.test.js') && f !== '.vscodeignore');
  assert.ok(kept.every((f) => !/fake|test/.test(f)), kept.join(', '));
  assert.ok(kept.includes(pkg.main.replace(/^\.\//, '')));
});

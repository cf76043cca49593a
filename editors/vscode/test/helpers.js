// maskd for VS Code, tests: the fake `vscode` module wired in, the extension activated against
// the real daemon, and a person's keys.
'use strict';

const assert = require('node:assert/strict');
const fs = require('fs');
const Module = require('module');
const path = require('path');

const here = __dirname;
const fakePath = path.join(here, 'fake', 'vscode.js');
const extensionRoot = path.resolve(here, '..');
const repoRoot = path.resolve(extensionRoot, '..', '..');

// `require('vscode')` anywhere in the extension gets the fake.
const resolve = Module._resolveFilename;
Module._resolveFilename = function resolveVscode(request, ...rest) {
  return request === 'vscode' ? fakePath : resolve.call(this, request, ...rest);
};

const vscode = require('vscode');
const { fake } = vscode;

/** The daemon under test: `$MASKD`, else the repository's debug build. */
const MASKD = path.resolve(process.env.MASKD || path.join(repoRoot, '.build', 'debug', 'maskd'));

let activated = null;

/**
 * Activates the extension once per test process, with `maskd.path` set to the daemon under test.
 * @returns {Promise<{api, context, extension}>}
 */
async function activate() {
  if (activated) return activated;
  if (!fs.existsSync(MASKD)) throw new Error(`no maskd binary at ${MASKD}: build it, or set MASKD`);
  fake.settings['maskd.path'] = MASKD;
  const extension = require(path.join(extensionRoot, 'src', 'main.js'));
  const context = { subscriptions: [], extensionPath: extensionRoot };
  const api = extension.activate(context);
  activated = { api, context, extension };
  return activated;
}

/** Deactivates the extension (shutdown and exit of the daemon). */
async function deactivate() {
  if (!activated) return;
  const { extension, context } = activated;
  activated = null;
  await extension.deactivate();
  for (const d of context.subscriptions) d.dispose();
}

/**
 * A document in a new editor, written with `|` for the caret (or two `|` for a selection).
 * @returns {import('./fake/vscode').TextEditor}
 */
function openEditor(marked, options) {
  const { text, selection } = unmark(marked);
  const editor = fake.openEditor(text, options);
  editor.select(selection[0], selection[1]);
  return editor;
}

/** The editor's document with `|` at the caret, or at both ends of a selection. */
function marked(editor) {
  const text = editor.document.getText();
  const start = editor.document.offsetAt(editor.selection.start);
  const end = editor.document.offsetAt(editor.selection.end);
  if (start === end) return `${text.slice(0, start)}|${text.slice(start)}`;
  return `${text.slice(0, start)}|${text.slice(start, end)}|${text.slice(end)}`;
}

function unmark(m) {
  const first = m.indexOf('|');
  if (first < 0) return { text: m, selection: [m.length, m.length] };
  const second = m.indexOf('|', first + 1);
  if (second < 0) return { text: m.slice(0, first) + m.slice(first + 1), selection: [first, first] };
  return { text: m.slice(0, first) + m.slice(first + 1, second) + m.slice(second + 1), selection: [first, second - 1] };
}

/** Waits until the daemon's answers to everything sent for the editor's document are applied. */
async function settle(editor) {
  const { api } = await activate();
  await api.settle(editor.document);
}

/**
 * Types `keys` one grapheme at a time, as separate keystrokes, waiting for the daemon after each,
 * and checks the document (with `|` at the caret) after each against `expected[i]`.
 */
async function typeKeys(editor, keys, expected) {
  const list = vscode.graphemes(keys);
  assert.equal(list.length, expected.length, `typeKeys: ${list.length} keys, ${expected.length} expectations`);
  for (let i = 0; i < list.length; i++) {
    editor.type(list[i]);
    await settle(editor);
    assert.equal(marked(editor), expected[i], `after typing ${JSON.stringify(keys.slice(0, i + 1))}`);
  }
}

/** Presses backspace `expected.length` times, checking the document after each. */
async function backspaces(editor, expected) {
  for (let i = 0; i < expected.length; i++) {
    editor.backspace();
    await settle(editor);
    assert.equal(marked(editor), expected[i], `after backspace ${i + 1}`);
  }
}

module.exports = {
  vscode,
  fake,
  MASKD,
  repoRoot,
  extensionRoot,
  activate,
  deactivate,
  openEditor,
  marked,
  unmark,
  settle,
  typeKeys,
  backspaces,
};

// maskd for VS Code: activation and deactivation.
'use strict';

const vscode = require('vscode');
const commands = require('./commands');
const config = require('./config');
const { Session } = require('./session');
const { FieldStatus } = require('./status');
const { FileChangeType } = require('./protocol');
const packageJson = require('../package.json');

/** @type {Session | null} */
let session = null;

/**
 * Wires the session to VS Code's events and registers the commands.
 *
 * The daemon starts with the first command that needs it, or the first document that field rules
 * may reach (the `maskd.rules` setting, a workspace folder's `.maskd.json`), not here: a missing
 * binary is then reported where the person asked, and without rules no daemon starts.
 * @returns {{session: Session, settle(document): Promise<void>, fieldsOf(document): any[],
 *   onDidFormat: Function}} the extension's API, for other extensions and the tests.
 */
function activate(context) {
  const output = vscode.window.createOutputChannel('maskd');
  session = new Session(vscode, output, { name: 'maskd-vscode', version: packageJson.version });
  const s = session;
  const status = new FieldStatus(vscode, s);
  // A workspace folder's `.maskd.json` saved, made or removed: the daemon reads it again.
  const rulesFiles = vscode.workspace.createFileSystemWatcher('**/.maskd.json');
  context.subscriptions.push(
    output,
    s,
    status,
    ...commands.register(vscode, s),
    s.onDidChangeFields(() => status.update()),
    vscode.window.onDidChangeTextEditorSelection(() => status.update()),
    vscode.window.onDidChangeActiveTextEditor(() => status.update()),
    vscode.workspace.onDidChangeTextDocument((event) => s.onDidChangeTextDocument(event)),
    vscode.workspace.onDidCloseTextDocument((document) => s.onDidCloseTextDocument(document)),
    vscode.workspace.onDidOpenTextDocument((document) => s.attachByRules(document)),
    vscode.workspace.onDidChangeWorkspaceFolders((event) => s.onDidChangeWorkspaceFolders(event)),
    rulesFiles,
    rulesFiles.onDidCreate((uri) => s.onDidChangeRulesFile(uri, FileChangeType.created)),
    rulesFiles.onDidChange((uri) => s.onDidChangeRulesFile(uri, FileChangeType.changed)),
    rulesFiles.onDidDelete((uri) => s.onDidChangeRulesFile(uri, FileChangeType.deleted)),
    vscode.window.onDidChangeVisibleTextEditors((editors) => s.onDidChangeVisibleTextEditors(editors)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (config.affectsRules(event)) s.onDidChangeRules();
      if (!config.needsRestart(event) || !s.client) return;
      output.appendLine('maskd settings changed: restarting the daemon');
      s.restart().catch((error) => output.appendLine(`restart: ${error.message}`));
    }),
  );
  // Documents open before activation, where field rules may apply.
  s.attachAllByRules();
  return {
    session: s,
    status,
    settle: (document) => s.settle(document),
    fieldsOf: (document) => s.fieldsOf(document),
    onDidFormat: s.onDidFormat,
  };
}

/** Shuts the daemon down (`shutdown`, `exit`); VS Code waits for the returned promise. */
function deactivate() {
  const s = session;
  session = null;
  return s ? s.stop() : undefined;
}

module.exports = { activate, deactivate };

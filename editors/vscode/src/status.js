// maskd for VS Code: the status bar item showing the field at the caret.
'use strict';

const { Command } = require('./commands');

/**
 * A status bar item with the state of the field at the active editor's caret (`maskd f1: valid`),
 * hidden when the caret is in no field. Clicking it runs "Show Field Info".
 */
class FieldStatus {
  /**
   * @param {typeof import('vscode')} vscode
   * @param {import('./session').Session} session
   */
  constructor(vscode, session) {
    this.vscode = vscode;
    this.session = session;
    this.item = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'maskd field';
    this.item.command = Command.showFieldInfo;
  }

  /** The words the item shows for a field state. */
  static text(state) {
    const word = state.valid ? 'valid' : state.complete ? 'invalid' : 'incomplete';
    return `maskd ${state.field}: ${word}`;
  }

  /** Shows the field at the active editor's caret, or hides the item. */
  update() {
    const editor = this.vscode.window.activeTextEditor;
    const state = editor ? this.session.knownFieldAt(editor.document, editor.selection.active) : null;
    if (!state) {
      this.item.hide();
      return;
    }
    this.item.text = FieldStatus.text(state);
    this.item.tooltip = `${state.mask}: "${state.text}"${state.problems && state.problems.length ? ` (${state.problems.join('; ')})` : ''}`;
    this.item.show();
  }

  dispose() {
    this.item.dispose();
  }
}

module.exports = { FieldStatus };

// maskd for VS Code: each field's placeholder as ghost text after it.
'use strict';

const { toPosition } = require('./edits');

/**
 * Shows every open field's placeholder (the tail still to fill, `__) ___-____`) as an `after`
 * decoration at the field's end.
 *
 * Each field has its own decoration type, so updating one field leaves the others' decorations
 * alone, and VS Code keeps moving those with the edits around them.
 */
class Placeholders {
  constructor(vscode) {
    this.vscode = vscode;
    /** @type {Map<string, Map<string, {type, state}>>} uri -> field id -> decoration type and state. */
    this.byDocument = new Map();
  }

  /**
   * Shows (or updates) the placeholders of `states` in every editor of `document`.
   * @param {import('./protocol').FieldState[]} states
   */
  show(document, states) {
    const uri = document.uri.toString();
    if (!this.byDocument.has(uri)) this.byDocument.set(uri, new Map());
    const fields = this.byDocument.get(uri);
    for (const state of states) {
      let entry = fields.get(state.field);
      if (!entry) {
        entry = { type: this.createType(), state };
        fields.set(state.field, entry);
      }
      entry.state = state;
      for (const editor of this.editorsOf(document)) this.render(editor, entry);
    }
  }

  /** Removes the placeholder of field `id`. */
  remove(document, id) {
    const fields = this.byDocument.get(document.uri.toString());
    const entry = fields && fields.get(id);
    if (!entry) return;
    entry.type.dispose();
    fields.delete(id);
  }

  /** Removes every placeholder of the document at `uri` (closed, or the daemon is gone). */
  clear(uri) {
    const fields = this.byDocument.get(uri);
    if (!fields) return;
    for (const entry of fields.values()) entry.type.dispose();
    this.byDocument.delete(uri);
  }

  /** Removes every placeholder. */
  clearAll() {
    for (const uri of [...this.byDocument.keys()]) this.clear(uri);
  }

  /** Draws the document's placeholders in an editor that just became visible. */
  renderEditor(editor) {
    const fields = this.byDocument.get(editor.document.uri.toString());
    if (!fields) return;
    for (const entry of fields.values()) this.render(editor, entry);
  }

  render(editor, entry) {
    const { state } = entry;
    if (!state.placeholder) {
      editor.setDecorations(entry.type, []);
      return;
    }
    const end = toPosition(this.vscode, state.range.end);
    editor.setDecorations(entry.type, [
      {
        range: new this.vscode.Range(end, end),
        hoverMessage: `maskd ${state.field}: ${state.mask}`,
        renderOptions: { after: { contentText: state.placeholder } },
      },
    ]);
  }

  createType() {
    const { vscode } = this;
    return vscode.window.createTextEditorDecorationType({
      after: { color: new vscode.ThemeColor('editorGhostText.foreground'), fontStyle: 'normal' },
      rangeBehavior: vscode.DecorationRangeBehavior.ClosedClosed,
    });
  }

  editorsOf(document) {
    return this.vscode.window.visibleTextEditors.filter((e) => e.document === document);
  }
}

module.exports = { Placeholders };

// maskd for VS Code: positions, changes and the daemon's edits, both ways.
'use strict';

// The daemon counts columns in UTF-16 code units, as VS Code's `Position.character` does, so a
// position crosses over unchanged: no conversion table, no line text needed.

/** An LSP position as a VS Code `Position`. */
function toPosition(vscode, p) {
  return new vscode.Position(p.line, p.character);
}

/** An LSP range as a VS Code `Range`. */
function toRange(vscode, r) {
  return new vscode.Range(toPosition(vscode, r.start), toPosition(vscode, r.end));
}

/** A VS Code `Position` as an LSP position. */
function fromPosition(p) {
  return { line: p.line, character: p.character };
}

/** A VS Code `Range` as an LSP range. */
function fromRange(r) {
  return { start: fromPosition(r.start), end: fromPosition(r.end) };
}

/**
 * The `contentChanges` of a `didChange` for one `onDidChangeTextDocument` event.
 *
 * VS Code lists an event's changes so that applying them in order works (they are sorted from the
 * end of the document to its start, each range against the text before the event), which is also
 * how LSP applies them; so they go out in their order, as vscode-languageclient sends them.
 * @param {readonly {range, rangeLength: number, text: string}[]} contentChanges
 */
function toContentChanges(contentChanges) {
  return contentChanges.map((c) => ({ range: fromRange(c.range), rangeLength: c.rangeLength, text: c.text }));
}

/**
 * One `WorkspaceEdit` holding the daemon's edits for a document.
 * @param {import('./protocol').LspTextEdit[]} edits sorted, non-overlapping, against one version.
 */
function toWorkspaceEdit(vscode, uri, edits) {
  const edit = new vscode.WorkspaceEdit();
  for (const e of edits) edit.replace(uri, toRange(vscode, e.range), e.newText);
  return edit;
}

/**
 * The editor a caret belongs in: the active one when it shows `document`, else the first visible
 * one that does; null when no editor shows it.
 */
function editorFor(vscode, document) {
  const active = vscode.window.activeTextEditor;
  if (active && active.document === document) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document === document) || null;
}

/**
 * Knows which document versions the extension made itself, by applying the daemon's edits.
 *
 * The daemon produces no `didFormat` for the echo of its own edits; a client that saw one anyway
 * must not apply it, or the caret would be moved twice. This tracker recognises the echo on the
 * editor side: while an edit is being applied, a change event whose changes are exactly the
 * edits' texts is the echo, and its version is remembered.
 */
class EchoTracker {
  constructor() {
    /** @type {Map<string, {texts: string}>} uri -> the edit being applied. */
    this.applying = new Map();
    /** @type {Map<string, Set<number>>} uri -> versions the extension made. */
    this.own = new Map();
  }

  /** Marks that the edits are about to be applied to the document at `uri`. */
  expect(uri, edits) {
    this.applying.set(uri, { texts: edits.map((e) => e.newText).sort().join('\u0000') });
  }

  /** The edit is applied (or refused): later changes are the person's again. */
  done(uri) {
    this.applying.delete(uri);
  }

  /**
   * Records the event's version if it is the echo of the edit being applied.
   * @returns {boolean} true for the echo.
   */
  claim(uri, version, contentChanges) {
    const applying = this.applying.get(uri);
    if (!applying) return false;
    const texts = contentChanges.map((c) => c.text).sort().join('\u0000');
    if (texts !== applying.texts) return false;
    if (!this.own.has(uri)) this.own.set(uri, new Set());
    const versions = this.own.get(uri);
    versions.add(version);
    // Only recent versions can come back in a didFormat; keep the set small.
    if (versions.size > 64) versions.delete(versions.values().next().value);
    this.applying.delete(uri);
    return true;
  }

  /** True when the extension made `version` of the document at `uri`. */
  isOwn(uri, version) {
    const versions = this.own.get(uri);
    return versions !== undefined && versions.has(version);
  }

  /** Forgets a closed document. */
  forget(uri) {
    this.applying.delete(uri);
    this.own.delete(uri);
  }
}

/**
 * Applies edits the daemon computed against `version`, then puts the caret at `cursor` (without
 * edits, only when `cursor` is in one of `fields`: see holdsCursor).
 *
 * The edits go in as one `WorkspaceEdit`, so the document moves by one version and VS Code sends
 * one change event, which the daemon recognises as its echo. The caret is set only if nothing
 * else changed the document meanwhile (a person typing on while the edit was in flight).
 * @param {{edits: import('./protocol').LspTextEdit[], cursor: import('./protocol').LspPosition | null,
 *   fields?: import('./protocol').FieldState[], version: number}} format
 * @param {EchoTracker} echoes
 * @returns {Promise<'applied' | 'stale' | 'refused'>} `stale`: the document had moved past
 *   `version` (nothing done); `refused`: VS Code refused the edit (the document changed on the
 *   way), nothing done.
 */
async function applyFormat(vscode, document, format, echoes) {
  if (document.isClosed || document.version !== format.version) return 'stale';
  const uri = document.uri.toString();
  if (format.edits.length > 0) {
    echoes.expect(uri, format.edits);
    let ok;
    try {
      ok = await vscode.workspace.applyEdit(toWorkspaceEdit(vscode, document.uri, format.edits));
    } finally {
      echoes.done(uri);
    }
    if (!ok) return 'refused';
    // One applied edit is one version; any other version means the person typed on meanwhile.
    const ours = echoes.isOwn(uri, document.version) || document.version === format.version + 1;
    if (!ours) return 'applied';
    if (format.cursor) setCaret(vscode, document, toPosition(vscode, format.cursor));
  } else if (format.cursor && holdsCursor(format.fields, format.cursor)) {
    setCaret(vscode, document, toPosition(vscode, format.cursor));
  }
  return 'applied';
}

/**
 * Whether a `didFormat` without edits moves the caret: only when its cursor lies in one of the
 * fields it lists, the engine's caret in the field typed in. Elsewhere the change reached beyond
 * its fields (a deleted, replaced or joined line), and the caret stays where the editor put it.
 */
function holdsCursor(states, cursor) {
  return (states || []).some((s) => s && s.range && s.range.start.line === cursor.line && s.range.end.line === cursor.line
    && s.range.start.character <= cursor.character && cursor.character <= s.range.end.character);
}

/** Collapses the selection of the editor showing `document` to `position` and reveals it. */
function setCaret(vscode, document, position) {
  const editor = editorFor(vscode, document);
  if (!editor) return;
  editor.selection = new vscode.Selection(position, position);
  editor.revealRange(new vscode.Range(position, position));
}

/**
 * Where a field's range goes through one change of the text, by the daemon's field tracking rules
 * (Protocol/protocol.md): an edit before it shifts it; an insertion at either boundary or inside
 * belongs to it; a deletion overlapping it clips it. A field stays on one line: an insertion at its
 * end that holds a line break is not taken in.
 * @param {LspRange} range the field, in the text before the change.
 * @param {{range: LspRange, text: string}} change one content change.
 * @returns {LspRange}
 */
function shiftRange(range, change) {
  const s = change.range.start;
  const e = change.range.end;
  const lines = change.text.split('\n');
  const inserted =
    lines.length === 1
      ? { line: s.line, character: s.character + change.text.length }
      : { line: s.line + lines.length - 1, character: lines[lines.length - 1].length };
  const before = (a, b) => a.line < b.line || (a.line === b.line && a.character < b.character);
  const after = (p) => {
    if (p.line !== e.line) return { line: p.line + (lines.length - 1) - (e.line - s.line), character: p.character };
    return { line: inserted.line, character: inserted.character + (p.character - e.character) };
  };
  const start = before(range.start, s) ? range.start : before(e, range.start) ? after(range.start) : { ...s };
  let end = before(range.end, s) ? range.end : before(e, range.end) ? after(range.end) : inserted;
  if (end.line !== start.line) end = before(range.end, s) ? range.end : { ...s };
  return { start, end };
}

module.exports = {
  shiftRange,
  toPosition,
  toRange,
  fromPosition,
  fromRange,
  toContentChanges,
  toWorkspaceEdit,
  editorFor,
  EchoTracker,
  applyFormat,
  setCaret,
};

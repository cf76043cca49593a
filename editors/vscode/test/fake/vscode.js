// maskd for VS Code, tests: a small stand-in for the `vscode` module.
'use strict';

// It models what the extension touches, the way VS Code behaves:
// - a TextDocument is a string (UTF-16, as VS Code stores it), with a version that grows by one
//   per change event, and positionAt/offsetAt in UTF-16 code units;
// - a change event lists its contentChanges from the end of the document to its start, each with
//   range, rangeOffset and rangeLength against the text before the event;
// - workspace.applyEdit applies a WorkspaceEdit later (the main thread does it in VS Code), as one
//   change event, and resolves false if the document changed since the call;
// - editors have a selection the extension may set, and decorations it may set.
// `fake` (exported) is the test's side: open editors, type, answer quick picks, read messages.

const fs = require('fs');
const path = require('path');

// MARK: Values

class Position {
  constructor(line, character) {
    if (!(line >= 0 && character >= 0)) throw new Error(`bad Position(${line}, ${character})`);
    this.line = line;
    this.character = character;
  }
  isEqual(o) {
    return this.line === o.line && this.character === o.character;
  }
  isBefore(o) {
    return this.compareTo(o) < 0;
  }
  isBeforeOrEqual(o) {
    return this.compareTo(o) <= 0;
  }
  isAfter(o) {
    return this.compareTo(o) > 0;
  }
  isAfterOrEqual(o) {
    return this.compareTo(o) >= 0;
  }
  compareTo(o) {
    return this.line - o.line || this.character - o.character;
  }
  translate(lineDelta = 0, characterDelta = 0) {
    return new Position(this.line + lineDelta, this.character + characterDelta);
  }
  with(line = this.line, character = this.character) {
    return new Position(line, character);
  }
}

class Range {
  constructor(a, b, c, d) {
    let start = a;
    let end = b;
    if (typeof a === 'number') {
      start = new Position(a, b);
      end = new Position(c, d);
    }
    if (!(start instanceof Position) || !(end instanceof Position)) throw new Error('Range needs Positions');
    if (end.isBefore(start)) [start, end] = [end, start];
    this.start = start;
    this.end = end;
  }
  get isEmpty() {
    return this.start.isEqual(this.end);
  }
  get isSingleLine() {
    return this.start.line === this.end.line;
  }
  isEqual(o) {
    return this.start.isEqual(o.start) && this.end.isEqual(o.end);
  }
  contains(p) {
    if (p instanceof Range) return this.contains(p.start) && this.contains(p.end);
    return p.isAfterOrEqual(this.start) && p.isBeforeOrEqual(this.end);
  }
}

class Selection extends Range {
  constructor(anchor, active, c, d) {
    if (typeof anchor === 'number') {
      anchor = new Position(anchor, active);
      active = new Position(c, d);
    }
    super(anchor, active);
    this.anchor = anchor;
    this.active = active;
  }
  get isReversed() {
    return this.active.isBefore(this.anchor);
  }
}

class Uri {
  constructor(scheme, p) {
    this.scheme = scheme;
    this.path = p;
  }
  static file(p) {
    return new Uri('file', p);
  }
  static parse(text) {
    const m = /^([a-z][a-z0-9+.-]*):(?:\/\/)?(.*)$/i.exec(text);
    return m ? new Uri(m[1], m[2].startsWith('/') ? m[2] : `/${m[2]}`) : new Uri('file', text);
  }
  get fsPath() {
    return this.path;
  }
  toString() {
    return `${this.scheme}://${encodeURI(this.path)}`;
  }
}

class Disposable {
  constructor(fn) {
    this.fn = fn;
  }
  static from(...items) {
    return new Disposable(() => items.forEach((i) => i && i.dispose && i.dispose()));
  }
  dispose() {
    if (this.fn) this.fn();
    this.fn = null;
  }
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (listener, thisArg) => {
      const entry = { listener, thisArg };
      this.listeners.push(entry);
      return new Disposable(() => {
        this.listeners = this.listeners.filter((l) => l !== entry);
      });
    };
  }
  fire(value) {
    for (const { listener, thisArg } of [...this.listeners]) listener.call(thisArg, value);
  }
  dispose() {
    this.listeners = [];
  }
}

class ThemeColor {
  constructor(id) {
    this.id = id;
  }
}

class TextEdit {
  constructor(range, newText) {
    this.range = range;
    this.newText = newText;
  }
  static replace(range, newText) {
    return new TextEdit(range, newText);
  }
  static insert(position, newText) {
    return new TextEdit(new Range(position, position), newText);
  }
  static delete(range) {
    return new TextEdit(range, '');
  }
}

class WorkspaceEdit {
  constructor() {
    this.byUri = new Map();
  }
  replace(uri, range, newText) {
    const key = uri.toString();
    if (!this.byUri.has(key)) this.byUri.set(key, { uri, edits: [] });
    this.byUri.get(key).edits.push(new TextEdit(range, newText));
  }
  insert(uri, position, newText) {
    this.replace(uri, new Range(position, position), newText);
  }
  delete(uri, range) {
    this.replace(uri, range, '');
  }
  set(uri, edits) {
    this.byUri.set(uri.toString(), { uri, edits: [...edits] });
  }
  entries() {
    return [...this.byUri.values()].map((e) => [e.uri, e.edits]);
  }
  get size() {
    return this.byUri.size;
  }
}

const DecorationRangeBehavior = Object.freeze({ OpenOpen: 0, ClosedClosed: 1, OpenClosed: 2, ClosedOpen: 3 });
const DiagnosticSeverity = Object.freeze({ Error: 0, Warning: 1, Information: 2, Hint: 3 });
const StatusBarAlignment = Object.freeze({ Left: 1, Right: 2 });

class Diagnostic {
  constructor(range, message, severity = DiagnosticSeverity.Error) {
    this.range = range;
    this.message = message;
    this.severity = severity;
  }
}
const TextDocumentChangeReason = Object.freeze({ Undo: 1, Redo: 2 });

// MARK: Documents and editors

class TextDocument {
  constructor(uri, text, languageId) {
    this.uri = uri;
    this.languageId = languageId;
    this.version = 1;
    this.isClosed = false;
    this.isDirty = false;
    this.eol = 1;
    this.text = text;
  }
  get fileName() {
    return this.uri.fsPath;
  }
  get lineCount() {
    return this.lineStarts().length;
  }
  getText(range) {
    if (!range) return this.text;
    return this.text.slice(this.offsetAt(range.start), this.offsetAt(range.end));
  }
  lineAt(lineOrPosition) {
    const line = typeof lineOrPosition === 'number' ? lineOrPosition : lineOrPosition.line;
    const starts = this.lineStarts();
    if (line < 0 || line >= starts.length) throw new Error(`lineAt: no line ${line}`);
    const end = line + 1 < starts.length ? starts[line + 1] - 1 : this.text.length;
    const text = this.text.slice(starts[line], end);
    return { lineNumber: line, text, range: new Range(line, 0, line, text.length), isEmptyOrWhitespace: text.trim() === '' };
  }
  /** The UTF-16 offset of `position`, clamped to the document as VS Code does. */
  offsetAt(position) {
    const starts = this.lineStarts();
    if (position.line >= starts.length) return this.text.length;
    const lineLength = this.lineAt(position.line).text.length;
    return starts[position.line] + Math.min(position.character, lineLength);
  }
  /** The position of UTF-16 `offset`, clamped to the document. */
  positionAt(offset) {
    offset = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.lineStarts();
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid] <= offset) low = mid;
      else high = mid - 1;
    }
    return new Position(low, offset - starts[low]);
  }
  validatePosition(position) {
    return this.positionAt(this.offsetAt(position));
  }
  validateRange(range) {
    return new Range(this.validatePosition(range.start), this.validatePosition(range.end));
  }
  lineStarts() {
    if (this.cachedStarts && this.cachedFor === this.text) return this.cachedStarts;
    const starts = [0];
    for (let i = this.text.indexOf('\n'); i >= 0; i = this.text.indexOf('\n', i + 1)) starts.push(i + 1);
    this.cachedStarts = starts;
    this.cachedFor = this.text;
    return starts;
  }
}

class TextEditor {
  constructor(document) {
    this.document = document;
    this.selectionValue = new Selection(new Position(0, 0), new Position(0, 0));
    /** @type {Map<object, any[]>} decoration type -> what setDecorations last got. */
    this.decorations = new Map();
    this.options = { tabSize: 4, insertSpaces: true };
    this.viewColumn = 1;
  }
  get selection() {
    return this.selectionValue;
  }
  set selection(s) {
    const anchor = this.document.validatePosition(s.anchor);
    const active = this.document.validatePosition(s.active);
    this.selectionValue = new Selection(anchor, active);
    this.extraSelections = [];
    onDidChangeTextEditorSelection.fire({ textEditor: this, selections: this.selections });
  }
  /** The primary selection first, as VS Code lists them. */
  get selections() {
    return [this.selectionValue, ...(this.extraSelections || [])];
  }
  set selections(list) {
    this.selection = list[0];
    this.extraSelections = list.slice(1).map((s) => new Selection(this.document.validatePosition(s.anchor), this.document.validatePosition(s.active)));
  }
  setDecorations(type, rangesOrOptions) {
    if (type.disposed) throw new Error('setDecorations with a disposed decoration type');
    this.decorations.set(type, [...rangesOrOptions]);
  }
  revealRange() {}
  show() {}
  hide() {}

  // The person's keys. Each is one change event, as VS Code's own typing makes it.

  /** Types or pastes `text` over the selection; the caret lands after it. */
  type(text) {
    const start = this.document.offsetAt(this.selection.start);
    const end = this.document.offsetAt(this.selection.end);
    fake.change(this.document, [{ start, end, text }]);
    this.caret = start + text.length;
  }
  /** Backspace: deletes the selection, or the grapheme before the caret (nothing at 0). */
  backspace() {
    let start = this.document.offsetAt(this.selection.start);
    const end = this.document.offsetAt(this.selection.end);
    if (start === end) {
      if (start === 0) return;
      start = previousGrapheme(this.document.text, start);
    }
    fake.change(this.document, [{ start, end, text: '' }]);
    this.caret = start;
  }
  /** Delete: deletes the selection, or the grapheme after the caret (nothing at the end). */
  deleteRight() {
    const start = this.document.offsetAt(this.selection.start);
    let end = this.document.offsetAt(this.selection.end);
    if (start === end) {
      if (start === this.document.text.length) return;
      end = nextGrapheme(this.document.text, start);
    }
    fake.change(this.document, [{ start, end, text: '' }]);
    this.caret = start;
  }
  /** The caret as a UTF-16 offset into the document. */
  get caret() {
    return this.document.offsetAt(this.selection.active);
  }
  set caret(offset) {
    const p = this.document.positionAt(offset);
    this.selection = new Selection(p, p);
  }
  /** Selects `[start, end)` by UTF-16 offsets. */
  select(start, end) {
    this.selection = new Selection(this.document.positionAt(start), this.document.positionAt(end));
  }
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Splits text into grapheme clusters, the unit VS Code's cursor moves and deletes by. */
function graphemes(text) {
  return [...segmenter.segment(text)].map((s) => s.segment);
}

function previousGrapheme(text, offset) {
  let start = 0;
  for (const s of segmenter.segment(text.slice(0, offset))) start = s.index;
  return start;
}

function nextGrapheme(text, offset) {
  const first = segmenter.segment(text.slice(offset))[Symbol.iterator]().next();
  return first.done ? offset : offset + first.value.segment.length;
}

// MARK: The fake's state

const onDidChangeTextDocument = new EventEmitter();
const onDidCloseTextDocument = new EventEmitter();
const onDidOpenTextDocument = new EventEmitter();
const onDidChangeConfiguration = new EventEmitter();
const onDidChangeWorkspaceFolders = new EventEmitter();
const onDidChangeVisibleTextEditors = new EventEmitter();
const onDidChangeActiveTextEditor = new EventEmitter();
const onDidChangeTextEditorSelection = new EventEmitter();

const packageJson = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8'));
const defaults = Object.fromEntries(
  Object.entries(packageJson.contributes.configuration.properties).map(([key, p]) => [key, p.default]),
);

const fake = {
  documents: [],
  editors: [],
  activeEditor: null,
  settings: {},
  commands: new Map(),
  messages: [],
  statusMessages: [],
  outputs: new Map(),
  decorationTypes: new Set(),
  /** name -> Map(uri string -> Diagnostic[]) of every diagnostic collection made. */
  diagnostics: new Map(),
  statusItems: [],
  /** Output channels shown, by name. */
  shownOutputs: [],
  /** Answers `showQuickPick(items, options)`; a test sets it. Default: cancel. */
  quickPick: () => undefined,
  /** Answers a message's action buttons `(text, items)`; a test sets it. Default: dismissed. */
  chooseAction: () => undefined,
  /** Answers `showInputBox(options)`; a test sets it. Default: cancel. */
  inputBox: () => undefined,
  /** Every change event, as fired. */
  events: [],
  nextUntitled: 1,

  /** The workspace folders, `{uri, name, index}`; set them with `setWorkspaceFolders`. */
  workspaceFolders: undefined,

  /**
   * Opens `text` in a new editor, which becomes the active one: a file under /fake, or at `file`
   * (an absolute path; the text need not be what the file holds).
   */
  openEditor(text, { languageId = 'plaintext', name, file } = {}) {
    const uri = Uri.file(file || `/fake/${name || `untitled-${fake.nextUntitled++}.txt`}`);
    const document = new TextDocument(uri, text, languageId);
    fake.documents.push(document);
    onDidOpenTextDocument.fire(document);
    const editor = new TextEditor(document);
    fake.editors.push(editor);
    fake.activeEditor = editor;
    onDidChangeVisibleTextEditors.fire([...fake.editors]);
    onDidChangeActiveTextEditor.fire(editor);
    return editor;
  },

  /** Closes the document of `editor` (its editors go too). */
  closeDocument(document) {
    fake.editors = fake.editors.filter((e) => e.document !== document);
    if (fake.activeEditor && fake.activeEditor.document === document) fake.activeEditor = fake.editors[0] || null;
    onDidChangeVisibleTextEditors.fire([...fake.editors]);
    fake.documents = fake.documents.filter((d) => d !== document);
    document.isClosed = true;
    onDidCloseTextDocument.fire(document);
  },

  /**
   * Changes a document as one event: `changes` are `{start, end, text}` in UTF-16 offsets of the
   * text before the event, non-overlapping. Editors' selections move with the text.
   * @param {number} [reason] a TextDocumentChangeReason (undo, redo) or undefined.
   */
  change(document, changes, reason) {
    const sorted = [...changes].sort((a, b) => b.start - a.start || b.end - a.end);
    for (let i = 1; i < sorted.length; i++) {
      if (sorted[i].end > sorted[i - 1].start) throw new Error('overlapping changes in one event');
    }
    const contentChanges = sorted.map((c) => ({
      range: new Range(document.positionAt(c.start), document.positionAt(c.end)),
      rangeOffset: c.start,
      rangeLength: c.end - c.start,
      text: c.text,
    }));
    const carets = fake.editors.filter((e) => e.document === document).map((e) => [e, e.selection]);
    const before = document.text;
    let text = before;
    for (const c of sorted) text = text.slice(0, c.start) + c.text + text.slice(c.end);
    document.text = text;
    document.version += 1;
    document.isDirty = true;
    for (const [editor, selection] of carets) {
      const move = (p) => document.positionAt(mapOffset(offsetIn(before, p), sorted));
      editor.selectionValue = new Selection(move(selection.anchor), move(selection.active));
      editor.extraSelections = (editor.extraSelections || []).map((x) => new Selection(move(x.anchor), move(x.active)));
    }
    const event = { document, contentChanges, reason };
    fake.events.push(event);
    onDidChangeTextDocument.fire(event);
    // VS Code reports the selections the change moved after the change itself.
    for (const [editor] of carets) onDidChangeTextEditorSelection.fire({ textEditor: editor, selections: editor.selections });
  },

  /** The placeholders drawn in `editor`: `{offset, text}` for every live decoration with `after` text. */
  placeholders(editor) {
    const out = [];
    for (const [type, items] of editor.decorations) {
      if (type.disposed) continue;
      for (const item of items) {
        const after = item.renderOptions && item.renderOptions.after;
        if (after && after.contentText) out.push({ offset: editor.document.offsetAt(item.range.start), text: after.contentText });
      }
    }
    return out.sort((a, b) => a.offset - b.offset);
  },

  /** Sets `maskd.path` and the like, firing onDidChangeConfiguration as VS Code does. */
  setSetting(key, value) {
    fake.settings[key] = value;
    onDidChangeConfiguration.fire({ affectsConfiguration: (section) => key === section || key.startsWith(`${section}.`) });
  },

  /** Makes the workspace folders the directories `paths`, firing onDidChangeWorkspaceFolders as VS Code does. */
  setWorkspaceFolders(paths) {
    const before = fake.workspaceFolders || [];
    const after = paths.map((p, index) => ({ uri: Uri.file(p), name: path.basename(p), index }));
    const has = (list, f) => list.some((g) => g.uri.toString() === f.uri.toString());
    fake.workspaceFolders = after.length > 0 ? after : undefined;
    onDidChangeWorkspaceFolders.fire({ added: after.filter((f) => !has(before, f)), removed: before.filter((f) => !has(after, f)) });
  },

  /** The file system watchers made, `{glob, created, changed, deleted}` (EventEmitters). */
  watchers: [],

  /** Fires `kind` ('created', 'changed', 'deleted') for the file at `file` in every watcher, as VS Code does for a file on disk. */
  fileEvent(kind, file) {
    for (const w of fake.watchers) if (!w.disposed) w[kind].fire(Uri.file(file));
  },

  /** The lines written to output channel `name`. */
  output(name) {
    return fake.outputs.get(name) || [];
  },
};

/** The UTF-16 offset of position `p` in `text` (a document's text before a change). */
function offsetIn(text, p) {
  let line = 0;
  let i = 0;
  while (line < p.line && i < text.length) {
    if (text[i] === '\n') line++;
    i++;
  }
  let end = text.indexOf('\n', i);
  if (end < 0) end = text.length;
  return Math.min(i + p.character, end);
}

/**
 * Where `offset` goes through `changes` (descending): after a change it shifts by the change's
 * growth, inside a replaced range it goes to the inserted text's end; at an insertion point it stays.
 */
function mapOffset(offset, changes) {
  let result = offset;
  for (const c of changes) {
    if (offset >= c.end && !(c.start === c.end && offset === c.start)) result += c.text.length - (c.end - c.start);
    else if (offset > c.start && offset < c.end) result = c.start + c.text.length + (result - offset);
  }
  return result;
}

// MARK: The namespaces

const workspace = {
  get textDocuments() {
    return [...fake.documents];
  },
  get workspaceFolders() {
    return fake.workspaceFolders;
  },
  onDidChangeWorkspaceFolders: onDidChangeWorkspaceFolders.event,
  /** A watcher of files matching `glob`; `fake.fileEvent` fires its events (the glob is not matched). */
  createFileSystemWatcher(glob) {
    const w = { glob, created: new EventEmitter(), changed: new EventEmitter(), deleted: new EventEmitter(), disposed: false };
    fake.watchers.push(w);
    return {
      onDidCreate: w.created.event,
      onDidChange: w.changed.event,
      onDidDelete: w.deleted.event,
      dispose() {
        w.disposed = true;
      },
    };
  },
  onDidChangeTextDocument: onDidChangeTextDocument.event,
  onDidCloseTextDocument: onDidCloseTextDocument.event,
  onDidOpenTextDocument: onDidOpenTextDocument.event,
  onDidChangeConfiguration: onDidChangeConfiguration.event,
  getConfiguration(section) {
    const key = (k) => (section ? `${section}.${k}` : k);
    return {
      get(k, fallback) {
        const full = key(k);
        if (Object.prototype.hasOwnProperty.call(fake.settings, full)) return fake.settings[full];
        if (Object.prototype.hasOwnProperty.call(defaults, full)) return defaults[full];
        return fallback;
      },
      has(k) {
        return Object.prototype.hasOwnProperty.call(defaults, key(k)) || Object.prototype.hasOwnProperty.call(fake.settings, key(k));
      },
      update(k, value) {
        fake.setSetting(key(k), value);
        return Promise.resolve();
      },
    };
  },
  /**
   * Applies a WorkspaceEdit the way the main thread does: later, as one change event per
   * document, refused (false) if a document changed since the call or the edits overlap.
   */
  applyEdit(edit) {
    const plan = edit.entries().map(([uri, edits]) => {
      const document = fake.documents.find((d) => d.uri.toString() === uri.toString());
      return { document, edits, version: document ? document.version : -1 };
    });
    return new Promise((resolve) => {
      setImmediate(() => {
        for (const p of plan) {
          if (!p.document || p.document.isClosed || p.document.version !== p.version) return resolve(false);
        }
        try {
          for (const p of plan) {
            const changes = p.edits.map((e) => ({
              start: p.document.offsetAt(e.range.start),
              end: p.document.offsetAt(e.range.end),
              text: e.newText,
            }));
            fake.change(p.document, changes);
          }
        } catch (error) {
          return resolve(false);
        }
        resolve(true);
      });
    });
  },
};

const window = {
  get activeTextEditor() {
    return fake.activeEditor || undefined;
  },
  get visibleTextEditors() {
    return [...fake.editors];
  },
  onDidChangeVisibleTextEditors: onDidChangeVisibleTextEditors.event,
  onDidChangeActiveTextEditor: onDidChangeActiveTextEditor.event,
  onDidChangeTextEditorSelection: onDidChangeTextEditorSelection.event,
  createStatusBarItem(alignment, priority) {
    const item = {
      alignment,
      priority,
      text: '',
      tooltip: undefined,
      command: undefined,
      name: undefined,
      visible: false,
      disposed: false,
      show() {
        item.visible = true;
      },
      hide() {
        item.visible = false;
      },
      dispose() {
        item.visible = false;
        item.disposed = true;
      },
    };
    fake.statusItems.push(item);
    return item;
  },
  createOutputChannel(name) {
    if (!fake.outputs.has(name)) fake.outputs.set(name, []);
    const lines = fake.outputs.get(name);
    return {
      name,
      appendLine: (line) => lines.push(String(line)),
      append: (text) => lines.push(String(text)),
      show() {
        fake.shownOutputs.push(name);
      },
      clear: () => lines.splice(0),
      dispose() {},
    };
  },
  createTextEditorDecorationType(options) {
    const type = {
      key: `decoration-${fake.decorationTypes.size + 1}`,
      options,
      disposed: false,
      dispose() {
        type.disposed = true;
        fake.decorationTypes.delete(type);
        for (const editor of fake.editors) editor.decorations.delete(type);
      },
    };
    fake.decorationTypes.add(type);
    return type;
  },
  showQuickPick(items, options) {
    return Promise.resolve(items).then((list) => fake.quickPick(list, options));
  },
  showInputBox(options) {
    return Promise.resolve(fake.inputBox(options));
  },
  showInformationMessage(text) {
    fake.messages.push({ kind: 'info', text });
    return Promise.resolve(undefined);
  },
  showWarningMessage(text) {
    fake.messages.push({ kind: 'warning', text });
    return Promise.resolve(undefined);
  },
  showErrorMessage(text, ...items) {
    fake.messages.push({ kind: 'error', text, items });
    return Promise.resolve(fake.chooseAction(text, items));
  },
  setStatusBarMessage(text) {
    fake.statusMessages.push(text);
    return new Disposable(() => {});
  },
};

const languages = {
  createDiagnosticCollection(name) {
    const entries = new Map();
    fake.diagnostics.set(name, entries);
    return {
      name,
      set(uri, list) {
        if (list && list.length > 0) entries.set(uri.toString(), [...list]);
        else entries.delete(uri.toString());
      },
      delete(uri) {
        entries.delete(uri.toString());
      },
      get(uri) {
        return entries.get(uri.toString());
      },
      clear() {
        entries.clear();
      },
      dispose() {
        entries.clear();
        fake.diagnostics.delete(name);
      },
    };
  },
};

const commands = {
  registerCommand(id, handler) {
    if (fake.commands.has(id)) throw new Error(`command '${id}' already exists`);
    fake.commands.set(id, handler);
    return new Disposable(() => fake.commands.delete(id));
  },
  executeCommand(id, ...args) {
    const handler = fake.commands.get(id);
    if (!handler) return Promise.reject(new Error(`command '${id}' not found`));
    try {
      return Promise.resolve(handler(...args));
    } catch (error) {
      return Promise.reject(error);
    }
  },
  getCommands() {
    return Promise.resolve([...fake.commands.keys()]);
  },
};

module.exports = {
  Position,
  Range,
  Selection,
  Uri,
  Disposable,
  EventEmitter,
  ThemeColor,
  TextEdit,
  WorkspaceEdit,
  DecorationRangeBehavior,
  TextDocumentChangeReason,
  DiagnosticSeverity,
  StatusBarAlignment,
  Diagnostic,
  workspace,
  languages,
  window,
  commands,
  version: '1.75.0-fake',
  fake,
  graphemes,
};

// maskd for VS Code: one daemon session, the documents it knows and the fields in them.
'use strict';

const { Client } = require('./client');
const config = require('./config');
const edits = require('./edits');
const { Placeholders } = require('./placeholders');
const { Method, initializeParams, readInitializeResult, textDocumentIdentifier } = require('./protocol');

/**
 * Starts the daemon when first needed, keeps the documents that hold fields in sync with it, and
 * applies its `maskd/didFormat` edits.
 *
 * A document is opened with the daemon (`didOpen`) when the first field is made in it; from then
 * on every change goes out as `didChange`, including the extension's own edits (the daemon's copy
 * follows the editor and recognises them as its echo). Documents without fields cost nothing.
 *
 * Work on a document's editor side is serialised in its `queue`, so a `didFormat` is applied only
 * after the one before it is done, and then against the version it was made for, or not at all.
 */
class Session {
  /**
   * @param {typeof import('vscode')} vscode
   * @param {{appendLine(line: string): void}} output the maskd output channel.
   * @param {{name: string, version: string}} clientInfo
   */
  constructor(vscode, output, clientInfo) {
    this.vscode = vscode;
    this.output = output;
    this.clientInfo = clientInfo;
    this.client = null;
    this.starting = null;
    this.presets = [];
    this.serverVersion = null;
    /** @type {Map<string, DocumentState>} uri -> state of a document the daemon knows. */
    this.documents = new Map();
    this.echoes = new edits.EchoTracker();
    this.placeholders = new Placeholders(vscode);
    this.formatEmitter = new vscode.EventEmitter();
    /** Fires `{document, params, outcome}` after each `didFormat` was handled. */
    this.onDidFormat = this.formatEmitter.event;
    /** How the `didFormat`s went: applied, stale (document moved on), echo, undo, refused. */
    this.stats = { applied: 0, stale: 0, echo: 0, undo: 0, refused: 0 };
  }

  /**
   * The running client, started (and initialized) if it is not.
   * @returns {Promise<Client>} rejects when the daemon cannot be started or initialized.
   */
  ensureStarted() {
    if (this.client && this.client.running) return Promise.resolve(this.client);
    if (!this.starting) {
      this.starting = this.start().finally(() => {
        this.starting = null;
      });
    }
    return this.starting;
  }

  async start() {
    const settings = config.read(this.vscode);
    const server = config.serverCommand(settings);
    const trace = settings.logLevel === 'debug' ? (line) => this.output.appendLine(line) : null;
    const client = new Client(server, { trace });
    client.on('log', (line) => this.output.appendLine(line));
    client.on('notification', (method, params) => this.onNotification(client, method, params));
    client.on('exit', (code, signal) => this.onExit(client, code, signal));
    await client.start();
    try {
      const info = readInitializeResult(await client.request(Method.initialize, initializeParams(this.clientInfo)));
      client.notify(Method.initialized, {});
      this.presets = info.presets;
      this.serverVersion = info.serverVersion;
    } catch (error) {
      client.stop(500);
      throw new Error(`initialize: ${error.message}`);
    }
    this.client = client;
    this.output.appendLine(`maskd ${this.serverVersion} started: ${server.command} ${server.args.join(' ')}`);
    return client;
  }

  /**
   * Ends the daemon (deactivation, or settings that need a new one); fields are closed with it.
   * @returns {Promise<void>}
   */
  async stop() {
    const client = this.client;
    this.client = null;
    this.forgetAll();
    if (client) await client.stop();
  }

  onExit(client, code, signal) {
    if (client !== this.client) return;
    this.client = null;
    this.forgetAll();
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    this.output.appendLine(`maskd stopped (${how})`);
    this.vscode.window.showErrorMessage(
      `maskd stopped (${how}); its fields are closed. The next maskd command starts it again.`,
    );
  }

  forgetAll() {
    for (const uri of this.documents.keys()) this.echoes.forget(uri);
    this.documents.clear();
    this.placeholders.clearAll();
  }

  // MARK: Documents

  /**
   * The daemon's state for `document`, opening it with the daemon first if needed.
   * @returns {Promise<DocumentState>}
   */
  async track(document) {
    const client = await this.ensureStarted();
    const uri = document.uri.toString();
    let state = this.documents.get(uri);
    if (!state) {
      client.notify(Method.didOpen, {
        textDocument: { uri, languageId: document.languageId, version: document.version, text: document.getText() },
      });
      state = new DocumentState(document);
      this.documents.set(uri, state);
    }
    return state;
  }

  /** Forwards a change of a tracked document; wired to `workspace.onDidChangeTextDocument`. */
  onDidChangeTextDocument(event) {
    const uri = event.document.uri.toString();
    const state = this.documents.get(uri);
    if (!state || !this.client || event.contentChanges.length === 0) return;
    const version = event.document.version;
    const echo = this.echoes.claim(uri, version, event.contentChanges);
    const reason = event.reason;
    const kinds = this.vscode.TextDocumentChangeReason || {};
    if (!echo && reason !== undefined && (reason === kinds.Undo || reason === kinds.Redo)) {
      // Formatting an undo would fight it (undoing a format edit is a deletion of separators,
      // which the daemon reads as a backspace); the text the undo restores was in form before.
      state.ignored.add(version);
      if (state.ignored.size > 64) state.ignored.delete(state.ignored.values().next().value);
    }
    this.client.notify(Method.didChange, {
      textDocument: { uri, version },
      contentChanges: edits.toContentChanges(event.contentChanges),
    });
  }

  /** Closes a tracked document with the daemon; wired to `workspace.onDidCloseTextDocument`. */
  onDidCloseTextDocument(document) {
    const uri = document.uri.toString();
    if (!this.documents.has(uri)) return;
    this.documents.delete(uri);
    this.echoes.forget(uri);
    this.placeholders.clear(uri);
    if (this.client) this.client.notify(Method.didClose, { textDocument: { uri } });
  }

  /** Draws placeholders in editors that just became visible; wired to `onDidChangeVisibleTextEditors`. */
  onDidChangeVisibleTextEditors(editors) {
    for (const editor of editors) {
      if (this.documents.has(editor.document.uri.toString())) this.placeholders.renderEditor(editor);
    }
  }

  onNotification(client, method, params) {
    if (client !== this.client && this.client !== null) return;
    if (method === Method.didFormat) this.onDidFormatNotification(params);
    else if (method === Method.logMessage) this.output.appendLine(`[daemon] ${params && params.message}`);
    else if (method === Method.showMessage && params) {
      const show = params.type === 1 ? 'showErrorMessage' : params.type === 2 ? 'showWarningMessage' : 'showInformationMessage';
      this.vscode.window[show](`maskd: ${params.message}`);
    }
  }

  onDidFormatNotification(params) {
    const uri = params && params.textDocument && params.textDocument.uri;
    const state = this.documents.get(uri);
    if (!state) return;
    const version = params.textDocument.version;
    state.enqueue(async () => {
      let outcome;
      if (this.echoes.isOwn(uri, version)) outcome = 'echo';
      else if (state.ignored.has(version)) outcome = 'undo';
      else outcome = await edits.applyFormat(this.vscode, state.document, { ...params, version }, this.echoes);
      this.stats[outcome] += 1;
      if (outcome === 'applied') this.updateFields(state, params.fields || []);
      else this.output.appendLine(`didFormat for version ${version} not applied: ${outcome}`);
      this.formatEmitter.fire({ document: state.document, params, outcome });
    }, (error) => this.output.appendLine(`didFormat: ${error.message}`));
  }

  updateFields(state, states) {
    for (const s of states) state.fields.set(s.field, s);
    this.placeholders.show(state.document, states);
  }

  // MARK: Fields

  /**
   * Opens a field over `range` (one line; empty for a field to type into).
   * @returns {Promise<import('./protocol').FieldResult>} after its edits and caret are applied.
   */
  async openField(document, range, mask) {
    const state = await this.track(document);
    const result = await this.client.request(Method.openField, {
      textDocument: textDocumentIdentifier(document, true),
      range: edits.fromRange(range),
      mask,
    });
    await this.applyFieldResult(state, result);
    return result;
  }

  /**
   * Changes a field's mask; the caret at `position` keeps its count of entered characters.
   * @returns {Promise<import('./protocol').FieldResult>}
   */
  async setMask(document, field, mask, position) {
    const state = await this.track(document);
    const result = await this.client.request(Method.setMask, {
      textDocument: textDocumentIdentifier(document, true),
      field,
      mask,
      position: edits.fromPosition(position),
    });
    await this.applyFieldResult(state, result);
    return result;
  }

  async applyFieldResult(state, result) {
    await state.enqueue(async () => {
      const outcome = await edits.applyFormat(this.vscode, state.document, result, this.echoes);
      if (outcome !== 'applied') this.output.appendLine(`${result.field}: edits for version ${result.version} ${outcome}`);
      this.updateFields(state, [result.state]);
    });
  }

  /** Closes a field; its text stays. */
  async closeField(document, field) {
    const state = await this.track(document);
    await this.client.request(Method.closeField, { textDocument: textDocumentIdentifier(document), field });
    state.fields.delete(field);
    this.placeholders.remove(document, field);
  }

  /**
   * The field containing or touching `position`.
   * @returns {Promise<import('./protocol').FieldState | null>} null when there is none, or the
   *   document holds no field.
   */
  async fieldAt(document, position) {
    if (!this.documents.has(document.uri.toString())) return null;
    const client = await this.ensureStarted();
    return client.request(Method.formatHints, {
      textDocument: textDocumentIdentifier(document),
      position: edits.fromPosition(position),
    });
  }

  /**
   * The field states the extension last received for `document`, in document order.
   * @returns {import('./protocol').FieldState[]}
   */
  fieldsOf(document) {
    const state = this.documents.get(document.uri.toString());
    if (!state) return [];
    const order = (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
    return [...state.fields.values()].sort(order);
  }

  /**
   * Waits until the daemon has answered every change sent for `document` and the answers are
   * applied: a round trip to the daemon (it handles messages in order, so every `didFormat` for
   * earlier changes arrives before the answer), then the document's queue, until a round trip
   * brings nothing new.
   * @returns {Promise<void>}
   */
  async settle(document) {
    const state = this.documents.get(document.uri.toString());
    for (let round = 0; state && this.client && round < 20; round++) {
      const before = state.tasks;
      await this.client.request(Method.fields, { textDocument: textDocumentIdentifier(document) });
      await state.queue;
      if (state.tasks === before) return;
    }
  }
}

/** What the extension keeps for one document the daemon knows. */
class DocumentState {
  constructor(document) {
    this.document = document;
    /** @type {Map<string, import('./protocol').FieldState>} field id -> last state received. */
    this.fields = new Map();
    /** Versions made by undo or redo, whose `didFormat` is not applied. */
    this.ignored = new Set();
    /** The editor-side work for this document, in order. */
    this.queue = Promise.resolve();
    this.tasks = 0;
  }

  /**
   * Runs `task` after the work queued before it.
   * @returns {Promise<void>} settles when `task` is done; rejects with its error unless `onError`
   *   takes it (the queue itself goes on either way).
   */
  enqueue(task, onError) {
    this.tasks += 1;
    const run = this.queue.then(task);
    this.queue = run.catch(() => {});
    return onError ? run.catch(onError) : run;
  }
}

module.exports = { Session, DocumentState };

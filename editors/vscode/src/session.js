// maskd for VS Code: one daemon session, the documents it knows and the fields in them.
'use strict';

const fs = require('fs');
const path = require('path');
const { Client } = require('./client');
const config = require('./config');
const edits = require('./edits');
const { Placeholders } = require('./placeholders');
const {
  Method, ErrorCode, initializeParams, workspaceFolders, rulesSettings, readInitializeResult, textDocumentIdentifier,
} = require('./protocol');

/** The file of a workspace folder that holds its field rules. */
const RULES_FILE = '.maskd.json';

/** The schemes of documents that field rules may reach (not output channels, diffs, ...). */
const RULE_SCHEMES = new Set(['file', 'untitled']);

/** At most this many restarts after the daemon exits, within `RESTART_WINDOW_MS`. */
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 60000;

/**
 * Starts the daemon when first needed, keeps the documents that hold fields in sync with it, and
 * applies its `maskd/didFormat` edits.
 *
 * A document is opened with the daemon (`didOpen`) when the first field is made in it, or when it
 * opens while field rules may apply (the `maskd.rules` setting, or a workspace folder's
 * `.maskd.json`: the daemon decides which documents they match and opens their fields); from then
 * on every change goes out as `didChange`, including the extension's own edits (the daemon's copy
 * follows the editor and recognises them as its echo). Without rules, documents without fields
 * cost nothing, and no daemon starts.
 *
 * Work on a document's editor side is serialised in its `queue`, so a `didFormat` is applied only
 * after the one before it is done, and then against the version it was made for, or not at all.
 *
 * When the daemon exits unasked, a new one is started at once and every document and field is
 * opened again with its mask and its current range (the extension follows each field's range
 * through the changes in the meantime), so what was typed meanwhile is formatted as if the daemon
 * had never gone; one message says so. After `MAX_RESTARTS` within a minute the fields are closed
 * instead, and the next command starts a daemon again.
 */
class Session {
  /**
   * @param {typeof import('vscode')} vscode
   * @param {{appendLine(line: string): void, show?(): void}} output the maskd output channel.
   * @param {{name: string, version: string}} clientInfo
   */
  constructor(vscode, output, clientInfo) {
    this.vscode = vscode;
    this.output = output;
    this.clientInfo = clientInfo;
    this.client = null;
    this.starting = null;
    this.presets = [];
    /** The region codes the `phone` preset takes, as the daemon announced them. */
    this.phoneRegions = [];
    /** The region codes the `postal` preset takes, as the daemon announced them. */
    this.postalRegions = [];
    this.serverVersion = null;
    /** @type {Map<string, DocumentState>} uri -> state of a document the daemon knows. */
    this.documents = new Map();
    this.echoes = new edits.EchoTracker();
    this.placeholders = new Placeholders(vscode);
    this.diagnostics = vscode.languages.createDiagnosticCollection('maskd');
    this.formatEmitter = new vscode.EventEmitter();
    /** Fires `{document, params, outcome}` after each `didFormat` was handled. */
    this.onDidFormat = this.formatEmitter.event;
    this.fieldsEmitter = new vscode.EventEmitter();
    /** Fires `document` when the extension's field states for it changed. */
    this.onDidChangeFields = this.fieldsEmitter.event;
    /** How the `didFormat`s went: applied, stale (document moved on), echo, undo, refused. */
    this.stats = { applied: 0, stale: 0, echo: 0, undo: 0, refused: 0 };
    /** When the daemon was restarted after it exited, as `Date.now()` values. */
    this.restarts = [];
    /** The restart under way after an exit (resolves when it is done, well or not), or null. */
    this.recovering = null;
    /** uri -> the attach by rules under way for that document. */
    this.attaching = new Map();
    /** True once an attach by rules failed to start the daemon (said once). */
    this.attachFailed = false;
  }

  dispose() {
    this.placeholders.clearAll();
    this.diagnostics.dispose();
  }

  /**
   * The running client, started (and initialized) if it is not; the documents the extension
   * knows are opened with it again, with their fields.
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
    try {
      await client.start();
    } catch (error) {
      throw new Error(`${error.message}; set maskd.path to the maskd executable`);
    }
    try {
      const workspace = { folders: workspaceFolders(this.vscode.workspace.workspaceFolders), rules: settings.rules };
      const info = readInitializeResult(await client.request(Method.initialize, initializeParams(this.clientInfo, workspace)));
      client.notify(Method.initialized, {});
      this.presets = info.presets;
      this.phoneRegions = info.phoneRegions;
      this.postalRegions = info.postalRegions;
      this.serverVersion = info.serverVersion;
    } catch (error) {
      client.stop(500);
      throw new Error(`${server.command} did not start (initialize: ${error.message}); see maskd.path`);
    }
    this.client = client;
    this.output.appendLine(`maskd ${this.serverVersion} started: ${server.command} ${server.args.join(' ')}`);
    this.reopened = await this.reopenAll(client);
    return client;
  }

  /**
   * Ends the daemon (deactivation); fields are closed with it.
   * @returns {Promise<void>}
   */
  async stop() {
    const client = this.client;
    this.client = null;
    this.forgetAll();
    if (client) await client.stop();
  }

  /**
   * "maskd: Restart Daemon": a new daemon, with every document and field opened again.
   * @returns {Promise<number>} how many fields were opened again.
   */
  async restart() {
    const client = this.client;
    this.client = null;
    for (const state of this.documents.values()) state.opened = false;
    if (client) await client.stop();
    try {
      await this.ensureStarted();
    } catch (error) {
      this.forgetAll();
      throw error;
    }
    return this.reopened;
  }

  onExit(client, code, signal) {
    if (client !== this.client) return;
    this.client = null;
    for (const state of this.documents.values()) state.opened = false;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    this.output.appendLine(`maskd stopped (${how})`);
    const now = Date.now();
    this.restarts = this.restarts.filter((t) => now - t < RESTART_WINDOW_MS);
    if (this.restarts.length >= MAX_RESTARTS) {
      // The next command starts a daemon again, with restarts of its own.
      this.restarts = [];
      this.forgetAll();
      this.vscode.window.showErrorMessage(
        `maskd: the daemon exited (${how}), ${MAX_RESTARTS + 1} times within a minute: not restarting it; ` +
          'fields closed until you open one',
      );
      return;
    }
    this.restarts.push(now);
    const recovering = this.ensureStarted().then(
      () => {
        const n = this.reopened;
        this.vscode.window.showWarningMessage(
          `maskd: the daemon exited (${how}); restarted it and re-opened ${n} field${n === 1 ? '' : 's'}`,
        );
      },
      (error) => {
        this.forgetAll();
        this.vscode.window.showErrorMessage(
          `maskd: the daemon exited (${how}) and did not restart: ${error.message}; fields closed until you open one`,
        );
      },
    ).finally(() => {
      if (this.recovering === recovering) this.recovering = null;
    });
    this.recovering = recovering;
  }

  forgetAll() {
    for (const uri of this.documents.keys()) this.echoes.forget(uri);
    this.documents.clear();
    this.placeholders.clearAll();
    this.diagnostics.clear();
    this.fieldsEmitter.fire(null);
  }

  /**
   * Opens every known document with a new daemon, and its fields in one `maskd/openFields` each:
   * same ids, masks, current ranges, `force` (what the person typed meanwhile is theirs).
   * @returns {Promise<number>} how many fields were opened again.
   */
  async reopenAll(client) {
    const pending = [];
    for (const [uri, state] of this.documents) {
      const { document } = state;
      if (document.isClosed) {
        this.documents.delete(uri);
        continue;
      }
      // The new daemon's rules open their fields again by themselves at didOpen, and their
      // didFormat may come before the answer below, with ids these fields had: the fields are
      // forgotten here, and the answers' states take their place.
      const fields = [...state.fields.values()].filter((f) => !f.rule)
        .map((f) => ({ field: f.field, range: f.range, mask: state.masks.get(f.field) || f.mask }));
      for (const id of state.fields.keys()) this.placeholders.remove(document, id);
      state.fields.clear();
      this.openWith(client, state);
      if (fields.length === 0) continue;
      const entries = fields.map((f) => ({ range: f.range, mask: f.mask, field: f.field, force: true }));
      pending.push(this.requestOpenFields(client, document, entries).then((answer) => ({ state, fields, answer })));
    }
    let count = 0;
    for (const p of pending) {
      const { state, fields, answer } = await p;
      count += await this.applyOpenResults(state, answer, null);
      // An id a rule's field took: the same field again, under a new id.
      const taken = fields.filter((f, i) => answer.results[i].error);
      if (taken.length === 0) continue;
      for (const f of taken) state.masks.delete(f.field);
      const again = await this.requestOpenFields(client, state.document, taken.map((f) => ({ range: f.range, mask: f.mask, force: true })));
      again.results.forEach((r, i) => {
        if (r.error) this.output.appendLine(`${taken[i].field} not re-opened: ${r.error.message}`);
        else state.masks.set(r.field, taken[i].mask);
      });
      count += await this.applyOpenResults(state, again, null);
    }
    return count;
  }

  // MARK: Documents

  /** Sends `didOpen` for the document of `state` with its text now. */
  openWith(client, state) {
    const { document } = state;
    client.notify(Method.didOpen, {
      textDocument: { uri: document.uri.toString(), languageId: document.languageId, version: document.version, text: document.getText() },
    });
    state.opened = true;
  }

  /**
   * The daemon's state for `document`, opening it with the daemon first if needed.
   * @returns {Promise<DocumentState>}
   */
  async track(document) {
    const client = await this.ensureStarted();
    const uri = document.uri.toString();
    let state = this.documents.get(uri);
    if (!state) {
      state = new DocumentState(document);
      this.documents.set(uri, state);
    }
    if (!state.opened) this.openWith(client, state);
    return state;
  }

  // MARK: Field rules and workspace folders

  /** True when field rules may apply: the `maskd.rules` setting has some, or a folder has a `.maskd.json`. */
  rulesMayApply() {
    if (config.read(this.vscode).rules.length > 0) return true;
    return (this.vscode.workspace.workspaceFolders || [])
      .some((f) => f.uri.scheme === 'file' && fs.existsSync(path.join(f.uri.fsPath, RULES_FILE)));
  }

  /**
   * Opens `document` with the daemon when field rules may apply to it, starting the daemon if
   * needed; wired to `workspace.onDidOpenTextDocument`. A daemon that cannot start is said once.
   * @returns {Promise<void>}
   */
  attachByRules(document) {
    const uri = document.uri.toString();
    if (!RULE_SCHEMES.has(document.uri.scheme) || document.isClosed) return Promise.resolve();
    if (this.documents.has(uri) || this.attaching.has(uri) || !this.rulesMayApply()) return Promise.resolve();
    const attach = this.track(document).then(
      () => undefined,
      (error) => {
        this.output.appendLine(`field rules: ${error.message}`);
        if (this.attachFailed) return;
        this.attachFailed = true;
        this.vscode.window.showErrorMessage(`maskd: field rules apply, but ${error.message}`);
      },
    ).finally(() => this.attaching.delete(uri));
    this.attaching.set(uri, attach);
    return attach;
  }

  /** Opens with the daemon every open document field rules may reach now. */
  attachAllByRules() {
    return Promise.all(this.vscode.workspace.textDocuments.map((d) => this.attachByRules(d)));
  }

  /**
   * Tells the daemon about added and removed workspace folders (it reads their `.maskd.json`),
   * then opens the documents their rules may reach; wired to `onDidChangeWorkspaceFolders`.
   */
  onDidChangeWorkspaceFolders(event) {
    if (this.client && this.client.running) {
      this.client.notify(Method.didChangeWorkspaceFolders, {
        event: { added: workspaceFolders(event.added), removed: workspaceFolders(event.removed) },
      });
    }
    return this.attachAllByRules();
  }

  /**
   * Tells the daemon a `.maskd.json` was created, changed or deleted (`type`, a FileChangeType),
   * then opens the documents its rules may reach; wired to a file system watcher.
   */
  onDidChangeRulesFile(uri, type) {
    if (this.client && this.client.running) {
      this.client.notify(Method.didChangeWatchedFiles, { changes: [{ uri: uri.toString(), type }] });
    }
    return this.attachAllByRules();
  }

  /** Gives the daemon the new `maskd.rules`, then opens the documents they may reach. */
  onDidChangeRules() {
    if (this.client && this.client.running) {
      this.client.notify(Method.didChangeConfiguration, rulesSettings(config.read(this.vscode).rules));
    }
    return this.attachAllByRules();
  }

  /** Forwards a change of a tracked document; wired to `workspace.onDidChangeTextDocument`. */
  onDidChangeTextDocument(event) {
    const uri = event.document.uri.toString();
    const state = this.documents.get(uri);
    if (!state || event.contentChanges.length === 0) return;
    const version = event.document.version;
    const kinds = this.vscode.TextDocumentChangeReason || {};
    // The undo of an open's edit (the change right after it) closes the fields it opened, so the
    // text goes back as it was; a redo right after that undo opens them again where they were.
    // (Only these two: with other changes between, VS Code's undo stack is not followed.)
    const undoneOpen = event.reason === kinds.Undo && state.lastOpen && state.lastOpen.version === version - 1
      ? state.lastOpen.fields.filter((id) => state.fields.has(id)).map((id) => ({ field: id, range: state.fields.get(id).range, mask: state.masks.get(id) }))
      : null;
    const redoneOpen = event.reason === kinds.Redo && state.undoneOpen && state.undoneOpen.version === version - 1
      ? state.undoneOpen.fields
      : null;
    state.lastOpen = redoneOpen ? { version, fields: redoneOpen.map((f) => f.field) } : null;
    state.undoneOpen = undoneOpen ? { version, fields: undoneOpen } : null;
    state.followChanges(event.contentChanges);
    if (!this.client || !state.opened) return;
    const echo = this.echoes.claim(uri, version, event.contentChanges);
    const reason = event.reason;
    if (!echo && reason !== undefined && (reason === kinds.Undo || reason === kinds.Redo)) {
      // Formatting an undo would fight it (undoing a format edit is a deletion of separators,
      // which the daemon reads as a backspace); the text the undo restores was in form before.
      state.ignored.add(version);
      if (state.ignored.size > 64) state.ignored.delete(state.ignored.values().next().value);
      for (const { field } of undoneOpen || []) this.dropField(state, field);
    }
    this.client.notify(Method.didChange, {
      textDocument: { uri, version },
      contentChanges: edits.toContentChanges(event.contentChanges),
    });
    if (redoneOpen) this.reopenRedone(state, redoneOpen);
  }

  /** Opens again, after a redo of their open, the fields an undo closed. */
  reopenRedone(state, fields) {
    // A rule's field has no mask of the extension's: its redo is the text only.
    const masked = fields.filter((f) => f.mask !== undefined);
    if (masked.length === 0) return;
    for (const f of masked) state.masks.set(f.field, f.mask);
    const entries = masked.map((f) => ({ range: f.range, mask: f.mask, field: f.field }));
    this.requestOpenFields(this.client, state.document, entries)
      .then((answer) => this.applyOpenResults(state, answer, null))
      .catch((error) => this.output.appendLine(`redo of an open: ${error.message}`));
  }

  /** Closes field `id` with the daemon, before anything sent after this, and forgets it. */
  dropField(state, id) {
    this.client
      .request(Method.closeField, { textDocument: textDocumentIdentifier(state.document), field: id })
      .catch((error) => this.output.appendLine(`close ${id}: ${error.message}`));
    state.fields.delete(id);
    state.masks.delete(id);
    this.placeholders.remove(state.document, id);
    this.fieldsEmitter.fire(state.document);
  }

  /** Closes a tracked document with the daemon; wired to `workspace.onDidCloseTextDocument`. */
  onDidCloseTextDocument(document) {
    const uri = document.uri.toString();
    if (!this.documents.has(uri)) return;
    this.documents.delete(uri);
    this.echoes.forget(uri);
    this.placeholders.clear(uri);
    this.diagnostics.delete(document.uri);
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
    else if (method === Method.publishDiagnostics) this.onDiagnostics(params);
    else if (method === Method.logMessage) this.output.appendLine(`[daemon] ${params && params.message}`);
    else if (method === Method.showMessage && params) {
      const show = params.type === 1 ? 'showErrorMessage' : params.type === 2 ? 'showWarningMessage' : 'showInformationMessage';
      this.vscode.window[show](`maskd: ${params.message}`);
    }
  }

  /** The daemon's diagnostics (an incomplete field is a hint, an invalid one an error) in the Problems panel. */
  onDiagnostics(params) {
    const state = params && this.documents.get(params.uri);
    if (!state) return;
    const { vscode } = this;
    const severity = [null, vscode.DiagnosticSeverity.Error, vscode.DiagnosticSeverity.Warning,
      vscode.DiagnosticSeverity.Information, vscode.DiagnosticSeverity.Hint];
    const list = (params.diagnostics || []).map((d) => {
      const diagnostic = new vscode.Diagnostic(edits.toRange(vscode, d.range), d.message, severity[d.severity] ?? vscode.DiagnosticSeverity.Hint);
      diagnostic.source = 'maskd';
      if (d.code !== undefined) diagnostic.code = d.code;
      return diagnostic;
    });
    this.diagnostics.set(state.document.uri, list);
  }

  onDidFormatNotification(params) {
    const uri = params && params.textDocument && params.textDocument.uri;
    const state = this.documents.get(uri);
    if (!state) return;
    const version = params.textDocument.version;
    state.enqueue(async () => {
      // The daemon closed these fields when the change reached it (their line deleted, replaced or
      // joined away): they are forgotten whatever becomes of the rest of this notification.
      this.forgetClosed(state, params.closed);
      let outcome;
      // Without a cursor it answers no change (rules opened fields): it may come at a version of
      // the extension's own edits.
      const ruleOpen = params.cursor === null;
      if (!ruleOpen && this.echoes.isOwn(uri, version)) outcome = 'echo';
      else if (state.ignored.has(version)) outcome = 'undo';
      else outcome = await edits.applyFormat(this.vscode, state.document, { ...params, version }, this.echoes);
      this.stats[outcome] += 1;
      if (outcome === 'undo' && (params.edits || []).length === 0 && state.document.version === version) {
        // The text the undo gave back is kept, and so are the fields' states when nothing was to change.
        this.updateFields(state, params.fields || []);
      }
      if (outcome === 'applied') {
        const opened = (params.fields || []).filter((f) => f.rule && !state.fields.has(f.field)).map((f) => f.field);
        this.updateFields(state, params.fields || []);
        // An undo of the formatting the rules' fields opened with closes them, as for an open.
        if (ruleOpen && opened.length > 0 && (params.edits || []).length > 0) {
          state.lastOpen = { version: state.document.version, fields: opened };
        }
      } else this.output.appendLine(`didFormat for version ${version} not applied: ${outcome}`);
      this.formatEmitter.fire({ document: state.document, params, outcome });
    }, (error) => this.output.appendLine(`didFormat: ${error.message}`));
  }

  /** Forgets the fields whose ids are in `ids` (a `didFormat`'s `closed`) and their placeholders. */
  forgetClosed(state, ids) {
    if (!Array.isArray(ids) || ids.length === 0) return;
    for (const id of ids) {
      state.fields.delete(id);
      state.masks.delete(id);
      this.placeholders.remove(state.document, id);
    }
    this.fieldsEmitter.fire(state.document);
  }

  updateFields(state, states) {
    for (const s of states) state.fields.set(s.field, s);
    this.placeholders.show(state.document, states);
    this.fieldsEmitter.fire(state.document);
  }

  // MARK: Fields

  /**
   * Opens a field over `where`: a Range (one line; empty for a field to type into), or a Position,
   * around which the daemon chooses the range (`at`: the widest run of words there that the mask
   * reads whole, or an empty field after a blank); with `force` even where the mask drops letters
   * or digits of the text (otherwise the daemon refuses, -32803).
   * @param {import('vscode').Range | import('vscode').Position} where
   * @returns {Promise<import('./protocol').FieldResult>} after its edits and caret are applied.
   */
  async openField(document, where, mask, force = false) {
    const state = await this.track(document);
    const result = await this.client.request(Method.openField, {
      textDocument: textDocumentIdentifier(document, true),
      ...(where.start === undefined ? { at: edits.fromPosition(where) } : { range: edits.fromRange(where) }),
      mask,
      ...(force ? { force } : {}),
    });
    state.masks.set(result.field, mask);
    await this.applyFieldResult(state, result, true);
    return result;
  }

  /**
   * Opens one field with `mask` over each of `ranges`, in one `maskd/openFields`; the daemon opens one
   * on each line of a range over several lines.
   * @returns {Promise<{opened: number, errors: {code: number, message: string}[]}>}
   */
  async openFields(document, ranges, mask, force = false) {
    const state = await this.track(document);
    const entries = ranges.map((r) => ({ range: edits.fromRange(r), mask, ...(force ? { force } : {}) }));
    const answer = await this.requestOpenFields(this.client, document, entries);
    const opened = await this.applyOpenResults(state, answer, mask);
    return { opened, errors: answer.results.filter((r) => r.error).map((r) => r.error) };
  }

  /**
   * `maskd/openFields`, or one `maskd/openField` per entry from a daemon that lacks it.
   * @returns {Promise<{results: any[], version: number}>}
   */
  async requestOpenFields(client, document, entries) {
    const textDocument = textDocumentIdentifier(document, true);
    try {
      return await client.request(Method.openFields, { textDocument, fields: entries });
    } catch (error) {
      if (error.code !== ErrorCode.methodNotFound) throw error;
      const results = await Promise.all(
        entries.map((entry) =>
          client.request(Method.openField, { textDocument, ...entry }).catch((e) => ({ error: { code: e.code, message: e.message } })),
        ),
      );
      const first = results.find((r) => !r.error);
      return { results, version: first ? first.version : document.version };
    }
  }

  /**
   * Applies the opened entries of an openFields `answer`: every edit in one `WorkspaceEdit`, the
   * caret left where the text around it takes it. `mask` (when given) is each new field's MaskSpec.
   * @returns {Promise<number>} how many fields opened.
   */
  async applyOpenResults(state, answer, mask) {
    const opened = answer.results.filter((r) => !r.error);
    if (mask !== null) for (const r of opened) state.masks.set(r.field, mask);
    const all = opened.flatMap((r) => r.edits);
    await state.enqueue(async () => {
      const outcome = await edits.applyFormat(this.vscode, state.document, { edits: all, cursor: null, version: answer.version }, this.echoes);
      if (outcome !== 'applied') this.output.appendLine(`openFields: edits for version ${answer.version} ${outcome}`);
      if (mask !== null && outcome === 'applied' && all.length > 0) {
        state.lastOpen = { version: state.document.version, fields: opened.map((r) => r.field) };
      }
      this.updateFields(state, opened.map((r) => r.state));
    });
    return opened.length;
  }

  /**
   * Changes a field's mask; the caret at `position` keeps its count of entered characters.
   * @returns {Promise<import('./protocol').FieldResult>}
   */
  async setMask(document, field, mask, position, force = false) {
    const state = await this.track(document);
    const result = await this.client.request(Method.setMask, {
      textDocument: textDocumentIdentifier(document, true),
      field,
      mask,
      position: edits.fromPosition(position),
      ...(force ? { force } : {}),
    });
    state.masks.set(result.field, mask);
    await this.applyFieldResult(state, result, false);
    return result;
  }

  async applyFieldResult(state, result, opening) {
    await state.enqueue(async () => {
      const outcome = await edits.applyFormat(this.vscode, state.document, result, this.echoes);
      if (outcome !== 'applied') this.output.appendLine(`${result.field}: edits for version ${result.version} ${outcome}`);
      // An undo of the open's edit (the next change, made by undo) closes the field again.
      if (opening && outcome === 'applied' && result.edits.length > 0) {
        state.lastOpen = { version: state.document.version, fields: [result.field] };
      }
      this.updateFields(state, [result.state]);
    });
  }

  /**
   * Closes a field; its text stays, but for the zeros a `padFraction` number gets: the daemon sends
   * them before its answer as a `didFormat`, applied as any other (the caret, `position` when given,
   * carried through them). Resolves once that is applied.
   */
  async closeField(document, field, position) {
    const state = await this.track(document);
    await this.client.request(Method.closeField, {
      textDocument: textDocumentIdentifier(document),
      field,
      ...(position ? { position: edits.fromPosition(position) } : {}),
    });
    // The didFormat came first and is queued: wait for it.
    await state.enqueue(async () => {});
    state.fields.delete(field);
    state.masks.delete(field);
    this.placeholders.remove(document, field);
    this.fieldsEmitter.fire(document);
  }

  /**
   * The field containing or touching `position`.
   * @returns {Promise<import('./protocol').FieldState | null>} null when there is none, or the
   *   document holds no field.
   */
  async fieldAt(document, position) {
    if (!this.documents.has(document.uri.toString())) return null;
    await this.track(document);
    return this.client.request(Method.formatHints, {
      textDocument: textDocumentIdentifier(document),
      position: edits.fromPosition(position),
    });
  }

  /**
   * The field the extension knows containing or touching `position`, without asking the daemon.
   * @returns {import('./protocol').FieldState | null}
   */
  knownFieldAt(document, position) {
    const state = this.documents.get(document.uri.toString());
    if (!state) return null;
    for (const s of state.fields.values()) {
      const r = s.range;
      if (r.start.line === position.line && r.start.character <= position.character && position.character <= r.end.character) return s;
    }
    return null;
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
    if (this.recovering) await this.recovering;
    const attaching = this.attaching.get(document.uri.toString());
    if (attaching) await attaching;
    const state = this.documents.get(document.uri.toString());
    for (let round = 0; state && this.client && round < 20; round++) {
      const before = state.tasks;
      // A cheap request: its answer costs nothing however many fields the document has.
      await this.client.request(Method.formatHints, {
        textDocument: textDocumentIdentifier(document),
        position: { line: 0, character: 0 },
      });
      await state.queue;
      if (state.tasks === before) return;
    }
  }
}

/** What the extension keeps for one document the daemon knows. */
class DocumentState {
  constructor(document) {
    this.document = document;
    /** True once the current daemon has had `didOpen` for it. */
    this.opened = false;
    /** @type {Map<string, import('./protocol').FieldState>} field id -> last state received, its range followed through changes. */
    this.fields = new Map();
    /** @type {Map<string, import('./protocol').MaskSpec>} field id -> the mask it was opened with. */
    this.masks = new Map();
    /** The version the last open's edit made and the fields it opened, until the next change. */
    this.lastOpen = null;
    /** The version an undo of an open made and the fields it closed, until the next change. */
    this.undoneOpen = null;
    /** Versions made by undo or redo, whose `didFormat` is not applied. */
    this.ignored = new Set();
    /** The editor-side work for this document, in order. */
    this.queue = Promise.resolve();
    this.tasks = 0;
  }

  /**
   * Follows each field's range through one change event, so that the fields can be opened again
   * where they are (after the daemon exits) and the status bar knows the field at the caret.
   * A change within one line moves only the fields of that line; one that adds or removes lines
   * moves every field after it.
   */
  followChanges(contentChanges) {
    if (this.fields.size === 0) return;
    let byLine = null;
    for (const c of contentChanges) {
      const flat = c.range.start.line === c.range.end.line && !c.text.includes('\n');
      if (!flat) {
        byLine = null;
        for (const [id, f] of this.fields) this.fields.set(id, { ...f, range: edits.shiftRange(f.range, c) });
        continue;
      }
      if (byLine === null) {
        byLine = new Map();
        for (const f of this.fields.values()) {
          const line = f.range.start.line;
          if (!byLine.has(line)) byLine.set(line, []);
          byLine.get(line).push(f.field);
        }
      }
      for (const id of byLine.get(c.range.start.line) || []) {
        const f = this.fields.get(id);
        this.fields.set(id, { ...f, range: edits.shiftRange(f.range, c) });
      }
    }
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

module.exports = { Session, DocumentState, MAX_RESTARTS };

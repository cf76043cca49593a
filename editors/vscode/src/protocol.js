// maskd for VS Code: the names and shapes of the messages the extension exchanges.
'use strict';

// This file is the only one that spells a method name.
// The wire contract is Protocol/protocol.md; the shapes below are the parts this client reads.

/**
 * An LSP position: a line and a UTF-16 column, exactly what VS Code's `Position` counts.
 * @typedef {{line: number, character: number}} LspPosition
 * @typedef {{start: LspPosition, end: LspPosition}} LspRange
 * @typedef {{range: LspRange, newText: string}} LspTextEdit
 */

/**
 * A mask: bracket notation (`+1 ([000]) [000]-[0000]`) or a MaskSpec object (`{"preset": "card"}`).
 * @typedef {string | Object<string, any>} MaskSpec
 */

/**
 * The state of one open field, as every field message reports it.
 * @typedef {{field: string, range: LspRange, text: string, value: string, complete: boolean,
 *   valid: boolean, problems: string[], next: string | null, placeholder: string, mask: string,
 *   brand?: string | null}} FieldState
 */

/**
 * What `maskd/openField` and `maskd/setMask` answer: edits against `version` that bring the field
 * into form, and where the caret goes (null: leave it).
 * @typedef {{field: string, edits: LspTextEdit[], cursor: LspPosition | null, state: FieldState,
 *   version: number, rejected?: string, overflow?: string}} FieldResult
 */

/**
 * `maskd/didFormat` params: sent after a person's change touched a field. `closed` (present when
 * not empty): the ids of the fields that change closed (it reached beyond them and left none of
 * their text).
 * @typedef {{textDocument: {uri: string, version: number}, edits: LspTextEdit[], cursor: LspPosition,
 *   fields: FieldState[], rejected: string, overflow: string, closed?: string[]}} DidFormatParams
 */

/** Every method the extension sends or handles, standard LSP and maskd extensions alike. */
const Method = Object.freeze({
  initialize: 'initialize',
  initialized: 'initialized',
  shutdown: 'shutdown',
  exit: 'exit',
  didOpen: 'textDocument/didOpen',
  didChange: 'textDocument/didChange',
  didClose: 'textDocument/didClose',
  didChangeConfiguration: 'workspace/didChangeConfiguration',
  didChangeWorkspaceFolders: 'workspace/didChangeWorkspaceFolders',
  didChangeWatchedFiles: 'workspace/didChangeWatchedFiles',
  logMessage: 'window/logMessage',
  showMessage: 'window/showMessage',
  publishDiagnostics: 'textDocument/publishDiagnostics',
  // maskd extensions.
  apply: 'maskd/apply',
  closeField: 'maskd/closeField',
  didFormat: 'maskd/didFormat',
  fields: 'maskd/fields',
  formatHints: 'maskd/formatHints',
  openField: 'maskd/openField',
  openFields: 'maskd/openFields',
  setMask: 'maskd/setMask',
});

/** JSON-RPC and LSP error codes the daemon answers with. */
const ErrorCode = Object.freeze({
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  serverNotInitialized: -32002,
  requestCancelled: -32800,
  contentModified: -32801,
  requestFailed: -32803,
});

/** The protocol version of `capabilities.experimental.maskd.version` this client speaks. */
const PROTOCOL_VERSION = 1;

/** What each known preset formats, for the quick pick (presets the daemon adds show their name only). */
const PRESET_DESCRIPTIONS = Object.freeze({
  phone: '+44 121 234 5678, every region (phone GB: 0121 234 5678)',
  'phone.us': '+1 (555) 123-4567',
  'phone.cn': '138 0013 8000',
  card: '4111 1111 1111 1111, brand by prefix, Luhn',
  'bankcard.cn': '6222 0200 0000 0000 000, Luhn',
  'id.cn': '110101 19900307 123X, check character',
  iban: 'DE89 3704 0044 0532 0130 00, mod-97',
  date: 'YYYY-MM-DD',
  time: 'HH:MM',
  expiry: 'MM/YY',
  amount: '1,234,567.89',
  postal: 'SW1A 1AA, postal codes of a region (postal GB)',
});

/**
 * The `initialize` params: the client offers UTF-16 only, the unit VS Code positions count.
 * @param {{name: string, version: string}} clientInfo
 * @param {{folders: {uri: string, name: string}[], rules: any[]}} workspace the workspace folders
 *   (the first is the root; none: `rootUri` null) and the field rules of the `maskd.rules` setting.
 * @returns {Object} params for `initialize`.
 */
function initializeParams(clientInfo, workspace = { folders: [], rules: [] }) {
  return {
    processId: process.pid,
    clientInfo,
    rootUri: workspace.folders.length > 0 ? workspace.folders[0].uri : null,
    workspaceFolders: workspace.folders.length > 0 ? workspace.folders : null,
    initializationOptions: { rules: workspace.rules },
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      textDocument: { synchronization: { dynamicRegistration: false, didSave: false } },
      workspace: { workspaceFolders: true },
      experimental: { maskd: { version: PROTOCOL_VERSION } },
    },
  };
}

/**
 * The LSP WorkspaceFolders of VS Code's workspace folders that the daemon can read (`file:` ones).
 * @param {readonly {uri: {scheme: string, toString(): string}, name: string}[] | undefined} folders
 * @returns {{uri: string, name: string}[]}
 */
function workspaceFolders(folders) {
  return (folders || []).filter((f) => f.uri.scheme === 'file').map((f) => ({ uri: f.uri.toString(), name: f.name }));
}

/** LSP's FileChangeType: a watched file created, changed or deleted. */
const FileChangeType = Object.freeze({ created: 1, changed: 2, deleted: 3 });

/** The `workspace/didChangeConfiguration` params that give the daemon new field rules. */
function rulesSettings(rules) {
  return { settings: { maskd: { rules } } };
}

/**
 * Reads what this client needs from the `initialize` result.
 * @returns {{encoding: string, presets: string[], phoneRegions: string[], postalRegions: string[], serverVersion: string}}
 * @throws {Error} when the daemon chose an encoding other than UTF-16 (VS Code columns are UTF-16).
 */
function readInitializeResult(result) {
  const capabilities = (result && result.capabilities) || {};
  const encoding = capabilities.positionEncoding || 'utf-16';
  if (encoding !== 'utf-16') {
    throw new Error(`the daemon chose position encoding '${encoding}'; VS Code needs utf-16`);
  }
  const maskd = (capabilities.experimental && capabilities.experimental.maskd) || {};
  const strings = (list) => (Array.isArray(list) ? list.filter((p) => typeof p === 'string') : []);
  const info = (result && result.serverInfo) || {};
  return {
    encoding,
    presets: strings(maskd.presets),
    phoneRegions: strings(maskd.phoneRegions),
    postalRegions: strings(maskd.postalRegions),
    serverVersion: String(info.version || '?'),
  };
}

/**
 * A document as the daemon names it: its URI and, when given, the version the request was made against.
 * @param {{uri: {toString(): string}, version: number}} document a VS Code TextDocument.
 * @param {boolean} [withVersion] add `version`, so the daemon answers -32801 if its copy differs.
 */
function textDocumentIdentifier(document, withVersion) {
  const id = { uri: document.uri.toString() };
  if (withVersion) id.version = document.version;
  return id;
}

module.exports = {
  Method,
  ErrorCode,
  FileChangeType,
  PROTOCOL_VERSION,
  PRESET_DESCRIPTIONS,
  initializeParams,
  workspaceFolders,
  rulesSettings,
  readInitializeResult,
  textDocumentIdentifier,
};

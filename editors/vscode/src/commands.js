// maskd for VS Code: the `maskd.*` commands.
'use strict';

const { ErrorCode, PRESET_DESCRIPTIONS } = require('./protocol');

/** Every command the extension registers; package.json contributes exactly these. */
const Command = Object.freeze({
  formatFieldAs: 'maskd.formatFieldAs',
  closeField: 'maskd.closeField',
  showFieldInfo: 'maskd.showFieldInfo',
  restartDaemon: 'maskd.restartDaemon',
  showLog: 'maskd.showLog',
});

/**
 * Registers the commands.
 * @param {typeof import('vscode')} vscode
 * @param {import('./session').Session} session
 * @returns {{dispose(): void}[]}
 */
function register(vscode, session) {
  return [
    vscode.commands.registerCommand(Command.formatFieldAs, (mask, options) => formatFieldAs(vscode, session, mask, options)),
    vscode.commands.registerCommand(Command.closeField, () => closeField(vscode, session)),
    vscode.commands.registerCommand(Command.showFieldInfo, () => showFieldInfo(vscode, session)),
    vscode.commands.registerCommand(Command.restartDaemon, () => restartDaemon(vscode, session)),
    vscode.commands.registerCommand(Command.showLog, () => session.output.show(true)),
  ];
}

/**
 * "maskd: Restart Daemon": a new daemon, every document and field opened again with it.
 * @returns {Promise<number | undefined>} how many fields were opened again.
 */
async function restartDaemon(vscode, session) {
  try {
    const count = await session.restart();
    vscode.window.setStatusBarMessage(`maskd: daemon restarted, ${count} field${count === 1 ? '' : 's'} re-opened`, 3000);
    return count;
  } catch (error) {
    return failWith(vscode, session, error);
  }
}

/**
 * A mask given as a string: a bare word (letters, digits, `.`, `_`, `-`) is the name of a preset,
 * `phone` and a region code (`phone GB`) the phone preset for that region's national numbers,
 * `postal` and one (`postal GB`) the postal preset for that region's codes;
 * anything else is bracket notation (or, typed in, a JSON MaskSpec), for the daemon to judge.
 * @param {string[]} presets the daemon's preset names.
 * @returns {import('./protocol').MaskSpec}
 * @throws {Error} for an unknown preset name, listing the presets.
 */
function resolveMask(mask, presets) {
  // `phone GB`: the phone preset for a region's national numbers; `postal GB`: its postal codes.
  const regional = typeof mask === 'string' && /^\s*(phone|postal)\s+([A-Za-z]{2})\s*$/.exec(mask);
  if (regional && presets.includes(regional[1])) return { preset: regional[1], region: regional[2].toUpperCase() };
  if (typeof mask !== 'string' || !/^\s*[\p{L}\p{N}._-]+\s*$/u.test(mask)) return mask;
  const name = mask.trim();
  if (presets.includes(name)) return { preset: name };
  throw new Error(`unknown preset '${name}'; the presets are ${presets.join(', ')}`);
}

/**
 * "maskd: Format Field As...": makes the selection a field, or without one the words at the caret
 * that the mask reads whole (the daemon chooses them: `+1 (555) 123-4567` whole, a label left out;
 * after a blank an empty field at the caret), or gives the field at the caret a new mask.
 *
 * Without `mask` a quick pick offers the daemon's presets and a custom mask; keybindings and
 * other extensions may pass a MaskSpec instead (a string without `[` names a preset).
 * The daemon refuses to open a field that would drop letters or digits of the text (a label, say):
 * the error says what they are and offers "Open Anyway", which passes `force`.
 * @param {import('./protocol').MaskSpec} [mask]
 * @param {{force?: boolean}} [options] `force`: open even where letters or digits are dropped.
 * @returns {Promise<import('./protocol').FieldResult | undefined>} undefined when cancelled or refused.
 */
async function formatFieldAs(vscode, session, mask, options = {}) {
  const force = Boolean(options && options.force);
  const editor = vscode.window.activeTextEditor;
  if (!editor) return fail(vscode, 'open a text editor first');
  const { document, selection, selections } = editor;
  try {
    await session.ensureStarted();
    if (mask === undefined || mask === null) mask = await pickMask(vscode, session.presets, session.phoneRegions, session.postalRegions);
    if (mask === undefined) return undefined;
    mask = resolveMask(mask, session.presets);
    if (selections.length > 1 || selection.start.line !== selection.end.line) {
      // One field per line of every selection, in one request: the daemon splits a selection over
      // several lines (each line's part without the blanks around it, lines with nothing else left
      // out). Carets without a selection among them open nothing.
      const ranges = selections.filter((s) => !s.isEmpty).map((s) => new vscode.Range(s.start, s.end));
      const outcome = await session.openFields(document, ranges, mask, force);
      if (outcome.errors.length > 0) {
        vscode.window.showErrorMessage(
          `maskd: opened ${outcome.opened} of ${outcome.opened + outcome.errors.length} fields; the first refused: ${outcome.errors[0].message}`,
        );
      } else {
        vscode.window.setStatusBarMessage(`maskd: opened ${outcome.opened} fields`, 3000);
      }
      return outcome;
    }
    const existing = await session.fieldAt(document, selection.active);
    const result =
      existing && (selection.isEmpty || sameRange(existing.range, selection))
        ? await session.setMask(document, existing.field, mask, selection.active, force)
        : await session.openField(document, selection.isEmpty ? selection.active : new vscode.Range(selection.start, selection.end), mask, force);
    const dropped = [result.rejected && `refused "${result.rejected}"`, result.overflow && `cut "${result.overflow}"`]
      .filter(Boolean)
      .join(', ');
    if (dropped) vscode.window.setStatusBarMessage(`maskd ${result.field}: ${dropped}`, 5000);
    return result;
  } catch (error) {
    if (error.code !== ErrorCode.requestFailed || force) return failWith(vscode, session, error);
    session.output.appendLine(`refused: ${error.message}`);
    const choice = await vscode.window.showErrorMessage(`maskd: ${error.message}`, OPEN_ANYWAY);
    return choice === OPEN_ANYWAY ? formatFieldAs(vscode, session, mask, { force: true }) : undefined;
  }
}

/** The action of the message refusing an open that would drop letters or digits. */
const OPEN_ANYWAY = 'Open Anyway';

/**
 * "maskd: Close Field": stops formatting the field at the caret; its text stays.
 * @returns {Promise<string | undefined>} the closed field's id.
 */
async function closeField(vscode, session) {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return fail(vscode, 'open a text editor first');
  try {
    const state = await session.fieldAt(editor.document, editor.selection.active);
    if (!state) {
      vscode.window.showInformationMessage('maskd: no field at the cursor');
      return undefined;
    }
    await session.closeField(editor.document, state.field, editor.selection.active);
    vscode.window.setStatusBarMessage(`maskd: closed field ${state.field}`, 3000);
    return state.field;
  } catch (error) {
    return failWith(vscode, session, error);
  }
}

/**
 * "maskd: Show Field Info": the state of the field at the caret, in a message.
 * @returns {Promise<import('./protocol').FieldState | undefined>}
 */
async function showFieldInfo(vscode, session) {
  const editor = vscode.window.activeTextEditor;
  if (!editor) return fail(vscode, 'open a text editor first');
  try {
    const state = await session.fieldAt(editor.document, editor.selection.active);
    if (!state) {
      vscode.window.showInformationMessage('maskd: no field at the cursor');
      return undefined;
    }
    vscode.window.showInformationMessage(describe(state));
    return state;
  } catch (error) {
    return failWith(vscode, session, error);
  }
}

/**
 * Asks for a mask: a preset, or a custom one typed in; `phone` and `postal` then ask for their region.
 * @param {string[]} presets the names the daemon offers.
 * @param {string[]} [phoneRegions] the region codes the daemon's `phone` preset takes.
 * @param {string[]} [postalRegions] the region codes the daemon's `postal` preset takes.
 * @returns {Promise<import('./protocol').MaskSpec | undefined>} undefined when cancelled.
 */
async function pickMask(vscode, presets, phoneRegions = [], postalRegions = []) {
  const items = presets.map((name) => ({ label: name, description: PRESET_DESCRIPTIONS[name] || '', mask: { preset: name } }));
  items.push({ label: 'Custom mask...', description: 'bracket notation or a MaskSpec object', custom: true });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'maskd: Format Field As',
    placeHolder: 'A preset, or a custom mask',
    matchOnDescription: true,
  });
  if (!picked) return undefined;
  if (picked.mask && picked.mask.preset === 'phone' && phoneRegions.length > 0) return pickPhoneRegion(vscode, phoneRegions);
  if (picked.mask && picked.mask.preset === 'postal' && postalRegions.length > 0) return pickPostalRegion(vscode, postalRegions);
  if (!picked.custom) return picked.mask;
  const typed = await vscode.window.showInputBox({
    title: 'maskd: Custom Mask',
    prompt: 'Bracket notation, e.g. +1 ([000]) [000]-[0000], or a JSON MaskSpec, e.g. {"groups": [4, 4, 4, 4]}',
    placeHolder: '+1 ([000]) [000]-[0000]',
    validateInput: (text) => parseMask(text).error || null,
  });
  if (typed === undefined) return undefined;
  const parsed = parseMask(typed);
  if (parsed.error) throw new Error(parsed.error);
  return resolveMask(parsed.mask, presets);
}

/**
 * Asks which region's national numbers a `phone` field reads, or international numbers (the
 * second quick pick, as `:MaskdField phone GB` completes the code in Neovim and Vim).
 * @param {string[]} regions the region codes, ISO 3166-1 alpha-2.
 * @returns {Promise<import('./protocol').MaskSpec | undefined>} undefined when cancelled.
 */
async function pickPhoneRegion(vscode, regions) {
  const items = [{ label: 'International', description: 'any region, + and the calling code', mask: { preset: 'phone' } }];
  for (const region of regions) items.push({ label: region, description: `national numbers of ${region}`, mask: { preset: 'phone', region } });
  const picked = await vscode.window.showQuickPick(items, {
    title: 'maskd: Format Field As phone',
    placeHolder: 'A region code (GB, US, CN...), or International',
  });
  return picked ? picked.mask : undefined;
}

/**
 * Asks which region's postal codes a `postal` field reads (it takes no other).
 * @param {string[]} regions the region codes, ISO 3166-1 alpha-2.
 * @returns {Promise<import('./protocol').MaskSpec | undefined>} undefined when cancelled.
 */
async function pickPostalRegion(vscode, regions) {
  const items = regions.map((region) => ({ label: region, description: `postal codes of ${region}`, mask: { preset: 'postal', region } }));
  const picked = await vscode.window.showQuickPick(items, {
    title: 'maskd: Format Field As postal',
    placeHolder: 'A region code (GB, US, BR...)',
  });
  return picked ? picked.mask : undefined;
}

/**
 * Reads a typed mask: text starting with `{` is a JSON MaskSpec object, anything else bracket
 * notation exactly as typed (spaces are literals), or a preset name when it is a bare word (see
 * `resolveMask`). The daemon judges the mask itself.
 * @returns {{mask?: import('./protocol').MaskSpec, error?: string}}
 */
function parseMask(text) {
  if (text.length === 0) return { error: 'a mask cannot be empty' };
  if (!text.trimStart().startsWith('{')) return { mask: text };
  try {
    const mask = JSON.parse(text);
    if (mask === null || typeof mask !== 'object' || Array.isArray(mask)) return { error: 'a MaskSpec must be a JSON object' };
    return { mask };
  } catch (error) {
    return { error: `not JSON: ${error.message}` };
  }
}

/**
 * One line about a field, for "Show Field Info".
 * @param {import('./protocol').FieldState} s
 */
function describe(s) {
  const parts = [`maskd ${s.field}: ${s.mask}`, `text "${s.text}"`, `value "${s.value}"`];
  parts.push(s.complete ? (s.valid ? 'complete, valid' : 'complete, not valid') : 'incomplete');
  if (s.brand) parts.push(`brand ${s.brand}`);
  if (s.next) parts.push(`next: ${s.next}`);
  if (s.placeholder) parts.push(`to fill "${s.placeholder}"`);
  if (s.problems && s.problems.length > 0) parts.push(`problems: ${s.problems.join('; ')}`);
  return parts.join(', ');
}

function sameRange(lsp, range) {
  return (
    lsp.start.line === range.start.line &&
    lsp.start.character === range.start.character &&
    lsp.end.line === range.end.line &&
    lsp.end.character === range.end.character
  );
}

/** Reports an error, logging the daemon's error code (the message alone is shown). */
function failWith(vscode, session, error) {
  const code = error.code === undefined ? '' : ` (${error.code})`;
  session.output.appendLine(`error: ${error.message}${code}`);
  return fail(vscode, error.message);
}

function fail(vscode, message) {
  vscode.window.showErrorMessage(`maskd: ${message}`);
  return undefined;
}

module.exports = {
  Command,
  register,
  formatFieldAs,
  closeField,
  showFieldInfo,
  restartDaemon,
  pickMask,
  parseMask,
  resolveMask,
  describe,
};

// maskd for VS Code: the `maskd.*` settings and the daemon's command line.
'use strict';

const os = require('os');
const path = require('path');

/** The settings section; every key below is `maskd.<key>` in package.json. */
const SECTION = 'maskd';

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'];

/**
 * Reads the settings.
 * @returns {{path: string, logLevel: 'error' | 'warn' | 'info' | 'debug', rules: any[]}} with the
 *   package.json defaults where a setting is unset or unusable; `rules` as written (the daemon
 *   names a bad rule by its index), a single rule taken as a list of one.
 */
function read(vscode) {
  const settings = vscode.workspace.getConfiguration(SECTION);
  const configured = settings.get('path');
  const level = settings.get('logLevel');
  const rules = settings.get('rules');
  return {
    path: typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : 'maskd',
    logLevel: LOG_LEVELS.includes(level) ? level : 'warn',
    rules: Array.isArray(rules) ? rules : rules === undefined || rules === null ? [] : [rules],
  };
}

/**
 * How to start the daemon for these settings.
 * @param {{path: string, logLevel: string}} config
 * @returns {{command: string, args: string[]}} `~/` expanded; a bare name is left for `PATH`.
 */
function serverCommand(config) {
  let command = config.path;
  if (command === '~' || command.startsWith('~/')) command = path.join(os.homedir(), command.slice(1));
  return { command, args: ['--stdio', '--log-level', config.logLevel] };
}

/** True when a configuration change event concerns a setting that needs a new daemon. */
function needsRestart(event) {
  return event.affectsConfiguration(`${SECTION}.path`) || event.affectsConfiguration(`${SECTION}.logLevel`);
}

/** True when a configuration change event concerns the field rules (the daemon re-reads them). */
function affectsRules(event) {
  return event.affectsConfiguration(`${SECTION}.rules`);
}

module.exports = { SECTION, LOG_LEVELS, read, serverCommand, needsRestart, affectsRules };

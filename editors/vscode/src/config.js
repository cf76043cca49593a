// maskd for VS Code: the `maskd.*` settings and the daemon's command line.
'use strict';

const os = require('os');
const path = require('path');

/** The settings section; every key below is `maskd.<key>` in package.json. */
const SECTION = 'maskd';

const LOG_LEVELS = ['error', 'warn', 'info', 'debug'];

/**
 * Reads the settings.
 * @returns {{path: string, logLevel: 'error' | 'warn' | 'info' | 'debug'}} with the package.json
 *   defaults where a setting is unset or unusable.
 */
function read(vscode) {
  const settings = vscode.workspace.getConfiguration(SECTION);
  const configured = settings.get('path');
  const level = settings.get('logLevel');
  return {
    path: typeof configured === 'string' && configured.trim() !== '' ? configured.trim() : 'maskd',
    logLevel: LOG_LEVELS.includes(level) ? level : 'warn',
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

module.exports = { SECTION, LOG_LEVELS, read, serverCommand, needsRestart };

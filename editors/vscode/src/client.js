// maskd for VS Code: the daemon process and the JSON-RPC connection to it.
'use strict';

const childProcess = require('child_process');
const { EventEmitter } = require('events');
const { Method, ErrorCode } = require('./protocol');

// The file has three parts, as the daemon's JSONRPC target does:
// `splitMessage` (pure Content-Length splitting over bytes), `encodeMessage` (the envelope),
// and `Client` (the process and its pipes, the only part that does I/O).

const HEADER_END = Buffer.from('\r\n\r\n', 'ascii');

/**
 * Splits one message off the front of `buffer`.
 *
 * Header names are case-insensitive and `Content-Type` is accepted; the body is UTF-8 JSON.
 * @param {Buffer} buffer bytes read so far.
 * @returns {null | {body: string, rest: Buffer} | {error: string, rest: Buffer}} null when more
 *   bytes are needed; `error` for a header without a usable `Content-Length` (the rest after it
 *   is kept, so the reader can go on).
 */
function splitMessage(buffer) {
  const end = buffer.indexOf(HEADER_END);
  if (end < 0) return null;
  const header = buffer.subarray(0, end).toString('ascii');
  const rest = buffer.subarray(end + HEADER_END.length);
  let length = -1;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    if (line.slice(0, colon).trim().toLowerCase() === 'content-length') {
      const value = line.slice(colon + 1).trim();
      length = /^\d+$/.test(value) ? Number(value) : -1;
    }
  }
  if (length < 0) return { error: `no valid Content-Length in header '${header}'`, rest };
  if (rest.length < length) return null;
  return { body: rest.subarray(0, length).toString('utf8'), rest: rest.subarray(length) };
}

/**
 * Frames one JSON-RPC message.
 * @param {Object} message the envelope without `jsonrpc` (it is added).
 * @returns {Buffer} `Content-Length: N\r\n\r\n` and N bytes of UTF-8 JSON.
 */
function encodeMessage(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/** An error answer from the daemon, with its JSON-RPC `code` and `data`. */
class ResponseError extends Error {
  constructor(method, error) {
    super(typeof error.message === 'string' ? error.message : `${method} failed`);
    this.name = 'ResponseError';
    this.method = method;
    this.code = error.code;
    this.data = error.data;
  }
}

/**
 * One daemon process and the connection to it.
 *
 * Events: `notification` (method, params) for every notification the daemon sends, `exit`
 * (code, signal) when the process ends, `log` (line) for stderr lines and protocol problems.
 */
class Client extends EventEmitter {
  /**
   * @param {{command: string, args: string[]}} server how to start the daemon.
   * @param {{trace?: (line: string) => void}} [options] `trace` sees every message both ways.
   */
  constructor(server, options = {}) {
    super();
    this.server = server;
    this.trace = options.trace || null;
    this.process = null;
    this.nextId = 1;
    this.pending = new Map();
    this.buffer = Buffer.alloc(0);
    this.stderrTail = '';
    this.exited = null;
    this.stopping = false;
  }

  /**
   * Starts the daemon.
   * @returns {Promise<void>} resolves once the process is spawned; rejects when it cannot be
   *   (a missing binary: the error names the command).
   */
  start() {
    return new Promise((resolve, reject) => {
      let child;
      try {
        child = childProcess.spawn(this.server.command, this.server.args, { stdio: ['pipe', 'pipe', 'pipe'] });
      } catch (error) {
        reject(new Error(`cannot start '${this.server.command}': ${error.message}`));
        return;
      }
      this.process = child;
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(new Error(`cannot start '${this.server.command}': ${error.message}`));
        this.onExit(null, null, error);
      });
      child.stdout.on('data', (chunk) => this.onData(chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (text) => this.onStderr(text));
      child.stdin.on('error', (error) => this.emit('log', `daemon stdin: ${error.message}`));
      // 'close' comes after stdout is drained, so no answer is lost to an early 'exit'.
      child.once('close', (code, signal) => this.onExit(code, signal, null));
    });
  }

  /** True while the process runs and has not been asked to stop. */
  get running() {
    return this.process !== null && this.exited === null && !this.stopping;
  }

  /**
   * Sends a request.
   * @returns {Promise<any>} its result; rejects with a `ResponseError` for an error answer, or an
   *   `Error` when the daemon is not running or ends first.
   */
  request(method, params) {
    if (this.exited !== null || this.process === null) {
      return Promise.reject(new Error(`maskd is not running (${method})`));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { method, resolve, reject });
      this.send({ id, method, params });
    });
  }

  /** Sends a notification; does nothing once the daemon has ended. */
  notify(method, params) {
    if (this.exited !== null || this.process === null) return;
    this.send({ method, params });
  }

  /**
   * Ends the session: `shutdown`, then `exit`, then a kill if the process is still there after
   * `graceMs`.
   * @returns {Promise<number|null>} the exit code.
   */
  async stop(graceMs = 2000) {
    if (this.process === null) return null;
    if (this.exited !== null) return this.exited.code;
    const ended = new Promise((resolve) => this.once('exit', (code) => resolve(code)));
    this.stopping = true;
    try {
      await withTimeout(this.request(Method.shutdown, null), graceMs);
      this.notify(Method.exit, null);
      this.process.stdin.end();
    } catch (error) {
      this.emit('log', `shutdown: ${error.message}`);
    }
    const timer = setTimeout(() => {
      if (this.exited === null) this.process.kill('SIGKILL');
    }, graceMs);
    const code = await ended;
    clearTimeout(timer);
    return code;
  }

  send(message) {
    if (this.trace) this.trace(`--> ${JSON.stringify(message)}`);
    this.process.stdin.write(encodeMessage(message));
  }

  onData(chunk) {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const split = splitMessage(this.buffer);
      if (split === null) return;
      this.buffer = split.rest;
      if (split.error) {
        this.emit('log', `bad frame from the daemon: ${split.error}`);
        continue;
      }
      let message;
      try {
        message = JSON.parse(split.body);
      } catch (error) {
        this.emit('log', `bad JSON from the daemon: ${error.message}`);
        continue;
      }
      if (this.trace) this.trace(`<-- ${split.body}`);
      this.dispatch(message);
    }
  }

  dispatch(message) {
    if (message === null || typeof message !== 'object') return;
    if (typeof message.method === 'string') {
      if (message.id !== undefined && message.id !== null) {
        // The daemon asks nothing of its clients today; answer anything as LSP requires.
        this.send({ id: message.id, error: { code: ErrorCode.methodNotFound, message: `unhandled '${message.method}'` } });
        return;
      }
      this.emit('notification', message.method, message.params);
      return;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) {
      this.emit('log', `response to an unknown request id ${JSON.stringify(message.id)}`);
      return;
    }
    this.pending.delete(message.id);
    if (message.error) waiting.reject(new ResponseError(waiting.method, message.error));
    else waiting.resolve(message.result === undefined ? null : message.result);
  }

  onStderr(text) {
    const lines = (this.stderrTail + text).split('\n');
    this.stderrTail = lines.pop();
    for (const line of lines) if (line.length > 0) this.emit('log', line);
  }

  onExit(code, signal, error) {
    if (this.exited !== null) return;
    this.exited = { code, signal };
    if (this.stderrTail.length > 0) this.emit('log', this.stderrTail);
    this.stderrTail = '';
    const reason = error ? error.message : signal ? `signal ${signal}` : `exit code ${code}`;
    for (const [, waiting] of this.pending) {
      waiting.reject(new Error(`maskd ended (${reason}) before answering ${waiting.method}`));
    }
    this.pending.clear();
    this.emit('exit', code, signal);
  }
}

function withTimeout(promise, ms) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

module.exports = { Client, ResponseError, splitMessage, encodeMessage };

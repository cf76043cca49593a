// maskd for VS Code, tests: Content-Length framing, and the client against the real daemon.
'use strict';

const test = require('node:test');
const assert = require('node:assert/strict');
const H = require('./helpers');
const { Client, ResponseError, splitMessage, encodeMessage } = require('../src/client');
const { Method, ErrorCode, initializeParams, readInitializeResult } = require('../src/protocol');

/** Feeds `bytes` to the splitter `chunk` bytes at a time, as a pipe may deliver them. */
function splitAll(bytes, chunk) {
  const bodies = [];
  const errors = [];
  let buffer = Buffer.alloc(0);
  for (let i = 0; i < bytes.length; i += chunk) {
    buffer = Buffer.concat([buffer, bytes.subarray(i, i + chunk)]);
    for (let split = splitMessage(buffer); split !== null; split = splitMessage(buffer)) {
      buffer = split.rest;
      if (split.error) errors.push(split.error);
      else bodies.push(split.body);
    }
  }
  return { bodies, errors, rest: buffer };
}

test('framing: a message split at every byte, and several in one chunk', () => {
  const one = encodeMessage({ id: 1, result: { text: '名前: +1 (555) 😀' } });
  const two = encodeMessage({ method: 'maskd/didFormat', params: { edits: [] } });
  const bytes = Buffer.concat([one, two, one]);
  for (const chunk of [1, 2, 7, bytes.length]) {
    const { bodies, errors, rest } = splitAll(bytes, chunk);
    assert.deepEqual(errors, []);
    assert.equal(rest.length, 0);
    assert.deepEqual(bodies.map((b) => JSON.parse(b)), [
      { jsonrpc: '2.0', id: 1, result: { text: '名前: +1 (555) 😀' } },
      { jsonrpc: '2.0', method: 'maskd/didFormat', params: { edits: [] } },
      { jsonrpc: '2.0', id: 1, result: { text: '名前: +1 (555) 😀' } },
    ]);
  }
});

test('framing: Content-Length counts UTF-8 bytes, not characters', () => {
  const framed = encodeMessage({ id: 2, result: '😀' });
  const header = framed.toString('utf8').split('\r\n')[0];
  const body = '{"jsonrpc":"2.0","id":2,"result":"😀"}';
  assert.equal(header, `Content-Length: ${Buffer.byteLength(body)}`);
  assert.notEqual(Buffer.byteLength(body), body.length);
});

test('framing: header names in any case, Content-Type accepted, more bytes awaited', () => {
  const body = '{"jsonrpc":"2.0","id":3,"result":null}';
  const text = `content-type: application/vscode-jsonrpc; charset=utf-8\r\nCONTENT-LENGTH: ${body.length}\r\n\r\n${body}`;
  assert.equal(splitMessage(Buffer.from(text.slice(0, -1))), null);
  assert.equal(splitMessage(Buffer.from('Content-Length: 5\r\n')), null);
  const split = splitMessage(Buffer.from(text));
  assert.equal(split.body, body);
  assert.equal(split.rest.length, 0);
});

test('framing: a header without a usable length is reported and skipped', () => {
  const good = encodeMessage({ id: 4, result: 1 });
  const bytes = Buffer.concat([Buffer.from('Content-Length: x\r\n\r\n'), good]);
  const { bodies, errors } = splitAll(bytes, 3);
  assert.equal(errors.length, 1);
  assert.match(errors[0], /no valid Content-Length/);
  assert.deepEqual(bodies.map((b) => JSON.parse(b).id), [4]);
});

test('initialize: UTF-16 only is offered; another encoding is refused', () => {
  assert.deepEqual(initializeParams({ name: 'x', version: '1' }).capabilities.general.positionEncodings, ['utf-16']);
  assert.throws(() => readInitializeResult({ capabilities: { positionEncoding: 'utf-8' } }), /VS Code needs utf-16/);
  assert.deepEqual(readInitializeResult({ capabilities: {} }).presets, []);
});

test('the client against the daemon: lifecycle, errors with codes, notifications, exit code 0', async () => {
  const client = new Client({ command: H.MASKD, args: ['--stdio', '--log-level', 'warn'] });
  const notes = [];
  client.on('notification', (method, params) => notes.push({ method, params }));
  await client.start();
  await assert.rejects(client.request(Method.fields, { textDocument: { uri: 'file:///x' } }), (e) => {
    assert.ok(e instanceof ResponseError);
    assert.equal(e.code, ErrorCode.serverNotInitialized);
    return true;
  });
  const info = readInitializeResult(await client.request(Method.initialize, initializeParams({ name: 't', version: '0' })));
  assert.equal(info.encoding, 'utf-16');
  assert.ok(info.presets.includes('phone.us'));
  client.notify(Method.initialized, {});
  await assert.rejects(client.request('maskd/nothing', {}), (e) => e.code === ErrorCode.methodNotFound);
  await assert.rejects(
    client.request(Method.apply, { mask: '[0', text: '' }),
    (e) => e.code === ErrorCode.invalidParams && /unclosed/.test(e.message) && e.data.offset === 0,
  );
  // Requests in flight together are answered by id.
  const results = await Promise.all(
    ['1', '12', '123'].map((text) => client.request(Method.apply, { mask: '[0]-[0]-[0]', text })),
  );
  assert.deepEqual(results.map((r) => r.text), ['1', '1-2', '1-2-3']);
  // A change to a document that is not open is reported, not answered.
  client.notify(Method.didChange, { textDocument: { uri: 'file:///nowhere', version: 2 }, contentChanges: [] });
  await client.request(Method.apply, { mask: '[0]', text: '' });
  assert.ok(notes.some((n) => n.method === Method.logMessage && /not open/.test(n.params.message)), JSON.stringify(notes));
  assert.equal(await client.stop(), 0);
  await assert.rejects(client.request(Method.apply, {}), /not running/);
});

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import WebSocket from 'ws';
import { REPO_ROOT } from './paths.js';

/** The WebSocket messages as docs/openapi.json describes them: what tests receive and send must fit. */
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema(JSON.parse(readFileSync(join(REPO_ROOT, 'docs/openapi.json'), 'utf8')), 'openapi');
const serverMessage = ajv.compile({ $ref: 'openapi#/components/schemas/WsServerMessage' });
const clientMessage = ajv.compile({ $ref: 'openapi#/components/schemas/WsClientMessage' });

function assertFits(validate: typeof serverMessage, message: unknown, what: string): void {
  assert.ok(validate(message), `${what} the API document does not describe: ${JSON.stringify(message)}\n${ajv.errorsText(validate.errors)}`);
}

/**
 * Opens /ws like a client would; every message the server sends is checked against
 * `WsServerMessage` before any listener of the test sees it.
 */
export function openEventSocket(baseUrl: string, options: { key?: string; query?: string } = {}): WebSocket {
  const target = `${baseUrl.replace('http', 'ws')}/ws${options.query ?? ''}`;
  const socket = new WebSocket(target, { headers: options.key ? { 'x-api-key': options.key } : {} });
  socket.prependListener('message', (raw) => assertFits(serverMessage, JSON.parse(String(raw)), 'A server message'));
  return socket;
}

/** Sends a message a client may send (checked against `WsClientMessage`). */
export function sendClientMessage(socket: WebSocket, message: unknown): void {
  assertFits(clientMessage, message, 'A client message');
  socket.send(JSON.stringify(message));
}

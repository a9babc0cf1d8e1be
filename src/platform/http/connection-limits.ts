import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError } from '../errors.js';
import { refuseConnection } from './framework-errors.js';

export interface ConnectionLimits {
  /** Time a client has to send a request's line and headers (TIMBRE_HEADERS_TIMEOUT_SECONDS). */
  headersTimeoutSeconds: number;
  /** Time a request body may go without a byte arriving (TIMBRE_BODY_IDLE_SECONDS). */
  bodyIdleSeconds: number;
  /** Connections one client address may hold open (TIMBRE_MAX_CONNECTIONS_PER_ADDRESS). */
  maxConnectionsPerAddress: number;
}

/**
 * Bounds what a client can hold without sending anything:
 * - headers must arrive within `headersTimeoutSeconds` of the connection (or of the previous
 *   answer on a kept-alive one), else 408 `request_timeout` (Node's own check, run often enough to
 *   keep to the setting);
 * - a body may pause at most `bodyIdleSeconds` while it arrives, else 408 `request_timeout`. Only
 *   silence counts: a 200 MiB upload over a slow link takes as long as it takes, and a generation
 *   that sends nothing for minutes after its body arrived is not cut either;
 * - one address holds at most `maxConnectionsPerAddress` connections; past that, new ones are
 *   closed as soon as they are accepted, so they hold no file descriptor.
 */
export function installConnectionLimits(server: Server, limits: ConnectionLimits, log: FastifyBaseLogger): void {
  const headersMs = limits.headersTimeoutSeconds * 1000;
  server.headersTimeout = headersMs;
  // The whole exchange is not bounded: only silence is (the body's, below).
  server.requestTimeout = 0;
  // How often Node checks the headers timeout (default 30 s): read when the server starts
  // listening, and a property Node's types only know as a constructor option.
  Object.assign(server, { connectionsCheckingInterval: Math.min(1000, Math.max(100, headersMs / 4)) });
  capConnectionsPerAddress(server, limits.maxConnectionsPerAddress, log);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => watchBody(request, response, limits.bodyIdleSeconds * 1000));
}

/** IPv4 clients of a dual-stack socket appear as `::ffff:a.b.c.d`: one address either way. */
const addressOf = (socket: Socket) => socket.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');

function capConnectionsPerAddress(server: Server, max: number, log: FastifyBaseLogger): void {
  const open = new Map<string, number>();
  /** Addresses at the cap, so a flood is logged once rather than per connection. */
  const refusing = new Set<string>();
  server.on('connection', (socket: Socket) => {
    const address = addressOf(socket);
    if (address === undefined) return;
    const count = open.get(address) ?? 0;
    if (count >= max) {
      if (!refusing.has(address)) log.warn({ address, max }, 'connection limit of an address reached; closing its new connections');
      refusing.add(address);
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
      refusing.delete(address);
    });
  });
}

/**
 * Cuts a request whose body stops arriving: checked a few times per `idleMs`, by the bytes read on
 * its connection. Bytes received but not yet read by the route (it is busy) are not silence.
 */
function watchBody(request: IncomingMessage, response: ServerResponse, idleMs: number): void {
  const socket = request.socket;
  let bytesRead = socket.bytesRead;
  let quietSince = Date.now();
  const timer = setInterval(
    () => {
      if (request.complete || socket.destroyed) {
        clearInterval(timer);
        return;
      }
      if (socket.bytesRead !== bytesRead || request.readableLength > 0) {
        bytesRead = socket.bytesRead;
        quietSince = Date.now();
        return;
      }
      if (Date.now() - quietSince < idleMs) return;
      clearInterval(timer);
      const refusal = new ApiError(408, 'request_timeout', `The request body stopped arriving for ${idleMs / 1000} s`);
      if (response.headersSent) socket.destroy();
      else refuseConnection(socket, refusal);
    },
    Math.min(1000, Math.max(50, idleMs / 4)),
  );
  timer.unref();
  response.once('close', () => clearInterval(timer));
}

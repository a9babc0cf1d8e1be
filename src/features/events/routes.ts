import type {} from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import { WebSocket, type RawData } from 'ws';
import { ApiError } from '../../platform/errors.js';
import { isVisibleTo, type EventBus, type EventMessage } from '../../platform/events.js';
import { TIMBRE_VERSION } from '../../platform/version.js';
import { callerOf } from '../access/index.js';

/** Close code sent when the connection's key is revoked or deleted. */
export const CLOSE_KEY_WITHDRAWN = 4001;
/** Close code for a client that does not read what it is sent: its unsent messages passed the bound. */
export const CLOSE_SLOW_CONSUMER = 4002;

export interface WebSocketLimits {
  pingSeconds: number;
  /** Tasks one connection may narrow its events to. */
  maxSubscriptions: number;
  /** Bytes one connection may have queued unsent before it is dropped. */
  maxBufferedBytes: number;
}

interface ClientMessage {
  type?: unknown;
  data?: { task_id?: unknown };
}

function parse(raw: string): ClientMessage | undefined {
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One client connection. Everything sent goes through `send`, which drops a client that lets
 * unsent messages pile up past the bound (it stopped reading, or reads slower than it asks):
 * the server never buffers for a client without limit.
 */
class Connection {
  /** The tasks the client narrowed its events to with `subscribe`; empty means every event of the key. */
  readonly tasks = new Set<string>();

  constructor(
    private readonly socket: WebSocket,
    private readonly limits: WebSocketLimits,
  ) {}

  send(message: EventMessage): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (this.socket.bufferedAmount > this.limits.maxBufferedBytes) {
      // The close frame queues behind what the client is not reading: end the socket as well.
      this.socket.close(CLOSE_SLOW_CONSUMER, 'slow_consumer');
      this.socket.terminate();
      return;
    }
    this.socket.send(JSON.stringify(message));
  }

  reply(type: string, data: Record<string, unknown>): void {
    this.send({ type, data, ts: new Date().toISOString() });
  }

  /** Answers a client message; each answer is small whatever the client did before. */
  receive(message: ClientMessage | undefined): void {
    const taskId = message?.data?.task_id;
    switch (message?.type) {
      case 'ping':
        return this.reply('pong', {});
      case 'subscribe':
        if (typeof taskId !== 'string' || taskId === '' || taskId.length > 64) {
          return this.reply('error', { code: 'invalid_message', message: 'subscribe needs data.task_id (a task id)' });
        }
        if (!this.tasks.has(taskId) && this.tasks.size >= this.limits.maxSubscriptions) {
          return this.reply('error', {
            code: 'too_many_subscriptions',
            message: `A connection may follow at most ${this.limits.maxSubscriptions} tasks`,
            details: { max: this.limits.maxSubscriptions },
          });
        }
        this.tasks.add(taskId);
        return this.reply('subscribed', { task_id: taskId, count: this.tasks.size });
      case 'unsubscribe':
        if (typeof taskId === 'string') this.tasks.delete(taskId);
        else this.tasks.clear();
        return this.reply('unsubscribed', { task_id: typeof taskId === 'string' ? taskId : null, count: this.tasks.size });
      default:
        return this.reply('error', { code: 'unknown_message', message: 'Messages must be JSON objects with a known "type"' });
    }
  }
}

/**
 * `/ws`: greets with `hello`, forwards the events the key may see, answers `ping` messages,
 * and pings the peer so dead connections are dropped.
 */
export const websocketRoutes: FastifyPluginAsync<{ events: EventBus; limits: WebSocketLimits }> = async (app, { events, limits }) => {
  app.route({
    method: 'GET',
    url: '/ws',
    // Browsers cannot set headers on a WebSocket handshake, so the key may come in the query.
    config: { scope: 'ws:connect', keyInQuery: true },
    schema: {
      tags: ['Events'],
      summary: 'Real-time events (WebSocket)',
      description:
        'Upgrade to a WebSocket. Send the key in X-API-Key or, from browsers, in the api_key query parameter. ' +
        'Messages are JSON {"type", "data", "ts"}; the first is hello. A plain GET gets 426 upgrade_required.',
      querystring: { type: 'object', properties: { api_key: { type: 'string' } } },
    },
    handler: async (_request, reply) => {
      reply.header('upgrade', 'websocket');
      throw new ApiError(426, 'upgrade_required', 'GET /ws is a WebSocket endpoint: connect with Upgrade: websocket');
    },
    wsHandler: (socket, request) => {
      const key = callerOf(request);
      const connection = new Connection(socket, limits);
      let alive = true;

      const unsubscribe = events.subscribe((event, message) => {
        const withdrawn = (event.type === 'key.revoked' || event.type === 'key.deleted') && event.data.key_id === key.keyId;
        if (withdrawn) {
          socket.close(CLOSE_KEY_WITHDRAWN, event.type === 'key.revoked' ? 'key_revoked' : 'key_deleted');
          return;
        }
        if (!isVisibleTo(event.audience, key.keyId)) return;
        if (connection.tasks.size > 0 && !connection.tasks.has(String(event.data.task_id))) return;
        connection.send(message);
      });
      const pinger = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, limits.pingSeconds * 1000);

      socket.on('pong', () => {
        alive = true;
      });
      socket.on('message', (raw) => connection.receive(parse(messageText(raw))));
      socket.on('close', () => {
        clearInterval(pinger);
        unsubscribe();
      });

      connection.reply('hello', { server: 'timbre', version: TIMBRE_VERSION, key_id: key.keyId, ping_seconds: limits.pingSeconds });
    },
  });
};

/** A message's bytes as text, however `ws` delivered them. */
function messageText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('utf8');
}

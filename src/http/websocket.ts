import type {} from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import type { WebSocket } from 'ws';
import { isVisibleTo, type EventBus, type EventMessage } from '../services/events.js';
import { TIMBRE_VERSION } from '../version.js';
import { callerOf } from './auth.js';

/** Close code sent when the connection's key is revoked or deleted. */
export const CLOSE_KEY_WITHDRAWN = 4001;

function send(socket: WebSocket, type: string, data: Record<string, unknown>): void {
  const message: EventMessage = { type, data, ts: new Date().toISOString() };
  socket.send(JSON.stringify(message));
}

interface ClientMessage {
  type?: unknown;
  data?: { task_id?: unknown };
}

function parse(raw: string): ClientMessage | undefined {
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === 'object' && value !== null ? (value as ClientMessage) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The tasks a connection narrowed its events to with `subscribe`; empty means every event of
 * the key. Answers the client's message, or returns false when the message is not a subscription.
 */
function handleSubscription(message: ClientMessage, tasks: Set<string>, socket: WebSocket): boolean {
  const taskId = message.data?.task_id;
  if (message.type === 'subscribe') {
    if (typeof taskId !== 'string' || taskId === '') {
      send(socket, 'error', { code: 'invalid_message', message: 'subscribe needs data.task_id' });
      return true;
    }
    tasks.add(taskId);
    send(socket, 'subscribed', { task_ids: [...tasks] });
    return true;
  }
  if (message.type === 'unsubscribe') {
    if (typeof taskId === 'string') tasks.delete(taskId);
    else tasks.clear();
    send(socket, 'subscribed', { task_ids: [...tasks] });
    return true;
  }
  return false;
}

/**
 * `/ws`: greets with `hello`, forwards the events the key may see, answers `ping` messages,
 * and pings the peer so dead connections are dropped.
 */
export const websocketRoutes: FastifyPluginAsync<{ events: EventBus; pingSeconds: number }> = async (app, { events, pingSeconds }) => {
  // @fastify/websocket hides its routes from the OpenAPI document; /ws is part of the interface, so list it.
  app.addHook('onRoute', (route) => {
    if (route.websocket && route.schema) route.schema.hide = false;
  });

  app.get('/ws', {
    websocket: true,
    // Browsers cannot set headers on a WebSocket handshake, so the key may come in the query.
    config: { scope: 'ws:connect', keyInQuery: true },
    schema: {
      tags: ['Events'],
      summary: 'Real-time events (WebSocket)',
      description:
        'Upgrade to a WebSocket. Send the key in X-API-Key or, from browsers, in the api_key query parameter. ' +
        'Messages are JSON {"type", "data", "ts"}; the first is hello.',
      querystring: { type: 'object', properties: { api_key: { type: 'string' } } },
    },
  }, (socket, request) => {
      const key = callerOf(request);
      const subscribedTasks = new Set<string>();
      let alive = true;

      const unsubscribe = events.subscribe((event, message) => {
        const withdrawn = (event.type === 'key.revoked' || event.type === 'key.deleted') && event.data.key_id === key.keyId;
        if (withdrawn) {
          socket.close(CLOSE_KEY_WITHDRAWN, event.type === 'key.revoked' ? 'key_revoked' : 'key_deleted');
          return;
        }
        if (!isVisibleTo(event.audience, key.keyId)) return;
        if (subscribedTasks.size > 0 && !subscribedTasks.has(String(event.data.task_id))) return;
        socket.send(JSON.stringify(message));
      });
      const pinger = setInterval(() => {
        if (!alive) {
          socket.terminate();
          return;
        }
        alive = false;
        socket.ping();
      }, pingSeconds * 1000);

      socket.on('pong', () => {
        alive = true;
      });
      socket.on('message', (raw) => {
        const message = parse(String(raw));
        if (message?.type === 'ping') return send(socket, 'pong', {});
        if (message && handleSubscription(message, subscribedTasks, socket)) return;
        send(socket, 'error', { code: 'unknown_message', message: 'Messages must be JSON objects with a known "type"' });
      });
      socket.on('close', () => {
        clearInterval(pinger);
        unsubscribe();
      });

      send(socket, 'hello', { server: 'timbre', version: TIMBRE_VERSION, key_id: key.keyId, ping_seconds: pingSeconds });
  });
};

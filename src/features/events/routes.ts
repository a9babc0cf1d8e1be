import type {} from '@fastify/websocket';
import type { FastifyPluginAsync } from 'fastify';
import { ApiError } from '../../platform/errors.js';
import { withErrors } from '../../platform/http/responses.js';
import { isJobEvent, isVisibleTo, type EventBus } from '../../platform/events.js';
import { TIMBRE_VERSION } from '../../platform/install-dir.js';
import { callerOf } from '../access/index.js';
import { CLOSE_KEY_WITHDRAWN, Connection, messageText, parse, type WebSocketLimits } from './connection.js';

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
      operationId: 'connectEvents',
      tags: ['Events'],
      summary: 'Real-time events (WebSocket)',
      description:
        'Upgrade to a WebSocket. Send the key in X-API-Key or, from browsers, in the api_key query parameter. ' +
        'Messages are JSON {"type", "data", "ts"}; the first is hello. A plain GET gets 426 upgrade_required.',
      querystring: { type: 'object', properties: { api_key: { type: 'string' } } },
      response: withErrors({}, { 426: ['upgrade_required'] }),
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
        const taskId = isJobEvent(event) ? event.data.task_id : null;
        if (connection.tasks.size > 0 && (taskId === null || !connection.tasks.has(taskId))) return;
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

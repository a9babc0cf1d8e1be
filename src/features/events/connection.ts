import { WebSocket, type RawData } from 'ws';
import type { EventMessage } from '../../platform/events.js';

/** What a connection uses of its socket. */
export type ClientSocket = Pick<WebSocket, 'readyState' | 'bufferedAmount' | 'send' | 'close' | 'terminate'>;

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

export function parse(raw: string): ClientMessage | undefined {
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
export class Connection {
  /** The tasks the client narrowed its events to with `subscribe`; empty means every event of the key. */
  readonly tasks = new Set<string>();

  constructor(
    private readonly socket: ClientSocket,
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
          return this.reply('error', { code: 'invalid_message', message: 'subscribe needs data.task_id (a task id)', details: {} });
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
        return this.reply('error', { code: 'unknown_message', message: 'Messages must be JSON objects with a known "type"', details: {} });
    }
  }
}

/** A message's bytes as text, however `ws` delivered them. */
export function messageText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('utf8');
}

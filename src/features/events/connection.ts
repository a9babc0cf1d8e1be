import { WebSocket, type RawData } from 'ws';
import type { EventMessage } from '../../platform/events.js';

/** What a connection uses of its socket. */
export type ClientSocket = Pick<WebSocket, 'readyState' | 'bufferedAmount' | 'send' | 'close' | 'terminate' | 'pause'>;

/** Close code sent when the connection's key is revoked or deleted. */
export const CLOSE_KEY_WITHDRAWN = 4001;
/** Close code for a client that does not read what it is sent: its unsent messages passed the bound. */
export const CLOSE_SLOW_CONSUMER = 4002;
/** Close code for a client that sent more messages than its budget allows. */
export const CLOSE_RATE_LIMITED = 4003;
/** How long a client closed for flooding has to read the close frame before its socket is ended. */
const FLOOD_CLOSE_GRACE_MS = 1000;

export interface WebSocketLimits {
  pingSeconds: number;
  /** Tasks one connection may narrow its events to. */
  maxSubscriptions: number;
  /** Bytes one connection may have queued unsent before it is dropped. */
  maxBufferedBytes: number;
  /** Messages one connection may send per minute (also the burst it may send at once). */
  maxMessagesPerMinute: number;
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
  /** Messages the client may still send now: refills continuously up to the per-minute budget. */
  private allowance: number;
  private allowanceAt: number;

  constructor(
    private readonly socket: ClientSocket,
    private readonly limits: WebSocketLimits,
    private readonly now: () => number = performance.now.bind(performance),
  ) {
    this.allowance = limits.maxMessagesPerMinute;
    this.allowanceAt = now();
  }

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

  /**
   * Answers a client message; each answer is small whatever the client did before. A client over
   * its message budget is closed instead: answering a flood would cost the server as much as the
   * flood, and the bytes it queues in the kernel for a client that does not read are not counted
   * by the buffered bound.
   */
  receive(message: ClientMessage | undefined): void {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    if (!this.withinBudget()) {
      this.socket.pause();
      this.socket.close(CLOSE_RATE_LIMITED, 'rate_limited');
      setTimeout(() => this.socket.terminate(), FLOOD_CLOSE_GRACE_MS).unref();
      return;
    }
    this.answer(message);
  }

  private withinBudget(): boolean {
    const now = this.now();
    const budget = this.limits.maxMessagesPerMinute;
    this.allowance = Math.min(budget, this.allowance + ((now - this.allowanceAt) * budget) / 60_000);
    this.allowanceAt = now;
    if (this.allowance < 1) return false;
    this.allowance -= 1;
    return true;
  }

  private answer(message: ClientMessage | undefined): void {
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

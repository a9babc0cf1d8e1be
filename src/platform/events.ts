import { EventEmitter } from 'node:events';
import type { Log } from './log.js';

/**
 * Who may see an event: the key that owns the work, every connected client, or only the
 * server's own listeners (internal events never reach the WebSocket).
 */
export type Audience = { keyId: string } | { everyone: true } | { internal: true };

export interface ServiceEvent {
  type: string;
  data: Record<string, unknown>;
  audience: Audience;
}

/** The message shape sent on `/ws`. */
export interface EventMessage {
  type: string;
  data: Record<string, unknown>;
  ts: string;
}

export type EventListener = (event: ServiceEvent, message: EventMessage) => void;

/**
 * In-process publish/subscribe between services and the WebSocket endpoint. Publishers are the
 * queue and services in the middle of their work, so a listener that throws is logged and the
 * others still hear the event: a failing listener never fails the publisher.
 */
export class EventBus {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  constructor(private readonly log: Log) {}

  publish(event: ServiceEvent): void {
    const message: EventMessage = { type: event.type, data: event.data, ts: new Date().toISOString() };
    this.emitter.emit('event', event, message);
  }

  subscribe(listener: EventListener): () => void {
    const isolated: EventListener = (event, message) => {
      try {
        listener(event, message);
      } catch (error) {
        this.log.error({ err: error, event: event.type }, 'an event listener failed');
      }
    };
    this.emitter.on('event', isolated);
    return () => this.emitter.off('event', isolated);
  }
}

export function isVisibleTo(audience: Audience, keyId: string): boolean {
  if ('internal' in audience) return false;
  if ('everyone' in audience) return true;
  return audience.keyId === keyId;
}

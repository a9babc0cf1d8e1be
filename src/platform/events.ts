import { EventEmitter } from 'node:events';
import type { JobError } from './errors.js';
import type { Log } from './log.js';

/**
 * Who may see an event: the key that owns the work, every connected client, or only the
 * server's own listeners (internal events never reach the WebSocket).
 */
export type Audience = { keyId: string } | { everyone: true } | { internal: true };

/** What every job event says of its job (last in `data`, so nothing a runner adds can overwrite it). */
export type JobEventIds = { job_id: string; kind: string; task_id: string | null };

/** What each job event tells beside the job's ids. */
export type JobEventData = {
  'job.queued': { position: number };
  'job.started': Record<never, never>;
  /** With what the runner reported beside its fraction and stage (a long-form chunk's index, say). */
  'job.progress': Record<string, unknown> & { progress: number; stage: string | null };
  /** The runner's result. */
  'job.completed': Record<string, unknown>;
  'job.failed': { error: JobError };
  'job.cancelled': Record<never, never>;
};

export type JobEventType = keyof JobEventData;

/** A job event of type `T` (any job event by default): listeners narrow on `type`. */
export type JobEvent<T extends JobEventType = JobEventType> = { [P in T]: { type: P; data: JobEventData[P] & JobEventIds } }[T];

/** A key changed or was withdrawn; internal only, for connections made with it. */
export type KeyEvent = { type: 'key.updated' | 'key.revoked' | 'key.deleted'; data: { key_id: string } };

/** Every event the services publish, discriminated by `type`, with who may see it. */
export type ServiceEvent = (JobEvent | KeyEvent) & { audience: Audience };

/** The message shape sent on `/ws`: a service event's type and data, or a message of the connection itself (`hello`). */
export interface EventMessage {
  type: string;
  data: Record<string, unknown>;
  ts: string;
}

/** Every job event type, each once (a Record, so that one added to JobEventData must be added here). */
const JOB_EVENT_TYPES: Record<JobEventType, true> = {
  'job.queued': true,
  'job.started': true,
  'job.progress': true,
  'job.completed': true,
  'job.failed': true,
  'job.cancelled': true,
};

/** Narrows to the job events, whose data names the job (and its task). */
export function isJobEvent(event: ServiceEvent): event is JobEvent & { audience: Audience } {
  return Object.hasOwn(JOB_EVENT_TYPES, event.type);
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

  /** Generic in the job event's type so that a publisher of one type, itself generic (the queue's), is checked as such. */
  publish<T extends JobEventType>(event: (JobEvent<T> | KeyEvent) & { audience: Audience }): void {
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

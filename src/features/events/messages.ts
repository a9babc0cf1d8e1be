import { Type, type TSchema } from 'typebox';
import { ErrorObjectSchema } from '../../platform/http/schemas.js';

/**
 * The messages of `/ws` as schemas: what a client may send and every message the server sends.
 * They appear in the OpenAPI document as WsClientMessage and WsServerMessage, and the integration
 * suite checks the messages it receives against them.
 */

const Timestamp = Type.String({ format: 'date-time' });
const TaskId = Type.Union([Type.String(), Type.Null()]);

function serverMessage(type: string, data: TSchema, description: string) {
  return Type.Object({ type: Type.Literal(type), data, ts: Timestamp }, { description });
}

/** Every job event names its job, kind and task; a runner's extras come beside them. */
function jobEvent(type: string, fields: Record<string, TSchema>, description: string) {
  const data = Type.Object({ job_id: Type.String(), kind: Type.String(), task_id: TaskId, ...fields }, { additionalProperties: true });
  return serverMessage(type, data, description);
}

export const WsServerMessageSchema = Type.Union(
  [
    serverMessage(
      'hello',
      Type.Object({ server: Type.Literal('timbre'), version: Type.String(), key_id: Type.String(), ping_seconds: Type.Integer() }),
      'The first message of every connection',
    ),
    serverMessage('pong', Type.Object({}), 'The answer to ping'),
    serverMessage('subscribed', Type.Object({ task_id: Type.String(), count: Type.Integer() }), 'The connection now follows this task too'),
    serverMessage('unsubscribed', Type.Object({ task_id: TaskId, count: Type.Integer() }), 'The task (null: every task) is no longer followed'),
    serverMessage('error', ErrorObjectSchema, '`unknown_message`, `invalid_message` or `too_many_subscriptions`'),
    jobEvent('job.queued', { position: Type.Integer({ minimum: 0 }) }, 'A job joined the queue'),
    jobEvent('job.started', {}, 'A job began to run'),
    jobEvent(
      'job.progress',
      { progress: Type.Number({ minimum: 0, maximum: 1 }), stage: Type.Optional(Type.Union([Type.String(), Type.Null()])) },
      'At least once per second of work where the engine reports progress; long-form runs add chunk_index',
    ),
    jobEvent('job.completed', {}, 'A job finished; its result (audio_url, duration, voice_id, asset_id…) comes with it'),
    jobEvent('job.failed', { error: ErrorObjectSchema }, 'A job failed'),
    jobEvent('job.cancelled', {}, 'A job was cancelled'),
  ],
  { $id: 'WsServerMessage', description: 'Every message the server sends on /ws' },
);

const TaskRef = Type.Object({ task_id: Type.String({ minLength: 1, maxLength: 64 }) });

export const WsClientMessageSchema = Type.Union(
  [
    Type.Object({ type: Type.Literal('ping') }, { description: 'Answered with pong' }),
    Type.Object({ type: Type.Literal('subscribe'), data: TaskRef }, { description: 'Follow only these tasks’ events (answered with subscribed)' }),
    Type.Object(
      { type: Type.Literal('unsubscribe'), data: Type.Optional(Type.Partial(TaskRef)) },
      { description: 'Stop following a task, or every task without task_id (answered with unsubscribed)' },
    ),
  ],
  { $id: 'WsClientMessage', description: 'Every message a client may send on /ws (at most 64 KiB)' },
);

import { Type, type Static } from 'typebox';
import { TimestampSchema } from '../../platform/http/schemas.js';

const WorkerSchema = Type.Object({
  id: Type.String(),
  host: Type.String({ description: 'The machine’s host name' }),
  slots: Type.Integer({ description: 'Engine calls it runs at once' }),
  engines: Type.Array(Type.String(), { description: 'Engines it can run' }),
  running: Type.Integer(),
  completed: Type.Integer({ description: 'Calls finished since it started' }),
  last_seen: TimestampSchema,
});

/** The compute workers, in the system status and the queue status alike. */
export const WorkersSchema = Type.Object(
  {
    connected: Type.Boolean({ description: 'Whether Redis answers' }),
    workers: Type.Array(WorkerSchema),
    waiting: Type.Record(Type.String(), Type.Integer(), { description: 'Engine calls waiting for a worker, per engine' }),
  },
  { $id: 'Workers', description: 'With TIMBRE_QUEUE_URL: the compute workers alive now and the calls waiting per engine queue' },
);

export type WorkersView = Static<typeof WorkersSchema>;

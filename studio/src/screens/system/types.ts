import type { paths } from '../../../../src/client/schema.js';

type Answer<Path extends keyof paths> = paths[Path] extends { get: { responses: { 200: { content: { 'application/json': infer Body } } } } } ? Body : never;

export type Stats = Answer<'/api/system/stats'>;
export type Info = Answer<'/api/system/info'>;
export type Status = Answer<'/api/system/status'>;
export type GpuDetails = Answer<'/api/system/gpu'>;
export type QueueStatus = Answer<'/api/queue/status'>;

export type Engine = Info['engines'][number];
export type Model = Info['models'][number];
export type EngineHost = NonNullable<Status['engine_host']>;
export type Storage = NonNullable<Status['storage']>;

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { SystemService } from './service.js';
import { Nullable, TimestampSchema } from '../../platform/http/schemas.js';
import { withErrors } from '../../platform/http/responses.js';
import { callerOf } from '../access/index.js';

const Bytes = Type.Integer({ minimum: 0, description: 'bytes' });
const Percent = Type.Number({ minimum: 0, description: 'percent' });

const GpuSummarySchema = Type.Object({
  index: Type.Integer(),
  name: Type.String(),
  utilization_percent: Nullable(Percent),
  memory_used_bytes: Nullable(Bytes),
  memory_total_bytes: Nullable(Bytes),
});

const StatsSchema = Type.Object({
  cpu: Type.Object({
    load_percent: Percent,
    cores: Type.Array(Type.Object({ core: Type.Integer(), load_percent: Percent })),
    load_average: Type.Array(Type.Number(), { description: '1, 5 and 15 minute load averages' }),
  }),
  memory: Type.Object({ total_bytes: Bytes, used_bytes: Bytes, available_bytes: Bytes }),
  gpus: Type.Array(GpuSummarySchema, { description: 'Empty when no NVIDIA GPU is present' }),
});

const InfoSchema = Type.Object({
  os: Type.Object({
    platform: Type.String(),
    distro: Type.String(),
    release: Type.String(),
    kernel: Type.String(),
    arch: Type.String(),
    hostname: Type.String(),
  }),
  cpu: Type.Object({ model: Type.String(), cores: Type.Integer(), physical_cores: Type.Integer(), speed_ghz: Type.Number() }),
  memory: Type.Object({ total_bytes: Bytes }),
  gpus: Type.Array(Type.Object({ index: Type.Integer(), name: Type.String(), memory_total_bytes: Nullable(Bytes), driver_version: Nullable(Type.String()) })),
  versions: Type.Object({ timbre: Type.String(), node: Type.String() }),
  engines: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String({ description: 'tts, asr, vad, speaker-embedding…' }),
      neural: Type.Boolean(),
      available: Type.Boolean({ description: 'Whether it can run here now (files and programs present)' }),
      reason: Nullable(Type.String({ description: 'Why it cannot, when it cannot' })),
    }),
    { description: 'Every speech engine Timbre knows and whether it can run here' },
  ),
  models: Type.Array(
    Type.Object({
      name: Type.String(),
      engine: Type.String(),
      kind: Type.String(),
      size_bytes: Bytes,
      license: Type.String(),
      languages: Type.Array(Type.String()),
      complete: Type.Boolean(),
      missing_files: Type.Array(Type.String(), { description: 'Files missing or not of the expected size' }),
    }),
    { description: 'Installed model files: size, license, languages, engine' },
  ),
});

const StatusSchema = Type.Object(
  {
    status: Type.String({ description: '`ok`, or `degraded` when the database cannot be read' }),
    started_at: TimestampSchema,
    uptime_seconds: Type.Number(),
    system_uptime_seconds: Type.Number(),
    process: Type.Object({ pid: Type.Integer(), rss_bytes: Bytes, heap_used_bytes: Bytes }),
    data_dir: Type.Object({ path: Type.String(), free_bytes: Bytes, total_bytes: Bytes }),
    database: Type.Object({
      ok: Type.Boolean(),
      path: Type.Optional(Type.String()),
      schema_version: Type.Optional(Type.Integer()),
      journal_mode: Type.Optional(Type.String()),
      size_bytes: Type.Optional(Bytes),
      error: Type.Optional(Type.String()),
    }),
    engine_host: Type.Optional(
      Type.Object(
        {
          pool_size: Type.Integer(),
          hosts_running: Type.Integer(),
          busy: Type.Integer(),
          queued: Type.Integer(),
          restarts: Type.Integer(),
          loaded_engines: Type.Array(Type.String()),
        },
        { description: 'The supervised engine host processes and the engines loaded in them' },
      ),
    ),
    storage: Type.Optional(Type.Ref('StorageStatus')),
    queue: Type.Optional(Type.Object({ concurrency: Type.Integer(), running: Type.Integer(), queued: Type.Integer() }, { description: 'The compute queue' })),
    workers: Type.Optional(Type.Ref('Workers')),
  },
  { additionalProperties: true, description: 'Services add their own sections: engine_host (host processes, loaded engines), storage, queue, workers' },
);

const GpuSchema = Type.Object({
  gpus: Type.Array(
    Type.Object({
      index: Type.Integer(),
      name: Type.String(),
      vendor: Type.String(),
      driver_version: Nullable(Type.String()),
      bus_id: Nullable(Type.String()),
      utilization_percent: Nullable(Percent),
      memory_utilization_percent: Nullable(Percent),
      memory_total_bytes: Nullable(Bytes),
      memory_used_bytes: Nullable(Bytes),
      memory_free_bytes: Nullable(Bytes),
      temperature_c: Nullable(Type.Number()),
      power_draw_w: Nullable(Type.Number()),
      power_limit_w: Nullable(Type.Number()),
      fan_percent: Nullable(Percent),
    }),
  ),
  reason: Nullable(Type.String({ description: 'Why the list is empty, when it is' })),
});

const config = { scope: 'system:read' } as const;
const tags = ['System'];

export const systemRoutes: FastifyPluginAsyncTypebox<{ system: SystemService }> = async (app, { system }) => {
  app.get('/api/system/stats', {
    config,
    schema: { operationId: 'getSystemStats', tags, summary: 'CPU, memory and GPU load', response: withErrors({ 200: StatsSchema }) },
    handler: () => system.stats(),
  });
  app.get('/api/system/info', {
    config,
    schema: { operationId: 'getSystemInfo', tags, summary: 'Hardware, versions, installed engines and models', response: withErrors({ 200: InfoSchema }) },
    handler: () => system.info(),
  });
  app.get('/api/system/status', {
    config,
    schema: { operationId: 'getSystemStatus', tags, summary: 'Uptime, disk, database and service status', response: withErrors({ 200: StatusSchema }) },
    handler: (request) => system.status(callerOf(request).keyId),
  });
  app.get('/api/system/gpu', {
    config,
    schema: {
      operationId: 'getSystemGpus',
      tags,
      summary: 'Per-GPU details from nvidia-smi, or an empty list with the reason',
      response: withErrors({ 200: GpuSchema }),
    },
    handler: () => system.gpu(),
  });
};

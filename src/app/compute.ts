import { availableParallelism } from 'node:os';
import type { Config } from '../platform/config.js';
import type { EngineClient } from '../platform/engines/host/calls.js';
import { EngineHost } from '../platform/engines/host/supervisor.js';
import { engineDescriptors } from '../platform/engines/registry.js';
import { EngineWorker } from '../platform/engines/remote/engine-worker.js';
import { QueuedEngines } from '../platform/engines/remote/queued-engines.js';
import type { Log } from '../platform/log.js';
import type { WorkersView } from '../features/system/index.js';

/** Where engine calls run, what the status page says of it, and how it stops. */
export interface Compute {
  engines: EngineClient;
  /** With a queue URL: the live workers and the calls waiting per engine queue. */
  workers?: () => Promise<WorkersView>;
  /** Sections of `/api/system/status`: the local engine host, and the workers when a queue is set. */
  statusSections(): Record<string, () => Record<string, unknown> | Promise<Record<string, unknown>>>;
  close(): Promise<void>;
}

/** This machine's supervised engine host. Host processes start with the first call, so the CLI and an idle service pay nothing. */
export function localEngineHost(config: Config, poolSize = config.enginePoolSize): EngineHost {
  return new EngineHost({
    modelsDir: config.modelsDir,
    poolSize,
    jobTimeoutMs: config.engineTimeoutSeconds * 1000,
    pieceTimeoutSeconds: config.enginePieceSeconds,
    idleUnloadSeconds: config.engineIdleSeconds,
    memoryLimitBytes: config.engineMemoryMb * 1024 * 1024,
    cancelGraceMs: 2000,
  });
}

/** A worker on this machine: engine calls from the queue, run on a host of its own with one process per slot. */
export function localWorker(config: Config, url: string, log: Log) {
  const slots = config.workerSlots ?? availableParallelism();
  const host = localEngineHost(config, slots);
  const synthesizers = new Set(engineDescriptors(config.modelsDir).flatMap((engine) => (engine.kind === 'synthesizer' ? [engine.id] : [])));
  const worker = new EngineWorker({ url, engines: host, synthesizers, slots, stallMs: config.queueStallSeconds * 1000, log });
  return { host, worker, slots };
}

/**
 * Without a queue URL every call runs in this machine's engine host. With one, calls go through
 * Redis to whichever live worker has the engine, this service's own worker among them unless
 * TIMBRE_LOCAL_WORKER is false. `onSlotsChange` hears the live workers' slots in all as they change.
 */
export function openCompute(config: Config, log: Log, onSlotsChange?: (slots: number) => void): Compute {
  const url = config.queueUrl;
  if (url === undefined) {
    const host = localEngineHost(config);
    return { engines: host, statusSections: () => ({ engine_host: () => host.status() }), close: () => host.close() };
  }
  const engines = new QueuedEngines({ url, jobTimeoutMs: config.engineTimeoutSeconds * 1000, cancelGraceMs: 2000, log, onSlotsChange });
  const local = config.localWorker ? localWorker(config, url, log) : undefined;
  local?.worker.start().catch((error: unknown) => log.error({ err: error }, 'the local worker could not start'));
  const workers = () => engines.status();
  return {
    engines,
    workers,
    statusSections: () => ({
      ...(local ? { engine_host: () => local.host.status() } : {}),
      workers,
    }),
    close: async () => {
      await local?.worker.close();
      await local?.host.close();
      await engines.close();
    },
  };
}

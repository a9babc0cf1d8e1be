/**
 * The engine host process: loads engines on demand and runs one job at a time for the supervisor.
 * A native crash here ends this process only; the supervisor fails the job and starts a new host.
 */
import { engineDescriptors } from '../registry.js';
import type { JobContext } from '../types.js';
import { invokeEngine } from './calls.js';
import { LoadedEngines } from './loaded-engines.js';
import type { FromHost, RunMessage, ToHost } from './protocol.js';
import { EngineError } from '../../errors.js';

const modelsDir = process.env.TIMBRE_MODELS_DIR ?? '';
const idleMs = Number(process.env.TIMBRE_ENGINE_IDLE_SECONDS ?? 300) * 1000;
const faultsEnabled = process.env.TIMBRE_ENGINE_HOST_FAULTS === '1';

const descriptors = new Map(engineDescriptors(modelsDir).map((descriptor) => [descriptor.id, descriptor]));
const pieceSeconds = process.env.TIMBRE_ENGINE_PIECE_SECONDS;
const engines = new LoadedEngines(descriptors, idleMs, pieceSeconds ? { pieceTimeoutMs: Number(pieceSeconds) * 1000 } : undefined);
const running = new Map<number, AbortController>();

function send(message: FromHost): void {
  process.send?.(message);
}

function describeError(error: unknown, signal: AbortSignal): { code: string; message: string; details: Record<string, unknown> } {
  if (signal.aborted) return { code: 'cancelled', message: 'The job was cancelled', details: {} };
  if (error instanceof EngineError) return { code: error.code, message: error.message, details: error.details };
  return { code: 'engine_failed', message: error instanceof Error ? error.message : String(error), details: {} };
}

async function run(message: RunMessage): Promise<void> {
  const controller = new AbortController();
  running.set(message.id, controller);
  const context: JobContext = {
    signal: controller.signal,
    progress: (fraction, stage) => send({ type: 'progress', id: message.id, fraction, stage }),
  };
  if (message.stream) context.audio = (piece) => send({ type: 'audio', id: message.id, piece });
  try {
    const value = await engines.with(message.engine, (engine) => invokeEngine(engine, message, context));
    if (controller.signal.aborted) throw controller.signal.reason;
    send({ type: 'result', id: message.id, value, loaded: engines.loaded() });
  } catch (error) {
    send({ type: 'error', id: message.id, error: describeError(error, controller.signal), loaded: engines.loaded() });
  } finally {
    running.delete(message.id);
  }
}

/** Test-only faults that stand in for a native crash, a native call that never returns, and runaway memory. */
function fault(kind: 'crash' | 'hang' | 'allocate'): void {
  if (kind === 'crash') process.kill(process.pid, 'SIGSEGV');
  if (kind === 'hang') for (;;);
  const hoard: Buffer[] = [];
  setInterval(() => hoard.push(Buffer.alloc(64 * 1024 * 1024, 1)), 20);
}

process.on('message', (message: ToHost) => {
  if (message.type === 'run') void run(message);
  else if (message.type === 'cancel') running.get(message.id)?.abort(new EngineError('cancelled', 'The job was cancelled'));
  else if (message.type === 'fault' && faultsEnabled) fault(message.fault);
});
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });

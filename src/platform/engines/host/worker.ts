/**
 * The engine host process: loads engines on demand and runs one job at a time for the supervisor.
 * A native crash here ends this process only; the supervisor fails the job and starts a new host.
 */
import { engineDescriptors } from '../registry.js';
import type { JobContext } from '../types.js';
import { invokeEngine } from './calls.js';
import { LoadedEngines } from './loaded-engines.js';
import type { FromHost, RunMessage, ToHost } from './protocol.js';
import { FRAME_PIPE_FD, FrameWriter, type FramePlace } from './sample-frames.js';
import { EngineError, errorText } from '../../errors.js';
import { Socket } from 'node:net';

const modelsDir = process.env.TIMBRE_MODELS_DIR ?? '';
const idleMs = Number(process.env.TIMBRE_ENGINE_IDLE_SECONDS ?? 300) * 1000;
const faultsEnabled = process.env.TIMBRE_ENGINE_HOST_FAULTS === '1';

const descriptors = new Map(engineDescriptors(modelsDir).map((descriptor) => [descriptor.id, descriptor]));
const pieceSeconds = process.env.TIMBRE_ENGINE_PIECE_SECONDS;
const engines = new LoadedEngines(descriptors, idleMs, pieceSeconds ? { pieceTimeoutMs: Number(pieceSeconds) * 1000 } : undefined);
const running = new Map<number, AbortController>();

const frames = new FrameWriter(new Socket({ fd: FRAME_PIPE_FD, readable: false, writable: true }));
let outbox = Promise.resolve();

/**
 * Sends messages in order, resolving once a message is written: a streaming engine waits for that
 * before its next piece. A message may still be in the making (its frames being written) when queued.
 */
function send(message: FromHost | Promise<FromHost>): Promise<void> {
  const making = Promise.resolve(message);
  making.catch(() => undefined); // its failure is the send's, seen when its turn comes
  const sent = outbox.then(async () => {
    const ready = await making;
    await new Promise<void>((resolve) => (process.send ? process.send(ready, undefined, undefined, () => resolve()) : resolve()));
  });
  outbox = sent.catch(() => undefined);
  return sent;
}

/** A message whose value's large sample arrays are written as frames first. */
async function framed(value: unknown, message: (detached: unknown, places: FramePlace[]) => FromHost): Promise<FromHost> {
  const detached = await frames.detach(value);
  return message(detached.value, detached.frames);
}

function describeError(error: unknown, signal: AbortSignal): { code: string; message: string; details: Record<string, unknown> } {
  if (signal.aborted) return { code: 'cancelled', message: 'The job was cancelled', details: {} };
  if (error instanceof EngineError) return { code: error.code, message: error.message, details: error.details };
  return { code: 'engine_failed', message: errorText(error), details: {} };
}

async function run(message: RunMessage): Promise<void> {
  const controller = new AbortController();
  running.set(message.id, controller);
  const context: JobContext = {
    signal: controller.signal,
    progress: (fraction, stage) => void send({ type: 'progress', id: message.id, fraction, stage }),
  };
  let streamed = false;
  if (message.stream)
    context.audio = (piece) => {
      streamed = true;
      return send(framed(piece, (detached, places) => ({ type: 'audio', id: message.id, piece: detached, frames: places })));
    };
  try {
    const answer = await engines.with(message.engine, (engine) => invokeEngine(engine, message, context));
    if (controller.signal.aborted) throw controller.signal.reason;
    // The pieces were the audio: the whole of it again would cross the pipe for nothing.
    const value = streamed ? withoutSamples(answer) : answer;
    await send(framed(value, (detached, places) => ({ type: 'result', id: message.id, value: detached, frames: places, loaded: engines.loaded() })));
  } catch (error) {
    await send({ type: 'error', id: message.id, error: describeError(error, controller.signal), loaded: engines.loaded() });
  } finally {
    running.delete(message.id);
  }
}

/** A synthesis result with its samples left out (the timings kept); anything else as it is. */
function withoutSamples(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || !('pcm' in value)) return value;
  const { pcm } = value;
  if (typeof pcm !== 'object' || pcm === null || !('sampleRate' in pcm)) return value;
  return { ...value, pcm: { samples: new Float32Array(0), sampleRate: pcm.sampleRate } };
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
void send({ type: 'ready' });

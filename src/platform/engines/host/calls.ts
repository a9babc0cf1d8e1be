import type { Pcm } from '../../audio/pcm.js';
import type {
  Availability,
  Engine,
  EngineCapabilities,
  JobContext,
  RecognitionRequest,
  Recognizer,
  SynthesisRequest,
  SynthesisResult,
  Synthesizer,
  VoiceActivityDetector,
  VoicePrint,
  VoicePrinter,
} from '../types.js';
import { EngineError } from '../../errors.js';
import type { EngineId } from '../engine-ids.js';

/** A method's parameters as a job sends them: without the JobContext the host adds. */
type WithoutContext<A extends unknown[]> = A extends [...infer Rest, JobContext] ? Rest : A;
type CallOf<F> = F extends (...args: infer A) => infer R ? { args: WithoutContext<A>; result: Awaited<R> } : never;

/** Every engine method a job may call, with its arguments and result, derived from the engine interfaces. */
export interface EngineCallTypes {
  capabilities: { args: []; result: EngineCapabilities };
  listVoices: CallOf<Synthesizer['listVoices']>;
  voiceVector: CallOf<NonNullable<Synthesizer['voiceVector']>>;
  synthesize: CallOf<Synthesizer['synthesize']>;
  recognize: CallOf<Recognizer['recognize']>;
  extract: CallOf<VoicePrinter['extract']>;
  similarity: CallOf<VoicePrinter['similarity']>;
  analyse: CallOf<NonNullable<VoicePrinter['analyse']>>;
  detect: CallOf<VoiceActivityDetector['detect']>;
}

export type EngineMethod = keyof EngineCallTypes;
export type EngineResult<M extends EngineMethod> = EngineCallTypes[M]['result'];
/** One call as it crosses to the host: the method and its arguments, checked together. */
export type EngineCall = { [M in EngineMethod]: { method: M; args: EngineCallTypes[M]['args'] } }[EngineMethod];

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number, stage?: string) => void;
  /**
   * Receives a synthesis piece by piece as the engine makes it (see JobContext.audio). The result
   * then carries no samples of its own when pieces came: they were the audio.
   */
  onAudio?: (piece: SynthesisResult) => void;
  timeoutMs?: number;
  /** A quick job's call (JobRunContext.quick): it runs before calls of other jobs that wait for a host. */
  quick?: boolean;
}

/**
 * What services call engines with: one typed method per engine method, each run in an engine host.
 * Implementations carry a call to a host (a local process, or a worker machine through the queue)
 * and bring its guard-checked result back.
 */
export abstract class EngineClient {
  /** Runs one call and brings back its result, checked against the method's result shape. */
  abstract run<M extends EngineMethod>(engine: EngineId, call: EngineCall & { method: M }, options: CallOptions): Promise<EngineResult<M>>;

  /** Whether an engine can run now (its files here, or a live worker that has it), and why not. */
  abstract available(engine: EngineId): Promise<Availability>;

  /** Changes when the engines that can run change (a worker came or went), so voice lists are read again. */
  enginesVersion(): Promise<string> {
    return Promise.resolve('');
  }

  /**
   * Calls one job may usefully keep running at once (a task's chunks, a clone's candidates): 1 on
   * this machine's host, whose processes serve jobs side by side; with workers, their slots.
   */
  parallelCalls(): number {
    return 1;
  }

  capabilities(engine: EngineId, options: CallOptions = {}): Promise<EngineCapabilities> {
    return this.run(engine, { method: 'capabilities', args: [] }, options);
  }

  listVoices(engine: EngineId, options: CallOptions = {}): Promise<EngineResult<'listVoices'>> {
    return this.run(engine, { method: 'listVoices', args: [] }, options);
  }

  voiceVector(engine: EngineId, voice: string, options: CallOptions = {}): Promise<Float32Array> {
    return this.run(engine, { method: 'voiceVector', args: [voice] }, options);
  }

  synthesize(engine: EngineId, request: SynthesisRequest, options: CallOptions = {}): Promise<EngineResult<'synthesize'>> {
    return this.run(engine, { method: 'synthesize', args: [request] }, options);
  }

  recognize(engine: EngineId, request: RecognitionRequest, options: CallOptions = {}): Promise<EngineResult<'recognize'>> {
    return this.run(engine, { method: 'recognize', args: [request] }, options);
  }

  extract(engine: EngineId, pcm: Pcm, options: CallOptions = {}): Promise<VoicePrint> {
    return this.run(engine, { method: 'extract', args: [pcm] }, options);
  }

  similarity(engine: EngineId, a: VoicePrint, b: VoicePrint, options: CallOptions = {}): Promise<number> {
    return this.run(engine, { method: 'similarity', args: [a, b] }, options);
  }

  analyse(engine: EngineId, pcm: Pcm, options: CallOptions = {}): Promise<EngineResult<'analyse'>> {
    return this.run(engine, { method: 'analyse', args: [pcm] }, options);
  }

  detect(engine: EngineId, pcm: Pcm, options: CallOptions = {}): Promise<EngineResult<'detect'>> {
    return this.run(engine, { method: 'detect', args: [pcm] }, options);
  }
}

/** Runs a call on a loaded engine, in the host; an engine without the method refuses it. */
export function invokeEngine(engine: Engine, call: EngineCall, context: JobContext): Promise<unknown> {
  const refuse = () =>
    new EngineError('method_not_supported', `${engine.capabilities.engine} cannot ${call.method}`, { engine: engine.capabilities.engine, method: call.method });
  switch (call.method) {
    case 'capabilities':
      return Promise.resolve(engine.capabilities);
    case 'listVoices':
    case 'voiceVector':
    case 'synthesize':
      if (!('synthesize' in engine)) throw refuse();
      return synthesizerCall(engine, call, context, refuse);
    case 'recognize':
      if (!('recognize' in engine)) throw refuse();
      return engine.recognize(...call.args, context);
    case 'extract':
    case 'similarity':
    case 'analyse':
      if (!('extract' in engine)) throw refuse();
      return voicePrinterCall(engine, call, context, refuse);
    case 'detect':
      if (!('detect' in engine)) throw refuse();
      return engine.detect(...call.args, context);
  }
}

type CallFor<M extends EngineMethod> = Extract<EngineCall, { method: M }>;

function synthesizerCall(
  engine: Synthesizer,
  call: CallFor<'listVoices' | 'voiceVector' | 'synthesize'>,
  context: JobContext,
  refuse: () => EngineError,
): Promise<unknown> {
  if (call.method === 'listVoices') return engine.listVoices();
  if (call.method === 'synthesize') return engine.synthesize(...call.args, context);
  if (!engine.voiceVector) throw refuse();
  return engine.voiceVector(...call.args);
}

function voicePrinterCall(
  engine: VoicePrinter,
  call: CallFor<'extract' | 'similarity' | 'analyse'>,
  context: JobContext,
  refuse: () => EngineError,
): Promise<unknown> {
  if (call.method === 'extract') return engine.extract(...call.args, context);
  if (call.method === 'similarity') return Promise.resolve(engine.similarity(...call.args));
  if (!engine.analyse) throw refuse();
  return engine.analyse(...call.args, context);
}

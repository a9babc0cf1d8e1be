/**
 * Messages between the server (the supervisor) and an engine host process. Sent over Node IPC with
 * the structured-clone ("advanced") serialization, so typed arrays cross as they are; the host's
 * large sample arrays go beside them as frames (sample-frames.ts). A worker on another machine would
 * speak the same messages over another transport.
 */
import type { EngineCall } from './calls.js';
import type { FramePlace } from './sample-frames.js';
import type { EngineId } from '../engine-ids.js';

/** A call of an engine method; `args` are that method's parameters without the JobContext. `stream`: send each piece of audio as it is ready. */
export type RunMessage = { type: 'run'; id: number; engine: EngineId; stream?: boolean } & EngineCall;

export interface CancelMessage {
  type: 'cancel';
  id: number;
}

/** Deliberate faults, accepted only when the host runs with TIMBRE_ENGINE_HOST_FAULTS=1 (tests). */
export interface FaultMessage {
  type: 'fault';
  id: number;
  fault: 'crash' | 'hang' | 'allocate';
}

export type ToHost = RunMessage | CancelMessage | FaultMessage;

export interface ProgressMessage {
  type: 'progress';
  id: number;
  fraction: number;
  stage?: string;
}

/** A piece of a streamed synthesis (see JobContext.audio); checked as a synthesis result when it arrives. */
export interface AudioMessage {
  type: 'audio';
  id: number;
  piece: unknown;
  /** The piece's samples, sent as frames. */
  frames: FramePlace[];
}

export interface ResultMessage {
  type: 'result';
  id: number;
  value: unknown;
  /** Large sample arrays of the value, sent as frames. */
  frames: FramePlace[];
  /** Engines loaded in the host after this job, for the status page. */
  loaded: string[];
}

export interface ErrorMessage {
  type: 'error';
  id: number;
  error: { code: string; message: string; details: Record<string, unknown> };
  loaded: string[];
}

export interface ReadyMessage {
  type: 'ready';
}

export type FromHost = ProgressMessage | AudioMessage | ResultMessage | ErrorMessage | ReadyMessage;

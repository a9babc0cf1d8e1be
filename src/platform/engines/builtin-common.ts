import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { concatPcm, durationOf, type Pcm } from '../audio/pcm.js';
import { parseWav } from '../audio/wav.js';
import { findExecutable } from '../util/executables.js';
import { runProgram, type RunResult } from '../util/run.js';
import {
  type Availability,
  type EngineCapabilities,
  type JobContext,
  type SynthesisRequest,
  type SynthesisResult,
  type Synthesizer,
  type VoiceInfo,
} from './types.js';
import { EngineError } from '../errors.js';
import type { Phonemes } from '../text/ssml/segments.js';
import {
  PIECE_BYTES,
  breakLongWords,
  hasSpeakableText,
  readableBy,
  requireSpeakableText,
  sentencePieces,
  shortenPunctuationRuns,
  textNotSpeakable,
} from './builtin-text.js';

/**
 * What the four built-in engines (pico, espeak, festival, flite) share: each speaks a request one
 * piece of text (a sentence) at a time; this module does everything around that.
 */

export const MIN_SPEED = 0.5;
export const MAX_SPEED = 2;
/** Default for BuiltinOptions.pieceTimeoutMs (TIMBRE_ENGINE_PIECE_SECONDS). */
export const PIECE_TIMEOUT_MS = 120_000;

export interface BuiltinOptions {
  /** Where per-call temporary directories (for engines that need files) are made; the OS temp directory by default. */
  tempRoot?: string;
  /**
   * Longest a program may run on one piece of text; past it the job fails with
   * `engine_piece_timeout`, so no text can hold the queue until the engine timeout.
   */
  pieceTimeoutMs?: number;
}

/** One program run: a piece of the request's text, already made safe for the engine. */
export interface PieceJob {
  text: string;
  voice: VoiceInfo;
  /** Clamped to MIN_SPEED..MAX_SPEED. */
  speed: number;
  /** Pitch factor within the engine's range (1 when the request has none or the engine has no range). */
  pitch: number;
  /**
   * The request's temporary directory, made on first call and removed after the request: most
   * engines never need one, and making and removing it costs more than a short piece's synthesis.
   */
  dir(): Promise<string>;
  /** Position of the piece, for file names that cannot be mistaken for an earlier piece's output. */
  index: number;
  signal: AbortSignal;
  /** The request's phonemes, for an engine with `phonemeInput`; the one piece is then the written word. */
  phonemes?: Phonemes;
}

export interface BuiltinEngine {
  capabilities: EngineCapabilities;
  discoverVoices(): Promise<VoiceInfo[]>;
  /**
   * The scripts a voice reads (Unicode script names, `Latin`): letters of others are made spaces
   * before prepareText, and a text with none left is 422 `text_not_speakable`. Every script when
   * undefined (eSpeak reads them all).
   */
  scriptsRead?(voice: VoiceInfo): readonly string[] | undefined;
  /** Rewrites user text into what the program reads safely, e.g. ASCII folding. */
  prepareText?(text: string, voice: VoiceInfo): string;
  /**
   * Timings in the result are relative to the start of the piece. No samples: the engine found
   * nothing to say in the piece (it is left out; a request with nothing said at all is refused).
   */
  renderPiece(job: PieceJob): Promise<SynthesisResult>;
  /** Releases what the engine keeps warm between calls (a loaded library, a running program). */
  dispose?(): Promise<void>;
}

export function clampPitch(pitch: number | undefined, range: EngineCapabilities['pitch']): number {
  if (pitch === undefined || !Number.isFinite(pitch) || !range) return 1;
  return Math.min(range.max, Math.max(range.min, pitch));
}

export function clampSpeed(speed: number | undefined): number {
  if (speed === undefined || !Number.isFinite(speed)) return 1;
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}

/** Runs work with a temporary directory made on its first use and removed afterwards, whatever happens. */
export async function withTempDir<T>(root: string, label: string, work: (dir: () => Promise<string>) => Promise<T>): Promise<T> {
  let made: Promise<string> | undefined;
  try {
    return await work(() => (made ??= mkdtemp(join(root, `timbre-${label}-`))));
  } finally {
    const dir = await made?.catch(() => undefined);
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Runs an engine program; a non-zero exit, or stderr matching `failsOn` for programs that report
 * errors only there, becomes EngineError('engine_failed').
 */
export async function runEngineProgram(program: string, args: readonly string[], options: { signal: AbortSignal; failsOn?: RegExp }): Promise<RunResult> {
  const result = await runProgram(program, args, { signal: options.signal });
  if (result.code !== 0 || options.failsOn?.test(result.stderr)) {
    throw new EngineError('engine_failed', `${program} failed: ${lastLines(result.stderr)}`, { code: result.code, stderr: result.stderr });
  }
  return result;
}

/** Reads a WAV the program wrote; a missing, empty or malformed file is an engine failure. */
export async function readWavOutput(path: string, program: string, stderr = ''): Promise<Pcm> {
  try {
    const pcm = parseWav(await readFile(path));
    if (pcm.samples.length > 0) return pcm;
  } catch {
    // reported below, with the program's own words
  }
  throw new EngineError('engine_failed', `${program} produced no audio: ${lastLines(stderr)}`, { stderr });
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ') || 'no message';
}

/** Turns an engine's per-piece renderer into a Synthesizer. */
export function createBuiltinSynthesizer(engine: BuiltinEngine, options: BuiltinOptions = {}): Synthesizer {
  let voices: Promise<VoiceInfo[]> | undefined;
  const listVoices = () =>
    (voices ??= engine.discoverVoices().catch((error: unknown) => {
      voices = undefined; // a failed discovery (e.g. a timeout) is retried on the next call
      throw error;
    }));
  const tempRoot = options.tempRoot ?? tmpdir();
  const pieceTimeoutMs = options.pieceTimeoutMs ?? PIECE_TIMEOUT_MS;

  async function synthesize(request: SynthesisRequest, context: JobContext): Promise<SynthesisResult> {
    const voice = (await listVoices()).find((candidate) => candidate.id === request.voice);
    if (!voice) throw new EngineError('voice_not_found', `No ${engine.capabilities.engine} voice ${request.voice}`, { voice: request.voice });
    requireSpeakableText(request.text);
    const scripts = engine.scriptsRead?.(voice);
    const readable = readableBy(request.text, scripts);
    const prepared = engine.prepareText ? engine.prepareText(readable, voice) : readable;
    const text = breakLongWords(shortenPunctuationRuns(prepared));
    // Letters the voice cannot read are gone: text in another script has nothing left.
    if (!hasSpeakableText(text)) throw textNotSpeakable(voice, request.text, scripts);
    const phonemes = engine.capabilities.phonemeInput ? request.phonemes : undefined;
    const pieces = phonemes ? [text] : sentencePieces(text);
    const speed = clampSpeed(request.speed);
    const pitch = clampPitch(request.pitch, engine.capabilities.pitch);
    context.signal.throwIfAborted();
    return withTempDir(tempRoot, engine.capabilities.engine, async (dir) => {
      const joined = new JoinedResult(voice.sampleRate);
      for (const [index, piece] of pieces.entries()) {
        // The engines in this process speak synchronously: without a turn of the event loop between
        // pieces, the engine host never reads a cancellation and a long text runs to its end.
        await setImmediate();
        context.signal.throwIfAborted();
        const result = await renderWithin(pieceTimeoutMs, context.signal, (signal) =>
          engine.renderPiece({ text: piece, voice, speed, pitch, dir, index, signal, phonemes }),
        );
        // A piece with no samples (nothing the engine could say in it) is left out, whatever rate it names.
        if (result.pcm.samples.length > 0) {
          if (result.pcm.sampleRate !== voice.sampleRate) {
            throw new EngineError('engine_failed', `${voice.id} gave ${result.pcm.sampleRate} Hz, expected ${voice.sampleRate} Hz`);
          }
          const placed = joined.add(result);
          await context.audio?.(placed);
        }
        context.progress((index + 1) / pieces.length, 'synthesizing');
      }
      if (joined.empty) throw textNotSpeakable(voice, request.text, scripts);
      return joined.result();
    });
  }

  return { capabilities: engine.capabilities, listVoices: async () => [...(await listVoices())], synthesize, dispose: engine.dispose?.bind(engine) };
}

/** Runs one piece's render, stopping its programs when the job is cancelled or the piece takes longer than `timeoutMs`. */
async function renderWithin(timeoutMs: number, jobSignal: AbortSignal, render: (signal: AbortSignal) => Promise<SynthesisResult>): Promise<SynthesisResult> {
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    return await render(AbortSignal.any([jobSignal, timeout]));
  } catch (error) {
    if (!timeout.aborted || jobSignal.aborted) throw error;
    const seconds = timeoutMs / 1000;
    throw new EngineError(
      'engine_piece_timeout',
      `The engine took longer than ${seconds} s on one piece of the text (a sentence, at most ${PIECE_BYTES} bytes)`,
      {
        piece_seconds: seconds,
      },
    );
  }
}

/** Piece results joined one after another, each piece's timings shifted by the audio before it. */
class JoinedResult {
  private readonly pieces: SynthesisResult[] = [];
  private offset = 0;

  constructor(private readonly sampleRate: number) {}

  get empty(): boolean {
    return this.pieces.length === 0;
  }

  /** Adds a piece; answers it with its timings placed in the whole. */
  add(piece: SynthesisResult): SynthesisResult {
    const shift = <T extends { start: number; end: number }>(items: T[] | undefined) =>
      items?.map((item) => ({ ...item, start: item.start + this.offset, end: item.end + this.offset }));
    const placed: SynthesisResult = { pcm: piece.pcm };
    if (piece.words) placed.words = shift(piece.words);
    if (piece.phonemes) placed.phonemes = shift(piece.phonemes);
    this.pieces.push(placed);
    this.offset += durationOf(piece.pcm);
    return placed;
  }

  result(): SynthesisResult {
    const joined: SynthesisResult = {
      pcm: concatPcm(
        this.pieces.map((piece) => piece.pcm),
        this.sampleRate,
      ),
    };
    if (this.pieces.some((piece) => piece.words)) joined.words = this.pieces.flatMap((piece) => piece.words ?? []);
    if (this.pieces.some((piece) => piece.phonemes)) joined.phonemes = this.pieces.flatMap((piece) => piece.phonemes ?? []);
    return joined;
  }
}

/** Probe result: available when every program is on PATH and every data path exists. */
export function probeInstalled(programs: string[], dataPaths: string[] = []): Availability {
  const missing = [...programs.filter((program) => !findExecutable(program)), ...dataPaths.filter((path) => !existsSync(path))];
  return missing.length === 0 ? { available: true } : { available: false, reason: `not installed: ${missing.join(', ')}` };
}

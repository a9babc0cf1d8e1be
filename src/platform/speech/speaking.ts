import { durationOf, type Pcm } from '../audio/pcm.js';
import type { PhonemeTiming, SynthesisRequest, SynthesisResult, WordTiming } from '../engines/types.js';
import type { EngineId } from '../engines/engine-ids.js';
import { EngineError } from '../errors.js';
import { CALL_SECONDS, MAX_CALL_SECONDS, SpeechParts } from './speech-parts.js';
import { Shaping, withRendering, type RenderDeps, type SpeechTimings, type VoiceRendering } from './voice-rendering.js';

export interface RenderProgress {
  signal?: AbortSignal;
  onProgress?: (fraction: number, stage?: string) => void;
  /** A quick job's engine calls go ahead of a long job's (JobRunContext.quick). */
  quick?: boolean;
}

/** What an engine answers for text it finds nothing to say in (nothing readable, or nothing the voice reads). */
const NOTHING_TO_SAY: ReadonlySet<string> = new Set(['text_empty', 'text_not_speakable']);

/**
 * Calls asked beyond the one whose audio is handed on: the engine host goes from one part to the
 * next without waiting for the service (a quick job's call still goes before the one waiting).
 */
const CALLS_AHEAD = 1;
/**
 * Engine time one call is given once the engine's pace is known: a part is as much speech as the
 * engine says in this long (at least CALL_SECONDS, at most MAX_CALL_SECONDS), so fast engines get
 * few calls (each costs a round trip) and slow ones short ones (a quick job waits for no more).
 */
const CALL_ENGINE_SECONDS = 1.5;

/**
 * Speaks a request as the voice: the rendering's inputs go into the request, its conversion onto
 * the audio, which `onAudio` receives piece by piece (sentences, for engines that make it so), in
 * order, as it is made. Nothing of the whole is kept: the text goes to the engine in parts
 * (SpeechParts), one call after another, so a quick job's call can go in between, and at most
 * about two parts' audio waits to be shaped and written. A part with nothing the engine can say
 * is left out, as an engine leaves out such a sentence; a text with nothing at all fails as the
 * engine says (`text_empty`, `text_not_speakable`). Answers the timings of the whole.
 */
export async function speakAs(
  deps: RenderDeps,
  engine: EngineId,
  request: SynthesisRequest,
  rendering: VoiceRendering,
  onAudio: (piece: Pcm) => Promise<void>,
  progress: RenderProgress = {},
): Promise<SpeechTimings> {
  const { request: full, stretch } = await withRendering(deps.voiceFiles, request, rendering);
  const parts = new SpeechParts(full.text, full.language ?? '', full.speed ?? 1);
  const total = parts.seconds || 1;
  // Ends a call still asked ahead when speaking stops early.
  const stop = new AbortController();
  const signal = progress.signal ? AbortSignal.any([progress.signal, stop.signal]) : stop.signal;
  const pieces = new ShapedPieces(new Shaping(rendering.conversion, stretch, progress.signal), onAudio);
  const started = performance.now();
  let before = 0;
  let calls = 0;
  const ask = (): PartCall | undefined => {
    const pace = pieces.engineSeconds > 0 ? (performance.now() - started) / 1000 / pieces.engineSeconds : undefined;
    const part = parts.next(pace ? Math.min(MAX_CALL_SECONDS, Math.max(CALL_SECONDS, CALL_ENGINE_SECONDS / pace)) : CALL_SECONDS);
    if (!part) return undefined;
    const done = before;
    before += part.seconds;
    const onProgress = (fraction: number, stage?: string) => progress.onProgress?.((done + fraction * part.seconds) / total, stage);
    // A part with nothing to say is left out when the text has others (they may still come).
    const skippable = ++calls > 1 || part.seconds < parts.seconds;
    return new PartCall(pieces, skippable, (receive) =>
      deps.engines.synthesize(engine, { ...full, text: part.text }, { signal, quick: progress.quick, onProgress, onAudio: (piece) => receive(piece.pcm) }),
    );
  };
  try {
    return await speakParts(ask, pieces);
  } finally {
    stop.abort();
  }
}

/** The calls one after another (CALLS_AHEAD asked ahead), each one's audio handed on once the one before has ended. */
async function speakParts(ask: () => PartCall | undefined, pieces: ShapedPieces): Promise<SpeechTimings> {
  const timings = new JoinedTimings();
  const inFlight: PartCall[] = [];
  const askNext = () => {
    const call = ask();
    if (call) inFlight.push(call);
  };
  for (let index = 0; index <= CALLS_AHEAD; index++) askNext();
  let nothing: EngineError | undefined;
  let handled = Promise.resolve();
  for (let call = inFlight.shift(); call; call = inFlight.shift()) {
    const offset = call.current();
    const result = await call.done;
    if (result instanceof EngineError) nothing = result;
    else timings.add(call.whole(result, offset), offset);
    // At most about two parts' audio waits to be shaped and written, and a failure there stops the speaking.
    await handled;
    handled = pieces.finish();
    askNext();
  }
  await pieces.finish();
  if (pieces.engineSeconds === 0 && nothing) throw nothing;
  return pieces.shaping.timings(timings.joined());
}

/**
 * One part's engine call. Its pieces are held until it becomes the current call (the one before
 * it may still be speaking, on another host), then go on as they come.
 */
class PartCall {
  private held: Pcm[] | undefined = [];
  /** The result, or the error of a part with nothing to say (when the text has other parts). */
  readonly done: Promise<SynthesisResult | EngineError>;

  constructor(
    private readonly pieces: ShapedPieces,
    skippable: boolean,
    call: (receive: (pcm: Pcm) => void) => Promise<SynthesisResult>,
  ) {
    const receive = (pcm: Pcm) => (this.held ? this.held.push(pcm) : this.pieces.add(pcm));
    this.done = call(receive).catch((error: unknown) => {
      if (skippable && error instanceof EngineError && NOTHING_TO_SAY.has(error.code)) return error;
      throw error;
    });
    // Awaited in turn; a call asked ahead that fails after speaking stopped must not count as unhandled.
    this.done.catch(() => undefined);
  }

  /** Hands on what the call held and what comes next; answers the engine's seconds before its audio. */
  current(): number {
    const offset = this.pieces.engineSeconds;
    for (const pcm of this.held ?? []) this.pieces.add(pcm);
    this.held = undefined;
    return offset;
  }

  /** The result; an engine that sent no pieces answered the whole part at once, which goes on now. */
  whole(result: SynthesisResult, offset: number): SynthesisResult {
    if (this.pieces.engineSeconds === offset) this.pieces.add(result.pcm);
    return result;
  }
}

/** The engine's pieces shaped one after another, in order, each handed on as soon as it is ready. */
class ShapedPieces {
  private chain: Promise<void> = Promise.resolve();
  /** Seconds of the engine's audio so far, before shaping: where the next part's timings start. */
  engineSeconds = 0;

  constructor(
    readonly shaping: Shaping,
    private readonly onAudio: (piece: Pcm) => Promise<void>,
  ) {}

  add(pcm: Pcm): void {
    if (pcm.samples.length === 0) return;
    this.engineSeconds += durationOf(pcm);
    this.chain = this.chain.then(async () => this.onAudio(await this.shaping.piece(pcm)));
    // Awaited in finish; until then a failure must not count as unhandled.
    this.chain.catch(() => undefined);
  }

  finish(): Promise<void> {
    return this.chain;
  }
}

/** The timings of the parts, each shifted by the audio before it. */
class JoinedTimings {
  private words: WordTiming[] | undefined;
  private phonemes: PhonemeTiming[] | undefined;

  add(result: SynthesisResult, offset: number): void {
    const shift = <T extends { start: number; end: number }>(item: T) => ({ ...item, start: item.start + offset, end: item.end + offset });
    if (result.words) (this.words ??= []).push(...result.words.map(shift));
    if (result.phonemes) (this.phonemes ??= []).push(...result.phonemes.map(shift));
  }

  joined(): SpeechTimings {
    return { ...(this.words ? { words: this.words } : {}), ...(this.phonemes ? { phonemes: this.phonemes } : {}) };
  }
}

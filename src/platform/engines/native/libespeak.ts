import type { TypeObject } from 'koffi';
import { EngineError } from '../../errors.js';
import { EVENT_LIST_TERMINATED, decodeEvent, type EspeakEvent, type EventLayout } from './espeak-events.js';
import { type Koffi, type LibraryHandle, type Pointer, SampleBuffer, SerialLock, keepDescriptorsFromChildren, openLibrary } from './library.js';

/**
 * eSpeak NG through libespeak-ng, in synchronous mode: espeak_Synth returns once the text is spoken,
 * having handed the samples and events to a callback on this thread. MBROLA voices work through
 * the library too: it runs the `mbrola` program itself, once per voice change, and keeps it.
 *
 * Its state (voice, rate, callback) is global to the process, and so is the session: initialised
 * once, never terminated. eSpeak NG 1.51 cannot be initialised again after espeak_Terminate (the
 * next espeak_Terminate waits forever on its fifo thread), and terminating leaves the `mbrola`
 * program running anyway.
 */

export const ESPEAK_LIBRARY = 'libespeak-ng.so.1';
export const ESPEAK_PACKAGE = 'libespeak-ng1';

const AUDIO_OUTPUT_SYNCHRONOUS = 2;
const INITIALIZE_PHONEME_EVENTS = 0x0001;
/** Phoneme events name IPA phonemes (`ð`, `eɪ`) rather than eSpeak's own mnemonics (`D`, `eI`, `@2`). */
const INITIALIZE_PHONEME_IPA = 0x0002;
/** Without it, a missing espeak-ng-data directory makes the library call exit(). */
const INITIALIZE_DONT_EXIT = 0x8000;
const POS_CHARACTER = 1;
/** UTF-8 text, plain: neither SSML (espeakSSML) nor `[[phonemes]]` (espeakPHONEMES) is read in user text. */
const CHARS_UTF8 = 1;
/** Reads `[[mnemonics]]` as phonemes: set only for text Timbre wrote from a request's phonemes. */
const PHONEME_INPUT = 0x100;
/** A sentence pause after the text, as the espeak-ng program adds: pieces joined keep their pauses. */
const END_PAUSE = 0x1000;
const PARAMETER_RATE = 1;
const ERRORS: Record<number, string> = { [-1]: 'internal error', 1: 'buffer full', 2: 'not found' };

/** speak_lib.h `espeak_VOICE` as a selection: only `languages` is set here. */
interface VoiceSelector {
  name: null;
  languages: string;
  identifier: null;
  gender: number;
  age: number;
  variant: number;
  xx1: number;
  score: number;
  spare: null;
}

interface EspeakApi {
  initialize(output: number, bufferMs: number, path: null, options: number): number;
  setSynthCallback(callback: Pointer): void;
  setVoiceByName(name: string): number;
  setVoiceByProperties(selector: VoiceSelector): number;
  setParameter(parameter: number, value: number, relative: number): number;
  synth(text: Buffer, size: number, position: number, positionType: number, end: number, flags: number, id: null, userData: null): number;
  synchronize(): number;
  sampleRate(): number;
}

/** The synth callback's type, `int (short *wav, int numsamples, espeak_EVENT *events)`, is anonymous: koffi's type names are global. */
function bindEspeak(koffi: Koffi, lib: LibraryHandle): { api: EspeakApi; callbackType: TypeObject } {
  const callbackType = koffi.pointer(koffi.proto('int', ['void *', 'int', 'void *']));
  const voiceType = koffi.struct({
    name: 'const char *',
    languages: 'const char *',
    identifier: 'const char *',
    gender: 'uchar',
    age: 'uchar',
    variant: 'uchar',
    xx1: 'uchar',
    score: 'int',
    spare: 'void *',
  });
  const api: EspeakApi = {
    initialize: lib.func('int espeak_Initialize(int output, int buflength, const char *path, int options)'),
    setSynthCallback: lib.func('espeak_SetSynthCallback', 'void', [callbackType]),
    setVoiceByName: lib.func('int espeak_SetVoiceByName(const char *name)'),
    setVoiceByProperties: lib.func('espeak_SetVoiceByProperties', 'int', [koffi.pointer(voiceType)]),
    setParameter: lib.func('int espeak_SetParameter(int parameter, int value, int relative)'),
    synth: lib.func(
      'int espeak_Synth(const void *text, size_t size, unsigned int position, int positionType, unsigned int end, unsigned int flags, void *id, void *userData)',
    ),
    synchronize: lib.func('int espeak_Synchronize()'),
    sampleRate: lib.func('int espeak_ng_GetSampleRate()'),
  };
  return { api, callbackType };
}

/** The layout of espeak_EVENT on this platform, as koffi lays the struct out. */
function eventLayout(koffi: Koffi): EventLayout {
  const id = koffi.union({ number: 'int', name: 'const char *', string: koffi.array('char', 8) });
  const event = koffi.struct({
    type: 'int',
    unique_identifier: 'uint',
    text_position: 'int',
    length: 'int',
    audio_position: 'int',
    sample: 'int',
    user_data: 'void *',
    id,
  });
  const at = (field: string) => koffi.offsetof(event, field);
  return { size: koffi.sizeof(event), type: at('type'), textPosition: at('text_position'), sample: at('sample'), id: at('id') };
}

const NO_VOICE = { name: null, identifier: null, gender: 0, age: 0, variant: 0, xx1: 0, score: 0, spare: null } as const;

export interface EspeakOutput {
  samples: Int16Array;
  sampleRate: number;
  events: EspeakEvent[];
}

/** What the callback gathers during one espeak_Synth call. */
interface Gathering {
  samples: SampleBuffer;
  events: EspeakEvent[];
  signal: AbortSignal;
  error?: Error;
}

let session: Promise<EspeakSession> | undefined;

/** The process's session: the library loaded, bound and initialised on first use, then kept. */
export function espeakSession(): Promise<EspeakSession> {
  session ??= EspeakSession.open().catch((error: unknown) => {
    session = undefined; // a library installed meanwhile is found on the next call
    throw error;
  });
  return session;
}

export class EspeakSession {
  private readonly lock = new SerialLock();
  private readonly layout: EventLayout;
  /** Registered for good: the library keeps calling it for as long as the process runs. */
  private readonly callback: bigint;
  private gathering: Gathering | undefined;
  /** The voice set last, and its sample rate: setting an MBROLA voice restarts `mbrola` (~25 ms). */
  private voice: { name: string; sampleRate: number } | undefined;

  private constructor(
    private readonly koffi: Koffi,
    private readonly api: EspeakApi,
    callbackType: TypeObject,
  ) {
    this.layout = eventLayout(koffi);
    const rate = api.initialize(AUDIO_OUTPUT_SYNCHRONOUS, 0, null, INITIALIZE_PHONEME_EVENTS | INITIALIZE_PHONEME_IPA | INITIALIZE_DONT_EXIT);
    if (rate <= 0) throw new EngineError('engine_failed', `espeak: espeak_Initialize failed with status ${rate}`, { status: rate });
    this.callback = koffi.register((wav: Pointer, count: number, events: Pointer) => this.receive(wav, count, events), callbackType);
    api.setSynthCallback(this.callback);
  }

  /** Only through espeakSession(): two sessions would share (and fight over) the library's global state. */
  static async open(): Promise<EspeakSession> {
    const { koffi, lib } = await openLibrary(ESPEAK_LIBRARY, ESPEAK_PACKAGE);
    const { api, callbackType } = bindEspeak(koffi, lib);
    // The library stays loaded: unloading it would orphan its `mbrola` program and that program's pipes.
    return new EspeakSession(koffi, api, callbackType);
  }

  /**
   * Speaks plain UTF-8 text with a voice (`en-us`, `mb-us1`) at a rate in words per minute; with
   * `phonemeInput`, `[[ ]]` in the text holds phoneme mnemonics (the caller writes them, never a user).
   */
  synthesize(voice: string, text: string, wordsPerMinute: number, signal: AbortSignal, phonemeInput = false): Promise<EspeakOutput> {
    return this.lock.run(() => {
      signal.throwIfAborted();
      const sampleRate = this.useVoice(voice);
      this.check('espeak_SetParameter', this.api.setParameter(PARAMETER_RATE, wordsPerMinute, 0));
      const gathering: Gathering = { samples: new SampleBuffer(), events: [], signal };
      this.gathering = gathering;
      try {
        // A NUL would end the text early.
        const bytes = Buffer.from(`${text.replaceAll('\0', ' ')}\0`, 'utf8');
        const flags = CHARS_UTF8 | END_PAUSE | (phonemeInput ? PHONEME_INPUT : 0);
        const status = this.api.synth(bytes, bytes.length, 0, POS_CHARACTER, 0, flags, null, null);
        if (gathering.error !== undefined) throw gathering.error;
        signal.throwIfAborted();
        this.check('espeak_Synth', status);
        this.check('espeak_Synchronize', this.api.synchronize());
      } finally {
        this.gathering = undefined;
      }
      return { samples: gathering.samples.toArray(), sampleRate, events: gathering.events };
    });
  }

  private useVoice(name: string): number {
    if (this.voice?.name === name) return this.voice.sampleRate;
    this.voice = undefined;
    let status = this.api.setVoiceByName(name);
    // As the espeak-ng program does: a language (`fr-fr`) that names no voice selects that language's voice.
    if (status !== 0) status = this.api.setVoiceByProperties({ ...NO_VOICE, languages: name });
    this.check('espeak_SetVoiceByName', status, { voice: name });
    // An MBROLA voice has just started `mbrola` with pipes any later program would inherit.
    if (name.startsWith('mb-')) keepDescriptorsFromChildren(this.koffi);
    this.voice = { name, sampleRate: this.api.sampleRate() };
    return this.voice.sampleRate;
  }

  /** The synth callback: samples and events of one buffer; answers 1 to stop the synthesis. */
  private receive(wav: Pointer, count: number, events: Pointer): number {
    const gathering = this.gathering;
    if (!gathering) return 1;
    try {
      if (wav !== null && count > 0) gathering.samples.push(new Int16Array(this.koffi.view(wav, count * 2)), count);
      if (typeof events === 'bigint') this.readEvents(events, gathering.events);
      return gathering.signal.aborted ? 1 : 0;
    } catch (error) {
      gathering.error = error instanceof Error ? error : new Error(String(error));
      return 1;
    }
  }

  /** Reads the callback's event list, which ends with an event of type 0. */
  private readEvents(list: bigint, into: EspeakEvent[]): void {
    for (let offset = 0; ; offset += this.layout.size) {
      const event = decodeEvent(new DataView(this.koffi.view(list + BigInt(offset), this.layout.size)), this.layout);
      if (event.type === EVENT_LIST_TERMINATED) return;
      into.push(event);
    }
  }

  private check(step: string, status: number, details: Record<string, unknown> = {}): void {
    if (status !== 0)
      throw new EngineError('engine_failed', `espeak: ${step} failed with status ${status} (${ERRORS[status] ?? 'error'})`, { status, step, ...details });
  }
}

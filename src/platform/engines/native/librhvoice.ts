import type { TypeObject } from 'koffi';
import { EngineError } from '../../errors.js';
import { type Koffi, type LibraryHandle, type NativeSession, type Pointer, SampleBuffer, SerialLock, openLibrary } from './library.js';

/**
 * RHVoice through libRHVoice: one engine for the process, its voices loaded on first use and kept.
 * RHVoice_speak is synchronous: it hands samples and word events to callbacks on this thread, in
 * the order they are heard, before it returns.
 */

export const RHVOICE_LIBRARY = 'libRHVoice.so.5';
export const RHVOICE_PACKAGE = 'librhvoice5';
export const RHVOICE_DATA = '/usr/share/RHVoice';
/**
 * Read for RHVoice.conf: a folder that has none, so the library's defaults hold whatever the
 * machine's /etc/RHVoice says (its `quality` would change the sample rate under the catalog).
 */
const NO_CONFIG = '/nonexistent/timbre-rhvoice-defaults';
const MESSAGE_TEXT = 0;
const GENDERS = ['unknown', 'male', 'female'] as const;

export interface RhvoiceVoice {
  /** As RHVoice spells it: `Slt`, `Evgeniy-Eng`. */
  name: string;
  /** ISO 639-1, and the country (ISO 3166) when the voice has one. */
  language: string;
  country: string | null;
  gender: (typeof GENDERS)[number];
}

/** A word as heard: its UTF-8 byte span in the text and its sample span in the audio. */
export interface RhvoiceWord {
  position: number;
  length: number;
  start: number;
  end: number;
}

export interface RhvoiceSpeech {
  samples: Int16Array;
  sampleRate: number;
  words: RhvoiceWord[];
}

/** Factors on the voice's own rate and pitch (1 each: as the voice ships). */
export interface RhvoiceProsody {
  rate: number;
  pitch: number;
}

interface Gathering {
  samples: SampleBuffer;
  sampleRate: number;
  words: RhvoiceWord[];
  signal: AbortSignal;
}

interface RhvoiceApi {
  voiceCount(engine: Pointer): number;
  voices(engine: Pointer): Pointer;
  newMessage(engine: Pointer, text: Buffer, length: number, type: number, params: Record<string, unknown>, userData: null): Pointer;
  speak(message: Pointer): number;
  deleteMessage(message: Pointer): void;
  deleteEngine(engine: Pointer): void;
}

/** The struct types; koffi's type names are global, so these stay anonymous. */
function types(koffi: Koffi) {
  const rate = koffi.pointer(koffi.proto('int (int, void *)'));
  const speech = koffi.pointer(koffi.proto('int (void *, unsigned int, void *)'));
  const text = koffi.pointer(koffi.proto('int (const char *, void *)'));
  const span = koffi.pointer(koffi.proto('int (unsigned int, unsigned int, void *)'));
  const done = koffi.pointer(koffi.proto('void (void *)'));
  const callbacks = koffi.struct({
    set_sample_rate: rate,
    play_speech: speech,
    process_mark: text,
    word_starts: span,
    word_ends: span,
    sentence_starts: span,
    sentence_ends: span,
    play_audio: text,
    done,
  });
  const init = koffi.struct({ data_path: 'const char *', config_path: 'const char *', resource_paths: 'void *', callbacks, options: 'uint' });
  const params = koffi.struct({
    voice_profile: 'const char *',
    absolute_rate: 'double',
    absolute_pitch: 'double',
    absolute_volume: 'double',
    relative_rate: 'double',
    relative_pitch: 'double',
    relative_volume: 'double',
    punctuation_mode: 'int',
    punctuation_list: 'const char *',
    capitals_mode: 'int',
    flags: 'int',
  });
  const voiceInfo = koffi.struct({ language: 'const char *', name: 'const char *', gender: 'int', country: 'const char *' });
  return { rate, speech, span, init, params, voiceInfo };
}

function bind(koffi: Koffi, lib: LibraryHandle, params: TypeObject): RhvoiceApi {
  return {
    voiceCount: lib.func('unsigned int RHVoice_get_number_of_voices(void *engine)'),
    voices: lib.func('void *RHVoice_get_voices(void *engine)'),
    newMessage: lib.func('RHVoice_new_message', 'void *', ['void *', 'const char *', 'uint', 'int', koffi.pointer(params), 'void *']),
    speak: lib.func('int RHVoice_speak(void *message)'),
    deleteMessage: lib.func('void RHVoice_delete_message(void *message)'),
    deleteEngine: lib.func('void RHVoice_delete_tts_engine(void *engine)'),
  };
}

export class RhvoiceSession implements NativeSession {
  private readonly lock = new SerialLock();
  private gathering: Gathering | undefined;
  private closed = false;

  private constructor(
    private readonly koffi: Koffi,
    private readonly api: RhvoiceApi,
    private readonly engine: Pointer,
    private readonly voiceInfo: TypeObject,
    /** Registered for the engine's lifetime: it calls them until it is deleted. */
    private readonly callbacks: bigint[],
  ) {}

  static async open(): Promise<RhvoiceSession> {
    const { koffi, lib } = await openLibrary(RHVOICE_LIBRARY, RHVOICE_PACKAGE);
    const type = types(koffi);
    const api = bind(koffi, lib, type.params);
    // The callbacks reach the session through this holder: the engine is made before the session.
    const holder: { session?: RhvoiceSession } = {};
    const registered = [
      koffi.register((rate: number) => holder.session?.setSampleRate(rate) ?? 1, type.rate),
      koffi.register((samples: Pointer, count: number) => holder.session?.receive(samples, count) ?? 0, type.speech),
      koffi.register((position: number, length: number) => holder.session?.wordStarts(position, length) ?? 1, type.span),
      koffi.register((position: number, length: number) => holder.session?.wordEnds(position, length) ?? 1, type.span),
    ];
    const [setSampleRate, playSpeech, wordStarts, wordEnds] = registered;
    const callbacks = { set_sample_rate: setSampleRate, play_speech: playSpeech, word_starts: wordStarts, word_ends: wordEnds };
    const newEngine = lib.func('RHVoice_new_tts_engine', 'void *', [koffi.pointer(type.init)]);
    const engine: Pointer = newEngine({
      data_path: RHVOICE_DATA,
      config_path: NO_CONFIG,
      resource_paths: null,
      callbacks: { process_mark: null, sentence_starts: null, sentence_ends: null, play_audio: null, done: null, ...callbacks },
      options: 0,
    });
    if (!engine) {
      registered.forEach((callback) => koffi.unregister(callback));
      throw new EngineError('engine_unavailable', `rhvoice: no engine could be made from ${RHVOICE_DATA} (is a voice package installed?)`);
    }
    holder.session = new RhvoiceSession(koffi, api, engine, type.voiceInfo, registered);
    return holder.session;
  }

  /** The installed voices, as the library found them. */
  voices(): RhvoiceVoice[] {
    const count = this.api.voiceCount(this.engine);
    if (count === 0) return [];
    const infos = this.koffi.decode(this.api.voices(this.engine), this.koffi.array(this.voiceInfo, count)) as {
      language: string;
      name: string;
      gender: number;
      country: string | null;
    }[];
    return infos.map((info) => ({ name: info.name, language: info.language, country: info.country || null, gender: GENDERS[info.gender] ?? 'unknown' }));
  }

  /** Speaks plain UTF-8 text with a voice (`Slt`), at factors of its own rate and pitch. */
  speak(voice: string, text: string, prosody: RhvoiceProsody, signal: AbortSignal): Promise<RhvoiceSpeech> {
    return this.lock.run(() => {
      signal.throwIfAborted();
      if (this.closed) throw new EngineError('engine_failed', 'rhvoice: the session is closed');
      const gathering: Gathering = { samples: new SampleBuffer(), sampleRate: 0, words: [], signal };
      const bytes = Buffer.from(`${text.replaceAll('\0', ' ')}\0`, 'utf8');
      const message = this.api.newMessage(this.engine, bytes, bytes.length - 1, MESSAGE_TEXT, messageParams(voice, prosody), null);
      if (!message) throw new EngineError('engine_failed', `rhvoice: the message could not be made (voice ${voice})`, { voice });
      this.gathering = gathering;
      try {
        const spoken = this.api.speak(message);
        signal.throwIfAborted();
        if (!spoken) throw new EngineError('engine_failed', `rhvoice: RHVoice_speak failed (voice ${voice})`, { voice });
      } finally {
        this.gathering = undefined;
        this.api.deleteMessage(message);
      }
      return { samples: gathering.samples.toArray(), sampleRate: gathering.sampleRate, words: gathering.words };
    });
  }

  async close(): Promise<void> {
    await this.lock.run(() => {
      if (this.closed) return;
      this.closed = true;
      this.api.deleteEngine(this.engine);
      this.callbacks.forEach((callback) => this.koffi.unregister(callback));
    });
  }

  /** set_sample_rate: called before the first samples, and again should the rate change (it does not within a voice). */
  private setSampleRate(rate: number): number {
    if (this.gathering) this.gathering.sampleRate = rate;
    return 1;
  }

  /** play_speech: answers 0 to stop the synthesis (a cancelled job). */
  private receive(samples: Pointer, count: number): number {
    const gathering = this.gathering;
    if (!gathering) return 0;
    if (count > 0) gathering.samples.push(new Int16Array(this.koffi.view(samples, count * 2)), count);
    return gathering.signal.aborted ? 0 : 1;
  }

  private wordStarts(position: number, length: number): number {
    const at = this.gathering?.samples.size ?? 0;
    this.gathering?.words.push({ position, length, start: at, end: at });
    return 1;
  }

  private wordEnds(position: number, length: number): number {
    const word = this.gathering?.words.at(-1);
    if (word?.position === position && word.length === length) word.end = this.gathering?.samples.size ?? word.end;
    return 1;
  }
}

function messageParams(voice: string, prosody: RhvoiceProsody): Record<string, unknown> {
  return {
    voice_profile: voice,
    absolute_rate: 0,
    absolute_pitch: 0,
    absolute_volume: 0,
    relative_rate: prosody.rate,
    relative_pitch: prosody.pitch,
    relative_volume: 1,
    punctuation_mode: 0,
    punctuation_list: null,
    capitals_mode: 0,
    flags: 0,
  };
}

import { EngineError } from '../../errors.js';
import { type Koffi, type LibraryHandle, type NativeSession, type Pointer, SerialLock, openLibrary } from './library.js';

/**
 * Flite through its libraries (the ones the flite program is built on), with flite's own sequence:
 * flite_init once, each voice registered once from its library on first use and kept, then per
 * piece flite_synth_text (or flite_synth_phones), the utterance's wave, its Segment relation and
 * its words read out, the utterance deleted. Speed and pitch are features of the voice, set before
 * each piece.
 */

export const FLITE_LIBRARY = 'libflite.so.1';
export const FLITE_PACKAGE = 'libflite1';

/** The voice features a piece may set; each voice gets its own value back when a piece leaves one unset. */
export const FLITE_FEATURES = ['duration_stretch', 'int_f0_target_mean'] as const;
export type FliteFeature = (typeof FLITE_FEATURES)[number];
export type FliteFeatures = Partial<Record<FliteFeature, number>>;

/** A phoneme (or pause) of the utterance's Segment relation and where it ends, in seconds. */
export interface FliteSegment {
  name: string;
  end: number;
}

/** A token of the text (`$42`, `e.g`) and the time of the words it was read as, in seconds; pauses are outside. */
export interface FliteWord {
  word: string;
  start: number;
  end: number;
}

export interface FliteSpeech {
  samples: Int16Array;
  sampleRate: number;
  segments: FliteSegment[];
  /** Empty for phones, which have no words. */
  words: FliteWord[];
}

/** What a piece says: text, or phones of the voice's phone set separated by spaces (`pau hh ax l ow pau`). */
export type FliteInput = { text: string } | { phones: string };

/** A voice's library and its registration functions: `awb_time` is `cmu_time_awb`, the others `cmu_us_<name>`. */
export function voiceLibrary(name: string): { soname: string; symbol: string } {
  const symbol = name === 'awb_time' ? 'cmu_time_awb' : `cmu_us_${name}`;
  return { soname: `libflite_${symbol}.so.1`, symbol };
}

interface FliteApi {
  init(): number;
  synthText(text: string, voice: Pointer): Pointer;
  /** Space-separated phones of the voice's phone set, spoken with the voice's durations and intonation. */
  synthPhones(phones: string, voice: Pointer): Pointer;
  uttWave(utterance: Pointer): Pointer;
  uttRelation(utterance: Pointer, name: string): Pointer;
  relationHead(relation: Pointer): Pointer;
  itemNext(item: Pointer): Pointer;
  itemFeatString(item: Pointer, name: string): string | null;
  /** A feature by path from an item (`R:Token.parent.name`); `0` where the path leads nowhere. */
  ffeatureString(item: Pointer, path: string): string | null;
  itemFeatFloat(item: Pointer, name: string): number;
  /** A feature by path from an item (`R:SylStructure.daughtern.daughtern.R:Segment.end`). */
  ffeatureFloat(item: Pointer, path: string): number;
  deleteUtterance(utterance: Pointer): void;
  featPresent(features: Pointer, name: string): number;
  featFloat(features: Pointer, name: string): number;
  /** The name is kept by the features, not copied: it must outlive them (see featOwnString). */
  featSetFloat(features: Pointer, name: Pointer, value: number): void;
  featRemove(features: Pointer, name: string): number;
  /** A copy of the string owned by the features, freed with them. */
  featOwnString(features: Pointer, name: string): Pointer;
}

function bindFlite(lib: LibraryHandle): FliteApi {
  return {
    init: lib.func('int flite_init()'),
    synthText: lib.func('void *flite_synth_text(const char *text, void *voice)'),
    synthPhones: lib.func('void *flite_synth_phones(const char *phones, void *voice)'),
    ffeatureFloat: lib.func('float ffeature_float(void *item, const char *path)'),
    uttWave: lib.func('void *utt_wave(void *utterance)'),
    uttRelation: lib.func('void *utt_relation(void *utterance, const char *name)'),
    relationHead: lib.func('void *relation_head(void *relation)'),
    itemNext: lib.func('void *item_next(void *item)'),
    itemFeatString: lib.func('const char *item_feat_string(void *item, const char *name)'),
    itemFeatFloat: lib.func('float item_feat_float(void *item, const char *name)'),
    ffeatureString: lib.func('const char *ffeature_string(void *item, const char *path)'),
    deleteUtterance: lib.func('void delete_utterance(void *utterance)'),
    featPresent: lib.func('int feat_present(void *features, const char *name)'),
    featFloat: lib.func('float feat_float(void *features, const char *name)'),
    featSetFloat: lib.func('void feat_set_float(void *features, void *name, float value)'),
    featRemove: lib.func('int feat_remove(void *features, const char *name)'),
    featOwnString: lib.func('void *feat_own_string(void *features, const char *name)'),
  };
}

/** The leading members of cst_voice and all of cst_wave (include/cst_voice.h, include/cst_wave.h). */
function layouts(koffi: Koffi) {
  return {
    voice: koffi.struct({ name: 'void *', features: 'void *' }),
    wave: koffi.struct({ type: 'void *', sample_rate: 'int', num_samples: 'int', num_channels: 'int', samples: 'void *' }),
  };
}

interface Wave {
  sampleRate: number;
  numSamples: number;
  numChannels: number;
  samples: Pointer;
}

/** A registered voice: its features, the names set on them, and its own values of those features. */
interface LoadedVoice {
  lib: LibraryHandle;
  voice: Pointer;
  unregister: (voice: Pointer) => void;
  features: Pointer;
  names: Record<FliteFeature, Pointer>;
  defaults: FliteFeatures;
}

/**
 * The libraries, loaded and initialised once; calls go one at a time through `lock`. Flite keeps
 * each registered voice in a global of its library, so there is one session per process (flite.ts
 * holds it in a SharedSession): closing one unregisters the voices under any other.
 */
export class FliteSession implements NativeSession {
  private readonly api: FliteApi;
  private readonly layout: ReturnType<typeof layouts>;
  private readonly lock = new SerialLock();
  private readonly voices = new Map<string, LoadedVoice>();
  private closed = false;

  private constructor(
    private readonly koffi: Koffi,
    private readonly lib: LibraryHandle,
  ) {
    this.api = bindFlite(lib);
    this.layout = layouts(koffi);
    this.api.init();
  }

  static async open(): Promise<FliteSession> {
    const { koffi, lib } = await openLibrary(FLITE_LIBRARY, FLITE_PACKAGE);
    try {
      return new FliteSession(koffi, lib);
    } catch (error) {
      lib.unload();
      throw error;
    }
  }

  /**
   * Speaks ASCII text (or phones) with a voice; 16-bit mono samples. `features` gives this piece's
   * features from the voice's own values; those it leaves unset are the voice's own.
   */
  speak(voiceName: string, input: FliteInput, features: (own: FliteFeatures) => FliteFeatures, signal: AbortSignal): Promise<FliteSpeech> {
    return this.lock.run(async () => {
      if (this.closed) throw new EngineError('engine_failed', 'flite: the library was released');
      signal.throwIfAborted();
      const voice = this.voices.get(voiceName) ?? (await this.register(voiceName));
      this.configure(voice, features({ ...voice.defaults }));
      const utterance = 'text' in input ? this.api.synthText(input.text, voice.voice) : this.api.synthPhones(input.phones, voice.voice);
      if (!utterance) throw new EngineError('engine_failed', 'flite: synthesis gave no utterance', { voice: voiceName });
      try {
        return { ...this.waveOf(utterance), segments: this.segmentsOf(utterance), words: 'text' in input ? this.wordsOf(utterance) : [] };
      } finally {
        this.api.deleteUtterance(utterance);
      }
    });
  }

  close(): Promise<void> {
    return this.lock.run(() => {
      if (this.closed) return;
      this.closed = true;
      for (const voice of this.voices.values()) {
        voice.unregister(voice.voice);
        voice.lib.unload();
      }
      this.voices.clear();
      this.lib.unload();
    });
  }

  private async register(name: string): Promise<LoadedVoice> {
    const { soname, symbol } = voiceLibrary(name);
    const { lib } = await openLibrary(soname, FLITE_PACKAGE);
    try {
      const registerVoice: (voxdir: null) => Pointer = lib.func(`void *register_${symbol}(const char *voxdir)`);
      const unregister: (voice: Pointer) => void = lib.func(`void unregister_${symbol}(void *voice)`);
      const voice = registerVoice(null);
      if (!voice) throw new EngineError('engine_failed', `flite: register_${symbol} gave no voice`, { voice: name });
      // koffi decodes the struct as a plain object of its members; the members are checked below.
      const head = structMembers(this.koffi.decode(voice, this.layout.voice));
      const features = head.features;
      if (!features) throw new EngineError('engine_failed', `flite: voice ${name} has no features`, { voice: name });
      const loaded: LoadedVoice = { lib, voice, unregister, features, names: this.ownNames(features), defaults: this.readFeatures(features) };
      this.voices.set(name, loaded);
      return loaded;
    } catch (error) {
      lib.unload();
      throw error;
    }
  }

  private ownNames(features: Pointer): Record<FliteFeature, Pointer> {
    const own = (name: FliteFeature) => this.api.featOwnString(features, name);
    return { duration_stretch: own('duration_stretch'), int_f0_target_mean: own('int_f0_target_mean') };
  }

  private readFeatures(features: Pointer): FliteFeatures {
    const values: FliteFeatures = {};
    for (const name of FLITE_FEATURES) {
      if (this.api.featPresent(features, name)) values[name] = this.api.featFloat(features, name);
    }
    return values;
  }

  /** Features persist on the voice: each is set to the piece's value, or back to the voice's own. */
  private configure(voice: LoadedVoice, features: FliteFeatures): void {
    for (const name of FLITE_FEATURES) {
      const value = features[name] ?? voice.defaults[name];
      if (value === undefined) this.api.featRemove(voice.features, name);
      else this.api.featSetFloat(voice.features, voice.names[name], value);
    }
  }

  private waveOf(utterance: Pointer): Pick<FliteSpeech, 'samples' | 'sampleRate'> {
    const pointer = this.api.uttWave(utterance);
    if (!pointer) return { samples: new Int16Array(0), sampleRate: 0 };
    const wave = decodeWave(this.koffi.decode(pointer, this.layout.wave));
    if (wave.numChannels !== 1 && wave.numSamples > 0) {
      throw new EngineError('engine_failed', `flite: ${wave.numChannels} channels, expected 1`, { channels: wave.numChannels });
    }
    if (wave.numSamples <= 0 || !wave.samples) return { samples: new Int16Array(0), sampleRate: wave.sampleRate };
    // Copied out of the utterance, which is deleted after this.
    const samples = new Int16Array(this.koffi.view(wave.samples, wave.numSamples * 2)).slice();
    return { samples, sampleRate: wave.sampleRate };
  }

  /**
   * The Word relation, each word from the end of the segment before its first to the end of its
   * last; the words one token was read as (`$42`: forty two dollars) are one timing, named by it.
   */
  private wordsOf(utterance: Pointer): FliteWord[] {
    const words: FliteWord[] = [];
    const relation = this.api.uttRelation(utterance, 'Word');
    let continuing = false;
    for (let item = relation ? this.api.relationHead(relation) : null; item; item = this.api.itemNext(item)) {
      const start = this.api.ffeatureFloat(item, 'R:SylStructure.daughter1.daughter1.R:Segment.p.end');
      const end = this.api.ffeatureFloat(item, 'R:SylStructure.daughtern.daughtern.R:Segment.end');
      const last = words.at(-1);
      if (continuing && last) last.end = end;
      else words.push({ word: this.api.ffeatureString(item, 'R:Token.parent.name') ?? '', start, end });
      continuing = this.api.ffeatureString(item, 'R:Token.n.name') !== '0';
    }
    return words;
  }

  private segmentsOf(utterance: Pointer): FliteSegment[] {
    const segments: FliteSegment[] = [];
    const relation = this.api.uttRelation(utterance, 'Segment');
    for (let item = relation ? this.api.relationHead(relation) : null; item; item = this.api.itemNext(item)) {
      segments.push({ name: this.api.itemFeatString(item, 'name') ?? '', end: this.api.itemFeatFloat(item, 'end') });
    }
    return segments;
  }
}

/** A decoded struct's members, or an empty record when koffi gave something else. */
function structMembers(decoded: unknown): Record<string, unknown> {
  return typeof decoded === 'object' && decoded !== null ? Object.fromEntries(Object.entries(decoded)) : {};
}

function decodeWave(decoded: unknown): Wave {
  const members = structMembers(decoded);
  const int = (value: unknown) => (typeof value === 'number' ? value : 0);
  return {
    sampleRate: int(members.sample_rate),
    numSamples: int(members.num_samples),
    numChannels: int(members.num_channels),
    samples: members.samples ?? null,
  };
}

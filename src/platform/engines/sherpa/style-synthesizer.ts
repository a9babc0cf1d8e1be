import type { KokoroShape } from '../model-files.js';
import type { EngineCapabilities, JobContext, SynthesisRequest, SynthesisResult, Synthesizer, VoiceInfo } from '../types.js';
import { EngineError } from '../../errors.js';
import { generate, requireText } from './common.js';
import { KokoroBlends, readStyleTable } from './kokoro-blend.js';
import type { GenerationConfigOptions, OfflineTts, SherpaModule } from './sherpa-types.js';

/** A voice of a style-table model: its description and its row (speaker id) in voices.bin. */
export interface StyleVoice {
  info: VoiceInfo;
  sid: number;
}

/** What a style-table model is made of: the voices file the styles come from and its shape. */
export interface StyleModelFiles {
  voices: string;
  shape: KokoroShape;
}

/**
 * StyleTTS2 models (Kokoro, Kitten) through sherpa-onnx: each voice is a style table in
 * voices.bin, so blends are new tables and every family lists, vectors and speaks alike. A family
 * says how to create its sherpa instance and which language a request is phonemized in.
 */
export abstract class StyleTableSynthesizer<V extends StyleVoice> implements Synthesizer {
  abstract readonly capabilities: EngineCapabilities;
  /** The family's name in messages, e.g. `Kokoro`. */
  protected abstract readonly family: string;
  private main: OfflineTts | undefined;
  private readonly blends: KokoroBlends;
  private readonly voices: Map<string, V>;

  constructor(
    private readonly styles: StyleModelFiles,
    voices: readonly V[],
    protected readonly sherpa: SherpaModule,
  ) {
    this.voices = new Map(voices.map((voice) => [voice.info.id, voice]));
    this.blends = new KokoroBlends(styles.shape, (voicesFile) => this.createTts(voicesFile));
  }

  /** The family's sherpa instance reading its styles from `voicesFile` (the model's, or a blend's). */
  protected abstract createTts(voicesFile: string): Promise<OfflineTts>;

  /** What a request adds to sherpa's generation settings (the phonemization language); throws when the voice cannot speak it. */
  protected abstract generationExtras(request: SynthesisRequest, voice: V): Pick<GenerationConfigOptions, 'extra'>;

  async ready(): Promise<this> {
    this.main = await this.createTts(this.styles.voices);
    return this;
  }

  async listVoices(): Promise<VoiceInfo[]> {
    return [...this.voices.values()].map((voice) => ({ ...voice.info }));
  }

  async voiceVector(voice: string): Promise<Float32Array> {
    return readStyleTable(this.styles.voices, this.styles.shape, this.voice(voice).sid);
  }

  async synthesize(request: SynthesisRequest, context: JobContext): Promise<SynthesisResult> {
    const voice = this.voice(request.voice);
    requireText(request.text);
    const extras = this.generationExtras(request, voice);
    const speed = Math.min(Math.max(request.speed ?? 1, 0.5), 2);
    context.progress(0, 'loading voice');
    const tts = request.style ? this.blends.instanceFor(request.style) : this.main;
    if (!tts) throw new Error('the synthesizer is used before it is ready');
    const config = new this.sherpa.GenerationConfig({ sid: request.style ? 0 : voice.sid, speed, ...extras });
    return generate(tts, request, config, context);
  }

  private voice(id: string): V {
    const voice = this.voices.get(id);
    if (!voice) throw new EngineError('voice_not_found', `${this.family} has no voice ${id}`, { voice: id });
    return voice;
  }
}

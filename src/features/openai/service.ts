import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { ApiError } from '../../platform/errors.js';
import type { GenerationService } from '../generation/index.js';
import type { TranscriptionService } from '../transcription/index.js';
import type { VoiceService } from '../voices/index.js';
import { languageTagFor } from '../../platform/speech/speech.js';
import {
  isOpenAiVoice,
  mapOpenAiVoice,
  OPENAI_VOICE_NAMES,
  recognizerFor,
  speechEnginesFor,
  speechLanguage,
  speechModelIds,
  transcriptionModelIds,
  type CatalogVoice,
} from './catalog.js';
import { instructionsHeader, readInstructions } from './instructions.js';
import type { SpeechBody, SpeechFormat } from './speech-schemas.js';

type GenerateInput = Parameters<GenerationService['submit']>[1];
type LibraryVoice = Awaited<ReturnType<VoiceService['get']>>;

/** OpenAI's formats as Timbre's: opus travels in Ogg, pcm is fixed at OpenAI's 24 kHz. */
const FORMATS: Readonly<Record<SpeechFormat, NonNullable<GenerateInput['format']>>> = {
  mp3: 'mp3',
  opus: 'ogg',
  aac: 'aac',
  flac: 'flac',
  wav: 'wav',
  pcm: 'pcm',
};
const PCM_RATE = 24_000;

export interface OpenAiDeps {
  generation: Pick<GenerationService, 'stream'>;
  voices: Pick<VoiceService, 'get' | 'list'>;
  transcription: Pick<TranscriptionService, 'installed'>;
  engines: Pick<EngineClient, 'capabilities'>;
}

/** A speech request in Timbre's terms, and what its instructions did. */
export interface SpeechPlan {
  input: GenerateInput;
  /** The X-Instructions header, when instructions were given. */
  instructions?: string;
}

export interface SpokenAudio {
  taskId: string;
  /** Final once the first chunk has been read (raw PCM names its rate). */
  contentType(): string;
  /** The encoded audio, sentence by sentence; leaving it early cancels the synthesis. */
  audio: AsyncIterable<Buffer>;
}

export function modelNotFound(model: string): ApiError {
  return new ApiError(404, 'model_not_found', `The model ${model} does not exist here; GET /v1/models lists those that do`, { model });
}

/** OpenAI's audio API over Timbre's generation, voices and transcription. */
export class OpenAiService {
  /** OpenAI's `created`: Timbre's models have no release dates, so the time this service started. */
  private readonly created = Math.floor(Date.now() / 1000);

  constructor(private readonly deps: OpenAiDeps) {}

  /** Resolves model, voice, language and instructions into a generation request. */
  async planSpeech(body: SpeechBody): Promise<SpeechPlan> {
    const voiceId = typeof body.voice === 'string' ? body.voice : body.voice.id;
    const { voice, language } = await this.speakingVoice(body.model, voiceId, body.input);
    const effect = body.instructions === undefined ? undefined : readInstructions(body.instructions, await this.shiftsPitch(voice.engine));
    const speed = body.speed === undefined && !effect?.applied.includes('pace') ? undefined : clampSpeed((body.speed ?? 1) * (effect?.speedFactor ?? 1));
    const format = body.response_format ?? 'mp3';
    const input: GenerateInput = { voiceId: voice.id, text: body.input, language, speed, pitch: effect?.pitch, format: FORMATS[format] };
    if (format === 'pcm') input.sampleRate = PCM_RATE;
    return effect ? { input, instructions: instructionsHeader(effect) } : { input };
  }

  /**
   * The one source of a speech answer's audio: the plain body and the event stream both read it.
   * Leaving it early or aborting `signal` (the client went away) cancels the synthesis.
   */
  async speak(plan: SpeechPlan, ownerKeyId: string, signal?: AbortSignal): Promise<SpokenAudio> {
    const { task, audio, contentType } = await this.deps.generation.stream(undefined, plan.input, ownerKeyId, signal);
    return { taskId: task.id, contentType, audio };
  }

  /** Every model id that resolves here: speech, then transcription. */
  async models() {
    const speech = speechModelIds(new Set((await this.presets()).map((voice) => voice.engine)));
    const transcription = transcriptionModelIds(await this.deps.transcription.installed());
    return [...speech, ...transcription].map((id) => ({ id, object: 'model' as const, created: this.created, owned_by: 'timbre' }));
  }

  async model(id: string) {
    const found = (await this.models()).find((model) => model.id === id);
    if (!found) throw modelNotFound(id);
    return found;
  }

  /** The recognizer a transcription model selects (undefined: the best installed for the language). */
  async recognizer(model: string): Promise<EngineId | undefined> {
    const chosen = recognizerFor(model, await this.deps.transcription.installed());
    if (chosen === undefined) throw modelNotFound(model);
    return chosen ?? undefined;
  }

  /** OpenAI's voice names with the voice each speaks with (for `model`, in English), then every usable Timbre voice. */
  async voices(model: string) {
    const presets = await this.presets();
    const engines = speechEnginesFor(model, new Set(presets.map((voice) => voice.engine)));
    if (!engines) throw modelNotFound(model);
    const candidates = presets.filter((voice) => engines.includes(voice.engine));
    const language = await speechLanguage('', languagesOf(candidates), 'en');
    const named = OPENAI_VOICE_NAMES.flatMap((name) => {
      const voice = mapOpenAiVoice(name, candidates, engines, language);
      return voice ? [{ id: name, name: `${name[0]!.toUpperCase()}${name.slice(1)}: ${voice.name}`, kind: 'openai' as const, ...describe(voice) }] : [];
    });
    const library = (await this.deps.voices.list({ limit: -1, offset: 0 })).voices.filter((voice) => voice.available);
    return [...named, ...library.map((voice) => ({ id: voice.id, name: voice.name, kind: voice.type, ...describe(voice) }))];
  }

  /**
   * The voice, and for an OpenAI name the language it speaks the input in: English, OpenAI's voices
   * being English-first, unless the input is confidently in another installed language. A Timbre
   * voice's language is left to generation: its own, or another of its languages on the same terms.
   */
  private async speakingVoice(model: string, voiceId: string, input: string): Promise<{ voice: LibraryVoice; language?: string }> {
    const presets = await this.presets();
    const engines = speechEnginesFor(model, new Set(presets.map((voice) => voice.engine)));
    if (!engines) throw modelNotFound(model);
    if (isOpenAiVoice(voiceId)) {
      const candidates = presets.filter((voice) => engines.includes(voice.engine));
      const language = await speechLanguage(input, languagesOf(candidates), 'en');
      const voice = mapOpenAiVoice(voiceId, candidates, engines, language);
      // Cannot happen while the engines have voices (the language is one of theirs); said plainly if it does.
      if (!voice) throw new ApiError(404, 'voice_not_found', `No installed voice speaks ${language} for ${voiceId}`, { voice_id: voiceId });
      return { voice, language: languageTagFor(voice, language) };
    }
    // An engine's own voice name with that engine as the model (`kokoro` + `af_bella`), as Kokoro-FastAPI takes it.
    const prefixed = model === engines[0] && !voiceId.includes(':') ? presets.find((voice) => voice.id === `${model}:${voiceId}`) : undefined;
    return { voice: prefixed ?? (await this.deps.voices.get(voiceId)) };
  }

  /** Preset voices that can speak now. */
  private async presets(): Promise<LibraryVoice[]> {
    return (await this.deps.voices.list({ type: 'preset', limit: -1, offset: 0 })).voices.filter((voice) => voice.available);
  }

  private async shiftsPitch(engine: EngineId): Promise<boolean> {
    const capabilities = await this.deps.engines.capabilities(engine).catch(() => undefined);
    return capabilities?.pitch !== undefined;
  }
}

const clampSpeed = (speed: number) => Math.min(4, Math.max(0.25, speed));

function languagesOf(voices: readonly CatalogVoice[]): string[] {
  return voices.flatMap((voice) => [voice.language, ...voice.languages]);
}

function describe(voice: LibraryVoice) {
  return { voice_id: voice.id, engine: voice.engine, language: voice.language, gender: voice.gender };
}

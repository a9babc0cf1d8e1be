import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { durationOf } from '../../platform/audio/pcm.js';
import { parseWav } from '../../platform/audio/wav.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import { Type, type Static } from 'typebox';
import { jobKind } from '../../platform/jobs/kinds.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import type { JobRunContext } from '../../platform/jobs/types.js';
import type { AudioStore } from '../../platform/store/audio-store.js';
import type { VoiceRecord, VoiceRepository } from './voice-repository.js';
import { checkTextLength } from '../../platform/text/limits.js';
import { completedJob } from '../../platform/jobs/job-errors.js';
import { assertUsable, speakingLanguage, speakToFile, type SpeakingVoice } from '../../platform/speech/speech.js';
import { checkPlanBudget, planSeconds, planSpeech, SpeechPlanSchema } from '../../platform/speech/speech-plan.js';
import type { SpeechMarkup, TextType } from '../../platform/speech/markup.js';
import { plainRuns, spokenText } from '../../platform/text/ssml/segments.js';
import { voiceNotFound } from './archive.js';
import { QUICK_SPEECH_SECONDS } from '../../platform/speech/speech-budget.js';
import type { VoiceFiles } from '../../platform/speech/voice-files.js';
import { primaryLanguage } from '../../platform/text/language-tag.js';
import type { Log } from '../../platform/log.js';
import { measureSample } from './sample-measures.js';

/** Characters (code points) a caller's own preview text may have. */
export const PREVIEW_MAX_CHARS = 300;

/** One short sentence per primary language; anything else hears English. */
export const PREVIEW_SENTENCES: Readonly<Record<string, string>> = {
  en: 'Hello! This is a short preview of my voice.',
  de: 'Hallo! Das ist eine kurze Hörprobe meiner Stimme.',
  fr: 'Bonjour ! Voici un court aperçu de ma voix.',
  es: '¡Hola! Esta es una breve muestra de mi voz.',
  it: 'Ciao! Questa è una breve anteprima della mia voce.',
  pt: 'Olá! Esta é uma breve amostra da minha voz.',
  nl: 'Hallo! Dit is een korte voorproef van mijn stem.',
  pl: 'Cześć! To jest krótka próbka mojego głosu.',
  ru: 'Здравствуйте! Это короткий образец моего голоса.',
  uk: 'Привіт! Це короткий зразок мого голосу.',
  cs: 'Ahoj! Toto je krátká ukázka mého hlasu.',
  sv: 'Hej! Det här är ett kort smakprov på min röst.',
  da: 'Hej! Dette er en kort prøve på min stemme.',
  nb: 'Hei! Dette er en kort prøve på stemmen min.',
  no: 'Hei! Dette er en kort prøve på stemmen min.',
  fi: 'Hei! Tämä on lyhyt näyte äänestäni.',
  tr: 'Merhaba! Bu, sesimin kısa bir örneğidir.',
  el: 'Γεια σας! Αυτό είναι ένα σύντομο δείγμα της φωνής μου.',
  ar: 'مرحبا! هذه عينة قصيرة من صوتي.',
  hi: 'नमस्ते! यह मेरी आवाज़ का एक छोटा सा नमूना है।',
  zh: '你好！这是我声音的简短试听。',
  ja: 'こんにちは。これは私の声の短いサンプルです。',
  ko: '안녕하세요! 제 목소리의 짧은 미리 듣기입니다.',
};

/** The preview sentence for a BCP 47 tag (`de-DE` → German), English when the language has none. */
export function previewSentence(language: string): string {
  return PREVIEW_SENTENCES[primaryLanguage(language)] ?? PREVIEW_SENTENCES.en!;
}

/** What a preview needs of a voice: how it speaks, plus what decides whether the cached preview still fits. */
export type PreviewVoice = SpeakingVoice & Pick<VoiceRecord, 'previewPath' | 'updatedAt'>;

export interface PreviewDeps {
  engines: EngineClient;
  voiceFiles: VoiceFiles;
  queue: JobQueue;
  audio: AudioStore;
  voices: Pick<VoiceRepository, 'setPreview' | 'recordMeasures' | 'isMeasured'>;
  findVoice(id: string): Promise<PreviewVoice>;
  markup: SpeechMarkup;
  /** Seconds of audio a preview may make (TIMBRE_MAX_AUDIO_SECONDS). */
  maxAudioSeconds: number;
  /** Where a sample that could not be measured is reported (the sample itself is served regardless). */
  log: Log;
}

export interface PreviewOptions {
  text?: string;
  language?: string;
  textType?: TextType;
  pronunciationIds?: readonly string[];
}

export interface PreviewResult {
  voiceId: string;
  audio: Buffer;
  duration: number;
  cached: boolean;
  text: string;
  language: string;
}

const PreviewPayloadSchema = Type.Object({
  voiceId: Type.String(),
  plan: SpeechPlanSchema,
  stored: Type.String(),
});
type PreviewPayload = Static<typeof PreviewPayloadSchema>;
export const PREVIEW_JOB = jobKind('preview', PreviewPayloadSchema, {
  quick: (payload) => planSeconds(payload.plan) <= QUICK_SPEECH_SECONDS,
});

/**
 * A short sample of any voice, rendered on the compute queue and recorded as the voice's preview.
 * The file is named by a hash of everything that shapes it (voice, its last change, engine voice,
 * settings, language, text), so a preview stays cached until the voice or the text changes.
 */
export class PreviewService {
  /** First renderings under way, by voice id, for the requests that come meanwhile to wait for. */
  private readonly making = new Map<string, Promise<PreviewResult>>();

  constructor(private readonly deps: PreviewDeps) {
    deps.queue.register(PREVIEW_JOB, (payload, context) => this.runPreview(payload, context));
  }

  /** A preview of the voice saying its language's sentence, or `options.text` (SSML too, with the request's and the voice's dictionaries). */
  async generatePreview(voiceId: string, options: PreviewOptions, ownerKeyId: string | null): Promise<PreviewResult> {
    if (options.text !== undefined) checkTextLength(options.text, PREVIEW_MAX_CHARS);
    const voice = await this.deps.findVoice(voiceId);
    assertUsable(voice);
    const read = (language?: string) => (options.text === undefined ? undefined : this.deps.markup.read(options.text, options.textType, language));
    const guessed = read(options.language);
    const language = await speakingLanguage(voice, guessed ? spokenText(guessed) : '', options.language);
    const text = options.text ?? previewSentence(language);
    const runs = language === options.language ? guessed : read(language);
    const pronounced = this.deps.markup.pronounced(runs ?? plainRuns(text), language, { ...options, text, voiceId: voice.id }, ownerKeyId ?? '');
    const plan = await planSpeech(pronounced, { voice, language }, (id) => this.deps.findVoice(id));
    // The plan holds every word as spoken (dictionaries applied) and every voice's engine voice.
    const key = JSON.stringify([voice.id, voice.updatedAt, voice.settings, plan]);
    const stored = this.deps.audio.pathFor(`preview_${createHash('sha1').update(key).digest('hex')}.wav`);

    if (voice.previewPath === stored) {
      const audio = await readFile(this.deps.audio.absolute(stored)).catch(() => undefined);
      // A file removed meanwhile (a newer preview replaced it) is simply rendered again.
      if (audio) {
        this.measureOnce(voice.id, stored, audio);
        return { voiceId: voice.id, audio, duration: durationOf(parseWav(audio)), cached: true, text, language };
      }
    }

    checkPlanBudget(plan, this.deps.maxAudioSeconds);
    const job = this.deps.queue.submit({ kind: PREVIEW_JOB, ownerKeyId, payload: { voiceId: voice.id, plan, stored } satisfies PreviewPayload });
    const done = await completedJob(this.deps.queue, job.id);
    const audio = await readFile(this.deps.audio.absolute(stored));
    const duration = typeof done.result?.duration === 'number' ? done.result.duration : durationOf(parseWav(audio));
    return { voiceId: voice.id, audio, duration, cached: false, text, language };
  }

  /**
   * The stored preview of a voice, made (the language's preview sentence) on the first request and
   * stored; requests that come while it is being made wait for that one rendering. `cached` is false
   * only for the request that rendered it.
   */
  async preview(voiceId: string, ownerKeyId: string | null): Promise<{ voiceId: string; audio: Buffer; duration: number; cached: boolean }> {
    const voice = await this.deps.findVoice(voiceId);
    const audio = voice.previewPath ? await readFile(this.deps.audio.absolute(voice.previewPath)).catch(() => undefined) : undefined;
    if (audio && voice.previewPath) {
      this.measureOnce(voice.id, voice.previewPath, audio);
      return { voiceId: voice.id, audio, duration: durationOf(parseWav(audio)), cached: true };
    }
    const making = this.making.get(voice.id);
    if (making) return { ...(await making), cached: true };
    const made = this.generatePreview(voice.id, {}, ownerKeyId).finally(() => this.making.delete(voice.id));
    this.making.set(voice.id, made);
    return made;
  }

  /**
   * Measures the voice's sample at `path` unless it was measured (sample-measures.ts; a few
   * milliseconds). A failure (a full disk refusing the row) leaves it unmeasured, to be measured on a later read.
   */
  private measureOnce(voiceId: string, path: string, audio: Buffer): void {
    try {
      if (!this.deps.voices.isMeasured(voiceId, path)) this.deps.voices.recordMeasures(voiceId, path, measureSample(parseWav(audio)), new Date().toISOString());
    } catch (error) {
      this.deps.log.warn({ err: error, voiceId }, 'the voice sample could not be measured');
    }
  }

  private async runPreview(payload: PreviewPayload, context: JobRunContext): Promise<Record<string, unknown>> {
    const spoken = await speakToFile(
      this.deps,
      {
        plan: payload.plan,
        format: 'wav',
        stored: payload.stored,
        maxSeconds: this.deps.maxAudioSeconds,
      },
      context,
    );
    const recorded = await this.deps.audio.record(payload.stored, () => this.deps.voices.setPreview(payload.voiceId, payload.stored));
    if (!recorded) {
      // The voice was deleted while its preview rendered.
      await this.deps.audio.remove(payload.stored);
      throw voiceNotFound(payload.voiceId);
    }
    if (recorded.previous && recorded.previous !== payload.stored) {
      await this.deps.audio.remove(recorded.previous).catch(() => undefined);
    }
    this.measureOnce(payload.voiceId, payload.stored, await readFile(this.deps.audio.absolute(payload.stored)));
    return { voice_id: payload.voiceId, preview_url: previewUrl(payload.voiceId), duration: spoken.duration };
  }
}

export function previewUrl(voiceId: string): string {
  return `/api/voices/${encodeURIComponent(voiceId)}/preview`;
}

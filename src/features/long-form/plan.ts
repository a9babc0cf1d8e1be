import { ApiError } from '../../platform/errors.js';
import { detectLanguage, loadLanguageDetector } from '../../platform/text/detect-language.js';
import { splitSentences } from '../../platform/text/split.js';
import { spokenText, type MarkedRun } from '../../platform/text/ssml/segments.js';
import { markedSentences } from '../../platform/text/ssml/sentences.js';
import { assertSpeaks, assertUsable, speakingLanguage, speaksLanguage, type SpeakingVoice } from '../../platform/speech/speech.js';

/** One chunk to be spoken: a sentence of a segment, with the voice and language it is spoken in. */
export interface ChunkPlan {
  segment: number;
  /** What the chunk's takes speak: its sentence, or for a marked-up segment the sentence as SSML. */
  text: string;
  /** The words it says (the sentence without markup). */
  spoken: string;
  start: number;
  end: number;
  paragraphEnd: boolean;
  voice: SpeakingVoice;
  language: string;
  /** `voice`, or `preset:<id>` when another voice speaks this language for the requested one. */
  route: string;
  /** The voice that actually speaks. */
  speaker: SpeakingVoice;
}

export interface SegmentInput {
  voice: SpeakingVoice;
  text: string;
  /** The name of who speaks the segment (a script's speaker), kept on its chunks. */
  speaker?: string;
  /**
   * The language the client stated (a voice that cannot speak it hands its sentences to a stand-in).
   * Absent: the voice's own, or another of its languages the text is confidently in (`speakingLanguage`).
   */
  language?: string;
  /** One text in several languages: each sentence's language is detected instead (starting from the voice's). */
  detectPerSentence?: boolean;
}

export interface PlanOptions {
  maxChars?: number;
  /** Languages automatic detection may choose from. */
  candidates?: string[];
  /** A marked-up text's runs (SSML), say-as read in `language` when it is stated; undefined for plain text. */
  marked?(text: string, language?: string): MarkedRun[] | undefined;
  /** Another voice for a language the segment's voice cannot speak; undefined when none is installed. */
  standIn(voice: SpeakingVoice, language: string): SpeakingVoice | undefined;
}

/** Splits every segment into sentences and decides who speaks each one, in which language. */
export async function planChunks(segments: SegmentInput[], options: PlanOptions): Promise<ChunkPlan[]> {
  if (segments.some((segment) => segment.language === undefined)) await loadLanguageDetector();
  const plans: ChunkPlan[] = [];
  for (const [segmentIndex, segment] of segments.entries()) {
    assertUsable(segment.voice);
    const runs = options.marked?.(segment.text, segment.language);
    const stated = segment.language ?? (segment.detectPerSentence ? undefined : await speakingLanguage(segment.voice, runs ? spokenText(runs) : segment.text));
    let previous = stated ?? segment.voice.language;
    const split = { language: stated, maxChars: options.maxChars };
    const sentences = runs
      ? markedSentences(runs, split).map((sentence) => ({ ...sentence, spoken: sentence.text, text: sentence.ssml }))
      : splitSentences(segment.text, split).map((sentence) => ({ ...sentence, spoken: sentence.text }));
    for (const sentence of sentences) {
      const language = stated ?? detectLanguage(sentence.spoken, { candidates: options.candidates, fallback: previous }).language;
      previous = language;
      const speaker = speakerFor(segment.voice, language, options);
      plans.push({
        segment: segmentIndex,
        text: sentence.text,
        spoken: sentence.spoken,
        start: sentence.start,
        end: sentence.end,
        paragraphEnd: sentence.paragraphEnd,
        voice: segment.voice,
        language,
        route: speaker === segment.voice ? 'voice' : `preset:${speaker.id}`,
        speaker,
      });
    }
  }
  if (plans.length === 0) throw new ApiError(400, 'text_empty', 'There is no text to speak');
  return plans;
}

function speakerFor(voice: SpeakingVoice, language: string, options: PlanOptions): SpeakingVoice {
  if (speaksLanguage(voice, language)) return voice;
  const standIn = options.standIn(voice, language);
  if (!standIn) assertSpeaks(voice, language);
  return standIn!;
}

/** The preset that best stands in for `voice` in `language`: same gender, then same engine. */
export function nearestPreset(voice: SpeakingVoice, language: string, presets: SpeakingVoice[]): SpeakingVoice | undefined {
  const able = presets.filter((preset) => preset.available && speaksLanguage(preset, language));
  const score = (preset: SpeakingVoice) => (preset.gender && preset.gender === voice.gender ? 2 : 0) + (preset.engine === voice.engine ? 1 : 0);
  return able.sort((a, b) => score(b) - score(a))[0];
}

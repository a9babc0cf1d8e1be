import { checkTextLength } from '../../platform/text/limits.js';
import { DEFAULT_LANGUAGE, splitSentences } from '../../platform/text/split.js';
import { wyomingLanguage, type ChosenVoice, type RequestedVoice } from './voice-choice.js';

export interface StreamParts {
  requested: RequestedVoice | undefined;
  /** TIMBRE_MAX_TEXT_CHARS, for the whole streamed text. */
  maxTextChars: number;
  chooseVoice(requested: RequestedVoice | undefined, text: string): Promise<ChosenVoice>;
  speak(voice: ChosenVoice, sentence: string): Promise<void>;
}

/**
 * Wyoming's streamed synthesis (`synthesize-start`, `synthesize-chunk`…, `synthesize-stop`), as a
 * language model writes a reply: each sentence is spoken as soon as the next one has begun (Timbre's
 * splitter, which long-form uses, decides; the last sentence found may still grow), the rest once
 * the stream stops. The voice is chosen once, by the request or by the first sentence's language,
 * so a reply never changes voice halfway. The whole text counts against TIMBRE_MAX_TEXT_CHARS.
 */
export class SynthesisStream {
  private received = '';
  private pending = '';
  private voice: ChosenVoice | undefined;

  private constructor(private readonly parts: StreamParts) {}

  /** A voice named or a language asked for is checked at once, so a wrong one is said before any text. */
  static async open(parts: StreamParts): Promise<SynthesisStream> {
    const stream = new SynthesisStream(parts);
    if (parts.requested?.name || parts.requested?.language) stream.voice = await parts.chooseVoice(parts.requested, '');
    return stream;
  }

  /** `synthesize-chunk`: speaks the sentences it completes. */
  async add(text: string): Promise<void> {
    this.received += text;
    if (this.received.trim() !== '') checkTextLength(this.received, this.parts.maxTextChars);
    this.pending += text;
    const sentences = splitSentences(this.pending, { language: this.splittingLanguage() });
    const last = sentences.at(-1);
    if (!last || sentences.length < 2) return;
    this.pending = this.pending.slice(last.start);
    for (const sentence of sentences.slice(0, -1)) await this.say(sentence.text);
  }

  /** `synthesize-stop`: speaks what is left. */
  async finish(): Promise<void> {
    const rest = this.pending.trim();
    this.pending = '';
    if (rest !== '') await this.say(rest);
  }

  private async say(sentence: string): Promise<void> {
    this.voice ??= await this.parts.chooseVoice(this.parts.requested, sentence);
    await this.parts.speak(this.voice, sentence);
  }

  private splittingLanguage(): string {
    const requested = this.parts.requested?.language;
    return this.voice?.voiceLanguage ?? (requested ? wyomingLanguage(requested, 'voice.language') : DEFAULT_LANGUAGE);
  }
}

import { randomUUID } from 'node:crypto';
import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { QUIET } from '../../platform/audio/decode.js';
import { ApiError } from '../../platform/errors.js';
import { runChecked } from '../../platform/util/run.js';
import type { TranscriptionService } from '../transcription/index.js';

/** The format of a Wyoming audio stream, as `audio-start` and each `audio-chunk` state it. */
export interface AudioFormat {
  rate: number;
  width: number;
  channels: number;
}

/** ffmpeg's raw sample formats by Wyoming's width: 8-bit audio is unsigned, as in WAV. */
const SAMPLE_FORMATS: Readonly<Record<number, string>> = { 1: 'u8', 2: 's16le', 3: 's24le', 4: 's32le' };
const RATES = { min: 8_000, max: 96_000 };
const MAX_CHANNELS = 8;

export interface RecordingOptions {
  /** Where the audio waits on disk: the uploads folder, whose stale `.*.tmp` files are swept. */
  tempDir: string;
  maxSeconds: number;
  language?: string;
  recognizer?: Parameters<TranscriptionService['transcribe']>[0]['recognizer'];
}

function invalidAudio(message: string, details: Record<string, unknown> = {}): ApiError {
  return new ApiError(400, 'invalid_audio', message, details);
}

/** ffmpeg's sample format for the audio, or `invalid_audio` for a format outside what is taken. */
function checkFormat(format: AudioFormat): string {
  const sampleFormat = SAMPLE_FORMATS[format.width];
  const rateOk = format.rate >= RATES.min && format.rate <= RATES.max;
  if (!sampleFormat || !rateOk || format.channels < 1 || format.channels > MAX_CHANNELS) {
    throw invalidAudio(`Audio must be ${RATES.min}–${RATES.max} Hz, 1 to 4 bytes a sample and 1–${MAX_CHANNELS} channels`, { ...format });
  }
  return sampleFormat;
}

const bytesPerSecond = (format: AudioFormat) => format.rate * format.width * format.channels;

const sameFormat = (a: AudioFormat, b: AudioFormat) => a.rate === b.rate && a.width === b.width && a.channels === b.channels;

/**
 * The audio of one Wyoming `transcribe`, written to a temporary file as its chunks arrive (memory
 * stays flat however long it is, up to `maxSeconds`), then put in a WAV by ffmpeg for the
 * transcription job. Its files are removed whatever happens (`discard`).
 */
export class Recording {
  /** Once the audio has started: its format and the file it goes to. */
  private audio: { format: AudioFormat; sampleFormat: string; file: FileHandle } | undefined;
  private bytes = 0;
  private readonly rawPath: string;
  private readonly wavPath: string;

  constructor(private readonly options: RecordingOptions) {
    const name = `.wyoming-${randomUUID()}`;
    this.rawPath = join(options.tempDir, `${name}.tmp`);
    this.wavPath = join(options.tempDir, `${name}-wav.tmp`);
  }

  /** `audio-start`; a chunk with none before it starts the audio in its own format. */
  async start({ rate, width, channels }: AudioFormat) {
    if (this.audio) throw invalidAudio('The audio has already started');
    const format = { rate, width, channels };
    const sampleFormat = checkFormat(format);
    await mkdir(this.options.tempDir, { recursive: true });
    this.audio = { format, sampleFormat, file: await open(this.rawPath, 'w') };
    return this.audio;
  }

  async chunk(format: AudioFormat, bytes: Buffer): Promise<void> {
    const audio = this.audio ?? (await this.start(format));
    if (!sameFormat(format, audio.format)) {
      const got = { rate: format.rate, width: format.width, channels: format.channels };
      throw invalidAudio('Every audio-chunk must have the format its audio-start gave', { expected: audio.format, got });
    }
    if ((this.bytes + bytes.length) / bytesPerSecond(audio.format) > this.options.maxSeconds) {
      throw new ApiError(413, 'audio_too_long', `A transcription takes at most ${this.options.maxSeconds} s of audio`, {
        max_seconds: this.options.maxSeconds,
      });
    }
    // appendFile writes the whole chunk (write may stop short), at the end: where the previous one stopped.
    await audio.file.appendFile(bytes);
    this.bytes += bytes.length;
  }

  /** `audio-stop`: the transcript of what arrived. */
  async transcribe(transcription: Pick<TranscriptionService, 'transcribe'>, keyId: string, signal: AbortSignal) {
    const audio = this.audio;
    if (!audio || this.bytes === 0) throw invalidAudio('No audio arrived between audio-start and audio-stop');
    await audio.file.close();
    const { format, sampleFormat } = audio;
    const input = ['-f', sampleFormat, '-ar', String(format.rate), '-ac', String(format.channels), '-i', this.rawPath];
    // The samples as they came, only put in a WAV: the job decodes it as it decodes an upload to the REST route.
    const output = ['-c:a', `pcm_${sampleFormat}`, '-f', 'wav', '-y', this.wavPath];
    await runChecked('ffmpeg', ['-nostdin', ...QUIET, ...input, ...output], { signal });
    const { language, recognizer } = this.options;
    const request = { path: this.wavPath, duration: this.bytes / bytesPerSecond(format), timestamps: 'none' as const };
    return transcription.transcribe({ ...request, ...(language ? { language } : {}), ...(recognizer ? { recognizer } : {}) }, keyId);
  }

  async discard(): Promise<void> {
    // Closing twice (after transcribe) only fails, harmlessly.
    await this.audio?.file.close().catch(() => undefined);
    await Promise.all([rm(this.rawPath, { force: true }), rm(this.wavPath, { force: true })]);
  }
}

import type { GenerationService } from '../generation/index.js';
import type { SendEvent } from './sender.js';
import type { ChosenVoice } from './voice-choice.js';

/** Timbre's raw PCM: 16-bit little-endian mono. */
const WIDTH = 2;
const CHANNELS = 1;
/** Audio per `audio-chunk`: small enough for a player to start at once, large enough not to flood the client with events. */
const CHUNK_SECONDS = 0.1;
/** The `rate` parameter of raw PCM's content type (contentTypeOf). */
const RATE_PARAMETER = /(?:^|;)\s*rate=(\d+)/;
/** What contentTypeOf names before a synthesis' first bytes: only an empty one never says. */
const DEFAULT_RATE = 24_000;

export type Generation = Pick<GenerationService, 'stream'>;

/** Cuts a stream of PCM bytes into pieces of `size` bytes, the last one shorter. */
class PcmPieces {
  private held: Buffer = Buffer.alloc(0);

  constructor(private readonly size: number) {}

  add(bytes: Buffer): Buffer[] {
    const all = this.held.length > 0 ? Buffer.concat([this.held, bytes]) : bytes;
    const pieces: Buffer[] = [];
    let offset = 0;
    for (; offset + this.size <= all.length; offset += this.size) pieces.push(all.subarray(offset, offset + this.size));
    this.held = all.subarray(offset);
    return pieces;
  }

  rest(): Buffer | undefined {
    // A sample is two bytes: a dangling half of one is not audio.
    const whole = this.held.subarray(0, this.held.length - (this.held.length % WIDTH));
    this.held = Buffer.alloc(0);
    return whole.length > 0 ? whole : undefined;
  }
}

/** One Wyoming audio stream being sent: its format, and the frames sent so far for the timestamps. */
class AudioStream {
  private readonly pieces: PcmPieces;
  private frames = 0;

  private constructor(
    private readonly send: SendEvent,
    private readonly rate: number,
  ) {
    this.pieces = new PcmPieces(Math.round(rate * CHUNK_SECONDS) * WIDTH);
  }

  static async open(send: SendEvent, rate: number, taskId: string): Promise<AudioStream> {
    const stream = new AudioStream(send, rate);
    await send('audio-start', { ...stream.format(), timestamp: 0, timbre_task_id: taskId });
    return stream;
  }

  async write(bytes: Buffer): Promise<void> {
    for (const piece of this.pieces.add(bytes)) await this.sendPiece(piece);
  }

  async close(): Promise<void> {
    const rest = this.pieces.rest();
    if (rest) await this.sendPiece(rest);
    await this.send('audio-stop', { timestamp: this.timestamp() });
  }

  private format() {
    return { rate: this.rate, width: WIDTH, channels: CHANNELS };
  }

  private timestamp(): number {
    return Math.round((this.frames / this.rate) * 1000);
  }

  private async sendPiece(piece: Buffer): Promise<void> {
    await this.send('audio-chunk', { ...this.format(), timestamp: this.timestamp() }, piece);
    this.frames += piece.length / WIDTH;
  }
}

/**
 * Speaks `text` as one Wyoming audio stream: `audio-start` (with the task id as `timbre_task_id`,
 * for clients that read the task through the REST API), `audio-chunk`s of about 100 ms as the
 * synthesis makes them, `audio-stop`. A refused request throws before `audio-start`; a send that
 * fails (the client left or stopped reading) leaves the audio early, which cancels the synthesis.
 */
export async function speakText(generation: Generation, voice: ChosenVoice, text: string, keyId: string, signal: AbortSignal, send: SendEvent): Promise<void> {
  const input = { voiceId: voice.voiceId, text, format: 'pcm' as const, ...(voice.language ? { language: voice.language } : {}) };
  const speech = await generation.stream(undefined, input, keyId, signal);
  let stream: AudioStream | undefined;
  // The rate is known once the first bytes are (contentType), so the stream opens with them.
  const opened = async () => (stream ??= await AudioStream.open(send, rateOf(speech.contentType()), speech.task.id));
  for await (const bytes of speech.audio) await (await opened()).write(bytes);
  await (await opened()).close();
}

function rateOf(contentType: string): number {
  return Number(RATE_PARAMETER.exec(contentType)?.[1] ?? DEFAULT_RATE);
}

import type { Pcm } from '../audio/pcm.js';

/** Frames of the envelope: 10 ms, short enough to find the gap between two words, long enough to smooth a waveform's cycles. */
const FRAME_SECONDS = 0.01;
/** The level of digital silence, in dB below full scale: any quieter frame reads as this. */
const FLOOR_DB = -100;

/**
 * Loudness of audio in 10 ms frames, fed piece by piece as audio is made, so that word times can be
 * estimated after synthesis without keeping the audio (memory: 4 bytes per 10 ms). A frame holds the
 * RMS level of its samples in dB; a piece at another rate than the one before starts a new frame.
 */
export class LoudnessEnvelope {
  readonly frameSeconds = FRAME_SECONDS;
  private levels = new Float32Array(1024);
  private count = 0;
  private samples = 0;
  private elapsed = 0;
  private rate = 0;
  private pendingSum = 0;
  private pendingSamples = 0;

  add(pcm: Pcm): void {
    if (pcm.sampleRate !== this.rate) {
      this.flush();
      this.elapsed += this.rate > 0 ? this.samples / this.rate : 0;
      this.samples = 0;
      this.rate = pcm.sampleRate;
    }
    const frameLength = Math.max(1, Math.round(this.rate * FRAME_SECONDS));
    for (const sample of pcm.samples) {
      this.pendingSum += sample * sample;
      if (++this.pendingSamples === frameLength) this.flush();
    }
    this.samples += pcm.samples.length;
  }

  /** Seconds of audio added so far. */
  get seconds(): number {
    return this.elapsed + (this.rate > 0 ? this.samples / this.rate : 0);
  }

  /** Frames so far, the last one perhaps partial. */
  get frames(): number {
    return this.count + (this.pendingSamples > 0 ? 1 : 0);
  }

  /** The level of frame `index` in dB below full scale (at least −100). */
  levelAt(index: number): number {
    if (index === this.count && this.pendingSamples > 0) return toDb(this.pendingSum / this.pendingSamples);
    return this.levels[index] ?? FLOOR_DB;
  }

  private flush(): void {
    if (this.pendingSamples === 0) return;
    if (this.count === this.levels.length) {
      const grown = new Float32Array(this.levels.length * 2);
      grown.set(this.levels);
      this.levels = grown;
    }
    this.levels[this.count++] = toDb(this.pendingSum / this.pendingSamples);
    this.pendingSum = 0;
    this.pendingSamples = 0;
  }
}

function toDb(meanSquare: number): number {
  return meanSquare > 0 ? Math.max(FLOOR_DB, 10 * Math.log10(meanSquare)) : FLOOR_DB;
}

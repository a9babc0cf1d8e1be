/** Mono audio as float32 samples in [-1, 1]: the one in-memory audio format between modules. */
export interface Pcm {
  samples: Float32Array;
  sampleRate: number;
}

export function durationOf(pcm: Pcm): number {
  return pcm.samples.length / pcm.sampleRate;
}

export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}

/** Joins pieces of one sample rate into one buffer. */
export function concatPcm(pieces: Pcm[], sampleRate: number): Pcm {
  const total = pieces.reduce((length, piece) => length + piece.samples.length, 0);
  const samples = new Float32Array(total);
  let offset = 0;
  for (const piece of pieces) {
    if (piece.sampleRate !== sampleRate) throw new Error(`concatPcm: ${piece.sampleRate} Hz piece in a ${sampleRate} Hz buffer`);
    samples.set(piece.samples, offset);
    offset += piece.samples.length;
  }
  return { samples, sampleRate };
}

import { concatPcm, rms, type Pcm } from '../../src/platform/audio/pcm.js';

/** Test signals and measurements for the audio tests. */

export function sine(frequency: number, seconds: number, sampleRate: number, amplitude = 0.5): Pcm {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  for (let i = 0; i < samples.length; i++) samples[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / sampleRate);
  return { samples, sampleRate };
}

export function silence(seconds: number, sampleRate: number): Pcm {
  return { samples: new Float32Array(Math.round(seconds * sampleRate)), sampleRate };
}

/** White noise from a fixed seed, so every run sees the same signal. */
export function noise(seconds: number, sampleRate: number, amplitude: number, seed = 1): Pcm {
  const samples = new Float32Array(Math.round(seconds * sampleRate));
  let state = seed;
  for (let i = 0; i < samples.length; i++) {
    state = (state * 1664525 + 1013904223) >>> 0;
    samples[i] = amplitude * ((state / 2 ** 32) * 2 - 1);
  }
  return { samples, sampleRate };
}

export function join(...pieces: Pcm[]): Pcm {
  return concatPcm(pieces, pieces[0]!.sampleRate);
}

/** Frequency of a (near) pure tone from its rising zero crossings over the middle 80 %. */
export function dominantFrequency(pcm: Pcm): number {
  const { samples, sampleRate } = pcm;
  const from = Math.floor(samples.length * 0.1);
  const to = Math.floor(samples.length * 0.9);
  const crossings: number[] = [];
  for (let i = from + 1; i < to; i++) {
    const before = samples[i - 1]!;
    const after = samples[i]!;
    if (before < 0 && after >= 0) crossings.push(i - 1 + before / (before - after));
  }
  if (crossings.length < 2) return 0;
  return ((crossings.length - 1) * sampleRate) / (crossings[crossings.length - 1]! - crossings[0]!);
}

export function rmsDb(pcm: Pcm): number {
  return 20 * Math.log10(rms(pcm.samples));
}

/**
 * A voiced sound with a known F0 track: harmonics at 1/k² amplitudes (the −12 dB/octave of a
 * glottal pulse train), phase-continuous so that F0 may glide, through two-pole formant
 * resonators (80 Hz bandwidth).
 */
export function glottalVoice(f0At: (seconds: number) => number, seconds: number, sampleRate: number, formants = [700, 1220, 2600]): Pcm {
  const length = Math.round(seconds * sampleRate);
  let signal = new Float64Array(length);
  let phase = 0;
  for (let n = 0; n < length; n++) {
    const f0 = f0At(n / sampleRate);
    for (let k = 1; k * f0 < sampleRate / 2 - 200 && k <= 60; k++) signal[n] = signal[n]! + Math.sin(k * phase) / (k * k);
    phase += (2 * Math.PI * f0) / sampleRate;
  }
  for (const hz of formants) {
    const r = Math.exp((-Math.PI * 80) / sampleRate);
    const [a1, a2] = [2 * r * Math.cos((2 * Math.PI * hz) / sampleRate), -r * r];
    const out = new Float64Array(length);
    for (let n = 0; n < length; n++) out[n] = (1 - r) * signal[n]! + a1 * (out[n - 1] ?? 0) + a2 * (out[n - 2] ?? 0);
    signal = out;
  }
  return { samples: Float32Array.from(signal), sampleRate };
}

/** `pcm` scaled to 0.2 RMS, plus white noise `snrDb` below it (a fixed seed; Infinity adds none). */
export function withNoise(pcm: Pcm, snrDb: number, seed = 5): Pcm {
  const gain = 0.2 / rms(pcm.samples);
  // Uniform noise of amplitude a has RMS a/√3.
  const amplitude = Number.isFinite(snrDb) ? 0.2 * Math.sqrt(3) * 10 ** (-snrDb / 20) : 0;
  const added = noise(pcm.samples.length / pcm.sampleRate, pcm.sampleRate, amplitude, seed).samples;
  return { samples: pcm.samples.map((x, n) => x * gain + added[n]!), sampleRate: pcm.sampleRate };
}

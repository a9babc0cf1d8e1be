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

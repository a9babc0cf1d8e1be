/**
 * Radix-2 FFT with plans cached per size (twiddles and the bit-reversal permutation are computed
 * once), plus the window functions and power spectrum every frame-based analysis uses.
 */

export class Fft {
  private readonly cos: Float64Array;
  private readonly sin: Float64Array;
  private readonly reversed: Uint32Array;

  constructor(readonly size: number) {
    if (size < 2 || (size & (size - 1)) !== 0) throw new Error(`FFT size ${size} is not a power of two`);
    this.cos = new Float64Array(size / 2);
    this.sin = new Float64Array(size / 2);
    for (let k = 0; k < size / 2; k++) {
      this.cos[k] = Math.cos((2 * Math.PI * k) / size);
      this.sin[k] = -Math.sin((2 * Math.PI * k) / size);
    }
    this.reversed = new Uint32Array(size);
    const bits = Math.log2(size);
    for (let i = 0; i < size; i++) {
      let r = 0;
      for (let b = 0; b < bits; b++) r |= ((i >> b) & 1) << (bits - 1 - b);
      this.reversed[i] = r;
    }
  }

  /** In place. `inverse` is unscaled: divide by `size` to undo a forward transform. */
  transform(re: Float64Array, im: Float64Array, inverse = false): void {
    const n = this.size;
    for (let i = 0; i < n; i++) {
      const j = this.reversed[i]!;
      if (j > i) {
        const tr = re[i]!;
        re[i] = re[j]!;
        re[j] = tr;
        const ti = im[i]!;
        im[i] = im[j]!;
        im[j] = ti;
      }
    }
    const sign = inverse ? -1 : 1;
    for (let half = 1; half < n; half *= 2) {
      const step = n / (2 * half);
      for (let start = 0; start < n; start += 2 * half) {
        for (let k = 0; k < half; k++) {
          const wr = this.cos[k * step]!;
          const wi = sign * this.sin[k * step]!;
          const a = start + k;
          const b = a + half;
          const xr = re[b]! * wr - im[b]! * wi;
          const xi = re[b]! * wi + im[b]! * wr;
          re[b] = re[a]! - xr;
          im[b] = im[a]! - xi;
          re[a] = re[a]! + xr;
          im[a] = im[a]! + xi;
        }
      }
    }
  }
}

const plans = new Map<number, Fft>();

/** The cached plan for `size` (a power of two). */
export function fftPlan(size: number): Fft {
  let plan = plans.get(size);
  if (!plan) {
    plan = new Fft(size);
    plans.set(size, plan);
  }
  return plan;
}

export function nextPowerOfTwo(n: number): number {
  let size = 1;
  while (size < n) size *= 2;
  return size;
}

/**
 * |X_k|² for k = 0..size/2 of a real frame, zero-padded to `size`. Scaled by 1/size so that the
 * mean over bins approximates the frame's mean square (Parseval), keeping levels rate-independent.
 */
export function powerSpectrum(frame: ArrayLike<number>, size: number): Float64Array {
  const re = new Float64Array(size);
  const im = new Float64Array(size);
  for (let i = 0; i < Math.min(frame.length, size); i++) re[i] = frame[i]!;
  fftPlan(size).transform(re, im);
  const power = new Float64Array(size / 2 + 1);
  for (let k = 0; k <= size / 2; k++) power[k] = (re[k]! * re[k]! + im[k]! * im[k]!) / size;
  return power;
}

export function hannWindow(length: number): Float64Array {
  const window = new Float64Array(length);
  for (let i = 0; i < length; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * (i + 0.5)) / length);
  return window;
}

export function hammingWindow(length: number): Float64Array {
  const window = new Float64Array(length);
  for (let i = 0; i < length; i++) window[i] = 0.54 - 0.46 * Math.cos((2 * Math.PI * (i + 0.5)) / length);
  return window;
}

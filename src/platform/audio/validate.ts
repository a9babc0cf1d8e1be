/**
 * Refuses anything but a finite number in [min, max]. Numbers are interpolated into ffmpeg filter
 * graph strings, so this also keeps NaN, Infinity and out-of-range values from reaching ffmpeg.
 */
export function requireRange(name: string, value: number, min: number, max: number): void {
  if (!Number.isFinite(value) || value < min || value > max) throw new RangeError(`${name} must be between ${min} and ${max}, got ${value}`);
}

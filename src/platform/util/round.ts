/** `value` to `digits` decimals. */
export function roundTo(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/** Like roundTo, with null for NaN and infinities (a measure that found nothing), so JSON stays honest. */
export function roundOrNull(value: number, digits: number): number | null {
  return Number.isFinite(value) ? roundTo(value, digits) : null;
}

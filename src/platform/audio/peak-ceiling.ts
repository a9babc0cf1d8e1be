/**
 * Every render and merge ends with true peaks (inter-sample peaks, as EBU R128 / ITU BS.1770
 * measure them) at most this high: a mix of speech, music and effects that sums past full scale
 * must not clip, and -1 dBTP leaves lossy encoders room for their own overshoot.
 */
export const TRUE_PEAK_CEILING_DBTP = -1;

/**
 * The limiter works this far under the ceiling: limiting at 4× the rate and coming back to the
 * output rate leaves overshoots of a few tenths of a dB (0.4 dB measured on full-scale noise).
 */
const LIMITER_MARGIN_DB = 1;
/** BS.1770 finds true peaks at 4× oversampling: there sample peaks are the true peaks. */
const OVERSAMPLING = 4;

/**
 * ffmpeg filters that hold a signal at `rate` under the ceiling: a lookahead limiter on the 4×
 * oversampled signal, with its delay compensated (placement stays sample-exact) and without
 * auto-levelling, so a signal already under the ceiling passes at its own level.
 */
export function truePeakLimiter(rate: number): string {
  const limit = 10 ** ((TRUE_PEAK_CEILING_DBTP - LIMITER_MARGIN_DB) / 20);
  return `aresample=${rate * OVERSAMPLING},alimiter=limit=${limit.toFixed(5)}:level=0:latency=1,aresample=${rate}`;
}

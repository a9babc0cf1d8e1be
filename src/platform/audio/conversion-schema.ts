import { Type, type Static } from 'typebox';

/**
 * The schemas of a voice conversion, apart from the code that applies it: the engine host applies
 * conversions without loading typebox (a third of its start-up), so that code imports only the types.
 */

export const EqualizerBandSchema = Type.Object({
  /** Centre frequency in Hz, below the Nyquist frequency. */
  frequency: Type.Number(),
  gainDb: Type.Number(),
  /** Quality factor: the centre frequency over the bandwidth. Default 1 (about 1.4 octaves). */
  q: Type.Optional(Type.Number()),
});
export type EqualizerBand = Static<typeof EqualizerBandSchema>;

/**
 * The conversion chain that makes one voice sound more like another: what `timbre_match` clones
 * and built-in designs store, and what every generation of such a voice passes through.
 */
export const VoiceConversionSchema = Type.Object({
  /** Pitch shift of the fundamental, semitones. */
  semitones: Type.Number(),
  /** Spectral envelope (formant) scale: 1.1 moves every formant 10 % up, independently of pitch. */
  formantScale: Type.Number(),
  /** Speaking rate factor: 1.2 is 20 % faster. */
  tempo: Type.Number(),
  /** Peaking bands that bring the long-term spectrum toward the target's. */
  equalizer: Type.Array(EqualizerBandSchema),
});
export type VoiceConversion = Static<typeof VoiceConversionSchema>;

import { parseWav } from '../audio/wav.js';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { convertVoice } from '../audio/voice-conversion.js';
import { VoiceConversionSchema } from '../audio/conversion-schema.js';
import { changePitchTempo } from '../audio/effects.js';
import type { Pcm } from '../audio/pcm.js';
import type { EngineClient } from '../engines/host/calls.js';
import type { SynthesisRequest, SynthesisResult } from '../engines/types.js';
import type { VoiceFiles } from './voice-files.js';

/**
 * How a clone or design speaks beyond its engine voice, as stored in its settings (`rendering`):
 * a reference recording to condition on (zero-shot engines), a style vector (Kokoro blends), a
 * conversion chain applied to the engine's output (built-in voices), a speed of its own.
 * File names are inside the voice's folder.
 */
export const VoiceRenderingSchema = Type.Object({
  voiceId: Type.Optional(Type.String()),
  reference: Type.Optional(Type.Object({ file: Type.String(), transcript: Type.Union([Type.String(), Type.Null()]) })),
  style: Type.Optional(Type.Object({ file: Type.String() })),
  conversion: Type.Optional(VoiceConversionSchema),
  /** Multiplies the request's speed. */
  speed: Type.Optional(Type.Number()),
  /** Pitch factor for engines that shift pitch natively (the conversion then shifts only what remains). */
  pitch: Type.Optional(Type.Number()),
});
export type VoiceRendering = Static<typeof VoiceRenderingSchema>;

/** A voice's stored rendering, when its settings hold one that this version reads. */
function renderingIn(settings: Record<string, unknown>): VoiceRendering | undefined {
  return Value.Check(VoiceRenderingSchema, settings.rendering) ? settings.rendering : undefined;
}

/** The files in its folder a voice's rendering reads (a reference recording, a style vector). */
export function renderingFileNames(settings: Record<string, unknown>): string[] {
  const rendering = renderingIn(settings);
  return [rendering?.reference?.file, rendering?.style?.file].filter((name): name is string => typeof name === 'string');
}

/** The rendering recorded in a voice's settings; presets have none. */
export function renderingOf(voice: { id: string; settings: Record<string, unknown> }): VoiceRendering {
  const rendering = renderingIn(voice.settings);
  return rendering ? { ...rendering, voiceId: voice.id } : {};
}

export interface RenderDeps {
  engines: EngineClient;
  voiceFiles: VoiceFiles;
}

/** Word and phoneme times of the whole speech, as engines give them. */
export type SpeechTimings = Omit<SynthesisResult, 'pcm'>;

/** Engines take speeds from 0.5 to 2; what a request asks beyond that is stretched afterwards. */
const ENGINE_SPEED = { min: 0.5, max: 2 };

/** How many times faster than the voice's normal pace a request is spoken: its speed, the voice's own, its conversion's tempo. */
export function speakingRate(speed: number | undefined, rendering: VoiceRendering): number {
  return (speed ?? 1) * (rendering.speed ?? 1) * (rendering.conversion?.tempo ?? 1);
}

/** What happens to the engine's audio after synthesis: the voice's conversion, then any stretch beyond the engine's speeds. */
export class Shaping {
  constructor(
    private readonly conversion: VoiceRendering['conversion'],
    private readonly stretch: number,
    private readonly signal?: AbortSignal,
  ) {}

  async piece(pcm: Pcm): Promise<Pcm> {
    let shaped = this.conversion ? await convertVoice(pcm, this.conversion, this.signal) : pcm;
    if (this.stretch !== 1) shaped = await changePitchTempo(shaped, { tempo: this.stretch, signal: this.signal });
    return shaped;
  }

  /** Word and phoneme times scale with the tempo the shaping changes. */
  timings(timings: SpeechTimings): SpeechTimings {
    return scaleTimings(timings, 1 / ((this.conversion?.tempo ?? 1) * this.stretch));
  }
}

/** Word and phoneme times multiplied by `scale` (audio stretched to `scale` times its length). */
export function scaleTimings(timings: SpeechTimings, scale: number): SpeechTimings {
  if (scale === 1) return timings;
  const rescale = <T extends { start: number; end: number }>(items: T[] | undefined) =>
    items?.map((item) => ({ ...item, start: item.start * scale, end: item.end * scale }));
  return { words: rescale(timings.words), phonemes: rescale(timings.phonemes) };
}

/** The request with the rendering's inputs (reference, style, speed, pitch), and the stretch left for afterwards. */
export async function withRendering(
  files: VoiceFiles,
  request: SynthesisRequest,
  rendering: VoiceRendering,
): Promise<{ request: SynthesisRequest; stretch: number }> {
  const full: SynthesisRequest = { ...request };
  const speed = (request.speed ?? 1) * (rendering.speed ?? 1);
  let stretch = 1;
  if (request.speed !== undefined || rendering.speed !== undefined) {
    full.speed = Math.min(ENGINE_SPEED.max, Math.max(ENGINE_SPEED.min, speed));
    stretch = speed / full.speed;
  }
  if (rendering.pitch !== undefined) full.pitch = (request.pitch ?? 1) * rendering.pitch;
  if (!rendering.voiceId) return { request: full, stretch };
  if (rendering.reference) {
    full.referenceAudio = parseWav(await files.read(rendering.voiceId, rendering.reference.file));
    if (rendering.reference.transcript) full.referenceText = rendering.reference.transcript;
  }
  if (rendering.style) full.style = styleFromBytes(await files.read(rendering.voiceId, rendering.style.file));
  return { request: full, stretch };
}

/** Weighted sum of equally long style vectors (a Kokoro blend). */
export function mixStyles(styles: readonly Float32Array[], weights: readonly number[]): Float32Array {
  const out = new Float32Array(styles[0]!.length);
  styles.forEach((style, k) => {
    const weight = weights[k] ?? 0;
    if (weight === 0) return;
    for (let i = 0; i < out.length; i++) out[i]! += weight * style[i]!;
  });
  return out;
}

/** A style vector file is raw little-endian float32. */
export function styleFromBytes(bytes: Buffer): Float32Array {
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length - (bytes.length % 4)));
}

export function styleToBytes(style: Float32Array): Buffer {
  return Buffer.from(style.buffer, style.byteOffset, style.byteLength);
}

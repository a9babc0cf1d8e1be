import { parseWav } from '../audio/wav.js';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { convertVoice, VoiceConversionSchema } from '../audio/voice-conversion.js';
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

export interface RenderProgress {
  signal?: AbortSignal;
  onProgress?: (fraction: number, stage?: string) => void;
}

/** Synthesizes a request as the voice: the rendering's inputs go into the request, its conversion onto the audio. */
export async function synthesizeAs(
  deps: RenderDeps,
  engine: string,
  request: SynthesisRequest,
  rendering: VoiceRendering,
  progress: RenderProgress = {},
): Promise<SynthesisResult> {
  const full = await withRendering(deps.voiceFiles, request, rendering);
  const result = await deps.engines.synthesize(engine, full, progress);
  if (!rendering.conversion) return result;
  // Word timings no longer match once the tempo changes; they are rescaled with it.
  const pcm = await convertVoice(result.pcm, rendering.conversion, progress.signal);
  const scale = 1 / rendering.conversion.tempo;
  const rescale = <T extends { start: number; end: number }>(items: T[] | undefined) =>
    items?.map((item) => ({ ...item, start: item.start * scale, end: item.end * scale }));
  return { pcm, words: rescale(result.words), phonemes: rescale(result.phonemes) };
}

async function withRendering(files: VoiceFiles, request: SynthesisRequest, rendering: VoiceRendering): Promise<SynthesisRequest> {
  const full: SynthesisRequest = { ...request };
  if (rendering.speed !== undefined) full.speed = Math.min(2, Math.max(0.5, (request.speed ?? 1) * rendering.speed));
  if (rendering.pitch !== undefined) full.pitch = rendering.pitch;
  if (!rendering.voiceId) return full;
  if (rendering.reference) {
    full.referenceAudio = parseWav(await files.read(rendering.voiceId, rendering.reference.file));
    if (rendering.reference.transcript) full.referenceText = rendering.reference.transcript;
  }
  if (rendering.style) full.style = styleFromBytes(await files.read(rendering.voiceId, rendering.style.file));
  return full;
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

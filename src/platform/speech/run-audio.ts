import { changePitchTempo } from '../audio/effects.js';
import type { Pcm } from '../audio/pcm.js';
import type { EngineCapabilities } from '../engines/types.js';
import type { PlannedSpeech, SpeechRequest } from './speech-plan.js';
import { scaleTimings, type SpeechTimings } from './voice-rendering.js';

/**
 * What a planned run asks that its engine does not do itself, done to its audio: the pitch of
 * `prosody`/`emphasis` (engines with a native pitch within range take it; the others are
 * shifted, tempo kept), a rate for an engine that takes no speed (stretched, pitch kept), and the
 * gain (`volume`). The request is what the engine gets.
 */
export class RunAudio {
  readonly request: SpeechRequest;
  private readonly semitones: number;
  private readonly tempo: number;
  private readonly gain: number;

  /** `capabilities` undefined: the run asks nothing of rate or pitch, and is spoken as its request says. */
  constructor(
    run: PlannedSpeech,
    capabilities: EngineCapabilities | undefined,
    private readonly signal?: AbortSignal,
  ) {
    const request: SpeechRequest = { ...run.request };
    let tempo = 1;
    if (capabilities && !capabilities.speed && request.speed !== undefined) {
      tempo = request.speed;
      delete request.speed;
    }
    let pitch = run.pitch;
    const native = capabilities?.pitch;
    const wanted = (request.pitch ?? 1) * pitch;
    if (pitch !== 1 && native && wanted >= native.min && wanted <= native.max) {
      request.pitch = wanted;
      pitch = 1;
    }
    this.request = request;
    this.tempo = tempo;
    this.semitones = 12 * Math.log2(pitch);
    this.gain = run.gainDb === null ? 0 : 10 ** (run.gainDb / 20);
  }

  async piece(pcm: Pcm): Promise<Pcm> {
    const shaped =
      this.semitones !== 0 || this.tempo !== 1 ? await changePitchTempo(pcm, { semitones: this.semitones, tempo: this.tempo, signal: this.signal }) : pcm;
    if (this.gain === 1) return shaped;
    const samples = shaped === pcm ? new Float32Array(pcm.samples) : shaped.samples;
    for (let i = 0; i < samples.length; i++) samples[i]! *= this.gain;
    return { samples, sampleRate: shaped.sampleRate };
  }

  /** Times scale with the stretch. */
  timings(timings: SpeechTimings): SpeechTimings {
    return scaleTimings(timings, 1 / this.tempo);
  }
}

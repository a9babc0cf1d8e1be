/**
 * The samples a person gathers for a clone: each is an audio Blob (an uploaded file, or a
 * recording turned into WAV) with the parts of it chosen on its waveform.
 */

export interface SamplePart {
  start: number;
  end: number;
  /** The words spoken in this part; optional (the service transcribes when it needs them). */
  words: string;
}

export interface Sample {
  id: string;
  label: string;
  audio: Blob;
  /** Seconds, as the browser decoded it. */
  duration: number;
  parts: SamplePart[];
  /** Bumped when the parts change other than by dragging, so the waveform redraws them. */
  layout: number;
}

/** Parts this close to the clip's ends count as reaching them (seconds). */
const EDGE = 0.05;

let made = 0;

export function newSample(label: string, audio: Blob, duration: number): Sample {
  made += 1;
  return { id: `sample-${made}`, label, audio, duration, parts: [{ start: 0, end: duration, words: '' }], layout: 0 };
}

/** True when the sample is used whole: one part from its start to its end. */
export function usedWhole(sample: Sample): boolean {
  const [only, ...more] = sample.parts;
  return more.length === 0 && only !== undefined && only.start <= EDGE && only.end >= sample.duration - EDGE;
}

/** A decoding context needs no playback, so no user gesture; 24 kHz is what the service analyses at. */
const DECODE_RATE = 24_000;

export async function decodeAudio(audio: Blob): Promise<AudioBuffer> {
  const context = new OfflineAudioContext(1, 1, DECODE_RATE);
  return context.decodeAudioData(await audio.arrayBuffer());
}

/**
 * A recording as 16-bit mono WAV: MediaRecorder's WebM carries no duration in its header, and the
 * service measures a clip's length from the container before cutting regions out of it.
 */
export function encodeWav(buffer: AudioBuffer): Blob {
  const frames = buffer.length;
  const mono = new Float32Array(frames);
  for (let channel = 0; channel < buffer.numberOfChannels; channel += 1) {
    const data = buffer.getChannelData(channel);
    for (let i = 0; i < frames; i += 1) mono[i] = (mono[i] ?? 0) + (data[i] ?? 0) / buffer.numberOfChannels;
  }
  const bytes = new ArrayBuffer(44 + frames * 2);
  const view = new DataView(bytes);
  const text = (offset: number, value: string) => [...value].forEach((char, i) => view.setUint8(offset + i, char.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + frames * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, buffer.sampleRate, true);
  view.setUint32(28, buffer.sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, frames * 2, true);
  for (let i = 0; i < frames; i += 1) {
    const value = Math.max(-1, Math.min(1, mono[i] ?? 0));
    view.setInt16(44 + i * 2, value < 0 ? value * 0x8000 : value * 0x7fff, true);
  }
  return new Blob([bytes], { type: 'audio/wav' });
}

/** Seconds as m:ss.t for labels and the recording clock. */
export function clock(seconds: number): string {
  const whole = Math.max(0, seconds);
  const minutes = Math.floor(whole / 60);
  return `${minutes}:${(whole - minutes * 60).toFixed(1).padStart(4, '0')}`;
}

import { createBuiltinSynthesizer, type BuiltinOptions, type PieceJob } from './builtin-common.js';
import { FLITE_VOICES, installedVoices } from './builtin-voices.js';
import type { Availability, EngineCapabilities, EngineDescriptor, PhonemeTiming, SynthesisResult, Synthesizer, VoiceInfo } from './types.js';
import { asciiPlainText } from './builtin-text.js';
import { floatFromInt16 } from '../audio/wav.js';
import { FLITE_LIBRARY, FLITE_PACKAGE, FliteSession, voiceLibrary, type FliteFeatures, type FliteSegment } from './native/libflite.js';
import { SessionHold, SharedSession, probeLibrary } from './native/library.js';
import { cmuPhones } from '../text/phonemes/cmu.js';
import { wordOfSounds } from '../text/phonemes/spoken-word.js';

/**
 * Flite: CMU's small engine, 16 kHz English voices. It runs in this process through libflite and
 * its voice libraries, each voice loaded once and kept warm: a piece costs only its synthesis.
 */

/** Flite's voices are English: Latin letters, folded to ASCII (asciiPlainText). */
const LATIN = ['Latin'];

/** Flite's segment label for silence. */
const PAUSE = 'pau';

const capabilities: EngineCapabilities = {
  engine: 'flite',
  kind: 'synthesizer',
  neural: false,
  languages: [...new Set(Object.values(FLITE_VOICES).map((entry) => entry.language))],
  wordTimings: true,
  phonemeTimings: true,
  referenceAudio: false,
  blendableVoices: false,
  speed: true,
  // IPA as CMU phones (text/phonemes/cmu.ts), spoken by flite_synth_phones.
  phonemeInput: true,
  // A target mean in Hz: an octave and a half up still sounds like speech.
  pitch: { min: 0.5, max: 3 },
};

/**
 * Median F0 of each voice as shipped, Hz (measured on a test sentence). Flite takes pitch as a
 * target mean in Hz, so a pitch factor becomes this times the factor.
 */
const NATURAL_F0_HZ: Readonly<Record<string, number>> = { slt: 167, rms: 100, awb: 123, kal16: 89, kal: 89, awb_time: 133 };

/** Parses `flite -lv`: `Voices available: kal awb_time kal16 awb rms slt`. */
export function parseVoiceList(output: string): string[] {
  return output.replace(/^.*?:/s, '').split(/\s+/).filter(Boolean);
}

/** The library keeps its voices once per process, shared by every synthesizer in it. */
const library = new SharedSession(() => FliteSession.open());

/** A voice is installed when its library loads (Debian's libflite1 ships them all; the flite program is not needed). */
async function discoverVoices(): Promise<VoiceInfo[]> {
  const names = Object.keys(FLITE_VOICES);
  const loads = await Promise.all(names.map((name) => probeLibrary(voiceLibrary(name).soname, FLITE_PACKAGE)));
  return installedVoices(
    'flite',
    FLITE_VOICES,
    names.filter((_, index) => loads[index]?.available),
  );
}

/** Segment ends as phoneme timings: each starts where the one before ended; pauses advance time only. */
export function segmentTimings(segments: readonly FliteSegment[]): PhonemeTiming[] {
  const phonemes: PhonemeTiming[] = [];
  let start = 0;
  for (const { name, end } of segments) {
    if (!Number.isFinite(end)) continue;
    if (name !== PAUSE) phonemes.push({ phoneme: name, start, end });
    start = end;
  }
  return phonemes;
}

/** Parses `-psdur` output, `phoneme:end-seconds` pairs; pauses advance time only. */
export function parseSegmentEnds(output: string): PhonemeTiming[] {
  const segments = output.split(/\s+/).flatMap((token) => {
    const match = /^([^:]+):(\d+(?:\.\d+)?)$/.exec(token);
    return match?.[1] && match[2] ? [{ name: match[1], end: Number(match[2]) }] : [];
  });
  return segmentTimings(segments);
}

/**
 * The voice features of a piece: speed scales the voice's own duration stretch (kal16 ships 1.1,
 * the others none, i.e. 1); pitch sets the target F0 mean. Unset features are the voice's own.
 */
export function pieceFeatures(voiceName: string, speed: number, pitch: number, ownStretch = 1): FliteFeatures {
  const features: FliteFeatures = {};
  if (speed !== 1) features.duration_stretch = ownStretch / speed;
  const natural = NATURAL_F0_HZ[voiceName];
  if (pitch !== 1 && natural) features.int_f0_target_mean = Math.round(natural * pitch);
  return features;
}

export function createFliteSynthesizer(options: BuiltinOptions = {}): Synthesizer {
  const hold = new SessionHold(library);

  async function renderPiece(job: PieceJob): Promise<SynthesisResult> {
    const name = job.voice.id.slice('flite:'.length);
    const flite = await hold.get();
    // Phonemes with no sound English has (cmuPhones gives none) leave the written word to say.
    const phones = job.phonemes ? cmuPhones(job.phonemes).map(({ phone }) => phone) : [];
    const input = phones.length > 0 ? { phones: [PAUSE, ...phones, PAUSE].join(' ') } : { text: job.text };
    const speech = await flite.speak(name, input, (own) => pieceFeatures(name, job.speed, job.pitch, own.duration_stretch), job.signal);
    const phonemes = segmentTimings(speech.segments);
    const words = phones.length > 0 ? wordOfSounds(job.text, phonemes) : speech.words;
    return { pcm: { samples: floatFromInt16(speech.samples), sampleRate: speech.sampleRate }, words, phonemes };
  }

  const engine = { capabilities, discoverVoices, scriptsRead: () => LATIN, prepareText: asciiPlainText, renderPiece, dispose: () => hold.dispose() };
  return createBuiltinSynthesizer(engine, options);
}

async function probe(): Promise<Availability> {
  const core = await probeLibrary(FLITE_LIBRARY, FLITE_PACKAGE);
  if (!core.available) return core;
  return (await discoverVoices()).length > 0 ? core : { available: false, reason: `no Flite voice library could be loaded (Debian package ${FLITE_PACKAGE})` };
}

export const fliteEngine: EngineDescriptor<Synthesizer> = {
  id: 'flite',
  kind: 'synthesizer',
  neural: false,
  probe,
  load: async (settings) => createFliteSynthesizer(settings),
};

/**
 * OpenAI's `instructions` ("speak slowly, in a low voice") read with the voice-description
 * vocabulary: pitch and pace become factors on the request; everything else is reported as
 * ignored, so that a client can tell what had no effect.
 */
import { parseVoiceDescription } from '../../platform/text/voice-description.js';

/** The same steps as voice design: two semitones per pitch step, 13 % tempo per pace step. */
const SEMITONES_PER_STEP = 2;
const TEMPO_PER_PACE_STEP = 0.13;
/** Words instructions are made of that ask for nothing themselves ("speak with a low pitch"). */
const FILLER = new Set([
  'speak',
  'speaks',
  'speaking',
  'talk',
  'talking',
  'say',
  'read',
  'sound',
  'sounding',
  'voice',
  'tone',
  'pitch',
  'pace',
  'speed',
  'please',
  'use',
  'style',
  'like',
]);

export interface InstructionEffect {
  /** Pitch factor (1 the voice's own), when the instructions ask for a pitch the engine can make. */
  pitch?: number;
  /** Multiplies the requested speed. */
  speedFactor: number;
  /** Attributes that changed the request: `pitch`, `pace`. */
  applied: string[];
  /** Attributes that cannot be honoured (gender, age, energy…) and words not understood, in order. */
  ignored: string[];
}

/** Reads the instructions; `pitchShifts` says whether the voice's engine changes pitch. */
export function readInstructions(instructions: string, pitchShifts: boolean): InstructionEffect {
  const described = parseVoiceDescription(instructions);
  const effect: InstructionEffect = { speedFactor: 1, applied: [], ignored: [] };
  const ignore = (what: string) => effect.ignored.includes(what) || effect.ignored.push(what);
  if (described.pitch !== undefined) {
    if (pitchShifts) {
      effect.pitch = 2 ** ((described.pitch * SEMITONES_PER_STEP) / 12);
      effect.applied.push('pitch');
    } else ignore('pitch');
  }
  if (described.pace !== undefined) {
    effect.speedFactor = 1 + described.pace * TEMPO_PER_PACE_STEP;
    effect.applied.push('pace');
  }
  for (const { attribute } of described.understood) if (attribute !== 'pitch' && attribute !== 'pace') ignore(attribute);
  for (const word of described.ignored) if (!FILLER.has(word)) ignore(word);
  return effect;
}

/** `applied=pitch,pace; ignored=gender,cheerful`, words percent-encoded so the header stays ASCII. */
export function instructionsHeader(effect: InstructionEffect): string {
  return `applied=${effect.applied.join(',')}; ignored=${effect.ignored.map(encodeURIComponent).join(',')}`;
}

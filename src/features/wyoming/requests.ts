/**
 * The data of the events a client sends, as the protocol's reference implementation writes them:
 * optional fields may be absent or null (Python's None), unknown fields (`context`, newer ones)
 * are ignored.
 */
import { Type, type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { ApiError } from '../../platform/errors.js';
import type { WyomingEvent } from './framing.js';
import type { RequestedVoice } from './voice-choice.js';

const OptionalText = Type.Optional(Type.Union([Type.String(), Type.Null()]));
const VoiceSchema = Type.Union([Type.Object({ name: OptionalText, language: OptionalText, speaker: OptionalText }), Type.Null()]);
const Count = Type.Integer({ minimum: 1 });

export const SynthesizeSchema = Type.Object({ text: Type.String(), voice: Type.Optional(VoiceSchema) });
export const SynthesizeStartSchema = Type.Object({ voice: Type.Optional(VoiceSchema) });
export const SynthesizeChunkSchema = Type.Object({ text: Type.String() });
export const TranscribeSchema = Type.Object({ name: OptionalText, language: OptionalText });
export const AudioFormatSchema = Type.Object({ rate: Count, width: Count, channels: Count });
export const PingSchema = Type.Object({ text: OptionalText });

/** The event's data if it fits `schema`, else 400 `invalid_event` naming the first problem (the connection stays open). */
export function eventData<S extends TSchema>(schema: S, event: WyomingEvent): Static<S> {
  if (Value.Check(schema, event.data)) return event.data;
  const first = Value.Errors(schema, event.data)[0];
  const problem = first ? `${first.instancePath || 'data'} ${first.message}` : 'does not fit';
  throw new ApiError(400, 'invalid_event', `Invalid ${event.type} event: ${problem}`, { type: event.type });
}

/** A request's voice without the nulls; `speaker` is dropped (each Timbre voice id is one speaker). */
export function requestedVoice(voice: Static<typeof VoiceSchema> | undefined): RequestedVoice | undefined {
  if (!voice) return undefined;
  return { ...(voice.name ? { name: voice.name } : {}), ...(voice.language ? { language: voice.language } : {}) };
}

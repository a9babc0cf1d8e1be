import { isDeepStrictEqual } from 'node:util';
import { Type } from 'typebox';
import { ApiError } from '../../platform/errors.js';
import { PronunciationIdsField } from '../pronunciations/index.js';
import { DescriptionSchema, TagsSchema, VoiceNameSchema } from './archive-format.js';
import type { publicVoice, VoiceChanges } from './service.js';
import { READ_ONLY } from './voice-schema.js';

/**
 * PUT /api/voices/{id} takes a voice as GET shows it: a client edits what it read and sends it
 * back. The metadata fields change the voice; every other field is read-only, accepted when it
 * matches the stored voice and refused (400 `read_only_mismatch`) when it does not.
 */

type PublicVoice = ReturnType<typeof publicVoice>;

const ECHO_NOTE = 'Read-only: accepted when equal to the stored value, 400 read_only_mismatch otherwise';

export const VoiceUpdateBodySchema = Type.Object(
  {
    name: Type.Optional(VoiceNameSchema),
    description: Type.Optional(DescriptionSchema),
    category: Type.Optional(
      Type.Union([Type.String({ minLength: 1, maxLength: 60 }), Type.Null()], { description: 'Name of an existing category; null removes it' }),
    ),
    tags: Type.Optional(TagsSchema),
    favorite: Type.Optional(Type.Boolean()),
    pronunciation_ids: Type.Optional(PronunciationIdsField),
    // Typed loosely on purpose: validation would coerce a null it reads into 0 or "" (Ajv's
    // coerceTypes), and the value would no longer match what GET showed.
    ...Object.fromEntries(Object.keys(READ_ONLY).map((field) => [field, Type.Optional(Type.Unknown({ description: ECHO_NOTE }))])),
  },
  { additionalProperties: false, minProperties: 1 },
);

const EDITABLE = ['name', 'description', 'category', 'tags', 'favorite', 'pronunciation_ids'] as const;

/**
 * The changes a body asks for. A metadata field equal to the stored one is no change, so a preset
 * sent back whole does not try to rename itself. `category_id` may also name the category the body
 * moves the voice to.
 */
export function changesOf(body: Record<string, unknown>, current: PublicVoice, categoryIdOf: (name: string) => string | undefined): VoiceChanges {
  const stored: Record<string, unknown> = current;
  const mismatched = Object.keys(body).filter((field) => {
    if ((EDITABLE as readonly string[]).includes(field) || isDeepStrictEqual(body[field], stored[field])) return false;
    const category = body.category;
    return !(field === 'category_id' && typeof category === 'string' && body[field] === categoryIdOf(category));
  });
  if (mismatched.length > 0) {
    const fields = mismatched.map((field) => ({ field: `body.${field}`, message: 'is read-only and differs from the stored value' }));
    throw new ApiError(400, 'read_only_mismatch', `Read-only fields differ from the stored voice: ${mismatched.join(', ')}`, { fields });
  }
  const changes: VoiceChanges = {};
  const changed = <K extends keyof VoiceChanges>(field: K, value: VoiceChanges[K] | undefined) => {
    if (value !== undefined && !isDeepStrictEqual(value, stored[field])) changes[field] = value;
  };
  changed('name', typeof body.name === 'string' ? body.name : undefined);
  changed('description', typeof body.description === 'string' || body.description === null ? body.description : undefined);
  changed('category', typeof body.category === 'string' || body.category === null ? body.category : undefined);
  changed('tags', Array.isArray(body.tags) ? body.tags.map(String) : undefined);
  changed('favorite', typeof body.favorite === 'boolean' ? body.favorite : undefined);
  const pronunciationIds = Array.isArray(body.pronunciation_ids) ? body.pronunciation_ids.map(String) : undefined;
  if (pronunciationIds && !isDeepStrictEqual(pronunciationIds, current.pronunciation_ids)) changes.pronunciationIds = pronunciationIds;
  return changes;
}

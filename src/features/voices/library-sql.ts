import type { Db } from '../../platform/store/database.js';
import { ENGINES_BY_CLARITY } from '../../platform/speech/clarity.js';
import { isMeasuredClear, libraryCategory, libraryTags, type LibraryVoice } from './library-tags.js';
import { measureOf, readSettings } from './voice-rows.js';

/**
 * The library's tags and category in SQL, through functions registered on the connection that call
 * library-tags.ts: filters, search and order see exactly what the API shows, with one derivation.
 */

function jsonValue(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const numberOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);

function voiceOfColumns(
  type: unknown,
  engine: unknown,
  language: unknown,
  gender: unknown,
  settings: unknown,
  f0: unknown = null,
  centroid: unknown = null,
): LibraryVoice {
  return {
    type: type === 'clone' || type === 'design' ? type : 'preset',
    engine: typeof engine === 'string' ? engine : '',
    language: typeof language === 'string' ? language : '',
    gender: gender === 'female' || gender === 'male' ? gender : null,
    settings: readSettings(jsonValue(settings)),
    medianF0Hz: numberOrNull(f0),
    centroidHz: numberOrNull(centroid),
  };
}

/** Registers the functions the fragments below call; idempotent (a second registration replaces the first). */
export function registerLibraryFunctions(db: Db): void {
  const deterministic = { deterministic: true, varargs: false } as const;
  db.function(
    'voice_library_tags',
    deterministic,
    (type: unknown, engine: unknown, language: unknown, gender: unknown, settings: unknown, f0: unknown, centroid: unknown) =>
      JSON.stringify(libraryTags(voiceOfColumns(type, engine, language, gender, settings, f0, centroid))),
  );
  db.function('voice_library_category', deterministic, (type: unknown, engine: unknown) => libraryCategory(voiceOfColumns(type, engine, '', null, '{}')));
  db.function('voice_is_clear', deterministic, (type: unknown, engine: unknown, settings: unknown) =>
    Number(isMeasuredClear(voiceOfColumns(type, engine, '', null, settings))),
  );
}

/** The library's tags of the row `v`, as JSON text. */
export const LIBRARY_TAGS = `voice_library_tags(v.type, v.engine, v.language, v.gender, v.settings, ${measureOf('median_f0_hz')}, ${measureOf('centroid_hz')})`;
/** The built-in category of the row `v`. */
export const LIBRARY_CATEGORY = 'voice_library_category(v.type, v.engine)';

/** An engine's place in ENGINES_BY_CLARITY; engines not in it come after those that are. */
const CLARITY_RANK = `CASE v.engine ${ENGINES_BY_CLARITY.map((engine, rank) => `WHEN '${engine}' THEN ${rank}`).join(' ')} ELSE ${ENGINES_BY_CLARITY.length} END`;

/**
 * The default order, clearest first: voices measured intelligible, then by engine (neural before
 * classic before eSpeak), then a clone's or design's measured word accuracy, then by name.
 */
export const CLEAREST_FIRST = `voice_is_clear(v.type, v.engine, v.settings) DESC, ${CLARITY_RANK}, v.settings ->> '$.intelligibility' DESC NULLS LAST, `;

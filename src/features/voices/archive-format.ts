/**
 * The voice archive format: clone and design voices moved between Timbre installations.
 *
 * Format: a zip file holding
 *   - `manifest.json`:
 *       { "format": "timbre-voices", "version": 1, "exported_at": "<ISO 8601>",
 *         "voices": [{ "id", "name", "type": "clone"|"design", "engine", "engine_voice", "language",
 *                      "languages", "gender": "female"|"male"|null, "description": string|null, "tags",
 *                      "settings": {…}, "license"?: string|null, "sample_rate"?: integer|null,
 *                      "samples": [{ "file": "samples/<voice id>/<n>.wav", "duration", "sample_rate",
 *                                    "transcript": string|null }] }] }
 *   - the sample files, `samples/<voice id>/<n>.wav` with n = 1, 2, … in manifest order
 *     (stored uncompressed: WAV barely deflates and storing keeps export cheap);
 *   - the files a voice speaks with besides its samples (a zero-shot reference recording, a Kokoro
 *     style vector), `files/<voice id>/<name>`, named in the voice's optional `"files": [name…]`.
 *     Every file the voice's `settings.rendering` refers to must be there.
 * Voice ids are `voice_` + 1..64 of `A-Z a-z 0-9 _ -`; at most 1000 voices, 20 samples each.
 *
 * Reading (voice-archive-reader.ts): only `manifest.json`, `samples/<id>/<n>.wav` and
 * `files/<id>/<name>` entries are read. Any entry name that could leave a folder (`..`, absolute,
 * backslash, NUL) makes the archive invalid; other names are ignored. Every sample the manifest names
 * must be in the zip and be a non-empty PCM WAV; its duration and rate are measured from the file,
 * not taken from the manifest.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { EngineIdSchema } from '../../platform/engines/engine-id-schema.js';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { DisplayNameSchema } from '../../platform/text/display-name.js';
import { VOICE_FILE, CUSTOM_VOICE_ID } from '../../platform/speech/voice-files.js';

export const ARCHIVE_FORMAT = 'timbre-voices';
export const ARCHIVE_VERSION = 1;
export const MANIFEST = 'manifest.json';
/** Entries the reader takes: the manifest, samples and other voice files; anything else is ignored. */
export const SAMPLE_ENTRY = /^samples\/(voice_[A-Za-z0-9_-]{1,64})\/([1-9][0-9]?)\.wav$/;
export const FILE_ENTRY = /^files\/(voice_[A-Za-z0-9_-]{1,64})\/[A-Za-z0-9_-]{1,64}\.(wav|f32)$/;

/** Field rules shared by the API and the archive. */
export const VoiceNameSchema = DisplayNameSchema(100);
export const DescriptionSchema = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]);
export const TagsSchema = Type.Array(DisplayNameSchema(40), { maxItems: 32 });

const ManifestSampleSchema = Type.Object(
  {
    file: Type.String(),
    duration: Type.Number({ minimum: 0 }),
    sample_rate: Type.Integer({ minimum: 1 }),
    transcript: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: false },
);

const ManifestVoiceSchema = Type.Object(
  {
    id: Type.String({ pattern: CUSTOM_VOICE_ID.source }),
    name: VoiceNameSchema,
    type: Type.Union([Type.Literal('clone'), Type.Literal('design')]),
    engine: EngineIdSchema,
    engine_voice: Type.String({ minLength: 1, maxLength: 200 }),
    language: Type.String({ minLength: 1, maxLength: 35 }),
    languages: Type.Array(Type.String({ minLength: 1, maxLength: 35 }), { maxItems: 100 }),
    gender: Type.Union([Type.Literal('female'), Type.Literal('male'), Type.Null()]),
    description: DescriptionSchema,
    tags: TagsSchema,
    settings: Type.Record(Type.String(), Type.Unknown()),
    license: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()])),
    sample_rate: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
    samples: Type.Array(ManifestSampleSchema, { maxItems: 20 }),
    files: Type.Optional(Type.Array(Type.String({ pattern: VOICE_FILE.source }), { maxItems: 8, uniqueItems: true })),
  },
  { additionalProperties: false },
);

export const ManifestSchema = Type.Object(
  {
    format: Type.Literal(ARCHIVE_FORMAT),
    version: Type.Literal(ARCHIVE_VERSION),
    exported_at: Type.String(),
    voices: Type.Array(ManifestVoiceSchema, { maxItems: 1000 }),
  },
  { additionalProperties: false },
);

export type Manifest = Static<typeof ManifestSchema>;
export type ManifestVoice = Static<typeof ManifestVoiceSchema>;

export interface ArchiveProblem {
  code: string;
  message: string;
}

export function sampleEntry(voiceId: string, n: number): string {
  return `samples/${voiceId}/${n}.wav`;
}

export function voiceFileEntry(voiceId: string, name: string): string {
  return `files/${voiceId}/${name}`;
}

/** A name that could point outside the folder it is extracted into. */
export function isUnsafeEntryName(name: string): boolean {
  return name.startsWith('/') || name.includes('\\') || name.includes('\0') || /^[A-Za-z]:/.test(name) || name.split('/').includes('..');
}

/**
 * The archive as a stream: the manifest (deflated), then each file stored as it is on disk, read
 * chunk by chunk as the client takes them, so an archive of any size never sits in memory.
 * `files`: entry name → path of the file.
 */
export function packArchive(manifest: Manifest, files: ReadonlyMap<string, string>): Readable {
  return Readable.from(zipChunks(manifest, files), { objectMode: false });
}

async function* zipChunks(manifest: Manifest, files: ReadonlyMap<string, string>): AsyncGenerator<Uint8Array> {
  const zip = new Zip();
  let ready: Uint8Array[] = [];
  let failure: Error | null = null;
  zip.ondata = (error, chunk) => {
    if (error) failure = error;
    else ready.push(chunk);
  };
  const written = (): Uint8Array[] => {
    if (failure) throw failure;
    const chunks = ready;
    ready = [];
    return chunks;
  };
  const manifestEntry = new ZipDeflate(MANIFEST, { level: 6 });
  zip.add(manifestEntry);
  manifestEntry.push(new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`), true);
  yield* written();
  for (const [name, path] of files) {
    const entry = new ZipPassThrough(name);
    zip.add(entry);
    for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
      entry.push(chunk);
      yield* written();
    }
    entry.push(new Uint8Array(0), true);
    yield* written();
  }
  zip.end();
  yield* written();
}

/** The manifest's problems, or the manifest when it is valid. */
export function parseManifest(bytes: Uint8Array, problems: ArchiveProblem[]): Manifest | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    problems.push({ code: 'manifest_invalid', message: `${MANIFEST} is not JSON` });
    return undefined;
  }
  if (Value.Check(ManifestSchema, parsed)) return parsed;
  for (const error of [...Value.Errors(ManifestSchema, parsed)].slice(0, 20)) {
    problems.push({ code: 'manifest_invalid', message: `${MANIFEST}${error.instancePath || ''} ${error.message}` });
  }
  return undefined;
}

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
 * Reading: only `manifest.json` and `samples/<id>/<n>.wav` entries are read. Any entry name that
 * could leave a folder (`..`, absolute, backslash, NUL) makes the archive invalid; other names are
 * ignored. Every sample the manifest names must be in the zip and be a non-empty PCM WAV; its
 * duration and rate are measured from the file, not taken from the manifest.
 */
import { unzipSync, zipSync, type Zippable } from 'fflate';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { parseWav } from '../audio/wav.js';
import { DisplayNameSchema } from '../text/display-name.js';
import { VOICE_FILE } from '../store/voice-files.js';
import { CUSTOM_VOICE_ID } from '../store/voice-repository.js';
import { renderingFileNames } from './voice-rendering.js';

export const ARCHIVE_FORMAT = 'timbre-voices';
export const ARCHIVE_VERSION = 1;
const MANIFEST = 'manifest.json';
const SAMPLE_ENTRY = /^samples\/(voice_[A-Za-z0-9_-]{1,64})\/([1-9][0-9]?)\.wav$/;
const FILE_ENTRY = /^files\/(voice_[A-Za-z0-9_-]{1,64})\/[A-Za-z0-9_-]{1,64}\.(wav|f32)$/;
const MAX_MANIFEST_BYTES = 1024 * 1024;
const MAX_SAMPLE_BYTES = 100 * 1024 * 1024;
/** Declared sizes are checked before inflating, so a zip bomb is refused without expanding it. */
const MAX_EXPANDED_BYTES = 1024 * 1024 * 1024;

/** Field rules shared by the API and the archive. */
export const VoiceNameSchema = DisplayNameSchema(100);
export const DescriptionSchema = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()]);
export const TagsSchema = Type.Array(DisplayNameSchema(40), { maxItems: 32 });

const ManifestSampleSchema = Type.Object(
  { file: Type.String(), duration: Type.Number({ minimum: 0 }), sample_rate: Type.Integer({ minimum: 1 }), transcript: Type.Union([Type.String(), Type.Null()]) },
  { additionalProperties: false },
);

const ManifestVoiceSchema = Type.Object(
  {
    id: Type.String({ pattern: CUSTOM_VOICE_ID.source }),
    name: VoiceNameSchema,
    type: Type.Union([Type.Literal('clone'), Type.Literal('design')]),
    engine: Type.String({ minLength: 1, maxLength: 64 }),
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

export interface SampleAudio {
  bytes: Uint8Array;
  duration: number;
  sampleRate: number;
}

export interface UnpackedArchive {
  /** Present when the manifest itself is valid; the archive can be imported only without problems. */
  manifest?: Manifest;
  /** Audio of every sample the manifest names, keyed by entry name. */
  samples: Map<string, SampleAudio>;
  /** Every other voice file the manifest names, keyed by entry name. */
  voiceFiles: Map<string, Uint8Array>;
  problems: ArchiveProblem[];
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

/** `files`: samples and other voice files by entry name. */
export function packArchive(manifest: Manifest, files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const entries: Zippable = { [MANIFEST]: [new TextEncoder().encode(`${JSON.stringify(manifest, null, 2)}\n`), { level: 6 }] };
  for (const [name, bytes] of files) entries[name] = [bytes, { level: 0 }];
  return zipSync(entries);
}

/** Reads and checks an archive without writing anything; `problems` says why it cannot be imported. */
export function unpackArchive(zip: Uint8Array): UnpackedArchive {
  const problems: ArchiveProblem[] = [];
  const files = unzipEntries(zip, problems);
  const manifest = files && parseManifest(files.get(MANIFEST), problems);
  const samples = new Map<string, SampleAudio>();
  const voiceFiles = new Map<string, Uint8Array>();
  if (!files || !manifest) return { samples, voiceFiles, problems };
  const seen = new Set<string>();
  for (const voice of manifest.voices) {
    if (seen.has(voice.id)) problems.push({ code: 'duplicate_voice', message: `Voice ${voice.id} appears twice in the manifest` });
    seen.add(voice.id);
    voice.samples.forEach((sample, index) => {
      const expected = sampleEntry(voice.id, index + 1);
      if (sample.file !== expected) problems.push({ code: 'sample_name_invalid', message: `Sample ${index + 1} of ${voice.id} must be ${expected}, not ${sample.file}` });
      else checkSample(expected, files.get(expected), samples, problems);
    });
    for (const name of voice.files ?? []) {
      const bytes = files.get(voiceFileEntry(voice.id, name));
      if (bytes) voiceFiles.set(voiceFileEntry(voice.id, name), bytes);
      else problems.push({ code: 'file_missing', message: `${voiceFileEntry(voice.id, name)} is named in the manifest but not in the archive` });
    }
    for (const name of renderingFileNames(voice.settings).filter((used) => !(voice.files ?? []).includes(used))) {
      problems.push({ code: 'file_missing', message: `Voice ${voice.id} speaks with ${name}, which the archive does not carry` });
    }
  }
  return { manifest, samples, voiceFiles, problems };
}

function unzipEntries(zip: Uint8Array, problems: ArchiveProblem[]): Map<string, Uint8Array> | undefined {
  let expanded = 0;
  const wanted = (file: { name: string; originalSize: number }): boolean => {
    if (isUnsafeEntryName(file.name)) {
      problems.push({ code: 'unsafe_entry', message: `The entry name ${JSON.stringify(file.name)} could leave its folder` });
      return false;
    }
    const limit = file.name === MANIFEST ? MAX_MANIFEST_BYTES : SAMPLE_ENTRY.test(file.name) || FILE_ENTRY.test(file.name) ? MAX_SAMPLE_BYTES : 0;
    if (limit === 0) return false;
    expanded += file.originalSize;
    if (file.originalSize <= limit && expanded <= MAX_EXPANDED_BYTES) return true;
    problems.push({ code: 'entry_too_large', message: `${file.name} is larger than allowed` });
    return false;
  };
  try {
    const entries = unzipSync(zip, { filter: wanted });
    return problems.length > 0 ? undefined : new Map(Object.entries(entries));
  } catch (error) {
    problems.push({ code: 'archive_unreadable', message: `Not a readable zip file: ${(error as Error).message}` });
    return undefined;
  }
}

function parseManifest(bytes: Uint8Array | undefined, problems: ArchiveProblem[]): Manifest | undefined {
  if (!bytes) {
    problems.push({ code: 'manifest_missing', message: `The archive has no ${MANIFEST}` });
    return undefined;
  }
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

function checkSample(name: string, bytes: Uint8Array | undefined, samples: Map<string, SampleAudio>, problems: ArchiveProblem[]): void {
  if (!bytes) {
    problems.push({ code: 'sample_missing', message: `${name} is named in the manifest but not in the archive` });
    return;
  }
  try {
    const pcm = parseWav(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if (pcm.samples.length === 0 || pcm.sampleRate <= 0) throw new Error('no audio');
    samples.set(name, { bytes, duration: pcm.samples.length / pcm.sampleRate, sampleRate: pcm.sampleRate });
  } catch (error) {
    problems.push({ code: 'sample_not_wav', message: `${name} is not a usable WAV file: ${(error as Error).message}` });
  }
}

import { readFileSync } from 'node:fs';

/**
 * The models Timbre knows how to install: where each official archive lives, how big it is, its
 * sha256, and which files make the model complete. An installed model is `<modelsDir>/<name>/`
 * holding the archive's files under their official names.
 *
 * Verification policy: a known size or sha256 is always checked and a mismatch is refused. Where
 * no trustworthy pin exists (`null`), the archive is still installed, because the default set
 * needs it, but the installer warns that it is unverified and prints the sha256 it got. Files of
 * unknown size are checked for presence and, for `.onnx`, for an ONNX header.
 */

export interface CatalogFile {
  /** Path inside the model folder (and inside the archive's root folder). */
  path: string;
  bytes: number | null;
  sha256: string | null;
}

export interface CatalogArchive {
  /** `.tar.bz2` is unpacked; anything else is the model's single file itself. */
  url: string;
  bytes: number | null;
  sha256: string | null;
  /** The folder the archive unpacks to; its contents become the model folder. */
  rootDir?: string;
}

export interface CatalogModel {
  name: string;
  engine: string;
  kind: EngineKind;
  description: string;
  license: string;
  licenseNote?: string;
  /** BCP-47 tags; `*` means language-independent. */
  languages: string[];
  archive: CatalogArchive;
  /** Bare files published apart from the archive that belong in the model folder (ZipVoice's vocoder). */
  extras?: (CatalogFile & { url: string })[];
  files: CatalogFile[];
  /** Folder holding this model's files in a `../shared/models`-style source (`--from`). */
  sharedPath: string;
}

export const BASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/';

/** What `npm run setup` and `timbre models install --defaults` install. */
export const DEFAULT_MODELS = ['silero-vad', 'kokoro-multi-lang-v1_0-int8', 'pocket-tts-int8', 'whisper-tiny.en', 'campplus-en-voxceleb'];

/** Test-only: a JSON file with extra entries (same shape) whose URLs may be http://127.0.0.1. */
export const TEST_CATALOG_ENV = 'TIMBRE_MODELS_TEST_CATALOG';

const unknown = (path: string): CatalogFile => ({ path, bytes: null, sha256: null });
const unverified = (url: string, rootDir?: string): CatalogArchive => ({ url: BASE_URL + url, bytes: null, sha256: null, rootDir });

const BUILT_IN: CatalogModel[] = [
  {
    name: 'silero-vad',
    engine: 'silero-vad',
    kind: 'vad',
    description: 'Silero VAD v5: finds speech in audio',
    license: 'MIT',
    languages: ['*'],
    archive: { url: `${BASE_URL}asr-models/silero_vad.onnx`, bytes: 2_327_524, sha256: '1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3' },
    files: [{ path: 'silero_vad.onnx', bytes: 2_327_524, sha256: '1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3' }],
    sharedPath: 'asr',
  },
  {
    name: 'kokoro-multi-lang-v1_0-int8',
    engine: 'kokoro',
    kind: 'synthesizer',
    description: 'Kokoro-82M v1.0 int8: 53 preset voices, blendable',
    license: 'Apache-2.0',
    licenseNote: 'The pack also carries espeak-ng-data (GPL-3.0-or-later)',
    languages: ['en-US', 'en-GB', 'es', 'fr', 'hi', 'it', 'ja', 'pt-BR', 'zh'],
    archive: {
      url: `${BASE_URL}tts-models/kokoro-int8-multi-lang-v1_0.tar.bz2`,
      bytes: 131_839_838,
      // Pinned by third-party manifests, not by sherpa-onnx itself; a mismatch is still refused.
      sha256: '75654a84864be26f345f020f4070c2c019e96dd1b7f9bf6e2ffd59efac6aa5a3',
      rootDir: 'kokoro-int8-multi-lang-v1_0',
    },
    files: [
      { path: 'model.int8.onnx', bytes: 114_298_054, sha256: null },
      { path: 'voices.bin', bytes: 27_678_720, sha256: '8a77c0d397026208d22211f37670b5b3b11e03f190756b25a1d24041fced82a9' },
      { path: 'tokens.txt', bytes: 687, sha256: '6ebb6bb288f20f3ae8d004d3c2ca27697da27c037d75e81a60e2a6a663f95425' },
    ],
    sharedPath: 'kokoro',
  },
  {
    name: 'pocket-tts-int8',
    engine: 'pocket-tts',
    kind: 'synthesizer',
    description: 'Pocket TTS by Kyutai, int8: zero-shot cloning from a reference recording',
    license: 'CC-BY-4.0',
    licenseNote: 'Attribution "Pocket TTS by Kyutai"; clone a voice only with the speaker\'s explicit consent',
    languages: ['en'],
    archive: {
      url: `${BASE_URL}tts-models/sherpa-onnx-pocket-tts-int8-2026-01-26.tar.bz2`,
      bytes: 98_336_520,
      sha256: '2f3b88823cbbb9bf0b2477ec8ae7b3fec417b3a87b6bb5f256dba66f2ad967cb',
      rootDir: 'sherpa-onnx-pocket-tts-int8-2026-01-26',
    },
    files: [
      { path: 'lm_flow.int8.onnx', bytes: 9_962_530, sha256: '8d627d235c44a597da908e1085ebe241cbbe358964c502c5a5063d18851a5529' },
      { path: 'lm_main.int8.onnx', bytes: 76_341_079, sha256: 'bfc0c7e7e3d72864fa3bb2ee499f62f21ddc1474b885f5f3ca570f8be73e787e' },
      { path: 'encoder.onnx', bytes: 72_713_165, sha256: 'e8f2f6d301ffb96e398b138a7dc6d3038622d236044636b73d920bab85890260' },
      { path: 'decoder.int8.onnx', bytes: 22_693_618, sha256: '12b0857402d31aead94df19d6783b4350d1f740e811f3a3202c70ad89ae11eea' },
      { path: 'text_conditioner.onnx', bytes: 16_388_343, sha256: '0b84e837d7bfaf2c896627b03e3f080320309f37f4fc7df7698c644f7ba5e6b1' },
      { path: 'vocab.json', bytes: 69_478, sha256: '6fb646346cf931016f70c4921aab0900ce7a304b893cb02135c74e294abfea01' },
      { path: 'token_scores.json', bytes: 123_616, sha256: '5be2f278caf9b9800741f0fd82bff677f4943ec764c356f907213434b622d958' },
    ],
    sharedPath: 'pocket-tts',
  },
  {
    name: 'kitten-nano-en-v0_2-fp16',
    engine: 'kitten',
    kind: 'synthesizer',
    description: 'KittenTTS nano v0.2: small English preset voices, blendable',
    license: 'Apache-2.0',
    licenseNote: 'The pack also carries espeak-ng-data (GPL-3.0-or-later)',
    languages: ['en-US'],
    archive: unverified('tts-models/kitten-nano-en-v0_2-fp16.tar.bz2', 'kitten-nano-en-v0_2-fp16'),
    files: ['model.fp16.onnx', 'voices.bin', 'tokens.txt'].map(unknown),
    sharedPath: 'kitten',
  },
  {
    name: 'zipvoice-distill-int8-zh-en-emilia',
    engine: 'zipvoice',
    kind: 'synthesizer',
    description: 'ZipVoice distilled int8: zero-shot cloning from a reference recording and its transcript (Chinese, English)',
    license: 'Apache-2.0',
    licenseNote: "Trained on Emilia (reportedly CC-BY-NC-4.0: check before commercial use); Vocos vocoder MIT; clone a voice only with the speaker's consent",
    languages: ['zh', 'en'],
    archive: unverified('tts-models/sherpa-onnx-zipvoice-distill-int8-zh-en-emilia.tar.bz2', 'sherpa-onnx-zipvoice-distill-int8-zh-en-emilia'),
    extras: [{ url: `${BASE_URL}vocoder-models/vocos_24khz.onnx`, path: 'vocos_24khz.onnx', bytes: null, sha256: null }],
    files: ['encoder.int8.onnx', 'decoder.int8.onnx', 'tokens.txt', 'lexicon.txt', 'vocos_24khz.onnx'].map(unknown),
    sharedPath: 'zipvoice',
  },
  {
    name: 'piper-en-us-lessac-medium',
    engine: 'vits',
    kind: 'synthesizer',
    description: 'Piper (VITS) en_US lessac medium: one US English voice',
    license: 'MIT',
    licenseNote: 'Piper code MIT; the voice data license is in the MODEL_CARD of each voice',
    languages: ['en-US'],
    archive: unverified('tts-models/vits-piper-en_US-lessac-medium.tar.bz2', 'vits-piper-en_US-lessac-medium'),
    files: ['en_US-lessac-medium.onnx', 'tokens.txt'].map(unknown),
    sharedPath: 'piper-en-us-lessac-medium',
  },
  {
    name: 'whisper-tiny.en',
    engine: 'whisper',
    kind: 'recognizer',
    description: 'Whisper tiny.en int8: English speech recognition',
    license: 'MIT',
    languages: ['en'],
    archive: unverified('asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2', 'sherpa-onnx-whisper-tiny.en'),
    files: ['tiny.en-encoder.int8.onnx', 'tiny.en-decoder.int8.onnx', 'tiny.en-tokens.txt'].map(unknown),
    sharedPath: 'whisper-tiny.en',
  },
  {
    name: 'moonshine-tiny-en-int8',
    engine: 'moonshine',
    kind: 'recognizer',
    description: 'Moonshine tiny int8: fast English speech recognition',
    license: 'MIT',
    languages: ['en'],
    archive: unverified('asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2', 'sherpa-onnx-moonshine-tiny-en-int8'),
    files: ['preprocess.onnx', 'encode.int8.onnx', 'uncached_decode.int8.onnx', 'cached_decode.int8.onnx', 'tokens.txt'].map(unknown),
    sharedPath: 'moonshine-tiny-en-int8',
  },
  {
    name: 'campplus-en-voxceleb',
    engine: 'speaker-embedding',
    kind: 'voiceprint',
    description: '3D-Speaker CAM++ (VoxCeleb): speaker embeddings for voice similarity',
    license: 'Apache-2.0',
    languages: ['en'],
    // The release tag really is spelled "recongition".
    archive: unverified('speaker-recongition-models/3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx'),
    files: [unknown('3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx')],
    sharedPath: 'campplus-en-voxceleb',
  },
  {
    name: 'wespeaker-resnet34-en',
    engine: 'speaker-embedding',
    kind: 'voiceprint',
    description: 'WeSpeaker ResNet34 (VoxCeleb): speaker embeddings for voice similarity',
    license: 'CC-BY-4.0',
    languages: ['en'],
    archive: unverified('speaker-recongition-models/wespeaker_en_voxceleb_resnet34.onnx'),
    files: [unknown('wespeaker_en_voxceleb_resnet34.onnx')],
    sharedPath: 'wespeaker-resnet34-en',
  },
];

export class CatalogError extends Error {}

const NAME = /^[a-z0-9][a-z0-9._-]*$/;
const SHA256 = /^[0-9a-f]{64}$/;

/** A path relative to a model folder that cannot leave it. */
function isSafeRelativePath(path: string): boolean {
  return path !== '' && !path.startsWith('/') && path.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The problems of one entry (empty when sound): every path the installer builds comes from these fields. */
export function entryProblems(model: CatalogModel): string[] {
  const problems: string[] = [];
  if (!NAME.test(model.name ?? '')) problems.push(`name "${model.name}" must match ${NAME}`);
  if (!isSafeRelativePath(model.sharedPath ?? '')) problems.push(`sharedPath "${model.sharedPath}" is not a safe relative path`);
  if (model.archive?.rootDir !== undefined && !isSafeRelativePath(model.archive.rootDir)) problems.push(`rootDir "${model.archive.rootDir}" is not safe`);
  if (!/^https?:\/\//.test(model.archive?.url ?? '')) problems.push('archive.url must be an http(s) URL');
  if (!Array.isArray(model.files) || model.files.length === 0) problems.push('files must list at least one file');
  for (const file of [...(model.files ?? []), ...(model.extras ?? [])]) {
    if (!isSafeRelativePath(file.path)) problems.push(`file path "${file.path}" is not safe`);
    if (file.sha256 !== null && !SHA256.test(file.sha256)) problems.push(`${file.path}: sha256 must be 64 lowercase hex digits`);
  }
  for (const extra of model.extras ?? []) {
    if (!/^https?:\/\//.test(extra.url)) problems.push(`${extra.path}: url must be an http(s) URL`);
    if (!model.files.some((file) => file.path === extra.path)) problems.push(`${extra.path}: an extra must also be listed in files`);
  }
  if (model.archive?.sha256 != null && !SHA256.test(model.archive.sha256)) problems.push('archive.sha256 must be 64 lowercase hex digits');
  return problems;
}

function testEntries(env: NodeJS.ProcessEnv): CatalogModel[] {
  const file = env[TEST_CATALOG_ENV];
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as CatalogModel[]) : [];
}

/** Every installable model; entries from the test catalog are validated like the built-in ones. */
export function catalog(env: NodeJS.ProcessEnv = process.env): CatalogModel[] {
  const models = [...BUILT_IN, ...testEntries(env)];
  for (const model of models) {
    const problems = entryProblems(model);
    if (problems.length > 0) throw new CatalogError(`Catalog entry "${model.name}": ${problems.join('; ')}`);
  }
  return models;
}

/** True when http:// to a loopback address is allowed: only while a test catalog is in use. */
export function testMode(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env[TEST_CATALOG_ENV]);
}

/** The catalog entry for a name given by a user; anything else is refused before touching files. */
export function findModel(name: string, env: NodeJS.ProcessEnv = process.env): CatalogModel {
  const model = catalog(env).find((entry) => entry.name === name);
  if (!model)
    throw new CatalogError(
      `Unknown model "${name}". Known models: ${catalog(env)
        .map((entry) => entry.name)
        .join(', ')}`,
    );
  return model;
}

/**
 * The contracts every speech engine implements. Services call engines only through the engine
 * host (src/engines/host), which runs them in a supervised child process.
 */

export type EngineKind = 'synthesizer' | 'recognizer' | 'voiceprint' | 'vad';

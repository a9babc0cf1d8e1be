import type { CatalogArchive, CatalogFile, CatalogModel, FilePin } from './catalog-types.js';

/**
 * The built-in catalog: each official sherpa-onnx release asset, the files its archive holds, and
 * the pins we could establish. sherpa-onnx publishes a checksum.txt per release tag, but its
 * contents are not reachable from here; the pins below come from independent third-party
 * manifests that recorded the same assets (sizes from the release listing, sha256 from GitHub's
 * asset digests). docs/models.md lists which entries are pinned and which remain unverified.
 */

export const BASE_URL = 'https://github.com/k2-fsa/sherpa-onnx/releases/download/';

/** What `npm run setup` and `timbre models install --defaults` install. */
export const DEFAULT_MODELS = ['silero-vad', 'kokoro-multi-lang-v1_0-int8', 'pocket-tts-int8', 'whisper-tiny.en', 'campplus-en-voxceleb'];

/**
 * Files each Kokoro language needs beyond the model: sherpa's multi-language frontend reads
 * Chinese only through lexicon-zh.txt (without it Chinese text is dropped or yields no audio);
 * the other languages go through espeak-ng. The Kokoro engine offers a language only with these.
 */
export const KOKORO_LANGUAGE_FILES: Record<string, string[]> = { zh: ['lexicon-zh.txt'] };

const unknown = (path: string): CatalogFile => ({ path, bytes: null, sha256: null });
const asset = (path: string, bytes: number | null, sha256: string | null, rootDir?: string): CatalogArchive => ({
  url: BASE_URL + path,
  bytes,
  sha256,
  rootDir,
});

/** A model published as one bare file: the download is the file, pinned alike. */
const bareFile = (tag: string, name: string, pin: FilePin) => ({ archive: { url: BASE_URL + tag + name, ...pin }, files: [{ path: name, ...pin }] });

const SILERO_OFFICIAL = { bytes: 643_854, sha256: '9e2449e1087496d8d4caba907f23e0bd3f78d91fa552479bb9c23ac09cbb1fd6' };

export const BUILT_IN: CatalogModel[] = [
  {
    name: 'silero-vad',
    engine: 'silero-vad',
    kind: 'vad',
    description: 'Silero VAD (sherpa-onnx export, 16 kHz): finds speech in audio',
    license: 'MIT',
    languages: ['*'],
    archive: asset('asr-models/silero_vad.onnx', SILERO_OFFICIAL.bytes, SILERO_OFFICIAL.sha256),
    files: [
      {
        path: 'silero_vad.onnx',
        ...SILERO_OFFICIAL,
        alternatives: [
          { bytes: 2_327_524, sha256: '1a153a22f4509e292a94e67d6f9b85e8deb25b4988682b7e174c65279d8788e3', what: 'Silero VAD v5 from snakers4/silero-vad' },
        ],
      },
    ],
    sharedPath: 'asr',
  },
  {
    name: 'kokoro-multi-lang-v1_0-int8',
    engine: 'kokoro',
    kind: 'synthesizer',
    description: 'Kokoro-82M v1.0 int8: 48 preset voices in 8 languages, blendable',
    license: 'Apache-2.0',
    licenseNote: 'The pack also carries espeak-ng-data (GPL-3.0-or-later)',
    languages: ['en-US', 'en-GB', 'es', 'fr', 'hi', 'it', 'pt-BR', 'zh'],
    languageFiles: KOKORO_LANGUAGE_FILES,
    optional: ['lexicon-us-en.txt', 'lexicon-gb-en.txt', 'lexicon-zh.txt', 'espeak-ng-data'],
    // Re-uploaded under the same name (the release workflow overwrites it), so pinned by contents.
    archive: asset('tts-models/kokoro-int8-multi-lang-v1_0.tar.bz2', null, null, 'kokoro-int8-multi-lang-v1_0'),
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
    archive: asset(
      'tts-models/sherpa-onnx-pocket-tts-int8-2026-01-26.tar.bz2',
      98_336_520,
      '2f3b88823cbbb9bf0b2477ec8ae7b3fec417b3a87b6bb5f256dba66f2ad967cb',
      'sherpa-onnx-pocket-tts-int8-2026-01-26',
    ),
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
    optional: ['espeak-ng-data'],
    archive: asset(
      'tts-models/kitten-nano-en-v0_2-fp16.tar.bz2',
      26_586_708,
      '0345a8a2f4a710cb8f7912c9a731ded8b3e1e69b33a871efa95c2e64651518fe',
      'kitten-nano-en-v0_2-fp16',
    ),
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
    optional: ['espeak-ng-data'],
    archive: asset(
      'tts-models/sherpa-onnx-zipvoice-distill-int8-zh-en-emilia.tar.bz2',
      109_162_785,
      '77219c8b40f4ee8d73a7f902305ff6c1128ef9b54461c41b4ca6ed890b6c2803',
      'sherpa-onnx-zipvoice-distill-int8-zh-en-emilia',
    ),
    extras: [
      {
        url: `${BASE_URL}vocoder-models/vocos_24khz.onnx`,
        path: 'vocos_24khz.onnx',
        bytes: 54_157_409,
        sha256: 'bcb3b970e384161c4d634f0bb9e999ff1c471b34c9bc0b1049a5014065ed3cc0',
      },
    ],
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
    optional: ['espeak-ng-data'],
    archive: asset(
      'tts-models/vits-piper-en_US-lessac-medium.tar.bz2',
      67_230_653,
      '9e3febfacf0abf4270172d2958bcec246032b7e88efc2720840cc80c93de334e',
      'vits-piper-en_US-lessac-medium',
    ),
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
    // Size from the release listing; no sha256 was found.
    archive: asset('asr-models/sherpa-onnx-whisper-tiny.en.tar.bz2', 118_071_777, null, 'sherpa-onnx-whisper-tiny.en'),
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
    archive: asset('asr-models/sherpa-onnx-moonshine-tiny-en-int8.tar.bz2', null, null, 'sherpa-onnx-moonshine-tiny-en-int8'),
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
    ...bareFile('speaker-recongition-models/', '3dspeaker_speech_campplus_sv_en_voxceleb_16k.onnx', {
      bytes: 29_596_978,
      sha256: '357a834f702b80161e5b981182c038e18553c1f2ca752ed6cec2052365d4129b',
    }),
    sharedPath: 'campplus-en-voxceleb',
  },
  {
    name: 'wespeaker-resnet34-en',
    engine: 'speaker-embedding',
    kind: 'voiceprint',
    description: 'WeSpeaker ResNet34 (VoxCeleb): speaker embeddings for voice similarity',
    license: 'CC-BY-4.0',
    languages: ['en'],
    ...bareFile('speaker-recongition-models/', 'wespeaker_en_voxceleb_resnet34.onnx', {
      bytes: 26_534_365,
      sha256: '5ef208a9da1453335308a6b6f4e6dfbd7e183a38b604de0a57664f45d257fe94',
    }),
    sharedPath: 'wespeaker-resnet34-en',
  },
];

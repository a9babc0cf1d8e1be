import type { EngineClient } from '../../platform/engines/host/calls.js';
import type { EngineId } from '../../platform/engines/engine-ids.js';
import { TIMBRE_VERSION } from '../../platform/install-dir.js';
import { installedRecognizers } from '../transcription/index.js';
import type { VoiceService } from '../voices/index.js';

/** Who made each synthesizer and recognizer and where it lives: a voice's attribution, with its license. */
const ENGINE_ORIGINS: Readonly<Partial<Record<EngineId, Attribution>>> = {
  pico: { name: 'SVOX Pico', url: 'https://android.googlesource.com/platform/external/svox' },
  espeak: { name: 'eSpeak NG', url: 'https://github.com/espeak-ng/espeak-ng' },
  festival: { name: 'Festival', url: 'https://www.cstr.ed.ac.uk/projects/festival/' },
  flite: { name: 'Flite', url: 'https://github.com/festvox/flite' },
  openjtalk: { name: 'Open JTalk', url: 'https://open-jtalk.sourceforge.net/' },
  rhvoice: { name: 'RHVoice', url: 'https://github.com/RHVoice/RHVoice' },
  pocketsphinx: { name: 'PocketSphinx', url: 'https://github.com/cmusphinx/pocketsphinx' },
  kokoro: { name: 'Kokoro', url: 'https://huggingface.co/hexgrad/Kokoro-82M' },
  kitten: { name: 'KittenTTS', url: 'https://github.com/KittenML/KittenTTS' },
  'pocket-tts': { name: 'Pocket TTS', url: 'https://github.com/kyutai-labs/pocket-tts' },
  zipvoice: { name: 'ZipVoice', url: 'https://github.com/k2-fsa/ZipVoice' },
  vits: { name: 'Piper/VITS', url: 'https://github.com/k2-fsa/sherpa-onnx' },
  whisper: { name: 'Whisper', url: 'https://github.com/openai/whisper' },
  moonshine: { name: 'Moonshine', url: 'https://github.com/usefulsensors/moonshine' },
};

export interface DescribeDeps {
  voices: Pick<VoiceService, 'list'>;
  engines: EngineClient;
  modelsDir: string;
  /** The HTTP service's address: where Timbre itself is, for its programs' attribution. */
  serviceUrl: string;
}

interface Attribution {
  name: string;
  url: string;
}

type LibraryVoice = Awaited<ReturnType<VoiceService['list']>>['voices'][number];

const PAGE = 500;

/** Every voice that can speak now, page by page. */
async function availableVoices(voices: DescribeDeps['voices']): Promise<LibraryVoice[]> {
  const found: LibraryVoice[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await voices.list({ limit: PAGE, offset });
    found.push(...page.voices.filter((voice) => voice.available));
    if (page.voices.length < PAGE) return found;
  }
}

/** An engine's maker; Timbre itself for one it does not name (an engine added since). */
function originOf(engine: EngineId, timbre: Attribution): Attribution {
  return ENGINE_ORIGINS[engine] ?? timbre;
}

/** A voice as Wyoming's TtsVoice: Home Assistant shows the description and sends back the name (the voice id). */
function ttsVoice(voice: LibraryVoice, timbre: Attribution) {
  const origin = originOf(voice.engine, timbre);
  const made = voice.type === 'preset' ? origin.name : `Timbre ${voice.type} on ${origin.name}`;
  return {
    name: voice.id,
    description: voice.name,
    attribution: { name: voice.license ? `${made} (license: ${voice.license})` : made, url: origin.url },
    installed: true,
    version: null,
    languages: [...new Set([voice.language, ...voice.languages])],
  };
}

/** The `info` event's data: one TTS program with every available voice, one ASR program with the installed recognizers. */
export async function describeService(deps: DescribeDeps) {
  const timbre: Attribution = { name: 'Timbre', url: deps.serviceUrl };
  const [voices, recognizers] = await Promise.all([availableVoices(deps.voices), installedRecognizers(deps.engines, deps.modelsDir)]);
  const program = { name: 'timbre', attribution: timbre, installed: true, version: TIMBRE_VERSION };
  return {
    tts: [
      {
        ...program,
        description: 'Timbre text to speech: every installed voice, spoken as it is synthesized',
        supports_synthesize_streaming: true,
        voices: voices.map((voice) => ttsVoice(voice, timbre)),
      },
    ],
    asr: [
      {
        ...program,
        description: 'Timbre transcription: the best installed recognizer for the language unless a model is named',
        models: recognizers.map((recognizer) => ({
          name: recognizer.engine,
          description: `${originOf(recognizer.engine, timbre).name} speech recognition`,
          attribution: originOf(recognizer.engine, timbre),
          installed: true,
          version: null,
          languages: recognizer.languages,
        })),
      },
    ],
    handle: [],
    intent: [],
    wake: [],
    mic: [],
    snd: [],
  };
}

import { createKokoroEngine } from '../../src/platform/engines/sherpa/kokoro.js';
import { createPocketTtsEngine } from '../../src/platform/engines/sherpa/pocket-tts.js';
import { createSileroVadEngine } from '../../src/platform/engines/sherpa/silero-vad.js';
import { createSpeakerEmbeddingEngine } from '../../src/platform/engines/sherpa/speaker-embedding.js';
import { createWhisperEngine } from '../../src/platform/engines/sherpa/whisper.js';
import { EngineError } from '../../src/platform/errors.js';

const factories = {
  kokoro: createKokoroEngine,
  'pocket-tts': createPocketTtsEngine,
  'silero-vad': createSileroVadEngine,
  'speaker-embedding': createSpeakerEmbeddingEngine,
  whisper: createWhisperEngine,
};

const [family, modelDir] = process.argv.slice(2) as [keyof typeof factories, string];
try {
  await factories[family](modelDir).load();
  console.log(JSON.stringify({ loaded: true }));
} catch (error) {
  console.log(JSON.stringify({ loaded: false, code: error instanceof EngineError ? error.code : 'other', message: String(error) }));
}

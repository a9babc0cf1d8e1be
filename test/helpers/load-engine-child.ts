/**
 * Loads one engine in this (child) process and prints the outcome as JSON, so a test can show a
 * bad model is refused without the native code ever taking the test process down.
 * Usage: node --import tsx test/helpers/load-engine-child.ts <family> <modelDir>
 */
import { EngineError } from '../../src/engines/types.js';
import { createKokoroEngine } from '../../src/engines/sherpa/kokoro.js';
import { createPocketTtsEngine } from '../../src/engines/sherpa/pocket-tts.js';
import { createSileroVadEngine } from '../../src/engines/sherpa/silero-vad.js';
import { createSpeakerEmbeddingEngine } from '../../src/engines/sherpa/speaker-embedding.js';
import { createWhisperEngine } from '../../src/engines/sherpa/whisper.js';

const factories = {
  kokoro: createKokoroEngine, 'pocket-tts': createPocketTtsEngine, 'silero-vad': createSileroVadEngine,
  'speaker-embedding': createSpeakerEmbeddingEngine, whisper: createWhisperEngine,
};

const [family, modelDir] = process.argv.slice(2) as [keyof typeof factories, string];
try {
  await factories[family](modelDir).load();
  console.log(JSON.stringify({ loaded: true }));
} catch (error) {
  console.log(JSON.stringify({ loaded: false, code: error instanceof EngineError ? error.code : 'other', message: String(error) }));
}

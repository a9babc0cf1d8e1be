import type { Pcm } from '../../platform/audio/pcm.js';
import type { EngineClient } from '../../platform/engines/host/calls.js';
import { wordErrorRate } from '../../platform/text/wer.js';
import { installedRecognizers, recognizerFor } from '../transcription/index.js';
import { IntelligibilityCheck, type BaseRates } from './intelligibility.js';
import { probeSentence } from './target.js';

/**
 * Recognition a clone or design needs, by the best installed recognizer for its language: a
 * sample's words (ZipVoice speaks from them) and how intelligible each candidate stays. Both are
 * absent when no installed recognizer handles the language.
 */
export async function recognitionFor(engines: EngineClient, modelsDir: string, language: string, signal: AbortSignal, bases: BaseRates) {
  const recognizer = recognizerFor(await installedRecognizers(engines, modelsDir), language);
  if (!recognizer) return { transcribe: () => Promise.resolve(null), intelligibility: undefined };
  const recognize = async (pcm: Pcm) => (await engines.recognize(recognizer.engine, { pcm, language }, { signal })).text.trim();
  return {
    transcribe: async (pcm: Pcm): Promise<string | null> => (await recognize(pcm)) || null,
    intelligibility: new IntelligibilityCheck(
      { recognizer: recognizer.engine, wordErrorRate: async (pcm: Pcm) => wordErrorRate(probeSentence(language), await recognize(pcm)) },
      bases,
      `${recognizer.engine}|${language}`,
    ),
  };
}

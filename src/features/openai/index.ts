import type { FastifyPluginAsync } from 'fastify';
import type { AssetService } from '../assets/index.js';
import type { TranscriptionService } from '../transcription/index.js';
import type { FileInto } from '../projects/index.js';
import { modelRoutes } from './model-routes.js';
import type { OpenAiService } from './service.js';
import { speechRoutes } from './speech-routes.js';
import { transcriptionRoutes } from './transcription-routes.js';
import { translationRoutes } from './translation-routes.js';

export { installOpenAiErrors, OpenAiErrorEnvelopeSchema } from './errors.js';
export { OpenAiService } from './service.js';

/** OpenAI's audio API on /v1: speech, transcriptions, translations, models and voices. */
export const openAiRoutes: FastifyPluginAsync<{
  openai: OpenAiService;
  transcription: Pick<TranscriptionService, 'transcribe'>;
  assets: AssetService;
  dataDir: string;
  fileInto: FileInto;
}> = async (app, { openai, transcription, assets, dataDir, fileInto }) => {
  await app.register(speechRoutes, { openai, fileInto });
  await app.register(transcriptionRoutes, { openai, transcription, assets, dataDir });
  await app.register(translationRoutes, { openai, transcription, assets, dataDir });
  await app.register(modelRoutes, { openai });
};

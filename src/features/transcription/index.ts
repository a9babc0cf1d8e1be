export { transcribeRoutes } from './routes.js';
export { TranscriptionService, installedRecognizers, recognizerFor } from './service.js';

export { transcribeRoutes } from './routes.js';
export { assetTranscription } from './asset-request.js';
export { renderTextTranscript, TEXT_TRANSCRIPT_FORMATS, type TextTranscriptFormat } from './formats.js';
export { TranscriptionService, installedRecognizers, recognizerFor, type TranscriptionResult } from './service.js';

export { DescriptionSchema, VoiceNameSchema } from './archive-format.js';
export { CategoryRepository } from './category-repository.js';
export { newCustomVoice, saveCustomVoice } from './custom-voices.js';
export { previewRoutes } from './preview-routes.js';
export { PreviewService, previewSentence } from './previews.js';
export { voiceRoutes } from './routes.js';
export { CategorySchema, IntelligibilitySchema, VoiceSchema } from './voice-schema.js';
export { VoiceService, enginePresets, publicVoice } from './service.js';
export { VoiceRepository, type VoiceRecord, type VoiceSampleRecord } from './voice-repository.js';

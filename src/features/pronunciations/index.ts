export { PronunciationIdsField, PronunciationDictionarySchema, PronunciationSummarySchema, StoredRuleSchema } from './schemas.js';
export { PronunciationRepository } from './repository.js';
export { pronunciationRoutes } from './routes.js';
export { PronunciationService } from './service.js';

export { ChunkRepository, selected, type ChunkRecord } from './chunk-repository.js';
export { ChunkSchema } from './presentation.js';
export { longFormRoutes } from './routes.js';
export { textRoutes } from './text-routes.js';
export { LongFormService } from './service.js';

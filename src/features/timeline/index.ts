export { mergeTimelineRoutes } from './merge-routes.js';
export { TimelineRenderer } from './render.js';
export { TimelineRepository } from './repository.js';
export { timelineRoutes } from './routes.js';
export { TimelineService } from './service.js';
export { TimelineSchema } from './schemas.js';

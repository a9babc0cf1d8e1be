export { JobViewSchema, queueRoutes } from './queue-routes.js';
export { systemRoutes } from './routes.js';
export { SystemService } from './service.js';
export { WorkersSchema, type WorkersView } from './workers-schema.js';

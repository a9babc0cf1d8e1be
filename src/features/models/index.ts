export { modelRoutes } from './routes.js';
export { ModelService } from './service.js';

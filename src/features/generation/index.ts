export { generateRoutes } from './routes.js';
export { GenerationService } from './service.js';

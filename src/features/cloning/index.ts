export { designRoutes } from './design-routes.js';
export { DesignService } from './design-service.js';
export { cloneRoutes } from './routes.js';
export { CloneService } from './service.js';
export { CLONE_METHODS } from './methods.js';

export { websocketRoutes } from './routes.js';

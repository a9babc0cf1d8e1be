export { textRoutes } from './routes.js';

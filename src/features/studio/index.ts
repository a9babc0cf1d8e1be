export { loadStudioBundle, type StudioFile } from './bundle.js';
export { studioRoutes } from './routes.js';

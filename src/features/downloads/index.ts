export { downloadRoutes } from './routes.js';
export { DownloadService } from './service.js';

export { mcpRoutes } from './routes.js';
export { createMcpServer } from './server.js';
export { TimbreApi } from './rest.js';

export { PROJECT_HEADER, ProjectIdField, type FileInto } from './filing.js';
export { ProjectRepository } from './repository.js';
export { projectRoutes } from './routes.js';
export { ProjectSchema, ProjectScriptSchema, ProjectSummarySchema } from './schemas.js';
export { ProjectService } from './service.js';

export { newTask, TaskRepository, type TaskChanges, type TaskFilter, type TaskKind, type TaskRecord, type TaskStatus } from './repository.js';
export { taskDeleteRoutes } from './delete-routes.js';
export { taskListRoutes } from './list-routes.js';
export { TaskSummaries, TaskSummarySchema } from './summary.js';
export { RenderRepository, type RenderKind, type RenderRecord } from './render-repository.js';
export { TaskRemoval, type TaskFiles } from './removal.js';
export { RENDER_ID_HEADER, RenderSchema, TaskSchema, taskRoutes } from './routes.js';
export { followTaskJobs, submitTaskJob } from './task-status.js';
export { extensionOf, TaskService, type CueSource, type NewRender, type PublicTask, type TaskDetails } from './service.js';

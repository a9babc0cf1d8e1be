export { newTask, TaskRepository, type TaskChanges, type TaskKind, type TaskRecord } from './repository.js';
export { TaskSchema, taskRoutes } from './routes.js';
export { followTaskJobs, submitTaskJob } from './task-status.js';
export { TaskService, type PublicTask, type TaskDetails } from './service.js';

export { TaskRepository, type TaskChanges, type TaskRecord } from './repository.js';
export { TaskSchema, taskRoutes } from './routes.js';
export { followTaskJobs, submitTaskJob } from './task-status.js';
export { TaskService, type PublicTask, type TaskDetails } from './service.js';

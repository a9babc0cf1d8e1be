import type { ApiKeyRepository } from '../features/access/index.js';
import { ProjectRepository, ProjectService } from '../features/projects/index.js';
import type { PronunciationService } from '../features/pronunciations/index.js';
import type { TaskRemoval, TaskRepository, TaskService, TaskSummaries } from '../features/tasks/index.js';
import type { Platform } from './platform.js';

/**
 * Projects over the tasks they hold: a project's deletion takes its tasks' rows and files with it,
 * a download of a filed task is named after its project, and projects and tasks alike belong to
 * their key and the keys above it.
 */
export function projectService(
  { config, db, queue }: Platform,
  parts: {
    keys: ApiKeyRepository;
    tasks: TaskRepository;
    taskService: TaskService;
    summaries: TaskSummaries;
    removal: TaskRemoval;
    pronunciations: PronunciationService;
  },
): ProjectService {
  const projects = new ProjectRepository(db);
  parts.taskService.describeProjects((projectId) => projects.get(projectId)?.name);
  parts.taskService.describeKeyLine((keyId) => parts.keys.keysBelow(keyId));
  return new ProjectService({
    projects,
    tasks: parts.tasks,
    summaries: parts.summaries,
    renders: parts.taskService,
    queue,
    keysBelow: (keyId) => parts.keys.keysBelow(keyId),
    removeTasks: (taskIds, inTransaction) => parts.removal.remove(taskIds, inTransaction),
    checkPronunciations: (ids, keyId) => parts.pronunciations.checkedDefaults(ids, keyId),
    maxTextChars: config.maxTextChars,
  });
}

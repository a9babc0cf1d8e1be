import { ApiError } from '../../platform/errors.js';
import { decodeCursor, pageOf } from '../../platform/http/cursor.js';
import { cancelJobs } from '../../platform/jobs/job-cancel.js';
import type { JobQueue } from '../../platform/jobs/queue.js';
import { newId } from '../../platform/util/ids.js';
import type { TaskRepository, TaskService, TaskSummaries } from '../tasks/index.js';
import type { ProjectRecord, ProjectRepository } from './repository.js';
import { EMPTY_SCRIPT, type ProjectScript } from './schemas.js';

export interface ProjectDeps {
  projects: ProjectRepository;
  tasks: TaskRepository;
  summaries: TaskSummaries;
  /** The renders of a task as clients see them. */
  renders: Pick<TaskService, 'rendersOf'>;
  queue: JobQueue;
  /** The key and every key created beneath it: a project belongs to its creator and the keys above it. */
  keysBelow(keyId: string): string[];
  /** Deletes these tasks' rows and files, running `inTransaction` in the same transaction as the rows. */
  removeTasks(taskIds: string[], inTransaction: () => void): Promise<void>;
  /** Checks default pronunciation dictionaries as a key sets them (each visible to it, not too many); answers them as kept. */
  checkPronunciations(ids: readonly string[], keyId: string): string[];
  /** Longest script text (the service's longest text). */
  maxTextChars: number;
}

/** How many tasks a project view shows; older ones are listed with GET /api/tasks?project_id=. */
const PROJECT_VIEW_TASKS = 100;

const now = () => new Date().toISOString();

/**
 * Projects (compositions) keep a creator's work: a script of speakers and lines, and the tasks,
 * timelines and renders made from it. Tasks filed in a project are kept until it is deleted.
 */
export class ProjectService {
  constructor(private readonly deps: ProjectDeps) {}

  create(name: string, script: ProjectScript | undefined, keyId: string, pronunciationIds: readonly string[] = []): ProjectRecord {
    const at = now();
    const project = {
      id: newId('proj'),
      ownerKeyId: keyId,
      name: name.trim() || name,
      script: this.checked(script ?? EMPTY_SCRIPT),
      pronunciationIds: this.deps.checkPronunciations(pronunciationIds, keyId),
      createdAt: at,
      updatedAt: at,
    };
    this.deps.projects.insert(project);
    return project;
  }

  list(keyId: string, query: { q?: string; limit?: number; cursor?: string }) {
    const limit = query.limit ?? 20;
    const words = (query.q ?? '').split(/\s+/).filter((word) => word !== '');
    const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    const rows = this.deps.projects.list(this.deps.keysBelow(keyId), { words, before, limit: limit + 1 });
    return pageOf(rows, limit, (project) => ({ at: project.updatedAt, id: project.id }));
  }

  /** The caller's project (or one of a key beneath it); any other does not exist for the caller. */
  owned(projectId: string, keyId: string): ProjectRecord {
    const project = this.deps.projects.get(projectId);
    if (!project || project.ownerKeyId === null || !this.deps.keysBelow(keyId).includes(project.ownerKeyId)) {
      throw new ApiError(404, 'project_not_found', `No project ${projectId}`, { project_id: projectId });
    }
    return project;
  }

  /** The project with the tasks filed in it, newest first. */
  view(project: ProjectRecord) {
    const tasks = this.deps.tasks.list({ projectId: project.id }, PROJECT_VIEW_TASKS);
    return {
      project_id: project.id,
      name: project.name,
      script: project.script,
      pronunciation_ids: project.pronunciationIds,
      tasks: tasks.map((task) => this.deps.summaries.present(task)),
      renders: tasks.flatMap((task) => this.deps.renders.rendersOf(task).map((render) => ({ task_id: task.id, render }))),
      created_at: project.createdAt,
      updated_at: project.updatedAt,
    };
  }

  update(
    project: ProjectRecord,
    changes: { name?: string; script?: ProjectScript; pronunciationIds?: readonly string[]; updatedAt?: string },
    keyId: string,
  ): ProjectRecord {
    const script = changes.script === undefined ? undefined : this.checked(changes.script);
    const pronunciationIds = changes.pronunciationIds && this.deps.checkPronunciations(changes.pronunciationIds, keyId);
    const at = now();
    if (!this.deps.projects.update(project.id, { name: changes.name, script, pronunciationIds }, at, changes.updatedAt)) {
      const current = this.deps.projects.get(project.id);
      throw new ApiError(409, 'project_changed', 'The project was changed since you loaded it; load it again and repeat your change', {
        project_id: project.id,
        updated_at: current?.updatedAt ?? null,
      });
    }
    return this.deps.projects.get(project.id)!;
  }

  /** Stops the project's running work, then deletes it with everything it owns in one transaction; its files follow. */
  async delete(project: ProjectRecord): Promise<void> {
    const taskIds = this.taskIdsOf(project.id);
    const ids = new Set(taskIds);
    await cancelJobs(
      this.deps.queue,
      this.deps.queue.active((job) => job.taskId !== null && ids.has(job.taskId)),
    );
    // Read again: a task filed while those jobs stopped goes too, with its files.
    await this.deps.removeTasks(this.taskIdsOf(project.id), () => this.deps.projects.delete(project.id));
  }

  /** Checks a project id a generation names: the caller's project, which the new task is filed in. */
  fileInto(projectId: string | undefined, keyId: string): string | null {
    if (projectId === undefined) return null;
    const project = this.owned(projectId, keyId);
    this.deps.projects.touch(project.id, now());
    return project.id;
  }

  private taskIdsOf(projectId: string): string[] {
    return this.deps.tasks.list({ projectId }, Number.MAX_SAFE_INTEGER).map((task) => task.id);
  }

  /** Every line is spoken by a speaker of the script, each speaker named once, the text within the service's limit. */
  private checked(script: ProjectScript): ProjectScript {
    const names = new Set<string>();
    const problems: { field: string; message: string }[] = [];
    script.speakers.forEach((speaker, index) => {
      if (names.has(speaker.name)) problems.push({ field: `script.speakers[${index}].name`, message: `${speaker.name} is named twice` });
      names.add(speaker.name);
    });
    script.lines.forEach((line, index) => {
      if (!names.has(line.speaker)) problems.push({ field: `script.lines[${index}].speaker`, message: `${line.speaker} is not one of the speakers` });
    });
    const chars = script.lines.reduce((sum, line) => sum + line.text.length, 0);
    if (chars > this.deps.maxTextChars) {
      problems.push({ field: 'script.lines', message: `The script has ${chars} characters; at most ${this.deps.maxTextChars}` });
    }
    if (problems.length > 0) throw new ApiError(400, 'invalid_script', problems.map((problem) => problem.message).join('; '), { fields: problems });
    return script;
  }
}

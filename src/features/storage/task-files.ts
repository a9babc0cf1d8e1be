import { dirname } from 'node:path';
import type { Db } from '../../platform/store/database.js';
import type { TaskFiles } from '../tasks/index.js';

/**
 * The files long-form and the timeline keep for tasks, as `TaskRemoval` lists them before the rows
 * go: read from their tables here, beside the sizes this capability keeps for the same rows.
 */
export function takeAndMediaFiles(db: Db): TaskFiles[] {
  const takes = db.prepare<[string], string>('SELECT audio_path FROM chunk_takes WHERE task_id IN (SELECT value FROM json_each(?)) AND audio_path IS NOT NULL');
  const media = db.prepare<[string], string>('SELECT path FROM timeline_media WHERE task_id IN (SELECT value FROM json_each(?))');
  return [
    (taskIds) => takes.pluck().all(JSON.stringify(taskIds)),
    // The whole folder of each task's imported media (`timeline/<task id>/`), not only the files rows still name.
    (taskIds) => [
      ...new Set(
        media
          .pluck()
          .all(JSON.stringify(taskIds))
          .map((path) => dirname(path)),
      ),
    ],
  ];
}

import { Type } from 'typebox';

/** The field every generation route accepts to file its task into a project of the caller. */
export const ProjectIdField = Type.Optional(
  Type.String({ minLength: 1, maxLength: 64, description: 'File the task into this project of the caller (404 `project_not_found` otherwise)' }),
);

/** The header `/v1/audio/speech` (whose body is OpenAI's) also accepts for the same. */
export const PROJECT_HEADER = 'x-timbre-project-id';

/** The caller's project a generation names (404 `project_not_found` when it is not the caller's), or null for none. */
export type FileInto = (projectId: string | undefined, keyId: string) => string | null;

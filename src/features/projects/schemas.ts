import { Type, type Static } from 'typebox';
import { languageSchema, Nullable, TimestampSchema } from '../../platform/http/schemas.js';
import { PronunciationIdsField } from '../pronunciations/index.js';

/** Schema limits of a script: as many lines as one long-form request takes; its total text within TIMBRE_MAX_TEXT_CHARS. */
export const SCRIPT_LIMITS = { speakers: 50, lines: 1000, nameChars: 100 } as const;

const SpeakerName = Type.String({ minLength: 1, maxLength: SCRIPT_LIMITS.nameChars });

export const ProjectSpeakerSchema = Type.Object(
  {
    name: SpeakerName,
    voice_id: Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'The voice that speaks this speaker’s lines; null until one is chosen' })),
    language: Type.Optional(Nullable(languageSchema('The language of the speaker’s lines; null: the voice’s own'))),
    settings: Type.Optional(
      Type.Object(
        {
          speed: Type.Optional(Type.Number({ minimum: 0.5, maximum: 2 })),
          seed: Type.Optional(Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export const ProjectScriptSchema = Type.Object(
  {
    speakers: Type.Array(ProjectSpeakerSchema, { maxItems: SCRIPT_LIMITS.speakers, description: 'Each speaker once, by name' }),
    lines: Type.Array(Type.Object({ speaker: SpeakerName, text: Type.String({ maxLength: 100_000 }) }, { additionalProperties: false }), {
      maxItems: SCRIPT_LIMITS.lines,
      description: 'The lines in order, each spoken by one of `speakers`',
    }),
  },
  { $id: 'ProjectScript', additionalProperties: false },
);
export type ProjectScript = Static<typeof ProjectScriptSchema>;

export const EMPTY_SCRIPT: ProjectScript = { speakers: [], lines: [] };

const ProjectName = Type.String({ minLength: 1, maxLength: 200 });

/** The script as a body field: the shared component, typed as what it validates. */
const ScriptField = Type.Optional(Type.Unsafe<ProjectScript>(Type.Ref('ProjectScript')));

export const CreateProjectBody = Type.Object(
  { name: ProjectName, script: ScriptField, pronunciation_ids: Type.Optional(PronunciationIdsField) },
  { additionalProperties: false },
);

export const UpdateProjectBody = Type.Object(
  {
    name: Type.Optional(ProjectName),
    script: ScriptField,
    pronunciation_ids: Type.Optional(PronunciationIdsField),
    updated_at: Type.Optional(
      Type.String({ description: 'The `updated_at` the change was made on; when the project changed since, 409 `project_changed` (another tab saved first)' }),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const ProjectSummarySchema = Type.Object(
  {
    project_id: Type.String(),
    name: Type.String(),
    speakers: Type.Array(Type.String(), { description: 'The speakers’ names' }),
    lines: Type.Integer({ description: 'How many lines the script has' }),
    tasks: Type.Integer({ description: 'How many tasks are filed in the project' }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { $id: 'ProjectSummary' },
);

export const ProjectSchema = Type.Object(
  {
    project_id: Type.String(),
    name: Type.String(),
    script: Type.Ref('ProjectScript'),
    pronunciation_ids: Type.Array(Type.String(), { description: 'Pronunciation dictionaries the project’s generations apply by default, after their own' }),
    tasks: Type.Array(Type.Ref('TaskSummary'), { description: 'The tasks filed in the project, newest first' }),
    renders: Type.Array(Type.Object({ task_id: Type.String(), render: Type.Ref('Render') }), {
      description: 'Every merge and timeline render of those tasks, each its own file, oldest first per task',
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  },
  { $id: 'Project' },
);

export const ProjectListQuery = Type.Object(
  {
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Words in the name or the script' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
    cursor: Type.Optional(Type.String({ maxLength: 200, description: '`next_cursor` of the previous page' })),
  },
  { additionalProperties: false },
);

export const ProjectParams = Type.Object({ project_id: Type.String({ minLength: 1, maxLength: 64 }) });

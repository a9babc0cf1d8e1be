import { Type, type Static } from 'typebox';
import { Nullable } from '../../platform/http/schemas.js';

const Bytes = Type.Integer({ minimum: 0, description: 'bytes' });

export const ModelIdParamsSchema = Type.Object({
  model_id: Type.String({ minLength: 1, maxLength: 128, description: 'A catalog model id, as `GET /api/models` lists them' }),
});

const InstallProgressSchema = Type.Object(
  {
    job_id: Type.String({ description: 'The install job: its events arrive on /ws, `POST /api/job/cancel` stops it' }),
    state: Type.String({ description: '`queued` or `running`' }),
    progress: Type.Number({ minimum: 0, maximum: 1 }),
    stage: Nullable(Type.String({ description: '`downloading` or `unpacking`' })),
  },
  { description: 'The install under way, or null' },
);

export const CatalogModelViewSchema = Type.Object(
  {
    id: Type.String({ description: 'The catalog name, used in the routes and by `timbre models`' }),
    name: Type.String({ description: 'A name to show' }),
    description: Type.String(),
    engine: Type.String({ description: 'The engine family that runs it' }),
    kind: Type.String({ description: '`synthesizer`, `recognizer`, `voiceprint` or `vad`' }),
    languages: Type.Array(Type.String(), { description: 'BCP-47 tags; `*` means language-independent' }),
    license: Type.String(),
    license_note: Nullable(Type.String()),
    download_bytes: Nullable(Bytes),
    size_bytes: Nullable(Type.Integer({ minimum: 0, description: 'Bytes on disk when installed, else null' })),
    installed: Type.Boolean({ description: 'Its files are all present' }),
    state: Type.Union([Type.Literal('installed'), Type.Literal('incomplete'), Type.Literal('not installed')]),
    install: Nullable(InstallProgressSchema),
  },
  { description: 'A model of the catalog and whether it is installed here' },
);

export type CatalogModelView = Static<typeof CatalogModelViewSchema>;

export const ModelListSchema = Type.Object({ models: Type.Array(CatalogModelViewSchema) });

export const InstallAcceptedSchema = Type.Object({
  job_id: Type.String(),
  status: Type.String({ description: 'The job state: `queued` or `running`' }),
  model_id: Type.String(),
});

export const ModelRemovedSchema = Type.Object({ model_id: Type.String(), removed: Type.Literal(true) });

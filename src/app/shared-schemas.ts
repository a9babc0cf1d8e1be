import { ApiKeySchema, SessionSchema } from '../features/access/index.js';
import { AssetSchema } from '../features/assets/index.js';
import { WsClientMessageSchema, WsServerMessageSchema } from '../features/events/index.js';
import { ChunkSchema } from '../features/long-form/index.js';
import { JobViewSchema, WorkersSchema } from '../features/system/index.js';
import { RenderSchema, TaskSchema, TaskSummarySchema, TaskWordsSchema } from '../features/tasks/index.js';
import { ProjectSchema, ProjectScriptSchema, ProjectSummarySchema } from '../features/projects/index.js';
import { PronunciationDictionarySchema, PronunciationSummarySchema, StoredRuleSchema } from '../features/pronunciations/index.js';
import { StorageStatusSchema } from '../features/storage/index.js';
import { TimelineSchema } from '../features/timeline/index.js';
import { CategorySchema, VoiceSchema } from '../features/voices/index.js';
import { ErrorEnvelopeSchema } from '../platform/http/schemas.js';

/**
 * Schemas with an `$id`, added at the root so every capability's routes may refer to them (a
 * clone's answer holds a Voice, a download's an Asset); they are the document's components.
 */
export const SHARED_SCHEMAS = [
  ErrorEnvelopeSchema,
  ApiKeySchema,
  SessionSchema,
  AssetSchema,
  ChunkSchema,
  JobViewSchema,
  WorkersSchema,
  StorageStatusSchema,
  TaskSchema,
  TaskSummarySchema,
  TaskWordsSchema,
  ProjectScriptSchema,
  ProjectSchema,
  ProjectSummarySchema,
  StoredRuleSchema,
  PronunciationSummarySchema,
  PronunciationDictionarySchema,
  RenderSchema,
  TimelineSchema,
  VoiceSchema,
  CategorySchema,
  WsClientMessageSchema,
  WsServerMessageSchema,
];

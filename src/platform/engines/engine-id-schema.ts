import { Type } from 'typebox';
import { ENGINE_IDS } from './engine-ids.js';

/** An engine id in a stored or received payload, checked as it is read. */
export const EngineIdSchema = Type.Enum(ENGINE_IDS);

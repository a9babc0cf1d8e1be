import type { FastifyBaseLogger } from 'fastify';
import { uploadTempDir } from '../features/assets/index.js';
import { startWyomingServer, type WyomingServer } from '../features/wyoming/index.js';
import type { Config } from '../platform/config.js';
import { ConfigError } from '../platform/config-parsers.js';
import { errorText } from '../platform/errors.js';
import { isLoopbackName } from '../platform/http/host-guard.js';
import type { Services } from './services.js';

const CREATE_KEY = 'timbre keys create --name wyoming --scopes voices:read,tts:generate,audio:process';

/** A Wyoming server ready to start once the HTTP service listens (its address is the programs' attribution). */
export interface PreparedWyoming {
  start(log: FastifyBaseLogger, serviceUrl: string): Promise<WyomingServer>;
}

/**
 * The Wyoming server the configuration asks for, or undefined without TIMBRE_WYOMING_PORT. Its key
 * is checked here, before anything listens: without a usable TIMBRE_WYOMING_KEY the service does
 * not start (Wyoming has no authentication of its own, so that key is all that bounds it).
 */
export function prepareWyoming(config: Config, services: Services): PreparedWyoming | undefined {
  const port = config.wyomingPort;
  if (port === undefined) return undefined;
  const keyId = config.wyomingKey;
  if (!keyId) throw new ConfigError(`TIMBRE_WYOMING_PORT needs TIMBRE_WYOMING_KEY, the id of a key Wyoming requests run as; create one with: ${CREATE_KEY}`);
  try {
    services.keys.authenticateById(keyId);
  } catch (error) {
    throw new ConfigError(`TIMBRE_WYOMING_KEY ${keyId} cannot be used (${errorText(error)}); create a key with: ${CREATE_KEY}`);
  }
  return {
    start: async (log, serviceUrl) => {
      if (!isLoopbackName(config.wyomingHost)) {
        log.warn(
          { host: config.wyomingHost },
          'the Wyoming server listens beyond this machine: Wyoming has no authentication, so whoever reaches its port speaks and transcribes as TIMBRE_WYOMING_KEY',
        );
      }
      const deps = {
        keyId,
        keys: services.keys,
        limits: services.limits,
        voices: services.voices,
        generation: services.generation,
        transcription: services.transcription,
        engines: services.engines,
        modelsDir: config.modelsDir,
        serviceUrl,
        maxTextChars: config.maxTextChars,
        maxAudioSeconds: config.wyomingMaxAudioSeconds,
        tempDir: uploadTempDir(config.dataDir),
        log,
      };
      return startWyomingServer(deps, {
        host: config.wyomingHost,
        port,
        maxConnections: config.wyomingMaxConnections,
        idleSeconds: config.wyomingIdleSeconds,
        maxEventBytes: config.wyomingMaxEventBytes,
        maxPayloadBytes: config.wyomingMaxPayloadBytes,
      });
    },
  };
}

import { integer, text } from './config-parsers.js';
import type { Config, Setting } from './config-types.js';

/** The Wyoming server's settings (docs/home-assistant-and-agents.md): off until a port is given. */
export const WYOMING_SETTINGS = [
  {
    key: 'wyomingPort',
    env: 'TIMBRE_WYOMING_PORT',
    flag: 'wyoming-port',
    description: 'Port of the Wyoming server for Home Assistant (off when unset; 0 picks a free one)',
    parse: integer(0, 65535),
  },
  {
    key: 'wyomingHost',
    env: 'TIMBRE_WYOMING_HOST',
    flag: 'wyoming-host',
    description: 'Address the Wyoming server binds; anything but loopback exposes it to the network',
    parse: text,
  },
  { key: 'wyomingKey', env: 'TIMBRE_WYOMING_KEY', flag: 'wyoming-key', description: 'Id of the API key Wyoming requests run as', parse: text },
  {
    key: 'wyomingMaxEventBytes',
    env: 'TIMBRE_WYOMING_MAX_EVENT_BYTES',
    flag: 'wyoming-max-event-bytes',
    description: 'Largest JSON of one Wyoming event (header line and data)',
    parse: integer(1024, 16 * 1024 * 1024),
  },
  {
    key: 'wyomingMaxPayloadBytes',
    env: 'TIMBRE_WYOMING_MAX_PAYLOAD_BYTES',
    flag: 'wyoming-max-payload-bytes',
    description: 'Largest binary payload of one Wyoming event',
    parse: integer(1024, 256 * 1024 * 1024),
  },
  {
    key: 'wyomingMaxAudioSeconds',
    env: 'TIMBRE_WYOMING_MAX_AUDIO_SECONDS',
    flag: 'wyoming-max-audio-seconds',
    description: 'Longest audio one Wyoming transcribe may send',
    parse: integer(1, 3600),
  },
  {
    key: 'wyomingIdleSeconds',
    env: 'TIMBRE_WYOMING_IDLE_SECONDS',
    flag: 'wyoming-idle-seconds',
    description: 'Silence allowed from a Wyoming client the server waits on',
    parse: integer(1, 3600),
  },
  {
    key: 'wyomingMaxConnections',
    env: 'TIMBRE_WYOMING_MAX_CONNECTIONS',
    flag: 'wyoming-max-connections',
    description: 'Wyoming connections open at once',
    parse: integer(1, 100_000),
  },
] as const satisfies readonly Setting<keyof Config>[];

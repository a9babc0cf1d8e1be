/**
 * Live job events: one WebSocket to `/ws` for the whole page (the session cookie authenticates
 * the handshake), reconnected with a growing pause when it drops. Screens listen with `useEvents`.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { Schemas } from './api.js';

export type ServerMessage = Schemas['WsServerMessage'];
export type JobEvent = Extract<ServerMessage, { type: `job.${string}` }>;
type Listener = (message: ServerMessage) => void;

const listeners = new Set<Listener>();
let socket: WebSocket | undefined;
let retryMs = 500;
let stopped = true;

function isServerMessage(value: unknown): value is ServerMessage {
  return typeof value === 'object' && value !== null && 'type' in value && typeof value.type === 'string' && 'data' in value;
}

function open(): void {
  const url = new URL('/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const current = new WebSocket(url);
  socket = current;
  current.onopen = () => (retryMs = 500);
  current.onmessage = (event: MessageEvent<string>) => {
    const message: unknown = JSON.parse(event.data);
    if (isServerMessage(message)) for (const listener of listeners) listener(message);
  };
  current.onclose = () => {
    if (socket !== current || stopped) return;
    setTimeout(open, retryMs);
    retryMs = Math.min(retryMs * 2, 15_000);
  };
}

/** Opens the connection after sign-in; `stopEvents` closes it at sign-out. */
export function startEvents(): void {
  if (!stopped) return;
  stopped = false;
  open();
}

export function stopEvents(): void {
  stopped = true;
  socket?.close();
  socket = undefined;
}

/** Calls `listener` with every message the server sends while the component is mounted. */
export function useEvents(listener: Listener): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => {
    const forward: Listener = (message) => latest.current(message);
    listeners.add(forward);
    return () => void listeners.delete(forward);
  }, []);
}

export function isJobEvent(message: ServerMessage): message is JobEvent {
  return message.type.startsWith('job.');
}

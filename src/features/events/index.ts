export { websocketRoutes } from './routes.js';
export { WsClientMessageSchema, WsServerMessageSchema } from './messages.js';

import { SerializerSelector, type SerializerFactory, type Serializer } from '@fastify/fast-json-stringify-compiler';

/**
 * Fastify compiles a fast-json-stringify serializer for every response schema of every route
 * before it listens: most of `timbre serve`'s start-up CPU (about 2 s of 3 on a loaded 2-core
 * machine), for routes a session may never call. This factory hands Fastify a serializer per route
 * and status that compiles itself on its first answer, with the same compiler, shared schemas and
 * options, so answers are byte for byte what eager compiling gives.
 */
export function lazySerializers(build: SerializerFactory = SerializerSelector()): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    return (route) => {
      let serialize: Serializer | undefined;
      return (doc) => (serialize ??= compile(route))(doc);
    };
  };
}

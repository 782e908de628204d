import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type SerializerFactory = NonNullable<CompilersFactory['buildSerializer']>;
type Serializer = (doc: unknown) => string;

/**
 * Fastify's own compilers, kept for the whole process rather than made anew by each app. The route
 * schemas are module-level objects (the contracts in core/api), the same for every app a process
 * builds, and compiling them (Ajv validators, fast-json-stringify serializers) was most of the time
 * an app took to build: the test suites build hundreds per process. Ajv already keeps each compiled
 * schema by its object, within one Ajv per set of options and shared schemas, which the pool below
 * shares; serializers are kept here the same way. What a compiled function does depends only on its
 * schema and those options, so sharing it between apps changes nothing of what they answer.
 */
const validators = AjvCompiler();
const serializerFactory = SerializerSelector();
const serializersByOptions = new Map<string, WeakMap<object, Serializer>>();

const buildSerializer: SerializerFactory = (externalSchemas, options) => {
  const compile = serializerFactory(externalSchemas, options);
  const key = JSON.stringify([externalSchemas ?? null, options ?? null]);
  let kept = serializersByOptions.get(key);
  if (!kept) serializersByOptions.set(key, (kept = new WeakMap()));
  const cache = kept;
  return (route) => {
    const schema = route.schema;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let serializer = cache.get(schema);
    if (!serializer) cache.set(schema, (serializer = compile(route)));
    return serializer;
  };
};

export const processWideCompilers: CompilersFactory = { buildValidator: validators, buildSerializer };

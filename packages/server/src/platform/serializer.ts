import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serializer = (data: unknown) => string;
type SerializerCompiler = Parameters<typeof zodSerializerCompiler>[0];

/**
 * Response serializers from the routes' zod schemas, compiled once to fast-json-stringify
 * (what plain Fastify routes use). Like zod's encode it writes only the declared fields, so
 * nothing the schema leaves out (a password hash, a secret) can reach a response; it costs a
 * fraction of parsing the object again on every response. Schemas JSON Schema cannot express
 * (transforms) keep zod's serializer. Compiled on first use, so starting an app stays fast.
 */
export const responseSerializerCompiler = (route: SerializerCompiler): Serializer => {
  let serialize: Serializer | undefined;
  return (data) => {
    serialize ??= compile(route);
    return serialize(data);
  };
};

function compile(route: SerializerCompiler): Serializer {
  try {
    const jsonSchema = z.toJSONSchema(route.schema as z.ZodType, { target: 'draft-07', io: 'output', unrepresentable: 'throw' });
    return fastJson(jsonSchema as Parameters<typeof fastJson>[0]);
  } catch {
    return zodSerializerCompiler(route) as Serializer;
  }
}


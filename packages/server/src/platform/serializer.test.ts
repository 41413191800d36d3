import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { responseSerializerCompiler } from './serializer';

const compile = (schema: z.ZodType) => responseSerializerCompiler({ schema, method: 'GET', url: '/test', httpStatus: '200' } as never);

describe('response serializer', () => {
  it('writes only the declared fields, so nothing else can leak into a response', () => {
    const serialize = compile(z.object({ id: z.string(), name: z.string().nullable() }));
    const output = serialize({ id: 'u1', name: null, password_hash: '$argon2id$secret' });
    expect(JSON.parse(output)).toEqual({ id: 'u1', name: null });
    expect(output).not.toContain('argon2');
  });

  it('writes nested objects, arrays, enums and null bodies as JSON.stringify would', () => {
    const schema = z.object({ items: z.array(z.object({ kind: z.enum(['a', 'b']), count: z.number().int() })), total: z.number() });
    const value = { items: [{ kind: 'a', count: 2 }], total: 1.5 };
    expect(JSON.parse(compile(schema)(value))).toEqual(value);
    expect(compile(z.null())(null)).toBe('null');
  });

  it("keeps zod's serializer for what JSON Schema cannot express", () => {
    const serialize = compile(z.object({ at: z.date() }));
    expect(JSON.parse(serialize({ at: new Date('2026-01-02T03:04:05.000Z') }))).toEqual({ at: '2026-01-02T03:04:05.000Z' });
  });
});

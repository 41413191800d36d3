import { Writable } from 'node:stream';
import pino from 'pino';
import { loggerOptions } from '../src/platform/logger';

/** The line the server's logger (its options as app.ts gives them to Fastify) writes for `object`. */
export function loggedLine(object: Record<string, unknown>, message = 'test'): string {
  let line = '';
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      line += chunk.toString();
      done();
    },
  });
  pino(loggerOptions('info') as pino.LoggerOptions, sink).info(object, message);
  return line;
}

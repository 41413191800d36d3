import { Writable } from 'node:stream';
import pino from 'pino';
import { loggerOptions } from '../src/platform/logger';

/**
 * Everything written to its streams, as one text: what a server under test logs (its
 * `logStream`). Each server gets a stream of its own (`stream()`), all of them writing here.
 */
export function capturedLog(): { stream: () => Writable; readonly text: string } {
  let text = '';
  const stream = () =>
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
  return {
    stream,
    get text() {
      return text;
    },
  };
}

/** The line the server's logger (its options as app.ts gives them to Fastify) writes for `object`. */
export function loggedLine(object: Record<string, unknown>, message = 'test'): string {
  const log = capturedLog();
  pino(loggerOptions('info') as pino.LoggerOptions, log.stream()).info(object, message);
  return log.text;
}

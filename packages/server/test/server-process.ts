import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { serverCommand, serverProcessEnv } from './server-bundle';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** A TCP port nobody listens on right now (bound and released on 127.0.0.1). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface ServerProcess {
  /** http://127.0.0.1:PORT */
  url: string;
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL (the plug pulled: no shutdown, requests in flight), resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM (a clean stop), resolved once the process is gone. */
  stop(): Promise<void>;
}

function ended(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}

/**
 * The real server (src/main.ts) as a process of its own on a free port of 127.0.0.1, resolved
 * once /readyz answers: from the run's bundle (serverCommand), which starts on a few seconds of
 * CPU where the source through tsx took about 15. `env` is given the server's address (for
 * PLATFORM_ORIGIN) and goes over the test process's environment less the run's own
 * (serverProcessEnv).
 */
export async function startServerProcess(env: Record<string, string> | ((url: string) => Record<string, string>), timeoutMs = 90_000): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, serverCommand('main'), {
    cwd: ROOT,
    env: serverProcessEnv({ HOST: '127.0.0.1', PORT: String(port), ...(typeof env === 'function' ? env(url) : env) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const server: ServerProcess = { url, child, output: () => output, kill: () => ended(child, 'SIGKILL'), stop: () => ended(child, 'SIGTERM') };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`the server did not answer /readyz in ${timeoutMs / 1000} s:\n${output}`);
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

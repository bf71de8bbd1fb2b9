import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from '../../src/database/embedded-postgres.js';

/** The built service (`node dist/main.js`) as a child process, the way a container runs it. */
export interface ServerProcess {
  base: string;
  child: ChildProcess;
  /** Every line the process wrote to stdout and stderr so far. */
  output(): string;
  exit: Promise<number | null>;
  stop(): Promise<number | null>;
}

export async function startServer(
  env: Record<string, string>,
  options: { withinMs?: number; port?: number } = {},
): Promise<ServerProcess> {
  // A given port: a process started again where a load balancer expects it.
  const port = options.port ?? (await freePort());
  const withinMs = options.withinMs ?? 20_000;
  let output = '';
  const child = spawn(process.execPath, ['dist/main.js'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + withinMs;
  for (;;) {
    const exited = await Promise.race([
      exit.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), 100)),
    ]);
    if (exited) throw new Error(`the server exited during start:\n${output}`);
    const ready = await fetch(`${base}/health/live`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the server did not start within ${withinMs / 1000} s:\n${output}`);
    }
  }
  return {
    base,
    child,
    output: () => output,
    exit,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exit;
    },
  };
}

/** Runs the built service with an environment that must be refused; returns its exit code and output. */
export async function runToExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['dist/main.js'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}

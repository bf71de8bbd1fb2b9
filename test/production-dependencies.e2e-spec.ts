import { execFile, spawn } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createDataSource } from '../src/database/data-source-options.js';
import { freePort } from '../src/database/embedded-postgres.js';
import { importDataset } from '../src/dataset/import-dataset.js';
import { KEYS, testDataset } from './support/dataset.js';
import { createTestDatabase, dropTestDatabase } from './support/test-database.js';
import { testTempDir } from './support/temp-dir.js';

/**
 * What the image's last stage holds: production dependencies only (`npm ci --omit=dev`), dist/ and
 * fixtures/. The server must start and answer from that alone, and the documented commands must work.
 */
it('the server runs with production dependencies only, as in the container image', async () => {
  const dir = testTempDir('prod');
  const url = await createTestDatabase();
  try {
    for (const f of ['package.json', 'package-lock.json', 'dist', 'fixtures'])
      cpSync(f, join(dir, f), { recursive: true });
    await promisify(execFile)(
      'npm',
      ['ci', '--omit=dev', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund'],
      { cwd: dir },
    );
    const ds = createDataSource({ url, poolSize: 1 });
    await ds.initialize();
    await importDataset(ds, testDataset(), { replace: false });
    await ds.destroy();

    const port = await freePort();
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: dir,
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        PORT: String(port),
        DATABASE_URL: url,
        LOG_LEVEL: 'silent',
      },
      stdio: 'ignore',
    });
    try {
      const base = `http://127.0.0.1:${port}`;
      let ready = 0;
      for (let i = 0; i < 100 && ready !== 200; i++) {
        ready = await fetch(`${base}/health/ready`).then(
          (r) => r.status,
          () => 0,
        );
        if (ready !== 200) await new Promise((r) => setTimeout(r, 200));
      }
      expect(ready).toBe(200);
      const res = await fetch(`${base}/v1/catalog/products?pageSize=1`, {
        headers: { Authorization: `Bearer ${KEYS.tenantA}` },
      });
      expect(res.status).toBe(200);
      expect((await fetch(`${base}/docs/openapi.json`)).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }

    // The commands as README documents them work in the image too: it has dist/ but no src/ to build.
    const env = { PATH: process.env.PATH ?? '', HOME: dir, NODE_ENV: 'production', DATABASE_URL: url };
    for (const [command, ...args] of [
      ['npm', 'run', '-s', 'admin', '--', 'clients:list', '--json'],
      [process.execPath, 'dist/tools/cli/admin.js', 'clients:list', '--json'],
    ]) {
      const { stdout } = await promisify(execFile)(command, args, { cwd: dir, env });
      expect(JSON.parse(stdout).map((c: { id: string }) => c.id)).toContain('cli_a_all');
    }
    const migrated = await promisify(execFile)('npm', ['run', '-s', 'db:migrate'], { cwd: dir, env });
    expect(migrated.stdout).toContain('The database is up to date.');

    // Without DATABASE_URL there is no embedded PostgreSQL to fall back on: the start says what is
    // required (exit 78, a configuration error), not "Starting the embedded PostgreSQL".
    const bare = await promisify(execFile)(process.execPath, ['dist/main.js'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production', APP_ENV: 'production', PORT: String(port) },
    }).then(
      () => ({ code: 0, stdout: '', stderr: '' }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect({ code: bare.code, stdout: bare.stdout, stderr: bare.stderr.trim() }).toEqual({
      code: 78,
      stdout: '',
      stderr: expect.stringMatching(
        /^Invalid configuration: DATABASE_URL is required: set it to the PostgreSQL server/,
      ),
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await dropTestDatabase(url);
  }
}, 180_000);

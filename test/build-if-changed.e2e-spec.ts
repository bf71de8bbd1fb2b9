import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { testTempDir } from './support/temp-dir.js';

/**
 * The npm scripts (`npm start`, `npm run admin`, `db:*`) build dist/ only when the sources changed,
 * say so when they do, and need no TypeScript when dist/ is current. Each case runs in a copy of the
 * checkout, so that its edits touch nothing here.
 */
async function npmRun(dir: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('npm', ['run', '-s', ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A copy of the checkout; node_modules links every package of this one, less those left out. */
function checkout(leaveOut: string[] = []): string {
  const dir = testTempDir('build');
  for (const f of [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'scripts',
    'src',
    'dist',
  ])
    cpSync(f, join(dir, f), { recursive: true });
  mkdirSync(join(dir, 'node_modules'));
  for (const entry of readdirSync('node_modules'))
    if (!leaveOut.includes(entry)) symlinkSync(resolve('node_modules', entry), join(dir, 'node_modules', entry));
  return dir;
}

const USAGE_FILE = 'src/tools/admin/admin-cli.ts';
const edit = (dir: string, from: string, to: string): void => {
  const path = join(dir, USAGE_FILE);
  writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
};

it('builds only after a change, says that it builds, and never runs a failed build', async () => {
  const dir = checkout();
  await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: dir }); // as `npm test` leaves it

  const unchanged = await npmRun(dir, 'admin', '--', '--help');
  expect(unchanged.code).toBe(0);
  expect(unchanged.stdout).toContain('Manages integration clients');
  expect(unchanged.stderr).not.toMatch(/build/i);

  edit(dir, 'Manages integration clients', 'Manages INTEGRATION clients');
  const changed = await npmRun(dir, 'admin', '--', '--help');
  expect(changed.stderr).toContain('src/ changed: rebuilding dist/');
  expect(changed.stdout).toContain('Manages INTEGRATION clients');
  expect((await npmRun(dir, 'admin', '--', '--help')).stderr).not.toMatch(/build/i);

  edit(dir, 'export function usage(): string {', 'export function usage(): number {');
  const broken = await npmRun(dir, 'admin', '--', '--help');
  expect(broken.code).not.toBe(0);
  expect(broken.stderr).toContain('The build failed');
  expect(broken.stderr).toMatch(/error TS\d+/);
  expect(broken.stdout).toBe('');
  // Still broken on the next run: a failed build is retried, never taken for current.
  expect((await npmRun(dir, 'admin', '--', '--help')).code).not.toBe(0);
}, 120_000);

it('runs the commands without TypeScript when dist/ is current', async () => {
  const withTypescript = checkout();
  await promisify(execFile)(process.execPath, ['scripts/build-if-changed.mjs'], { cwd: withTypescript });
  const dir = checkout(['typescript', '.bin']);
  cpSync(join(withTypescript, 'dist'), join(dir, 'dist'), { recursive: true });
  const res = await npmRun(dir, 'admin', '--', '--help');
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  expect(res.stdout).toContain('Usage: npm run admin');
}, 120_000);

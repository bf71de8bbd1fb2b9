import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KEYS } from '../../../test/support/dataset.js';
import { testTempDir } from '../../../test/support/temp-dir.js';
import type { TestApp } from '../../../test/support/test-app.js';
import { listeningTestApp } from './support/service.js';

/**
 * The package as it is built and published: types current with openapi.json, every test's and
 * example's types right (the compile-time half of operations.e2e-spec.ts), ESM with declarations and
 * no dependency, working from a folder that has no node_modules. `npm test` builds it first (pretest).
 */
const run = promisify(execFile);
const PACKAGE = 'clients/typescript';
const GENERATE = `${PACKAGE}/scripts/generate-types.mjs`;

/** Exit code, output (stdout and stderr) and stdout alone of a command (never throws on a failure). */
async function attempt(
  file: string,
  args: string[],
  cwd = '.',
): Promise<{ code: number; output: string; stdout: string }> {
  return run(file, args, { cwd, maxBuffer: 16 << 20 }).then(
    ({ stdout, stderr }) => ({ code: 0, output: stdout + stderr, stdout }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      output: error.stdout + error.stderr,
      stdout: error.stdout,
    }),
  );
}

describe('generated types', () => {
  // Built from openapi.json (not committed): the build the tests run is of the document as it is now.
  it('are what openapi.json generates now (npm run client:build)', async () => {
    const { code, output } = await attempt(process.execPath, [GENERATE, '--check']);
    expect({ code, output }).toEqual({ code: 0, output: '' });
  });

  it('are reported stale when openapi.json changes', async () => {
    const document = JSON.parse(readFileSync('openapi.json', 'utf8'));
    document.components.schemas.Product.properties.colour = { type: 'string' };
    const changed = join(testTempDir('client-types'), 'openapi.json');
    writeFileSync(changed, JSON.stringify(document));
    const { code, output } = await attempt(process.execPath, [GENERATE, '--check', '--openapi', changed]);
    expect(code).toBe(1);
    expect(output).toMatch(/openapi\.ts is stale.*npm run client:build/);
  });

  it('are not committed: git ignores them, so openapi.json is the one description to review', async () => {
    const { code, stdout } = await attempt('git', ['ls-files', `${PACKAGE}/src/generated`]);
    expect({ code, stdout }).toEqual({ code: 0, stdout: '' });
    expect((await attempt('git', ['check-ignore', `${PACKAGE}/src/generated/openapi.ts`])).code).toBe(0);
  });
});

it("the client's tests and examples type-check (every result's type is asserted at compile time)", async () => {
  const tsc = join('node_modules', 'typescript', 'bin', 'tsc');
  const { code, output } = await attempt(process.execPath, [tsc, '-p', `${PACKAGE}/test/tsconfig.json`]);
  expect({ code, output }).toEqual({ code: 0, output: '' });
}, 120_000);

describe('the built package', () => {
  const manifest = JSON.parse(readFileSync(`${PACKAGE}/package.json`, 'utf8'));

  it('is ESM with type declarations and has no dependency', () => {
    expect(manifest).toMatchObject({ name: '@catalog-inventory/client', type: 'module' });
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    const { types, default: main } = manifest.exports['.'];
    expect(existsSync(join(PACKAGE, types))).toBe(true);
    expect(existsSync(join(PACKAGE, main))).toBe(true);
    // Every import of the built code is one of its own files.
    const dist = join(PACKAGE, 'dist');
    const specifiers = readdirSync(dist, { recursive: true })
      .map(String)
      .filter((file) => file.endsWith('.js'))
      .flatMap((file) => [...readFileSync(join(dist, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)])
      .map((match) => match[1]);
    expect(specifiers.length).toBeGreaterThan(5);
    expect(specifiers.filter((specifier) => !specifier.startsWith('./'))).toEqual([]);
  });

  it('publishes its built code, declarations, README and examples only', async () => {
    const { code, stdout } = await attempt('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], PACKAGE);
    expect(code).toBe(0);
    const files = (JSON.parse(stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/index.js', 'dist/index.d.ts']));
    expect(
      files.filter((file) => !/^(package\.json|README\.md|dist\/.*\.(js|d\.ts)|examples\/[\w-]+\.mjs)$/.test(file)),
    ).toEqual([]);
    // Every relative link of the README (which npm shows as the package's page) is in the tarball.
    const links = [...readFileSync(join(PACKAGE, 'README.md'), 'utf8').matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)]
      .map((match) => match[1])
      .filter((target) => !/^[a-z]+:/.test(target));
    expect(links).toContain('examples/sync-to-json.mjs');
    expect(links.filter((target) => !files.includes(target.replace(/^\.\//, '')))).toEqual([]);
  });

  describe('copied to a folder without node_modules', () => {
    let t: TestApp;
    let base: string;
    beforeAll(async () => {
      ({ t, base } = await listeningTestApp());
    });
    afterAll(async () => t.close());

    it('is imported by Node and walks a list against the service', async () => {
      const dir = join(testTempDir('client-package'), 'client');
      mkdirSync(dir);
      cpSync(join(PACKAGE, 'dist'), join(dir, 'dist'), { recursive: true });
      cpSync(join(PACKAGE, 'package.json'), join(dir, 'package.json'));
      const script = `
        import { createClient, isApiError } from '@catalog-inventory/client';
        const client = createClient({ baseUrl: ${JSON.stringify(base)}, apiKey: ${JSON.stringify(KEYS.tenantA)} });
        let n = 0;
        for await (const product of client.products.list({ pageSize: 7, activeOnly: false })) n++;
        const error = await client.products.get('nope').catch((e) => e);
        console.log(JSON.stringify({ n, notFound: isApiError(error, 'not_found') }));`;
      writeFileSync(join(dir, 'check.mjs'), script);
      const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: dir });
      const { total } = (await (
        await fetch(`${base}/v1/catalog/products?activeOnly=false&pageSize=1`, {
          headers: { Authorization: `Bearer ${KEYS.tenantA}` },
        })
      ).json()) as { total: number };
      expect(JSON.parse(stdout)).toEqual({ n: total, notFound: true });
    });
  });
});

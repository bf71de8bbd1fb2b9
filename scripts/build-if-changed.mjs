// Builds dist/ from src/ with TypeScript only when the sources changed since the last build, so that
// `npm start` and the commands (`npm run admin`, `db:*`) start at once when nothing changed, and a
// build that does run says so. Used by the npm scripts; `npm run build` always builds.
//
// "Changed" is decided by content: a hash of src/, the tsconfig files and package-lock.json, kept in
// dist/.build-stamp after a successful build (a failed build leaves no stamp, so the next run retries).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';

process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const STAMP = 'dist/.build-stamp';
const BUILT = 'dist/main.js';
const say = (line) => process.stderr.write(`${line}\n`);

function sourcesHash() {
  const hash = createHash('sha256');
  const visit = (path) => {
    if (statSync(path).isDirectory()) for (const entry of readdirSync(path).sort()) visit(`${path}/${entry}`);
    else hash.update(`${path}\0`).update(readFileSync(path)).update('\0');
  };
  for (const input of INPUTS) if (existsSync(input)) visit(input);
  return hash.digest('hex');
}

function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

/** Runs tsc, showing the seconds go by on a terminal; resolves with tsc's exit code and output. */
function compile(tsc, label) {
  const started = Date.now();
  const seconds = () => `${Math.round((Date.now() - started) / 1000)} s`;
  const ticker = process.stderr.isTTY ? setInterval(() => process.stderr.write(`\r${label} ${seconds()}`), 1000) : null;
  process.stderr.write(process.stderr.isTTY ? label : `${label}\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      if (ticker) clearInterval(ticker);
      if (process.stderr.isTTY) process.stderr.write('\n');
      resolve({ code, output, took: seconds() });
    });
  });
}

const hash = sourcesHash();
const stamp = existsSync(STAMP) ? readFileSync(STAMP, 'utf8').trim() : null;
if (stamp === hash && existsSync(BUILT)) process.exit(0);

const tsc = typescriptCompiler();
if (tsc === null) {
  if (!existsSync(BUILT)) {
    say('dist/ has not been built and TypeScript is not installed: run "npm install" first.');
    process.exit(1);
  }
  say('TypeScript is not installed, so dist/ is not rebuilt: it may not match src/ ("npm install" installs it).');
  process.exit(0);
}
const first = !existsSync(BUILT);
const { code, output, took } = await compile(
  tsc,
  first ? 'Building dist/ from src/ (the first time takes up to a minute)…' : 'src/ changed: rebuilding dist/…',
);
if (code !== 0) {
  process.stderr.write(output);
  say(`The build failed (TypeScript exit code ${code}); dist/ was left as it was.`);
  process.exit(1);
}
writeFileSync(`${STAMP}.tmp`, `${hash}\n`);
renameSync(`${STAMP}.tmp`, STAMP);
say(`Built in ${took}.`);

import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { RUN_ENV } from './test-run.mjs';

/**
 * A new folder inside the run's temporary folder, which the global teardown removes with everything
 * in it, whether the test cleaned up or failed half-way.
 */
export function testTempDir(prefix: string): string {
  const root = process.env[RUN_ENV.tempDir];
  if (!root) throw new Error('The test run is not set up (jest globalSetup did not run)');
  return mkdtempSync(join(root, `${prefix}-`));
}

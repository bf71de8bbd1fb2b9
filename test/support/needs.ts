/** True under CI (`CI=true`, as `.ci/run` is run): there a test that cannot run counts as failed. */
export const inCi = ['true', '1'].includes((process.env.CI ?? '').toLowerCase());

/**
 * A describe block that needs something a machine may lack (chromium, Redis). With `missing` set,
 * it is skipped with a loud warning on a developer's machine; in CI it becomes one failing test that
 * names what is missing, so that a green CI never hides tests that did not run.
 */
export function describeWhenAvailable(name: string, missing: string | null, body: () => void): void {
  if (missing === null) {
    describe(name, body);
  } else if (inCi) {
    describe(name, () => {
      it('could not run', () => {
        throw new Error(`${missing}: in CI a test that cannot run counts as failed`);
      });
    });
  } else {
    console.warn(`\n!!! "${name}" does NOT run: ${missing} !!!\n`);
    describe.skip(name, body);
  }
}

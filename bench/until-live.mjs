/**
 * Waits until a server answers `/health/live` with 2xx: asks every `everyMs` ms, at most `tries`
 * times, and fails early when `gone()` says the server's process has ended.
 */
export async function untilLive(base, { tries = 150, everyMs = 200, gone = () => false, name = 'the service' } = {}) {
  for (let i = 0; i < tries; i++) {
    if (
      await fetch(`${base}/health/live`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (gone()) break;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`${name} did not start`);
}

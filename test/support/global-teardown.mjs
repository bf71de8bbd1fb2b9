export default async function globalTeardown() {
  await globalThis.__CIA_EMBEDDED_PG__?.stop();
}

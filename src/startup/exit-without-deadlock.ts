import { setFlagsFromString } from 'node:v8';

/**
 * Imported first by every entry point (the server and each command), before anything is compiled.
 *
 * Why: from Node.js 22 on, V8 builds baseline (Sparkplug) code on a platform worker thread. A
 * process.exit() tears the platform down before the isolate: the main thread joins the worker
 * threads, while a worker that is building code and needs a garbage collection waits for the main
 * thread to run it. Neither moves again, and a SIGTERM is caught by Node.js's native handler, which
 * re-raises it: ignored by a container's PID 1 (nodejs/node#54918, #64274). Seen with gdb on a start
 * that failed: node-MainThread in WorkerThreadsTaskRunner::Shutdown (pthread_join), node-V8Worker in
 * ConcurrentBaselineCompiler → CollectionBarrier::AwaitCollectionBackground; 10 of 30 such starts
 * on Node.js 26.10 never ended. Node.js 20 ships with the flag off, which is why the host never hung.
 * The flag is not allowed in NODE_OPTIONS, so it is set here, for whoever starts the process.
 */
setFlagsFromString('--no-concurrent-sparkplug');

/**
 * process.exit(code) once the main thread has turned its event loop for a moment. A worker thread
 * that is still compiling (TurboFan, Maglev) and needs a garbage collection waits for the main
 * thread to run it; process.exit() does not drain such work (a natural end does), so an exit while
 * one is in flight can still hang as above (1 of 12 failed starts in CI with Sparkplug already
 * off). A quarter of a second of event loop lets the main thread serve those requests first.
 */
export function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_GRACE_MS);
}

const EXIT_GRACE_MS = 250;

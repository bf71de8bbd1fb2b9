import { constants } from 'node:os';

/**
 * Imported by the server's entry point before its modules load: until the server listens (or hands
 * the signals to the embedded PostgreSQL's package), SIGTERM and SIGINT end the start at once. Without
 * a listener, Node.js's native handler re-raises the signal, which a container's PID 1 ignores: a
 * start waiting for an unreachable database would sit until SIGKILL.
 */
const SIGNALS = ['SIGTERM', 'SIGINT'] as const;

function stopStarting(signal: NodeJS.Signals): void {
  console.error(`Stopped by ${signal} before the server was listening.`);
  process.exit(128 + constants.signals[signal]);
}

for (const signal of SIGNALS) process.once(signal, stopStarting);

/** From now on the caller handles the signals. */
export function handOverStartingSignals(): void {
  for (const signal of SIGNALS) process.removeListener(signal, stopStarting);
}

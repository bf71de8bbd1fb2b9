import { createServer } from 'node:net';

/** What a person sees when the HTTP port is taken: the problem and the way out. */
export function portInUseMessage(port: number): string {
  return (
    `Port ${port} is already in use: another copy of the service, or another program, listens on it. ` +
    `Stop it, or start on another port, for example: PORT=${port === 3000 ? 3001 : 3000} npm start`
  );
}

export const isPortInUse = (error: unknown): boolean => (error as NodeJS.ErrnoException)?.code === 'EADDRINUSE';

/**
 * Whether the port is free to listen on (as the server will: every address), checked before the slow
 * part of the start, so that a taken port is reported at once. The server's own listen still decides.
 */
export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => (isPortInUse(error) ? resolve(false) : reject(error)));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

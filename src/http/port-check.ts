import { connect, createServer } from 'node:net';

/**
 * What a person sees when the HTTP port is taken: the problem and the way out. `listening` says
 * whether a program accepts connections on it; a port can also be held without a listener, as the
 * local end of an outgoing connection (a client's ephemeral port), which ends when that connection does.
 */
export function portInUseMessage(port: number, listening: boolean): string {
  const other = port === 3000 ? 3001 : 3000;
  const way = `start on another port, for example: PORT=${other} npm start`;
  return listening
    ? `Port ${port} is already in use: another copy of the service, or another program, listens on it. Stop it, or ${way}`
    : `Port ${port} is already in use, but nothing listens on it: a connection holds it as its local port ` +
        `(an outgoing connection of some program, which frees it when it closes). Wait for that, or ${way}`;
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

/** Whether a program accepts connections on the port of this machine (IPv4 or IPv6 loopback). */
export async function portHasListener(port: number): Promise<boolean> {
  const accepts = (host: string): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect({ port, host, timeout: 1000 });
      const done = (result: boolean) => {
        socket.destroy();
        resolve(result);
      };
      socket.once('connect', () => done(true));
      socket.once('timeout', () => done(false));
      socket.once('error', () => done(false));
    });
  const [v4, v6] = await Promise.all([accepts('127.0.0.1'), accepts('::1')]);
  return v4 || v6;
}

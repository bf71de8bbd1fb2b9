import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 connection on a raw socket, kept open between requests (what a keep-alive client or a
 * proxy's upstream pool does), so that a test sees exactly what the server does with the connection.
 */
export class RawConnection {
  /** Resolves when the server has closed the connection. */
  readonly closed: Promise<void>;
  private buffer = Buffer.alloc(0);
  private wake: (() => void) | null = null;
  private ended = false;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.ended = true;
        this.wake?.();
        resolve();
      }),
    );
    socket.on('error', () => undefined);
  }

  static open(base: string): Promise<RawConnection> {
    const { hostname, port } = new URL(base);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /**
   * Sends a GET and reads its response (Content-Length bodies only, which is all this service sends).
   * `target` is sent as written: an origin-form path or an absolute-form URL. `Host: test` unless given.
   */
  async get(target: string, headers: Record<string, string> = {}): Promise<RawResponse> {
    const host = Object.keys(headers).some((name) => name.toLowerCase() === 'host') ? [] : ['Host: test'];
    const lines = [`GET ${target} HTTP/1.1`, ...host, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    this.socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    return this.response();
  }

  /** Writes bytes as they are: a request in pieces, for example. */
  write(data: string): void {
    this.socket.write(data);
  }

  /** Reads the next response. */
  read(): Promise<RawResponse> {
    return this.response();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private async response(): Promise<RawResponse> {
    let headEnd: number;
    while ((headEnd = this.buffer.indexOf('\r\n\r\n')) === -1) await this.more();
    const [statusLine, ...headerLines] = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
      }),
    );
    const length = Number(headers['content-length'] ?? 0);
    while (this.buffer.length < headEnd + 4 + length) await this.more();
    const body = this.buffer.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    this.buffer = this.buffer.subarray(headEnd + 4 + length);
    return { status: Number(statusLine.split(' ')[1]), headers, body };
  }

  private more(): Promise<void> {
    if (this.ended) return Promise.reject(new Error('the server closed the connection before a whole response'));
    return new Promise((resolve) => {
      this.wake = () => {
        this.wake = null;
        resolve();
      };
    });
  }
}

/** Whether the server accepts a TCP connection now (false once it refuses them). */
export function accepting(base: string): Promise<boolean> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The contract's envelope in a raw reply, with the request id of its X-Request-Id header. */
export function expectRawEnvelope(reply: { head: string; body: string }, code: string): void {
  const requestId = /^X-Request-Id: (req_[A-Za-z0-9]{20,})$/im.exec(reply.head)?.[1];
  expect(requestId).toBeDefined();
  expect(JSON.parse(reply.body).error).toEqual({
    code,
    message: expect.any(String),
    details: expect.any(Object),
    requestId,
  });
}

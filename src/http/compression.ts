import type { IncomingMessage } from 'node:http';
import zlib from 'node:zlib';
import Negotiator from 'negotiator';

type Encoder = (body: Buffer) => Buffer;

// negotiator 1.x takes the server's order for ties; @types/negotiator does not declare it yet.
interface PreferringNegotiator {
  encodings(available: string[], options: { preferred: string[] }): string[];
}

// Levels chosen by measurement on a 100-row product page (53 kB) and stock page (29 kB): Brotli at
// quality 4 is smaller than gzip at any level and costs less CPU than gzip 6; quality 5 and up cost
// about twice as much for a few percent. gzip 6 is zlib's default; zstd 3 is zstd's. Figures in
// docs/performance.md#compression.
export const COMPRESSION_LEVELS = { brotli: 4, gzip: 6, zstd: 3 } as const;
const { brotli: BROTLI_QUALITY, gzip: GZIP_LEVEL, zstd: ZSTD_LEVEL } = COMPRESSION_LEVELS;

// zstd is in node:zlib from Node.js 22.15 (the image's Node.js has it; Node.js 20 has not).
const zstd = (zlib as unknown as { zstdCompressSync?: (b: Buffer, o: object) => Buffer }).zstdCompressSync;
const zstdLevel = (zlib.constants as unknown as Record<string, number>).ZSTD_c_compressionLevel;

/** Every coding this Node.js can write, in the service's order of preference when the client ranks them alike. */
const ENCODERS: ReadonlyMap<string, Encoder> = new Map<string, Encoder>([
  [
    'br',
    (body) =>
      zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
  ],
  ...(zstd && zstdLevel !== undefined
    ? [['zstd', (body: Buffer) => zstd(body, { params: { [zstdLevel]: ZSTD_LEVEL } })] as [string, Encoder]]
    : []),
  ['gzip', (body) => zlib.gzipSync(body, { level: GZIP_LEVEL })],
]);

const CODINGS = [...ENCODERS.keys(), 'identity'];

/** The codings the service can write, for the docs and the tests. */
export const CONTENT_CODINGS: readonly string[] = [...ENCODERS.keys()];

/**
 * Content negotiation of a JSON answer's coding (RFC 9110 section 12.5.3): the client's
 * `Accept-Encoding` with its q-values, `identity` and `*`, read by `negotiator` (the parser Express
 * uses); among codings the client ranks alike, the service's order (br, zstd, gzip). A body below
 * `minBytes` is sent as it is (a coding would save little and cost a compression). When no coding
 * the service has is acceptable, identity included, the body is sent as it is too: the contract has
 * no 406 or 415, and RFC 9110 allows it.
 */
export class ResponseCompression {
  constructor(readonly minBytes: number) {}

  /** The coding and the coded body, or null to send the body as it is (`length`: its UTF-8 bytes). */
  encode(req: IncomingMessage, body: string, length: number): { coding: string; bytes: Buffer } | null {
    if (length < this.minBytes) return null;
    const accepted = (new Negotiator(req) as PreferringNegotiator).encodings(CODINGS, { preferred: CODINGS });
    const encoder = accepted.length > 0 ? ENCODERS.get(accepted[0]) : undefined;
    if (encoder === undefined) return null;
    return { coding: accepted[0], bytes: encoder(Buffer.from(body)) };
  }
}

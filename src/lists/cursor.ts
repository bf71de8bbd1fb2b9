import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ServiceSecrets } from '../database/service-secrets.js';
import { ApiError } from '../http/api-error.js';

/** Where a cursor walk stands. */
export interface CursorState {
  /** The page starts after this id. */
  readonly afterId: string;
  /** The page number the cursor stands for (what the body's `page` says). */
  readonly page: number;
  /** A sync walk: the position it hands out (taken when it began), as the client sees it. */
  readonly position?: string;
}

// 2: a sync walk's cursor carries its position as handed out (opaque), no longer the transaction.
const VERSION = 2;
const MAC_BYTES = 16;
/** Base64url payload, a dot, the base64url MAC. */
export const CURSOR_PATTERN_TEXT = '^[A-Za-z0-9_-]{1,1000}\\.[A-Za-z0-9_-]{22}$';

const invalid = (message: string): ApiError => ApiError.validationFailed([{ in: 'query', name: 'cursor', message }]);

/**
 * Opaque, signed cursors. A cursor carries where the walk stands and a digest of what it was made
 * for (the route, the caller's client and tenant, the filters and page size); it is signed with a key
 * the service keeps in its database (shared by every replica), so an altered cursor, or one used with
 * other parameters or by another key's client, is a 400 naming `cursor`, never another list's rows.
 */
@Injectable()
export class CursorCodec {
  constructor(private readonly secrets: ServiceSecrets) {}

  /** A digest of what a cursor is for: anything that changes the list it walks. */
  static binding(parts: readonly unknown[]): string {
    return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
  }

  async encode(binding: string, state: CursorState, deadlineMs: number): Promise<string> {
    const fields: unknown[] = [VERSION, binding, state.afterId, state.page];
    if (state.position !== undefined) fields.push(state.position);
    const payload = Buffer.from(JSON.stringify(fields)).toString('base64url');
    return `${payload}.${(await this.mac(payload, deadlineMs)).toString('base64url')}`;
  }

  /** The state of a cursor made for `binding`; a 400 naming `cursor` for anything else. */
  async decode(binding: string, token: string, deadlineMs: number): Promise<CursorState> {
    const [payload, mac] = token.split('.');
    const expected = await this.mac(payload, deadlineMs);
    const given = Buffer.from(mac ?? '', 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw invalid('is not a cursor of this service (it was altered or cut): follow the Link header as given');
    }
    const [version, madeFor, afterId, page, position] = JSON.parse(
      Buffer.from(payload, 'base64url').toString(),
    ) as unknown[];
    if (version !== VERSION) throw invalid('is from another version of the service: start again from the first page');
    if (madeFor !== binding) {
      throw invalid(
        'was made for other parameters or another API client: repeat the request of its Link header exactly',
      );
    }
    return { afterId: afterId as string, page: page as number, position: position as string | undefined };
  }

  private async mac(payload: string, deadlineMs: number): Promise<Buffer> {
    return createHmac('sha256', await this.secrets.signingKey(deadlineMs))
      .update(payload)
      .digest()
      .subarray(0, MAC_BYTES);
  }
}

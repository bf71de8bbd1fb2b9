import type { ApiCaller } from '../auth/api-caller.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the request-id middleware before anything else runs. */
    requestId: string;
    /** Set by ApiKeyGuard once the key is verified. */
    caller?: ApiCaller;
  }
}

export {};

import type { CallerScope } from '../../auth/caller-scope.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the request-id middleware before anything else runs. */
    requestId: string;
    /** Set by ApiKeyGuard once the key is verified. */
    caller?: CallerScope;
  }
}

export {};

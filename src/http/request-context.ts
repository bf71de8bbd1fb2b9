declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the request-id middleware before anything else runs. */
    requestId: string;
  }
}

export {};

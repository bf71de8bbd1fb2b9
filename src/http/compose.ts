import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware that runs several in order as one: each layer of Express's router costs a path match
 * and a few calls per request, for every request, whether or not the middleware has anything to do.
 */
export function compose(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, next: NextFunction): void => {
    let index = 0;
    const step = (error?: unknown): void => {
      if (error != null || index === handlers.length) return next(error);
      const handler = handlers[index++];
      try {
        void handler(req, res, step);
      } catch (thrown) {
        next(thrown);
      }
    };
    step();
  };
}

import type { NextFunction, Request, Response } from 'express';
import { newId } from '../domain/ids.js';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    startedAt: bigint;
    keyPrefix?: string;
    /** A body that could not be read (malformed JSON, too large), answered by the route once the caller is known. */
    bodyError?: import('../domain/errors.js').ApiError;
  }
}

/** Every response, errors and unknown routes included, carries its `x-request-id`. */
export function requestId(req: Request, res: Response, next: NextFunction): void {
  req.id = newId('req');
  req.startedAt = process.hrtime.bigint();
  res.setHeader('x-request-id', req.id);
  next();
}

export function elapsedMs(req: Request): number {
  return Number(process.hrtime.bigint() - req.startedAt) / 1e6;
}

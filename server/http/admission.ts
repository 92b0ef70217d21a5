/**
 * Request admission: what a request must do before it may hold one of the
 * server's slots. A slot (OAI_MAX_IN_FLIGHT) is work for the store and the
 * renderer; a client that is still sending its body is doing no work, so the
 * body is read first, under a deadline well below the request timeout, and
 * only a complete request takes a slot. A body the client announces as too
 * large is refused before a byte of it is read.
 *
 * Per client (./clients.ts), a request is counted from its first byte to its
 * last, body included: one client cannot hold more connections in the
 * body-reading phase than its own share either.
 */
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';

/** What the admission middleware needs. */
export interface AdmissionOptions {
  readonly logger: Logger;
  /** Requests doing work at once before 503. */
  readonly maxInFlight: number;
  /** Seconds in Retry-After of a 503. */
  readonly retryAfter: number;
  /** Largest request body accepted (bytes); beyond it, 413. */
  readonly maxBodyBytes: number;
  /** Milliseconds from the request head to the body's last byte; past it, 408 and the connection closed. */
  readonly bodyTimeoutMs: number;
  /** Who sent a request (./clients.ts `clientOf`), for the log. */
  readonly clientOf: (req: Request) => string;
  /** Called once per request refused or lost before it did any work. */
  readonly onRefused?: (reason: 'body-timeout' | 'body-too-large' | 'client-abort' | 'shed') => void;
}

/** The admission middleware pair and the count it keeps. */
export interface Admission {
  /** Reads a request's body (if it has one) into `res.locals.body`, under the size limit and the deadline. */
  readonly readBody: RequestHandler;
  /** Takes an in-flight slot for a request whose body is complete, or answers 503 with Retry-After. */
  readonly shed: RequestHandler;
  /** Requests holding a slot right now. */
  inFlight(): number;
}

/** How long a refused connection may still deliver the rest of a body before it is cut (ms). */
const LINGER_MS = 500;

/**
 * Builds the admission middleware. Mount `readBody` before `shed`, both
 * after the routes that are never shed (`/healthz`, `/metrics`).
 *
 * @example
 * const admission = createAdmission({ logger, maxInFlight: 64, retryAfter: 10, maxBodyBytes: 65536, bodyTimeoutMs: 10000, clientOf });
 * app.use(admission.readBody, admission.shed);
 */
export function createAdmission(options: AdmissionOptions): Admission {
  let inFlight = 0;
  const refused = (reason: Parameters<NonNullable<AdmissionOptions['onRefused']>>[0]): void => options.onRefused?.(reason);

  const readBody: RequestHandler = (req, res, next) => {
    const length = req.headers['content-length'];
    const chunked = req.headers['transfer-encoding'] !== undefined;
    if (length === undefined && !chunked) return next();
    // RFC 9110 15.5.14: refused on the announced length, before reading.
    if (length !== undefined && Number(length) > options.maxBodyBytes) {
      refused('body-too-large');
      closeAfter(req, res.status(413));
      res.type('text/plain').send('Request body too large.\n');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (): void => {
      done = true;
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const timer = setTimeout(() => {
      if (done) return;
      finish();
      refused('body-timeout');
      options.logger.info({ client: options.clientOf(req), path: req.path.slice(0, 200), received: size }, 'request body not received in time');
      // RFC 9110 15.5.9: 408, and the connection is closed.
      closeAfter(req, res.status(408));
      res.type('text/plain').send('Request body not received in time.\n');
    }, options.bodyTimeoutMs);
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= options.maxBodyBytes) {
        chunks.push(chunk);
        return;
      }
      // A body sent without a length (chunked) is cut at the limit, not read to its end.
      finish();
      refused('body-too-large');
      closeAfter(req, res.status(413));
      res.type('text/plain').send('Request body too large.\n');
    };
    const onEnd = (): void => {
      finish();
      res.locals.body = Buffer.concat(chunks);
      next();
    };
    const onClose = (): void => {
      if (done) return;
      finish();
      // A client that hangs up mid-body is not a server failure: logged as what it is.
      refused('client-abort');
      options.logger.info({ client: options.clientOf(req), path: req.path.slice(0, 200), received: size }, 'client aborted the request');
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
  };

  const shed: RequestHandler = (_req, res, next) => {
    if (inFlight >= options.maxInFlight) {
      res.locals.shed = true;
      refused('shed');
      res.status(503).set('Retry-After', String(options.retryAfter)).type('text/plain').send('Too many requests in flight; retry later.\n');
      return;
    }
    inFlight++;
    res.on('close', () => inFlight--);
    next();
  };

  return { readBody, shed, inFlight: () => inFlight };
}

/** Answers with `Connection: close` and cuts the connection shortly after, so the rest of a refused body is never read. */
function closeAfter(req: Request, res: Response): void {
  res.set('Connection', 'close');
  res.on('finish', () => setTimeout(() => req.socket.destroy(), LINGER_MS).unref());
}

const CLIENT_ERROR_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * Whether an error is the client going away (its socket reset or closed)
 * rather than a failure of the server or the store: a connection-class code
 * on a request whose own socket is gone.
 */
export function isClientAbort(err: unknown, req: Request): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return typeof code === 'string' && CLIENT_ERROR_CODES.has(code) && (req.socket.destroyed || req.destroyed);
}

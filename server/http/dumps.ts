/**
 * The dump folder (`dumpDir`, docs/dumps.md) served at {@link DUMPS_PATH}:
 * the files `oai-steward dump` writes, as they are on disk (gzip files are
 * `application/gzip`, never a content coding, so the size and SHA-256 the
 * manifest gives are those of what a client receives). `send`, under
 * express.static, answers `Range` with 206 (RFC 9110 section 14) and
 * `If-None-Match` with 304 against a strong-enough ETag of size and
 * modification time (section 8.8.3), so an interrupted download resumes.
 * A folder answers with its manifest; dot files (a dump being written) are
 * never served.
 */
import express from 'express';
import type { NextFunction, Request, Response } from 'express';
import { MANIFEST_NAME } from '../dump/manifest';

/** Where the dump folder is served. */
export const DUMPS_PATH = '/dumps/';

/**
 * The router serving `dir` at {@link DUMPS_PATH}.
 *
 * @example app.use(dumpsRouter('/srv/oai-steward/dumps'));
 */
export function dumpsRouter(dir: string): express.Router {
  const router = express.Router();
  router.use(
    DUMPS_PATH,
    express.static(dir, {
      index: MANIFEST_NAME,
      dotfiles: 'ignore',
      etag: true,
      lastModified: true,
      fallthrough: true,
      setHeaders(res, file) {
        // A manifest changes in place with every dump; a dump file's name carries its snapshot and never changes.
        res.setHeader('Cache-Control', file.endsWith(MANIFEST_NAME) ? 'no-cache' : 'public, max-age=86400');
      },
    }),
  );
  // send reports a client's error (416 for a range past the end, with its Content-Range) as an error: answered here, not as a 500.
  router.use(DUMPS_PATH, (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const e = err as { status?: unknown; headers?: Record<string, string> };
    if (typeof e.status !== 'number' || e.status < 400 || e.status >= 500 || res.headersSent) {
      next(err);
      return;
    }
    for (const [k, v] of Object.entries(e.headers ?? {})) res.setHeader(k, v);
    res
      .status(e.status)
      .type('text/plain')
      .send(e.status === 416 ? 'range not satisfiable\n' : 'not found\n');
  });
  return router;
}

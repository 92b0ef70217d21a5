/**
 * The publication log's endpoints under `<baseURL>/log/` (C2SP tlog-tiles):
 *
 * - `checkpoint`: the signed checkpoint of the log as it is now (C2SP
 *   tlog-checkpoint, signed-note), `text/plain; charset=utf-8`, never cached;
 * - `tile/<L>/<N>[.p/<W>]`: a tile's hashes; `tile/entries/<N>[.p/<W>]`: its
 *   entries as a bundle; `application/octet-stream`, immutable (a tile of a
 *   given width never changes: a partial tile is a prefix of its full one).
 *
 * Before signing, the head is checked against the tiles (the root they give
 * at the head's size), and the largest checkpoint any server of the store
 * signed before (kept in the store) against them too: a checkpoint
 * inconsistent with one signed earlier, by this process or another, before
 * a restart or after, is never signed (500, logged); `doctor` says where the
 * log went wrong.
 */
import express from 'express';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { checkpointText, signNote } from '../../lib/tlog/note';
import type { LogHead, PublicationLogStore } from '../../lib/tlog/store';
import { encodeBundle, parseTilePath, TILE_WIDTH } from '../../lib/tlog/tiles';
import { HASH_SIZE } from '../../lib/tlog/merkle';
import type { LogKey } from '../log-key';
import { isBusy } from '../db/errors';

/** What the endpoints serve from. */
export interface LogEndpoints {
  readonly store: PublicationLogStore;
  readonly key: LogKey;
}

/** The path of the log below the OAI-PMH endpoint's path: `/oai` → `/oai/log/`. */
export function logPathOf(oaiPath: string): string {
  return `${oaiPath.replace(/\/+$/, '')}/log/`;
}

/** Why a checkpoint is not signed. */
class Inconsistent extends Error {}

/**
 * The router serving the log at {@link logPathOf}(`oaiPath`).
 *
 * @example app.use(logRouter('/oai', { store: publicationLogOf(knex), key }, logger));
 */
export function logRouter(oaiPath: string, log: LogEndpoints, logger: Logger): express.Router {
  const base = logPathOf(oaiPath);
  const router = express.Router();
  // Checked against the largest checkpoint any server of the store signed (kept in the store, so across
  // processes and restarts): a checkpoint inconsistent with it is never signed.
  const check = async (head: LogHead): Promise<LogHead | null> => {
    if (!(await log.store.rootAt(head.size)).equals(head.root)) throw new Inconsistent(`the log's head (size ${head.size}) disagrees with its tiles`);
    const before = await log.store.signed();
    if (before === null) return null;
    if (before.size > head.size) throw new Inconsistent(`the log is at ${head.size} entries, behind the checkpoint of ${before.size} signed before`);
    if (!(await log.store.rootAt(before.size)).equals(before.root))
      throw new Inconsistent(`the log's first ${before.size} entries changed since they were signed`);
    return before;
  };

  router.get(`${base}checkpoint`, (req: Request, res: Response, next) => {
    void (async () => {
      let head = await log.store.head();
      const before = await check(head);
      if (before === null || head.size > before.size) {
        try {
          await log.store.recordSigned(head);
        } catch (err) {
          // The store is busy (SQLite's write lock held by a long write): sign what was signed before, or ask again later.
          if (before === null || !isBusy(err)) throw err;
          head = before;
        }
      }
      const note = signNote(checkpointText({ origin: log.key.name, size: head.size, root: head.root }), log.key.name, log.key.key);
      res.status(200).set('Cache-Control', 'no-cache').type('text/plain; charset=utf-8').send(note);
    })().catch((err: unknown) => {
      if (!(err instanceof Inconsistent)) return next(err);
      logger.error({ path: req.path }, `publication log: not signing a checkpoint: ${err.message}`);
      res.status(500).type('text/plain').send('The publication log is not consistent with what it published before; the operator is told.\n');
    });
  });

  router.get(new RegExp(`^${base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}tile/(.+)$`), (req: Request, res: Response, next) => {
    void (async () => {
      const t = parseTilePath((req.params as Record<string, string>)[0] ?? '');
      if (t === null) return notFound(res);
      let body: Buffer;
      if (t.level === 'entries') {
        const entries = await log.store.entries(t.n * TILE_WIDTH, t.width);
        if (entries.length !== t.width) return notFound(res);
        body = encodeBundle(entries);
      } else {
        const hashes = await log.store.tile(t.level, t.n);
        if (hashes === null || hashes.length < t.width * HASH_SIZE) return notFound(res);
        body = hashes.subarray(0, t.width * HASH_SIZE);
      }
      res.status(200).set('Cache-Control', 'public, max-age=31536000, immutable').type('application/octet-stream').send(body);
    })().catch(next);
  });
  return router;
}

function notFound(res: Response): void {
  res.status(404).type('text/plain').send('Not found.\n');
}

/**
 * The publication log of an upgraded store and the key a store is made
 * with: a store written on demand that had no log gets, when it is next
 * opened after migrating, one entry per item listing every format it is
 * served in, each hashed as served, and opening it again appends nothing;
 * `oai-steward migrate` makes the key (mode 0600, named for the repository
 * then), which a later start under another namespace keeps.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { decodeEntry } from '../../lib/tlog/entry';
import { loadConfig } from '../../server/config';
import { migrationSource } from '../../server/db/migrations';
import { parseKeyFile } from '../../server/log-key';
import { verifyLog } from '../../server/ops/log-verify';
import { openProvider } from '../../server/provider';
import { databaseKinds, openThrowawayDatabase } from '../helpers/db';
import { openTestProvider } from '../helpers/server';
import { cli } from '../loader/helpers';

const ON_DEMAND = { OAI_WRITTEN_FORMATS: 'on-demand' };

const count = async (q: Knex.QueryBuilder): Promise<number> => Number(((await q.count('* as n')) as { n: unknown }[])[0]?.n);

/** Each item's formats, as its `records` rows name them (kept with XML or without). */
async function formatsByItem(knex: Knex): Promise<Map<number, string[]>> {
  const rows = (await knex('records').select('item_pk', 'prefix').orderBy(['item_pk', 'prefix'])) as { item_pk: unknown; prefix: string }[];
  const out = new Map<number, string[]>();
  for (const r of rows) out.set(Number(r.item_pk), [...(out.get(Number(r.item_pk)) ?? []), r.prefix]);
  return out;
}

for (const kind of databaseKinds()) {
  describe(`the publication log of an upgraded store, and its key, on ${kind}`, function () {
    this.timeout(180_000);

    it('gives an upgraded store written on demand one entry per item listing every format it is served in, hashed as served, and nothing more when opened again', async () => {
      const db = await openThrowawayDatabase(kind);
      try {
        await (await openTestProvider(kind, { database: db, env: ON_DEMAND })).close();
        const knex = db.knex();
        // The store as the release before the log left it.
        await knex.migrate.down({ migrationSource, name: '019_publication_log' });
        const live = knex('items').where('deleted', false);
        const bare = await count(knex('records').whereNull('xml').whereIn('item_pk', live.clone().select('pk')));
        expect(bare, 'live records kept without XML').to.be.above(0);
        const items = await count(knex('items'));
        const tombstones = await count(knex('items').where('deleted', true));
        const upgraded = await openTestProvider(kind, { database: db, env: ON_DEMAND, seed: false });
        try {
          const leaves = (await knex('log_leaves').select('item_pk', 'entry').orderBy('idx')) as { item_pk: unknown; entry: Buffer }[];
          expect(leaves).to.have.length(items + tombstones);
          const formats = await formatsByItem(knex);
          const deleted = new Set(((await knex('items').where('deleted', true).select('pk')) as { pk: unknown }[]).map((r) => Number(r.pk)));
          for (const l of leaves) {
            const e = decodeEntry(l.entry);
            const pk = Number(l.item_pk);
            const want = e.status === 'new' && !deleted.has(pk) ? (formats.get(pk) ?? []) : [];
            expect(
              e.records.map((r) => r.prefix),
              `${e.status} ${e.identifier}`,
            ).to.deep.equal(want);
          }
          // Every record a harvester gets, in every format, against its latest entry: the hash of what is served.
          const v = await verifyLog(`http://127.0.0.1:${upgraded.port}/oai`, { logUrl: `http://127.0.0.1:${upgraded.port}/oai/log/` });
          expect(v.problem, v.problem ?? '').to.equal(null);
          expect(v.records).to.be.above(bare);
          expect(v.checkpoint?.size).to.equal(items + tombstones);
        } finally {
          await upgraded.close();
        }
        await (await openTestProvider(kind, { database: db, env: ON_DEMAND, seed: false })).close();
        expect(await count(knex('log_leaves')), 'entries after opening the store again').to.equal(items + tombstones);
      } finally {
        await db.close();
      }
    });

    it('makes the log key when `migrate` makes the store, mode 0600, named for the repository, and keeps it under another namespace', async () => {
      const db = await openThrowawayDatabase(kind);
      try {
        const env = {
          DATABASE_URL: db.url,
          LOG_LEVEL: 'silent',
          OAI_NAMESPACE: 'first.example.org',
          // A SQLite store keeps its key beside its file by default; a PostgreSQL one here, in the test's folder.
          ...(kind === 'postgres' && { OAI_LOG_KEY_FILE: path.join(db.dir, 'keys', 'log.key') }),
        };
        const file = loadConfig(env).logKeyFile as string;
        expect(file).to.equal(kind === 'sqlite' ? `${db.url.slice('sqlite:'.length)}-log.key` : path.join(db.dir, 'keys', 'log.key'));
        const run = await cli(db, ['migrate'], { env });
        expect(run.code, run.stderr).to.equal(0);
        expect(fs.statSync(file).mode & 0o777).to.equal(0o600);
        const made = fs.readFileSync(file, 'utf8');
        expect(parseKeyFile(made, file).name).to.equal('first.example.org/log');
        const p = await openProvider(loadConfig({ ...env, OAI_NAMESPACE: 'second.example.org' }));
        try {
          expect(p.logKey().name, 'the origin, fixed when the log was made').to.equal('first.example.org/log');
        } finally {
          await p.close();
        }
        expect(fs.readFileSync(file, 'utf8')).to.equal(made);
      } finally {
        await db.close();
      }
    });
  });
}

/**
 * Backing up and restoring a store, as docs/operations.md tells an operator
 * to: `oai-steward backup` and `restore` for SQLite (run as child
 * processes), the documented pg_dump and pg_restore commands for
 * PostgreSQL (read from the docs and run as written). A restored store
 * publishes byte-identical responses (responseDate aside) and keeps its
 * token secret, so a harvest begun before the backup continues after the
 * restore. A backup taken while a load runs and a server serves is one
 * consistent state: the store before the load, or after it.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { createKnex } from '../../../server/db/connection';
import { openThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/db';
import { checkOai, openTestProvider, request, resumption, type TestProvider } from '../../helpers/server';
import { cli, startCli } from '../../loader/helpers';
import { codeOf, readMarkdown } from '../../helpers/markdown';

const DEMO_ITEMS = 285;

/** The answer without its responseDate, the one part that must differ between two servers. */
const undated = (xml: string): string => xml.replace(/<responseDate>[^<]*<\/responseDate>/, '<responseDate/>');

/** Every page of a list request, following resumption tokens (bounded). */
async function harvest(port: number, query: string): Promise<string[]> {
  const verb = /verb=(\w+)/.exec(query)?.[1] as string;
  const pages = [checkOai(await request(port, { query }))];
  for (let i = 0; i < 100; i++) {
    const token = resumption(pages[pages.length - 1] as string)?.token;
    if (!token) return pages;
    pages.push(checkOai(await request(port, { query: `verb=${verb}&resumptionToken=${encodeURIComponent(token)}` })));
  }
  throw new Error(`${query}: more than 100 pages`);
}

/** What a harvester sees of a store: full lists, a few records, and the continuation of a token issued earlier. */
async function published(p: TestProvider, token: string): Promise<string[]> {
  const out = [
    ...(await harvest(p.port, 'verb=ListRecords&metadataPrefix=oai_dc')),
    ...(await harvest(p.port, 'verb=ListIdentifiers&metadataPrefix=datacite')),
    ...(await harvest(p.port, 'verb=ListSets')),
    checkOai(await request(p.port, { query: 'verb=Identify' })),
    // The publication log's checkpoint, signed with the same key over the same tree: the same bytes.
    (await request(p.port, { path: '/oai/log/checkpoint' })).body,
  ];
  for (const id of ['data-2024-0001', 'rep-2024-0001']) {
    out.push(checkOai(await request(p.port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3A${id}` })));
  }
  out.push(checkOai(await request(p.port, { query: `verb=ListRecords&resumptionToken=${encodeURIComponent(token)}` })));
  return out.map(undated);
}

/** Serves a database with the token secret kept in the store (none configured), 50 items a page. */
function serve(db: ThrowawayDatabase, seed: boolean): Promise<TestProvider> {
  return openTestProvider(db.name, { database: db, seed, pageSize: 50, env: { OAI_TOKEN_SECRET: '' } });
}

/** A first page's token, issued before the backup. */
async function firstToken(p: TestProvider): Promise<string> {
  const token = resumption(checkOai(await request(p.port, { query: 'verb=ListRecords&metadataPrefix=oai_dc' })))?.token;
  if (!token) throw new Error('the first page has no resumptionToken');
  return token;
}

function count(file: string): { items: number; check: string } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return { items: (db.prepare('SELECT count(*) AS n FROM items').get() as { n: number }).n, check: String(db.pragma('quick_check', { simple: true })) };
  } finally {
    db.close();
  }
}

describe('oai-steward backup and restore, on sqlite', function () {
  this.timeout(180_000);
  let original: ThrowawayDatabase;
  let restored: ThrowawayDatabase;
  beforeEach(async () => {
    original = await openThrowawayDatabase('sqlite');
    restored = await openThrowawayDatabase('sqlite');
  });
  afterEach(async () => {
    await original.close();
    await restored.close();
  });

  it('restores a store that publishes byte-identical responses and continues a harvest begun before the backup', async () => {
    const source = await serve(original, true);
    let token: string;
    let before: string[];
    try {
      token = await firstToken(source);
      // Taken while the server serves.
      const backup = await cli(original, ['backup', path.join(original.dir, 'store.backup')]);
      expect(backup.code, backup.stderr).to.equal(0);
      expect(backup.stdout).to.contain(`${DEMO_ITEMS} items`);
      before = await published(source, token);
    } finally {
      await source.close();
    }
    const restore = await cli(restored, ['restore', path.join(original.dir, 'store.backup')]);
    expect(restore.code, restore.stderr).to.equal(0);
    expect(restore.stdout).to.contain(`${DEMO_ITEMS} items`);
    const target = await serve(restored, false);
    try {
      target.now = source.now;
      const after = await published(target, token);
      expect(after.length).to.equal(before.length);
      after.forEach((page, i) => expect(page, `response ${i}`).to.equal(before[i]));
      expect(after[after.length - 1]).to.contain('<record>');
    } finally {
      await target.close();
    }
  });

  it('takes consistent backups while a load runs and a server serves: the store before the load or after it', async () => {
    const server = await serve(original, true);
    const file = path.join(original.dir, 'big.ndjson');
    const N = 20_000;
    fs.writeFileSync(
      file,
      Array.from(
        { length: N },
        (_, i) => `${JSON.stringify({ id: `big-${i}`, datestamp: '2020-01-01T00:00:00Z', dc: { title: [`Record ${i}`], creator: ['Doe, Jane'] } })}\n`,
      ).join(''),
    );
    try {
      const load = startCli(original, ['load', '--batch-size', '500', file]);
      let finished = false;
      void load.done.then(() => (finished = true));
      const seen: number[] = [];
      let duringLoad = 0;
      for (let i = 0; i < 40 && !(finished && seen.length > 0); i++) {
        const target = path.join(original.dir, `during-${i}.backup`);
        const running = !finished;
        const run = await cli(original, ['backup', target]);
        expect(run.code, run.stderr).to.equal(0);
        const c = count(target);
        expect(c.check).to.equal('ok');
        seen.push(c.items);
        if (running && !finished) duringLoad++;
        // The server keeps answering meanwhile.
        checkOai(await request(server.port, { query: 'verb=Identify' }));
      }
      const loaded = await load.done;
      expect(loaded.code, loaded.stderr).to.equal(0);
      expect(duringLoad, 'backups taken while the load ran').to.be.at.least(1);
      for (const n of seen) expect([DEMO_ITEMS, DEMO_ITEMS + N]).to.include(n);
      const last = path.join(original.dir, 'after.backup');
      expect((await cli(original, ['backup', last])).code).to.equal(0);
      expect(count(last).items).to.equal(DEMO_ITEMS + N);
    } finally {
      await server.close();
    }
  });

  it('refuses to restore what is not an oai-steward store, and changes nothing', async () => {
    const seeded = await cli(restored, ['seed']);
    expect(seeded.code, seeded.stderr).to.equal(0);
    const garbage = path.join(restored.dir, 'garbage.backup');
    fs.writeFileSync(garbage, crypto.randomBytes(8192));
    const other = path.join(restored.dir, 'other.sqlite');
    const db = new Database(other);
    db.exec('CREATE TABLE t (x)');
    db.close();
    for (const [file, message] of [
      [garbage, /is not a SQLite database|cannot open/],
      [other, /is not an oai-steward store \(no table knex_migrations\); nothing was changed/],
      [path.join(restored.dir, 'missing.backup'), /missing\.backup does not exist/],
    ] as const) {
      const run = await cli(restored, ['restore', file]);
      expect(run.code, file).to.equal(1);
      expect(run.stderr, file).to.match(message);
      expect(run.stderr).not.to.match(/\n\s+at /);
    }
    expect(count(path.join(restored.dir, 'store.sqlite')).items).to.equal(DEMO_ITEMS);
  });

  it('names one FILE, or says how to use it', async () => {
    const run = await cli(original, ['backup']);
    expect(run.code).to.equal(2);
    expect(run.stderr).to.contain('usage: oai-steward backup FILE');
  });
});

/** A PostgreSQL database of its own (not a schema: pg_dump and pg_restore work on databases), dropped by `close`. */
async function throwawayPgDatabase(): Promise<ThrowawayDatabase & { admin: Knex }> {
  const base = process.env.TEST_DATABASE_URL as string;
  const name = `oai_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = createKnex(base, { pool: { min: 0, max: 1 } });
  await admin.raw('CREATE DATABASE ??', [name]);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const dir = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'oai-steward-pg-'));
  let knex: Knex | undefined;
  return {
    name: 'postgres',
    url: url.toString(),
    dir,
    admin,
    knex() {
      knex ??= createKnex(url.toString(), { pool: { min: 0, max: 4 } });
      return knex;
    },
    async close() {
      await knex?.destroy();
      try {
        await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
      } finally {
        await admin.destroy();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** The pg_dump and pg_restore lines of docs/operations.md, as written there. */
function documentedPgCommands(): { dump: string; restore: string } {
  const doc = readMarkdown('docs/operations.md');
  const lines = codeOf(doc.text)
    .flatMap((c) => c.value.split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim());
  const dump = lines.find((l) => l.startsWith('pg_dump '));
  const restore = lines.find((l) => l.startsWith('pg_restore '));
  if (!dump || !restore) throw new Error('docs/operations.md shows no pg_dump and pg_restore command');
  return { dump, restore };
}

describe('backing up and restoring a PostgreSQL store with the documented pg_dump and pg_restore', function () {
  this.timeout(180_000);
  if (!process.env.TEST_DATABASE_URL) {
    it('are documented (TEST_DATABASE_URL is not set, so they run only where PostgreSQL is)', () => {
      expect(documentedPgCommands().dump).to.contain('$DATABASE_URL');
    });
    return;
  }

  it('refuses oai-steward backup on PostgreSQL, pointing to the documented commands', async () => {
    const db = await openThrowawayDatabase('postgres');
    try {
      const run = await cli(db, ['backup', path.join(db.dir, 'x.backup')]);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.contain('docs/operations.md#backup-and-restore');
      expect(run.stderr).to.contain('pg_dump');
    } finally {
      await db.close();
    }
  });

  it('restores a store that publishes byte-identical responses and continues a harvest begun before the dump', async () => {
    const original = await throwawayPgDatabase();
    const restored = await throwawayPgDatabase();
    try {
      const commands = documentedPgCommands();
      const source = await serve(original, true);
      let token: string;
      let before: string[];
      try {
        token = await firstToken(source);
        // Dumped while the server serves, exactly as documented.
        execFileSync('sh', ['-c', commands.dump], { cwd: original.dir, env: { ...process.env, DATABASE_URL: original.url }, stdio: 'pipe' });
        before = await published(source, token);
      } finally {
        await source.close();
      }
      const dump = fs.readdirSync(original.dir).find((f) => f.endsWith('.dump'));
      if (!dump) throw new Error('pg_dump wrote no .dump file');
      fs.copyFileSync(path.join(original.dir, dump), path.join(restored.dir, dump));
      execFileSync('sh', ['-c', commands.restore], { cwd: restored.dir, env: { ...process.env, NEW_DATABASE_URL: restored.url }, stdio: 'pipe' });
      // The publication log's key file goes with the dump (docs/operations.md): the restored log signs as before.
      fs.copyFileSync(path.join(original.dir, 'log.key'), path.join(restored.dir, 'log.key'));
      const target = await serve(restored, false);
      try {
        target.now = source.now;
        const after = await published(target, token);
        expect(after.length).to.equal(before.length);
        after.forEach((page, i) => expect(page, `response ${i}`).to.equal(before[i]));
      } finally {
        await target.close();
      }
    } finally {
      await original.close();
      await restored.close();
    }
  });
});

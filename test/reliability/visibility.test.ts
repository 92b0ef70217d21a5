/**
 * Incremental harvesters never miss a record while the store is written
 * (OAI-PMH 2.0 sections 2.7.1 and 3.3): real processes at once — `serve`,
 * and a `load`, two loads, a `harvest` of a local source or a
 * `rebuild-formats` — while two harvesters in this process poll the server
 * every second, one asking `from` the responseDate of its last harvest (as the
 * protocol's guidelines say), one `from` the last datestamp it saw. When the
 * writers have exited and each harvester has polled once more, each has seen
 * every item of the store in its current state: none missed, none stale.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { forEachThrowawayDatabase, openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { request } from '../helpers/server';
import { startCli, type CliRun } from '../loader/helpers';
import { freePort } from '../../harness/free-port';
import { formatDatestamp } from '../../lib/oai/dates';

/** Polls a harvester makes at most while a writer runs: a bound, never reached by a healthy run. */
const MAX_POLLS = 600;

/** A harvester that harvests ListIdentifiers incrementally, remembering each identifier's last datestamp and status. */
class IncrementalHarvester {
  readonly seen = new Map<string, string>();
  private from: string | undefined;
  polls = 0;

  constructor(
    private readonly port: number,
    private readonly next: 'responseDate' | 'lastDatestamp',
  ) {}

  /** One whole incremental harvest, following resumption tokens to the end. */
  async poll(): Promise<void> {
    this.polls++;
    let query = `verb=ListIdentifiers&metadataPrefix=oai_dc${this.from === undefined ? '' : `&from=${this.from}`}`;
    let first: string | undefined;
    let last = this.from;
    for (let page = 0; page < 10_000; page++) {
      const answer = await request(this.port, { query });
      expect(answer.status, answer.body.slice(0, 300)).to.equal(200);
      const xml = answer.body;
      first ??= /<responseDate>([^<]+)<\/responseDate>/.exec(xml)?.[1];
      if (xml.includes('code="noRecordsMatch"')) break;
      for (const m of xml.matchAll(/<header( status="deleted")?>\s*<identifier>([^<]+)<\/identifier>\s*<datestamp>([^<]+)<\/datestamp>/g)) {
        const [, deleted, identifier, datestamp] = m as unknown as [string, string | undefined, string, string];
        this.seen.set(identifier, `${datestamp}${deleted ? ' deleted' : ''}`);
        if (last === undefined || datestamp > last) last = datestamp;
      }
      const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
      if (token === undefined) break;
      query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token.replace(/&amp;/g, '&'))}`;
    }
    this.from = this.next === 'responseDate' ? first : last;
  }
}

/** Every item of the store as a harvester should last have seen it: identifier → datestamp (and deletion). */
async function current(db: ThrowawayDatabase): Promise<Map<string, string>> {
  const rows = (await db
    .knex()('records')
    .join('items', 'items.pk', 'records.item_pk')
    .where('records.prefix', 'oai_dc')
    .select('items.identifier', 'records.datestamp', 'items.deleted')) as {
    identifier: string;
    datestamp: unknown;
    deleted: unknown;
  }[];
  return new Map(rows.map((r) => [r.identifier, `${formatDatestamp(Number(r.datestamp))}${r.deleted === true || r.deleted === 1 ? ' deleted' : ''}`]));
}

/** `n` records of the project's JSON format, one a line, ids `prefix-00000`… */
function ndjson(file: string, prefix: string, n: number, title = 'Record'): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${prefix}-${String(i).padStart(5, '0')}`;
    lines.push(JSON.stringify({ id, dc: { title: [`${title} ${id}`], creator: ['Writer, Ann'], date: ['2021'], type: ['Text'], language: ['en'] } }));
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Starts `serve` on a store as its own process and resolves once it answers. */
async function serve(db: ThrowawayDatabase, env: NodeJS.ProcessEnv = {}): Promise<{ port: number; stop(): Promise<CliRun> }> {
  const port = await freePort();
  const run = startCli(db, ['serve'], {
    env: { PORT: String(port), OAI_BASE_URL: `http://localhost:${port}/oai`, OAI_SEED_DEMO: 'false', OAI_CLIENT_MAX_IN_FLIGHT: '0', ...env },
  });
  for (let i = 0; i < 600; i++) {
    const up = await request(port, { path: '/healthz' }).then(
      (a) => a.status === 200,
      () => false,
    );
    if (up) break;
    const exited = await Promise.race([run.done, new Promise<null>((resolve) => setTimeout(() => resolve(null), 100))]);
    if (exited) throw new Error(`serve exited ${String(exited.code)}: ${exited.stderr}`);
  }
  return {
    port,
    async stop() {
      run.child.kill('SIGTERM');
      return run.done;
    },
  };
}

/**
 * Runs `writers` (started at once) while both harvesters poll `port` every
 * second; polls each once more after every writer has exited; returns the
 * writers' runs.
 */
async function pollWhile(port: number, harvesters: readonly IncrementalHarvester[], writers: readonly Promise<CliRun>[]): Promise<CliRun[]> {
  let done = false;
  const all = Promise.all(writers).finally(() => {
    done = true;
  });
  const polling = harvesters.map(async (h) => {
    while (!done && h.polls < MAX_POLLS) {
      await h.poll();
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  });
  const runs = await all;
  await Promise.all(polling);
  for (const h of harvesters) await h.poll();
  return runs;
}

/** Asserts each harvester saw exactly the store's items as they are now. */
async function expectEverySeen(db: ThrowawayDatabase, harvesters: readonly IncrementalHarvester[], items: number): Promise<void> {
  const now = await current(db);
  expect(now.size).to.equal(items);
  for (const h of harvesters) {
    const missed = [...now.keys()].filter((id) => !h.seen.has(id));
    expect(missed.length, `missed by the harvester, e.g. ${missed.slice(0, 3).join(', ')}`).to.equal(0);
    const stale = [...now].filter(([id, state]) => h.seen.get(id) !== state);
    expect(stale.length, `seen in an older state, e.g. ${JSON.stringify(stale.slice(0, 3))}`).to.equal(0);
    expect(h.polls, 'the harvester polled while the writers ran').to.be.greaterThan(2);
  }
}

function expectExited0(runs: readonly CliRun[]): void {
  for (const r of runs) expect(r.code, r.stderr.slice(-2000)).to.equal(0);
}

describe('incremental harvesters while the store is written', function () {
  this.timeout(600_000);

  forEachThrowawayDatabase(
    (db, kind) => {
      it('see every record of a 20,000-record load, from their last responseDate and from their last datestamp', async () => {
        const file = ndjson(path.join(db().dir, 'records.ndjson'), 'load', 20_000);
        const server = await serve(db());
        try {
          const harvesters = [new IncrementalHarvester(server.port, 'responseDate'), new IncrementalHarvester(server.port, 'lastDatestamp')];
          await harvesters[0]?.poll();
          await harvesters[1]?.poll();
          expectExited0(await pollWhile(server.port, harvesters, [startCli(db(), ['load', file]).done]));
          await expectEverySeen(db(), harvesters, 20_000);
        } finally {
          await server.stop();
        }
      });

      it(`see every record of two loads at once${kind === 'sqlite' ? ' (the second waits for the first)' : ''}`, async () => {
        const a = ndjson(path.join(db().dir, 'a.ndjson'), 'a', 10_000);
        const b = ndjson(path.join(db().dir, 'b.ndjson'), 'b', 10_000);
        const server = await serve(db());
        try {
          const harvesters = [new IncrementalHarvester(server.port, 'responseDate'), new IncrementalHarvester(server.port, 'lastDatestamp')];
          await harvesters[0]?.poll();
          await harvesters[1]?.poll();
          expectExited0(await pollWhile(server.port, harvesters, [startCli(db(), ['load', a]).done, startCli(db(), ['load', b]).done]));
          await expectEverySeen(db(), harvesters, 20_000);
        } finally {
          await server.stop();
        }
      });

      it('see every record of a harvest of a local source, and every record a rebuild-formats restamps', async () => {
        const file = ndjson(path.join(db().dir, 'records.ndjson'), 'hub', 10_000);
        expectExited0([await startCli(db(), ['load', file]).done]);
        // The source: another store of 10,000 records, served by its own process.
        const source = await openThrowawayDatabase(kind);
        try {
          expectExited0([await startCli(source, ['migrate']).done]);
          expectExited0([await startCli(source, ['load', ndjson(path.join(source.dir, 's.ndjson'), 'src', 10_000, 'Harvested')]).done]);
          const sourceServer = await serve(source);
          // The hub writes the DataCite format too once configured: rebuild-formats then changes every item.
          const config = path.join(db().dir, 'hub.yaml');
          fs.writeFileSync(config, `sources:\n  - name: src\n    baseUrl: http://127.0.0.1:${sourceServer.port}/oai\n    prefixes: [oai_dc]\n`);
          const server = await serve(db(), { OAI_CONFIG: config });
          try {
            const harvesters = [new IncrementalHarvester(server.port, 'responseDate'), new IncrementalHarvester(server.port, 'lastDatestamp')];
            await harvesters[0]?.poll();
            await harvesters[1]?.poll();
            expectExited0(await pollWhile(server.port, harvesters, [startCli(db(), ['harvest', 'src'], { env: { OAI_CONFIG: config } }).done]));
            await expectEverySeen(db(), harvesters, 20_000);
            const before = await current(db());
            const changed = path.join(db().dir, 'changed.yaml');
            fs.writeFileSync(changed, `${fs.readFileSync(config, 'utf8')}oaiDcProfile: openaire3\n`);
            expectExited0(await pollWhile(server.port, harvesters, [startCli(db(), ['rebuild-formats'], { env: { OAI_CONFIG: changed } }).done]));
            const after = await current(db());
            expect([...after].filter(([id, s]) => before.get(id) !== s).length, 'records the rebuild restamped').to.be.greaterThan(0);
            await expectEverySeen(db(), harvesters, 20_000);
          } finally {
            await server.stop();
            await sourceServer.stop();
          }
        } finally {
          await source.close();
        }
      });
    },
    { migrated: true },
  );
});

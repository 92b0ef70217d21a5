/**
 * No command fails because another holds a SQLite store: `serve` runs two
 * scheduled sources, one of them down, while `load`, `harvest`,
 * `rebuild-formats` and `rebuild-sets` run in two lanes at once for a minute,
 * all real processes on one file. Every command exits 0, every run of the
 * healthy source succeeds and is recorded, and the down source's runs stop
 * alone.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { openThrowawayDatabase, type ThrowawayDatabase } from '../helpers/db';
import { request } from '../helpers/server';
import { startCli, type CliRun } from '../loader/helpers';
import { freePort } from '../../harness/free-port';
import { migrate } from '../../server/db/migrations';
import { startFakeProvider, type FakeProvider } from '../harvest/provider';

/** How long the writers run beside the server. */
const WRITING_MS = 60_000;

/** `n` records of the project's JSON format, one a line, ids `prefix-00000`…, titled with `version`. */
function ndjson(file: string, prefix: string, n: number, version: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = `${prefix}-${String(i).padStart(5, '0')}`;
    lines.push(
      JSON.stringify({
        id,
        dc: { title: [`Record ${id}, version ${version}`], creator: ['Writer, Ann'], date: ['2021'], type: ['Text'], subject: ['physics'] },
      }),
    );
  }
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Runs `commands` one after another, over and over, until `until`; the runs, in order. */
async function lane(
  db: ThrowawayDatabase,
  commands: readonly (readonly string[])[],
  env: NodeJS.ProcessEnv,
  until: number,
): Promise<{ args: readonly string[]; run: CliRun }[]> {
  const out: { args: readonly string[]; run: CliRun }[] = [];
  for (let i = 0; Date.now() < until && i < 200; i++) {
    const args = commands[i % commands.length] as readonly string[];
    out.push({ args, run: await startCli(db, args, { env }).done });
  }
  return out;
}

describe('SQLite: commands beside a serving store with scheduled sources', function () {
  this.timeout(600_000);
  let db: ThrowawayDatabase;
  let healthy: FakeProvider;
  let manual: FakeProvider;

  before(async () => {
    db = await openThrowawayDatabase('sqlite');
    await migrate(db.knex());
    healthy = await startFakeProvider({ granularity: 'second', pageSize: 20 });
    healthy.records = Array.from({ length: 100 }, (_, i) => ({ id: `h${i}`, datestamp: '2024-01-01T00:00:00Z', title: `Healthy ${i}` }));
    manual = await startFakeProvider({ granularity: 'second', pageSize: 50 });
    manual.records = Array.from({ length: 1000 }, (_, i) => ({ id: `m${i}`, datestamp: '2024-01-01T00:00:00Z', title: `Manual ${i}` }));
  });

  after(async () => {
    await healthy.close();
    await manual.close();
    await db.close();
  });

  it('lets every load, harvest and rebuild exit 0, and every run of the healthy source succeed', async () => {
    const down = await freePort();
    const config = path.join(db.dir, 'hub.yaml');
    fs.writeFileSync(
      config,
      [
        'sets:',
        '  - spec: physics',
        '    name: Physics',
        '    rule: { hasDoi: false }',
        'sources:',
        '  - name: healthy',
        `    baseUrl: ${healthy.baseUrl}`,
        '    prefixes: [oai_dc]',
        '    schedule: 5s',
        '  - name: down',
        `    baseUrl: http://127.0.0.1:${down}/oai`,
        '    prefixes: [oai_dc]',
        '    schedule: 5s',
        '  - name: manual',
        `    baseUrl: ${manual.baseUrl}`,
        '    prefixes: [oai_dc]',
        '',
      ].join('\n'),
    );
    const env = { OAI_CONFIG: config };
    const a = ndjson(path.join(db.dir, 'a.ndjson'), 'local', 3000, 1);
    const b = ndjson(path.join(db.dir, 'b.ndjson'), 'local', 3000, 2);
    const port = await freePort();
    const server = startCli(db, ['serve'], { env: { ...env, PORT: String(port), OAI_BASE_URL: `http://localhost:${port}/oai`, OAI_SEED_DEMO: 'false' } });
    try {
      for (let i = 0; i < 600; i++) {
        const up = await request(port, { path: '/healthz' }).then(
          (r) => r.status === 200,
          () => false,
        );
        if (up) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const until = Date.now() + WRITING_MS;
      // Answers go on meanwhile: a reader is never held off by a writer.
      let answered = 0;
      const reading = (async () => {
        while (Date.now() < until) {
          const r = await request(port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc' });
          expect(r.status).to.equal(200);
          answered++;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
      })();
      const lanes = await Promise.all([
        lane(db, [['load', a], ['rebuild-formats'], ['load', b]], env, until),
        lane(db, [['harvest', 'manual'], ['rebuild-sets']], env, until),
      ]);
      await reading;
      const runs = lanes.flat();
      for (const { args, run } of runs) expect(run.code, `${args.join(' ')}: ${run.stderr.slice(-1500)}`).to.equal(0);
      expect(runs.map((r) => r.args[0])).to.include.members(['load', 'rebuild-formats', 'harvest', 'rebuild-sets']);
      expect(answered).to.be.greaterThan(10);
    } finally {
      server.child.kill('SIGTERM');
      await server.done;
    }
    const recorded = (await db.knex()('runs').where({ kind: 'harvest' }).select('source', 'outcome', 'error')) as {
      source: string;
      outcome: string;
      error: string | null;
    }[];
    const of = (source: string): string[] => recorded.filter((r) => r.source === source).map((r) => r.outcome);
    expect(of('healthy').length, 'scheduled runs of the healthy source').to.be.greaterThan(0);
    expect(
      of('healthy').every((o) => o === 'completed'),
      JSON.stringify(recorded.filter((r) => r.source === 'healthy')),
    ).to.equal(true);
    expect(of('down').length, 'scheduled runs of the down source').to.be.greaterThan(0);
    // A source that cannot be reached stops its run (lib/store/bookkeeping.ts `RunOutcome`); it never completes.
    expect(
      of('down').every((o) => o === 'stopped' || o === 'failed'),
      JSON.stringify(of('down')),
    ).to.equal(true);
    expect((await db.knex()('items').where('internal_id', 'like', 'healthy:%').count({ n: '*' }))[0]?.n).to.satisfy((n: unknown) => Number(n) === 100);
  });
});

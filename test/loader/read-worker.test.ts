/**
 * Files of JSON records are read and converted on a thread of their own
 * (server/loader/read-worker.ts). A load through it must be the load on one
 * thread: the same summary, the same refusals in the same order with the
 * same words, the same store row for row, on each database; and a file that
 * cannot be read ends the load the same way, with nothing written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { openInput, type ByteCounter } from '../../server/loader/input';
import { runLoad } from '../../server/loader/load';
import { type LoadDeps } from '../../server/loader/load-types';
import { openProvider, type Provider } from '../../server/provider';
import type { Refusal } from '../../lib/model/refusal';
import { databaseKinds, openThrowawayDatabase } from '../helpers/db';
import { snapshot } from './helpers';

const CLOCK = 1_700_000_000;

/** Records of every kind a file may hold: valid, deleted, refused for a field, unparseable, repeated, in sets. */
function records(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < 23; i++) {
    lines.push(
      JSON.stringify({ id: `r ${i}`, sets: ['a', 'a:b'].slice(0, (i % 3) + 0), dc: { title: [`Title ${i}`], identifier: [`https://example.org/${i}`] } }),
    );
  }
  lines.push(JSON.stringify({ id: 'gone', deleted: true, dc: { title: ['Gone'] } }));
  lines.push('{"id": "broken"');
  lines.push(JSON.stringify({ id: 'odd', dc: { title: ['T'] }, colour: 'red' }));
  lines.push('');
  lines.push(JSON.stringify({ id: 'r 3', dc: { title: ['Again'] } }));
  lines.push(
    JSON.stringify({
      id: 'dated',
      datestamp: '2020-01-02T03:04:05Z',
      dc: { title: ['Dated'] },
      resourceType: { coar: 'http://purl.org/coar/resource_type/c_6501' },
    }),
  );
  return lines;
}

const SETS = [
  { spec: 'a', name: 'A' },
  { spec: 'a:b', name: 'B' },
];

for (const kind of databaseKinds()) {
  describe(`reading JSON records on a thread of their own, on ${kind}`, function () {
    this.timeout(60_000);

    /** Loads `file` into a fresh store, on the reading thread or not, and returns what came of it. */
    async function load(
      file: string,
      inWorker: boolean,
      batchSize: number,
    ): Promise<{ summary: unknown; refusals: Refusal[]; store: string; bytes: number } | { error: string; store: string }> {
      const db = await openThrowawayDatabase(kind);
      let p: Provider | undefined;
      try {
        p = await openProvider(loadConfig({ DATABASE_URL: db.url, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'silent' }), { clock: () => CLOCK });
        await p.store.putSets(SETS);
        expect(p.readerConfig, 'a provider configured by its file offers the reading thread').to.not.equal(undefined);
        const deps: LoadDeps = inWorker ? p : { ...p, readerConfig: undefined };
        const counter: ByteCounter = { bytesRead: 0 };
        const refusals: Refusal[] = [];
        const input = await openInput(file, process.stdin, counter);
        if (file.endsWith('.gone')) fs.rmSync(file);
        try {
          const summary = await runLoad(deps, [input], { batchSize, counter, partial: true, onRefusal: (r) => refusals.push(r) });
          return { summary, refusals, store: await snapshot(db.knex()), bytes: counter.bytesRead };
        } catch (err) {
          return { error: (err as Error).message, store: await snapshot(db.knex()) };
        }
      } finally {
        await p?.close();
        await db.close();
      }
    }

    for (const [format, write] of [
      ['NDJSON', (lines: string[]) => `${lines.join('\n')}\n`],
      ['a JSON array', (lines: string[]) => `[${lines.filter((l) => l !== '' && !l.endsWith('"broken"')).join(',\n')}]`],
    ] as const) {
      for (const batchSize of [4, 1000]) {
        it(`loads ${format} exactly as one thread does, ${batchSize} records a batch`, async () => {
          const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'oai-steward-worker-'));
          const file = path.join(dir, 'records.json');
          fs.writeFileSync(file, write(records()));
          try {
            const one = await load(file, false, batchSize);
            const two = await load(file, true, batchSize);
            if ('error' in one || 'error' in two) throw new Error(`a load failed: ${JSON.stringify([one, two])}`);
            expect(two.summary).to.deep.equal(one.summary);
            expect(two.refusals).to.deep.equal(one.refusals);
            expect(two.refusals.length, 'the file holds refused records').to.be.greaterThan(0);
            expect(two.store).to.equal(one.store);
            expect(two.bytes, 'every byte of the file is counted').to.equal(fs.statSync(file).size);
            expect((one.summary as { inserted: number }).inserted).to.be.greaterThan(20);
          } finally {
            fs.rmSync(dir, { recursive: true, force: true });
          }
        });
      }
    }

    it('ends the load with the error of a file that cannot be read, and writes nothing', async () => {
      const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'oai-steward-worker-'));
      const file = path.join(dir, 'records.gone');
      try {
        fs.writeFileSync(file, `${records().join('\n')}\n`);
        const one = await load(file, false, 10);
        fs.writeFileSync(file, `${records().join('\n')}\n`);
        const two = await load(file, true, 10);
        if (!('error' in one) || !('error' in two)) throw new Error(`a load of a removed file went through: ${JSON.stringify([one, two])}`);
        expect(two.error).to.equal(one.error);
        expect(two.error).to.match(/ENOENT/);
        expect(two.store).to.equal(one.store);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/**
 * The real loader (`oai-steward load`, a child process)
 * killed with SIGKILL at random points leaves the store exactly as it was or
 * exactly as a complete load leaves it, never in between, and a rerun
 * completes it; and a harvest running while the loader writes never skips
 * or repeats a record that stayed unchanged. Randomized over several runs,
 * on SQLite and (when TEST_DATABASE_URL is set) PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../server/config';
import { openProvider, seedIfEmpty } from '../../server/provider';
import { startServer } from '../../server/serve';
import { checkOai, request, resumption, texts } from '../helpers/server';
import { demoRecords } from '../helpers/demo-records';
import { databaseKinds, openThrowawayDatabase, type DatabaseKind, type ThrowawayDatabase } from '../helpers/db';
import { exited, spawnLoader, storeDigest } from './stores';
import type { KnexStore } from '../../server/store/knex-store';

const KILL_RUNS = Number(process.env.KILL_RUNS ?? 4);
const HARVEST_RUNS = Number(process.env.HARVEST_RUNS ?? 3);

/** A store with the demo repository in it. */
async function seededStore(kind: DatabaseKind): Promise<ThrowawayDatabase> {
  const shared = await openThrowawayDatabase(kind);
  const p = await openProvider(loadConfig({ DATABASE_URL: shared.url, LOG_LEVEL: 'silent' }));
  try {
    await seedIfEmpty(p);
  } finally {
    await p.close();
  }
  return shared;
}

async function digestOf(url: string, options: { datestamps?: boolean } = {}): Promise<{ items: number; digest: string }> {
  const p = await openProvider(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent' }));
  try {
    return await storeDigest((p.store as KnexStore).knex, options);
  } finally {
    await p.close();
  }
}

/** Digests without datestamps: two complete loads at different times write the same, stamped differently. */
const TIMELESS = { datestamps: false };

/** An NDJSON load: `added` new records and changes to `changed` demo records (stamped with the time of the load, which the digests leave out). */
function writeLoadFile(dir: string, name: string, added: number, changed: readonly string[], tag: string): string {
  const lines: string[] = [];
  for (const id of changed) lines.push(JSON.stringify({ id, datestamp: '2025-06-01T00:00:00Z', sets: ['physics'], dc: { title: [`changed by load ${tag}`] } }));
  for (let i = 0; i < added; i++) {
    lines.push(
      JSON.stringify({
        id: `load-${tag}-${i}`,
        datestamp: `2025-06-0${1 + (i % 9)}T00:00:00Z`,
        sets: i % 2 ? ['math'] : [],
        dc: { title: [`record ${i} of load ${tag}`], creator: ['Test, A'] },
      }),
    );
  }
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function shuffle<T>(a: readonly T[]): T[] {
  const out = [...a];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

for (const kind of databaseKinds()) {
  describe(`the loader under failure, on ${kind}`, function () {
    this.timeout(600_000);
    let dir = '';
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-loads-'));
    });
    after(() => fs.rmSync(dir, { recursive: true, force: true }));

    it(`leaves the store as it was or completely loaded when SIGKILLed at ${KILL_RUNS} random points, and a rerun completes it`, async () => {
      const live = demoRecords()
        .filter((d) => !d.deleted)
        .map((d) => d.internalId);
      const file = writeLoadFile(dir, 'kill.ndjson', 3000, live.slice(0, 60), 'k');
      const args = ['--batch-size', '100', file];

      // The model: the store before the load, and after a complete one (timed, to spread the kills over it).
      const reference = await seededStore(kind);
      let fullMs = 0;
      let before = { items: 0, digest: '' };
      let after = { items: 0, digest: '' };
      try {
        before = await digestOf(reference.url, TIMELESS);
        const t = Date.now();
        const done = await exited(spawnLoader(reference.url, args));
        fullMs = Date.now() - t;
        expect(done.code, done.stderr).to.equal(0);
        after = await digestOf(reference.url, TIMELESS);
        expect(after.items).to.equal(before.items + 3000);
      } finally {
        await reference.close();
      }

      const outcomes: string[] = [];
      for (let run = 0; run < KILL_RUNS; run++) {
        const store = await seededStore(kind);
        try {
          const exact = await digestOf(store.url);
          expect((await digestOf(store.url, TIMELESS)).digest).to.equal(before.digest);
          const child = spawnLoader(store.url, ['--progress-interval', '0', ...args]);
          const result = exited(child);
          // Half the runs kill after a random number of records read (inside the writing), half at a
          // random time from process start-up to the end of a full load.
          const byProgress = run % 2 === 0;
          const target = Math.floor(Math.random() * 3060);
          const at = Math.floor(Math.random() * fullMs * 1.05);
          let read = 0;
          child.stderr?.on('data', (d: Buffer) => {
            for (const m of d.toString().matchAll(/([\d,]+) records /g)) read = Number((m[1] as string).replace(/,/g, ''));
            if (byProgress && read >= target) child.kill('SIGKILL');
          });
          const timer = byProgress ? undefined : setTimeout(() => child.kill('SIGKILL'), at);
          const r = await result;
          clearTimeout(timer);
          const state = await digestOf(store.url, TIMELESS);
          const which = state.digest === before.digest ? 'none' : state.digest === after.digest ? 'all' : 'PARTIAL';
          // Nothing written is nothing written: not even a datestamp moved.
          if (which === 'none') expect((await digestOf(store.url)).digest).to.equal(exact.digest);
          outcomes.push(`${byProgress ? `after ${read} records read` : `at ${at} ms`}: ${r.signal ?? `exit ${r.code}`} → ${which} (${state.items} items)`);
          expect(which, outcomes.join('\n')).not.to.equal('PARTIAL');
          // A rerun after the kill completes the load.
          const rerun = await exited(spawnLoader(store.url, args));
          expect(rerun.code, rerun.stderr).to.equal(0);
          expect((await digestOf(store.url, TIMELESS)).digest).to.equal(after.digest);
        } finally {
          await store.close();
        }
      }
      process.stderr.write(`      (full load ${fullMs} ms; kills: ${outcomes.join('; ')})\n`);
      // The kills landed somewhere: at least one run was killed (not all finished before the timer).
      expect(
        outcomes.some((o) => o.includes('SIGKILL')),
        outcomes.join('\n'),
      ).to.equal(true);
    });

    it(`never skips or repeats an unchanged record in a harvest while the loader writes (${HARVEST_RUNS} randomized runs)`, async () => {
      for (let run = 0; run < HARVEST_RUNS; run++) {
        const store = await seededStore(kind);
        const running = await startServer(
          loadConfig(
            {
              PORT: '0',
              HOST: '127.0.0.1',
              DATABASE_URL: store.url,
              OAI_BASE_URL: 'http://localhost/oai',
              OAI_PAGE_SIZE: String(3 + Math.floor(Math.random() * 10)),
              LOG_LEVEL: 'silent',
              OAI_SEED_DEMO: 'false',
            },
            dir,
          ),
        );
        try {
          const demo = demoRecords();
          const changedIds = new Set<string>();
          const loads: string[] = [];
          for (let l = 0; l < 3; l++) {
            const changed = shuffle(demo.filter((d) => !d.deleted)).slice(0, 10 + Math.floor(Math.random() * 30));
            for (const d of changed) changedIds.add(d.identifier);
            // No datestamps on the changes: the store stamps them with the load time, which is what moves them in the list.
            const file = path.join(dir, `h-${run}-${l}.ndjson`);
            const lines = [
              ...changed.map((d) => JSON.stringify({ id: d.internalId, sets: d.sets, dc: { title: [`changed in run ${run} load ${l}`] } })),
              ...Array.from({ length: 200 }, (_, i) => JSON.stringify({ id: `h-${run}-${l}-${i}`, dc: { title: ['added during a harvest'] } })),
            ];
            fs.writeFileSync(file, `${lines.join('\n')}\n`);
            loads.push(file);
          }
          const verb = Math.random() < 0.5 ? 'ListIdentifiers' : 'ListRecords';
          const pageSize = running.provider.config.pageSize;
          const pages = Math.ceil(demo.length / pageSize);
          const seen: string[] = [];
          let query = `verb=${verb}&metadataPrefix=oai_dc`;
          let page = 0;
          // The loads run one after another in the background, started after the first page; the harvest
          // waits for the first to commit about a third of the way through and for the second two thirds
          // through, so commits land between its pages; the third runs against its last pages.
          const done: Promise<void>[] = [];
          const startLoads = (): void => {
            let previous: Promise<void> = Promise.resolve();
            for (const f of loads) {
              previous = previous.then(async () => {
                const r = await exited(spawnLoader(store.url, [f]));
                if (r.code !== 0) throw new Error(r.stderr);
              });
              done.push(previous);
            }
          };
          for (;;) {
            const xml = checkOai(await request(running.port, { query }));
            seen.push(...texts(xml, 'identifier'));
            const t = resumption(xml);
            page++;
            if (page === 1) startLoads();
            if (page === Math.floor(pages / 3)) await done[0];
            if (page === Math.floor((2 * pages) / 3)) await done[1];
            if (!t || t.token === '') break;
            query = `verb=${verb}&resumptionToken=${encodeURIComponent(t.token)}`;
            await new Promise((r) => setTimeout(r, Math.random() * 40));
          }
          const loading = Promise.all(done);
          await loading;
          const counts = new Map<string, number>();
          for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
          const unchanged = demo.filter((d) => !changedIds.has(d.identifier));
          const wrong = unchanged.filter((d) => counts.get(d.identifier) !== 1).map((d) => `${d.identifier}: ${counts.get(d.identifier) ?? 0}`);
          expect(wrong, `run ${run} (${verb}, ${page} pages)`).to.deep.equal([]);
          expect(page, 'the harvest spanned several pages').to.be.greaterThan(5);
          // The loads really happened: the 600 records they add are there.
          expect(await digestOf(store.url)).to.have.property('items', demo.length + 600);
        } finally {
          await running.stop();
          await store.close();
        }
      }
    });
  });
}

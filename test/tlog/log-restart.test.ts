/**
 * The publication log across a restart and with formats written on demand:
 * a server opened again on the same store signs the same checkpoint, and a
 * store that keeps most formats as models only logs the bytes it serves
 * when they are written for a harvester.
 */
import { expect } from 'chai';
import { databaseKinds, openThrowawayDatabase } from '../helpers/db';
import { openTestProvider, request } from '../helpers/server';
import { verifyLog } from '../../server/ops/log-verify';
import { publicationLogOf } from '../../server/store/publication-log';

for (const kind of databaseKinds()) {
  describe(`the publication log across a restart and on demand, on ${kind}`, function () {
    this.timeout(120_000);

    it('signs the same checkpoint after a restart, and appends nothing for it', async () => {
      const db = await openThrowawayDatabase(kind);
      try {
        const first = await openTestProvider(kind, { database: db });
        const before = (await request(first.port, { path: '/oai/log/checkpoint' })).body;
        await first.close();
        const second = await openTestProvider(kind, { database: db });
        try {
          expect((await request(second.port, { path: '/oai/log/checkpoint' })).body).to.equal(before);
        } finally {
          await second.close();
        }
      } finally {
        await db.close();
      }
    });

    it('never signs, after a restart, a checkpoint behind or beside one signed before', async () => {
      const db = await openThrowawayDatabase(kind);
      try {
        const first = await openTestProvider(kind, { database: db });
        expect((await request(first.port, { path: '/oai/log/checkpoint' })).status).to.equal(200);
        const head = (await first.knex('log_head').where('id', 1).first('size')) as { size: unknown };
        const size = Number(head.size);
        expect(size).to.be.above(1);
        await first.close();
        // The log cut back by one entry behind the servers' back, its head made to agree with its tiles again.
        const second = await openTestProvider(kind, { database: db });
        try {
          const root = await publicationLogOf(second.knex).rootAt(size - 1);
          await second
            .knex('log_head')
            .where('id', 1)
            .update({ size: size - 1, root });
          const a = await request(second.port, { path: '/oai/log/checkpoint' });
          expect(a.status).to.equal(500);
          expect(a.body).to.not.match(/^[^\n]*\n\d+\n/);
        } finally {
          await second.close();
        }
      } finally {
        await db.close();
      }
    });

    it('logs the records a store writes on demand as they are served', async () => {
      const p = await openTestProvider(kind, { env: { OAI_WRITTEN_FORMATS: 'on-demand' } });
      try {
        const bare = Number(((await p.knex('records').whereNull('xml').count('* as n')) as { n: unknown }[])[0]?.n);
        expect(bare, 'records kept without XML').to.be.above(0);
        const v = await verifyLog(`http://127.0.0.1:${p.port}/oai`, { logUrl: `http://127.0.0.1:${p.port}/oai/log/` });
        expect(v.problem, v.problem ?? '').to.equal(null);
        expect(v.records).to.be.above(bare);
      } finally {
        await p.close();
      }
    });
  });
}

/**
 * Id spaces that never overwrite each other: a harvested source's records
 * live in its space (`NAME:` + the source's identifier), which only its
 * harvests write and delete; a harvest never takes over a local item; a
 * load's --delete-missing reaches local items only; a source named on the
 * command line cannot take a space local items have ids in.
 */
import { expect } from 'chai';
import { forEachThrowawayDatabase } from '../helpers/db';
import { cli } from '../loader/helpers';
import { HUB_NAMESPACE, harvestOnce, itemsOf, openHub, source, type Hub } from './hub';
import { startFakeProvider, type FakeProvider } from './provider';

const ENV = { OAI_NAMESPACE: HUB_NAMESPACE, OAI_SEED_DEMO: 'false' };

describe('id spaces that never overwrite each other', function () {
  this.timeout(180_000);

  forEachThrowawayDatabase((db) => {
    let src: FakeProvider | undefined;
    let hub: Hub | undefined;
    afterEach(async () => {
      await hub?.close();
      await src?.close();
      hub = undefined;
      src = undefined;
    });

    async function harvested(): Promise<Hub> {
      src = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      src.records.push(
        { id: 'p1', datestamp: '2020-01-01T00:00:00Z', title: 'Harvested one' },
        { id: 'p2', datestamp: '2020-01-02T00:00:00Z', title: 'Harvested two' },
      );
      src.responseDate = new Date(Date.now() - 60_000).toISOString().slice(0, 19) + 'Z';
      hub = await openHub(db());
      const { summary } = await harvestOnce(hub, source('plain', src.baseUrl));
      expect(summary.inserted).to.equal(2);
      return hub;
    }

    it("refuses a load into a harvested source's space, naming the source, and writes nothing", async () => {
      const h = await harvested();
      const before = await itemsOf(h);
      const line = JSON.stringify({ id: 'plain:oai:bad.example.org:p2', dc: { title: ['Loaded over it'] } });
      const run = await cli(db(), ['load', '-'], { input: `${line}\n`, env: ENV });
      expect(run.code).to.equal(1);
      expect(run.stderr).to.match(/plain:oai:bad\.example\.org:p2.*harvested source "plain"/);
      expect(await itemsOf(h)).to.deep.equal(before);
    });

    it("refuses to delete a harvested record by hand: only its source's harvests delete it", async () => {
      const h = await harvested();
      const before = await itemsOf(h);
      const run = await cli(db(), ['delete', 'plain:oai:bad.example.org:p1'], { env: ENV });
      expect(run.code).to.equal(1);
      expect(run.stderr).to.match(/harvested from "plain"/);
      expect(await itemsOf(h)).to.deep.equal(before);
    });

    it('leaves every harvested item live when a load with --delete-missing gives only local records', async () => {
      const h = await harvested();
      const line = JSON.stringify({ id: 'local-1', dc: { title: ['Local'] } });
      const run = await cli(db(), ['load', '--delete-missing', '--json', '-'], { input: `${line}\n`, env: ENV });
      expect(run.code, run.stderr).to.equal(0);
      const items = await itemsOf(h);
      expect(items.filter((i) => i.deleted)).to.deep.equal([]);
      expect(items.map((i) => i.id)).to.include('local-1');
    });

    it('harvests next to a local item of the same shape: the local item is untouched, the clashing record refused, the others written', async () => {
      hub = await openHub(db());
      const line = JSON.stringify({ id: 'plain:oai:bad.example.org:p1', dc: { title: ['A local item loaded before the source'] } });
      expect((await cli(db(), ['load', '-'], { input: `${line}\n`, env: ENV })).code).to.equal(0);
      const local = (await hub.knex('items').where('internal_id', 'plain:oai:bad.example.org:p1').first('content_hash', 'datestamp', 'origin')) as {
        content_hash: string;
        datestamp: unknown;
        origin: string | null;
      };
      expect(local.origin).to.equal(null);
      src = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      src.records.push(
        { id: 'p1', datestamp: '2020-01-01T00:00:00Z', title: 'Harvested one' },
        { id: 'p2', datestamp: '2020-01-02T00:00:00Z', title: 'Harvested two' },
      );
      src.responseDate = new Date(Date.now() - 60_000).toISOString().slice(0, 19) + 'Z';
      const { summary, refusals } = await harvestOnce(hub, source('plain', src.baseUrl));
      expect(summary.inserted).to.equal(1);
      expect(refusals.map((r) => [r.internalId, r.reason])).to.have.length(1);
      expect(refusals[0]?.reason).to.match(/local item.*never takes it over/);
      const after = (await hub.knex('items').where('internal_id', 'plain:oai:bad.example.org:p1').first('content_hash', 'datestamp', 'origin')) as typeof local;
      expect(after).to.deep.equal(local);
      const p2 = (await hub.knex('items').where('internal_id', 'plain:oai:bad.example.org:p2').first('origin')) as { origin: string };
      expect(p2.origin).to.equal('plain');
    });

    it("refuses a --name local items have ids under, before asking the source anything, and the space stays the loader's", async () => {
      hub = await openHub(db());
      const local = ['demo:1', 'demo:2'].map((id) => JSON.stringify({ id, dc: { title: [id] } }));
      expect((await cli(db(), ['load', '-'], { input: `${local.join('\n')}\n`, env: ENV })).code).to.equal(0);
      src = await startFakeProvider({ granularity: 'second', pageSize: 10 });
      src.records.push({ id: 'p1', datestamp: '2020-01-01T00:00:00Z', title: 'Harvested one' });
      const run = await cli(db(), ['harvest', src.baseUrl, '--name', 'demo'], { env: ENV });
      expect(run.code).to.equal(2);
      expect(run.stderr).to.equal(
        'oai-steward harvest: --name demo: local items have ids in the id space demo: ("demo:1", "demo:2"); a source named demo would own that space, and those items could never be loaded again; give the source another --name\n',
      );
      expect(src.requests).to.deep.equal([]);
      expect(await hub.store.harvestStates('demo')).to.deep.equal([]);
      // The space is still the loader's: the local items are written again, a new one beside them.
      const again = ['demo:1', 'demo:3'].map((id) => JSON.stringify({ id, dc: { title: [`${id} again`] } }));
      const load = await cli(db(), ['load', '-'], { input: `${again.join('\n')}\n`, env: ENV });
      expect(load.code, load.stderr).to.equal(0);
      expect((await itemsOf(hub)).map((i) => i.id)).to.deep.equal(['demo:1', 'demo:2', 'demo:3']);
      // Another name harvests.
      const other = await cli(db(), ['harvest', src.baseUrl, '--name', 'demo-archive'], { env: ENV });
      expect(other.code, other.stderr).to.equal(0);
    });

    it('refuses a loaded id whose POI would hold a dot-segment, which browsers resolve to another item', async () => {
      hub = await openHub(db());
      const lines = ['a/../b', 'a/./b', 'a/.hidden/b'].map((id) => JSON.stringify({ id, dc: { title: [id] } }));
      const run = await cli(db(), ['load', '--partial', '--json', '-'], { input: `${lines.join('\n')}\n`, env: ENV });
      expect(run.stderr).to.match(/"a\/\.\.\/b".*dot-segment "\.\."/);
      expect(run.stderr).to.match(/"a\/\.\/b".*dot-segment "\."/);
      const ids = (await itemsOf(hub)).map((i) => i.id);
      expect(ids).to.deep.equal(['a/.hidden/b']);
    });
  });
});

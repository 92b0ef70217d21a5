/**
 * `oai_datacite` carries exactly the `datacite` payload (lib/pipeline/datacite-pair.ts):
 * for an item written from its model, one given a `datacite` record (kept as
 * given) and one given an `oai_datacite` record, the served `oai_datacite`'s
 * `<payload>` is byte for byte the served `datacite` record, in a store that
 * keeps every format and in one that writes formats on demand. A kernel-3
 * record is read into the model, never served as given (`datacite` is
 * kernel-4): both formats serve the kernel-4 record written from it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig } from '../../../server/config';
import { openProvider, type Provider } from '../../../server/provider';
import type { ItemRecord } from '../../../lib/store';
import { jsonToItem } from '../../../lib/pipeline/json-record';
import { forEachThrowawayDatabase, openThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/db';
import { DEMO_NAMESPACE } from '../../helpers/demo-records';
import { DATACITE_KERNEL_3_NS } from '../../../lib/formats/datacite-read';

const T0 = 1_800_000_000;
const DATACITE = path.join(__dirname, '../../fixtures/readers/datacite');
/** A published kernel-4 record (bolognese's datacite.xml), its XML declaration aside as a loader gives it. */
const GIVEN_DATACITE = fs.readFileSync(path.join(DATACITE, 'datacite.xml'), 'utf8').replace(/^<\?xml[^>]*>\s*/, '');
/** An oai_datacite wrapper whose payload is another published kernel-4 record, as written (not our writer's bytes). */
const GIVEN_PAYLOAD = fs
  .readFileSync(path.join(DATACITE, 'datacite-example-full-v4.6.xml'), 'utf8')
  .replace(/^<\?xml[^>]*>\s*/, '')
  .trim();
const GIVEN_OAI_DATACITE =
  '<oai_datacite xmlns="http://schema.datacite.org/oai/oai-1.1/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
  'xsi:schemaLocation="http://schema.datacite.org/oai/oai-1.1/ http://schema.datacite.org/oai/oai-1.1/oai.xsd">' +
  `<schemaVersion>4.6</schemaVersion><datacentreSymbol>GIVEN.SYMBOL</datacentreSymbol><payload>${GIVEN_PAYLOAD}</payload></oai_datacite>`;
/** A published kernel-3 record (bolognese's datacite_dataset.xml), as the loader gives one: to read, not to serve. */
const GIVEN_KERNEL_3 = fs.readFileSync(path.join(DATACITE, 'datacite_dataset.xml'), 'utf8').replace(/^<\?xml[^>]*>\s*/, '');

async function providerWith(db: ThrowawayDatabase, mode: 'stored' | 'on-demand'): Promise<Provider> {
  const file = path.join(db.dir, 'config.yaml');
  fs.writeFileSync(
    file,
    ['formats:', '  - prefix: oai_dc', '  - prefix: datacite', '  - prefix: oai_datacite', '    options:', '      datacentreSymbol: A.B', ''].join('\n'),
  );
  const env = { DATABASE_URL: db.url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_CONFIG: file, OAI_WRITTEN_FORMATS: mode };
  return openProvider(loadConfig(env), { clock: () => T0 });
}

const payloadOf = (xml: string | undefined): string | undefined => /<payload>([\s\S]*)<\/payload>/.exec(xml ?? '')?.[1];

forEachThrowawayDatabase((db, kind) => {
  for (const mode of ['stored', 'on-demand'] as const) {
    it(`${mode}: the oai_datacite payload is the datacite record served, written from the model or given as either`, async () => {
      const own = mode === 'stored' ? undefined : await openThrowawayDatabase(kind);
      const p = await providerWith(own ?? db(), mode);
      try {
        const modelled = jsonToItem(
          {
            id: 'modelled',
            dc: { title: 'Written from the model' },
            identifiers: [{ type: 'DOI', value: '10.5555/model-1' }],
            creators: [{ name: 'Doe, Jane' }],
            publisher: 'Example Press',
            publicationYear: '2024',
            resourceType: { general: 'Dataset' },
          },
          p.formats,
          'test',
        );
        if (!('item' in modelled)) throw new Error(JSON.stringify(modelled.refusals));
        await p.store.writeItems([
          modelled.item,
          { internalId: 'given-datacite', metadata: { datacite: GIVEN_DATACITE } },
          { internalId: 'given-oai-datacite', metadata: { oai_datacite: GIVEN_OAI_DATACITE } },
          { internalId: 'given-kernel-3', metadata: {}, readFrom: { namespace: DATACITE_KERNEL_3_NS, xml: GIVEN_KERNEL_3 } },
        ]);
        const served = async (id: string, prefix: string): Promise<string | undefined> =>
          ((await p.store.getRecord(`oai:${DEMO_NAMESPACE}:${id}`, prefix)) as ItemRecord | null)?.metadata ?? undefined;
        expect(GIVEN_KERNEL_3).to.contain(DATACITE_KERNEL_3_NS);
        for (const id of ['modelled', 'given-datacite', 'given-oai-datacite', 'given-kernel-3']) {
          const datacite = await served(id, 'datacite');
          const wrapper = await served(id, 'oai_datacite');
          expect(datacite, `${id} datacite`).to.be.a('string').and.contain('http://datacite.org/schema/kernel-4');
          expect(payloadOf(wrapper), `${id} oai_datacite payload`).to.equal(datacite);
        }
        // Each given record is served as given: the datacite record, and the wrapper with its own symbol and version.
        expect(await served('given-datacite', 'datacite')).to.equal(GIVEN_DATACITE);
        expect(await served('given-oai-datacite', 'oai_datacite')).to.equal(GIVEN_OAI_DATACITE);
        expect(await served('given-oai-datacite', 'datacite')).to.equal(GIVEN_PAYLOAD);
        // The kernel-3 record's DOI reaches both, in the kernel-4 record written from it.
        const doi = /<identifier identifierType="DOI">([^<]*)</.exec(GIVEN_KERNEL_3)?.[1];
        expect(doi).to.be.a('string');
        expect(await served('given-kernel-3', 'datacite')).to.contain(`>${doi}</identifier>`);
        // Written from the model, the wrapper names the configured data centre.
        expect(await served('given-datacite', 'oai_datacite')).to.contain('<datacentreSymbol>A.B</datacentreSymbol>');
      } finally {
        await p.close();
        await own?.close();
      }
    });
  }
});

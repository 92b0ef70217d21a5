/**
 * DataCite loaded and harvested again: every kernel-4 file of the corpus
 * loaded into a store (both databases), then asked for with GetRecord in
 * `oai_datacite` (written from the model) and `datacite` (served as given):
 * each holds every element and attribute of the file (order and namespace
 * prefixes aside, test/helpers/xml-embeds.ts), so the two agree on what the
 * record says; and each answer is valid against OAI-PMH and the format.
 */
import path from 'node:path';
import { expect } from 'chai';
import { toRequestArgument } from '../../lib/ids/oai-identifier';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';
import type { ScannedItem } from '../../lib/store';
import { loadConfig } from '../../server/config';
import { openInput } from '../../server/loader/input';
import { runLoad } from '../../server/loader/load';
import { openProvider } from '../../server/provider';
import { forEachThrowawayDatabase } from '../helpers/db';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { oaiGet, openTestProvider } from '../helpers/server';
import { dataciteCanonical, missingFrom } from '../helpers/xml-embeds';
import { xsdErrors } from '../helpers/xsd';
import { kernel4Files } from '../helpers/datacite-corpus';
import { ROOT } from './helpers';

const CORPUS = path.join(ROOT, 'test', 'fixtures', 'realworld');

/** The first element child of the element named `local` anywhere under `root`. */
function firstChildOf(root: XmlElement, local: string): XmlElement | undefined {
  const walk = (el: XmlElement): XmlElement | undefined => {
    if (el.local === local) return el.children.find((c): c is XmlElement => c.kind === 'element');
    for (const c of el.children) {
      if (c.kind !== 'element') continue;
      const found = walk(c);
      if (found) return found;
    }
    return undefined;
  };
  return walk(root);
}

forEachThrowawayDatabase((db, kind) => {
  it('answers GetRecord for every loaded DataCite file, in oai_datacite and datacite, with every element and attribute it was loaded with', async function () {
    this.timeout(120_000);
    const files = kernel4Files();
    const env = { DATABASE_URL: db().url, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE };
    const p = await openProvider(loadConfig(env));
    try {
      for (const f of files) {
        const counter = { bytesRead: 0 };
        const summary = await runLoad(p, [await openInput(path.join(CORPUS, f.name), process.stdin, counter)], { partial: false, counter });
        expect(summary.committed, f.name).to.equal(true);
      }
    } finally {
      await p.close();
    }
    const served = await openTestProvider(kind, { seed: false, database: db(), env });
    try {
      const items: readonly ScannedItem[] = await served.store.scanItems(0, 100);
      for (const f of files) {
        const internalId = path.basename(f.name, '.xml');
        const item = items.find((i) => i.internalId === internalId);
        expect(item, `${f.name} is an item`).to.not.equal(undefined);
        for (const prefix of ['oai_datacite', 'datacite'] as const) {
          const xml = await oaiGet(served.port, `verb=GetRecord&identifier=${toRequestArgument(item!.identifier)}&metadataPrefix=${prefix}`);
          expect(xsdErrors(xml, prefix), `${f.name} in ${prefix}`).to.deep.equal([]);
          const metadata = firstChildOf(parseFragment(xml.replace(/^<\?xml[^>]*\?>\s*/, ''))!, 'metadata')!;
          const resource = prefix === 'datacite' ? metadata : firstChildOf(metadata, 'payload')!;
          expect(missingFrom(f.root, resource, dataciteCanonical), `${f.name} in ${prefix}`).to.deep.equal([]);
        }
      }
    } finally {
      await served.close();
    }
  });
});

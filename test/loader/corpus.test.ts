/**
 * Records no one here wrote (test/fixtures/realworld/, copied unchanged from
 * the shared corpus: a DSpace harvest, sickle's pages, an Alma marc21 page,
 * DataCite XML kernel-3 and kernel-4, DataCite JSON, OpenAIRE's and
 * DataCite's published samples), each file loaded on its own into one store
 * as a repository manager would: every file loads, or is refused with a
 * message naming the file, the record and field, and the reason; afterwards
 * every live item has oai_dc and every other format its model allows, each
 * valid against its published schema.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { BUILT_IN_FORMATS } from '../../lib/formats/registry';
import { isNotOffered } from '../../lib/formats/format';
import type { Refusal } from '../../lib/model/refusal';
import type { ScannedItem } from '../../lib/store';
import { loadConfig } from '../../server/config';
import { openInput } from '../../server/loader/input';
import { runLoad } from '../../server/loader/load';
import { openProvider, type Provider } from '../../server/provider';
import { forEachThrowawayDatabase } from '../helpers/db';
import { validate, type FormatPrefix } from '../helpers/xsd';
import { ROOT } from './helpers';

const CORPUS = path.join(ROOT, 'test', 'fixtures', 'realworld');

/** Every record file of the corpus, in a fixed order (ListSets files among them: the loader reads sets first within a load). */
function corpusFiles(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(xml|json)$/.test(e.name)) out.push(p);
    }
  };
  walk(CORPUS);
  return out;
}

/** The files refused, and why: each refusal's field and a pattern of its reason. Every other file loads whole. */
const REFUSED: Readonly<Record<string, readonly (readonly [field: string, reason: RegExp])[]>> = {
  // The page's leader has had its runs of spaces squeezed out: MARCXML's pattern refuses it.
  'alma/alma-marc21-ListRecords.xml': [['metadata.marc21', /not valid against .*MARC21slim\.xsd.*leader/]],
  'pyoai/fake1_00003.xml': [['xml', /ListIdentifiers response has no metadata/]],
  'pyoai/fake3_00001.xml': [['xml', /not well-formed/]],
  'pyoai/fake4_00001.xml': [['xml', /not well-formed|entity/i]],
  'sickle/ListIdentifiers.xml': [['xml', /ListIdentifiers response has no metadata/]],
  'sickle/ListIdentifiers2.xml': [['xml', /ListIdentifiers response has no metadata/]],
  // Stray text between oai_dc's elements, as sickle's test pages have it.
  'sickle/ListRecords.xml': [['metadata.oai_dc', /Character content other than whitespace/]],
  'sickle/ListRecords2.xml': [['metadata.oai_dc', /Character content other than whitespace/]],
  'sickle/ListRecords3.xml': [['metadata.oai_dc', /Character content other than whitespace/]],
  'sickle/ListRecords4.xml': [
    ['header.identifier', /no identifier/],
    ['header.datestamp', /no datestamp/],
    ['metadata.oai_dc', /Character content other than whitespace/],
  ],
  'sickle/ListRecordsBroken.xml': [['xml', /not well-formed|not XML/]],
  'sickle/badArgument.xml': [['xml', /OAI-PMH error \(badArgument\)/]],
  'sickle/badResumptionToken.xml': [['xml', /OAI-PMH error \(badResumptionToken\)/]],
  'sickle/cannotDisseminateFormat.xml': [['xml', /OAI-PMH error \(cannotDisseminateFormat\)/]],
  'sickle/idDoesNotExist.xml': [['xml', /OAI-PMH error \(idDoesNotExist\)/]],
  'sickle/noSetHierarchy.xml': [['xml', /OAI-PMH error \(noSetHierarchy\)/]],
  'sickle/undefinedError.xml': [['xml', /OAI-PMH error \(undefinedError\)/]],
  // OpenAIRE's mock-up, which its guidelines call invalid.
  'samples/openaire/invalid-mocksample.xml': [['metadata.oai_openaire', /resourceTypeGeneral.*publication/]],
};

/** Every stored item of the store, a page at a time. */
async function everyItem(p: Provider): Promise<ScannedItem[]> {
  const out: ScannedItem[] = [];
  for (let page = await p.store.scanItems(0, 200); page.length > 0; page = await p.store.scanItems((page[page.length - 1] as ScannedItem).pk, 200))
    out.push(...page);
  return out;
}

forEachThrowawayDatabase((db) => {
  it('loads every file of the real-world corpus, or refuses it naming the file, the record, the field and the reason', async function () {
    this.timeout(300_000);
    // Every built-in format, edm with the institutions it names (without them it is offered for no record).
    const config = path.join(db().dir, 'corpus.yaml');
    fs.writeFileSync(
      config,
      `formats:\n${BUILT_IN_FORMATS.map(
        (f) => `  - prefix: ${f.prefix}\n${f.prefix === 'edm' ? '    options:\n      dataProvider: Example Museum\n      provider: Example Aggregator\n' : ''}`,
      ).join('')}`,
    );
    const p = await openProvider(loadConfig({ DATABASE_URL: db().url, OAI_SEED_DEMO: 'false', LOG_LEVEL: 'silent' }, ROOT, { file: config }));
    try {
      const unexpected: string[] = [];
      let loaded = 0;
      for (const file of corpusFiles()) {
        const name = path.relative(CORPUS, file);
        const refusals: Refusal[] = [];
        const counter = { bytesRead: 0 };
        const summary = await runLoad(p, [await openInput(file, process.stdin, counter)], { partial: true, counter, onRefusal: (r) => refusals.push(r) });
        expect(summary.committed, name).to.equal(true);
        loaded += summary.inserted + summary.updated + summary.deleted;
        for (const r of refusals) {
          expect(r.source, `${name}: the refusal names the file`).to.match(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
          expect(r.field, `${name}: the refusal names a field`).to.not.equal('');
          if (!(REFUSED[name] ?? []).some(([field, reason]) => r.field === field && reason.test(r.reason)))
            unexpected.push(`${name}: ${r.source}: record ${JSON.stringify(r.internalId)}, field ${r.field}: ${r.reason}`);
        }
        for (const [field] of REFUSED[name] ?? [])
          expect(
            refusals.map((r) => r.field),
            `${name} is refused for its ${field}`,
          ).to.include(field);
      }
      expect(unexpected, 'refusals the corpus should not earn').to.deep.equal([]);
      expect(loaded, 'records written').to.be.greaterThan(100);

      const items = await everyItem(p);
      const live = items.filter((i) => !i.deleted);
      const invalid: string[] = [];
      const missing: string[] = [];
      for (const item of live) {
        if (item.metadata.oai_dc == null) missing.push(`${item.internalId}: oai_dc`);
        for (const [prefix, xml] of Object.entries(item.metadata)) {
          for (const e of validate(xml ?? '', prefix as FormatPrefix)) invalid.push(`${item.internalId} in ${prefix}: ${e}`);
        }
        // Every format the item's model allows, by the format's own judgement of the model.
        const fields = item.fields;
        expect(fields, `${item.internalId} has its model`).to.not.equal(undefined);
        for (const f of BUILT_IN_FORMATS) {
          if (!f.fromRecord || item.metadata[f.prefix] != null) continue;
          const options = { ...p.formats.get(f.prefix)?.options };
          const out = f.fromRecord(fields!, { oaiIdentifier: item.identifier, options });
          if (!isNotOffered(out)) missing.push(`${item.internalId}: ${f.prefix}`);
        }
      }
      expect(missing, 'formats a live item lacks though its model allows them').to.deep.equal([]);
      expect(invalid, 'stored metadata not valid against its schema').to.deep.equal([]);
      // Every kind of record came through: DataCite (kernel-3 and 4, XML and JSON), OpenAIRE, DSpace oai_dc.
      const has = (prefix: string): number => live.filter((i) => i.metadata[prefix] != null).length;
      expect(has('datacite'), 'items in datacite').to.be.at.least(12);
      expect(has('oai_datacite'), 'items in oai_datacite').to.equal(has('datacite'));
      expect(has('oai_openaire'), 'items in oai_openaire').to.be.at.least(2);
      expect(has('marc21'), 'items in marc21').to.equal(live.length);
      // Cultural heritage is rare in a scholarly corpus: the records with a Europeana rights statement, a kind EDM names and a link.
      expect(has('edm'), 'items in edm').to.be.at.least(1);
      // qdc for every record with a title; RIOXX for those with a landing page, a language, a COAR type and a creator.
      expect(has('qdc'), 'items in qdc').to.equal(live.filter((i) => (i.fields?.dc.title ?? []).some((t) => t.trim() !== '')).length);
      expect(has('rioxx'), 'items in rioxx').to.be.at.least(1);
    } finally {
      await p.close();
    }
  });
});

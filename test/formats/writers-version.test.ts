/**
 * A store that writes formats on demand (server/store/on-demand.ts) serves
 * what the writers write today under the fingerprint its content hashes were
 * computed under; WRITERS_VERSION is part of that fingerprint. This test
 * holds the digest of every built-in writer's output over fixed records (the
 * demo repository's and the scholarly test records) for the current version:
 * when a writer's output moves, it fails until WRITERS_VERSION is raised and
 * the digest recorded for the new version, so such stores are rebuilt
 * (`oai-steward rebuild-formats`) rather than served output their
 * datestamps do not stand for.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { jsonToItem } from '../../lib/pipeline/json-record';
import { writeFormats } from '../../lib/pipeline/prepare';
import { BUILT_IN_FORMATS, createFormatRegistry, WRITERS_VERSION } from '../../lib/formats/registry';
import { createIdPolicy } from '../../lib/ids/policy';
import type { RecordFields } from '../../lib/model/record';
import { demoSeed, DEMO_NAMESPACE } from '../helpers/demo-records';
import { ARTICLE, DATASET, NO_DOI } from '../helpers/scholarly-records';

/** The digest of every writer's output for each WRITERS_VERSION. */
const DIGESTS: Record<number, string> = {
  1: '7910f5a253f9b29b78ebdc853d6b46963d567582466b6f0a6a5aa8c3623b88fc',
  // DataCite kept as given, oai_openaire from resourceTypeGeneral and dc:type, the publication date first, related identifiers,
  // every typed value, date precision and ranges, and LC's mappings of types, hosts and languages; EDM.
  2: '9862cfe306a1f9eba58d9a92a3360473651b15245f7fe07013cf7f2e7afa3f6a',
  // Dates by role (a timestamp never MODS dateIssued or OpenAIRE Issued, publicationYear always in oai_dc), types from
  // the MARC leader and info:eu-repo words, DataCite's unchecked related identifiers: these records' output is as in 2,
  // records lifted from DataCite, MARCXML and stock DSpace oai_dc move; and oai_dc of a record that gives its model
  // joined by its typed fields, as a lifted model's is.
  3: 'a9d0c72ada2cdbcb3c3cf06c8fbb16cb54f9652724dfea2c72c234e138578c7a',
  // oai_datacite's payload is the datacite record served, the given one where datacite or oai_datacite is given
  // (lib/pipeline/datacite-pair.ts): these records' output is as in 3, records given DataCite XML move.
  4: 'a9d0c72ada2cdbcb3c3cf06c8fbb16cb54f9652724dfea2c72c234e138578c7a',
};

/**
 * The digest of the opt-in writers' output (formats a configuration must list, lib/formats/format.ts `optIn`)
 * for each WRITERS_VERSION since they were added. Kept apart so that adding such a format leaves the digest of
 * the others, and so what a store configured by default stands for, unchanged.
 */
const OPT_IN_DIGESTS: Record<number, string> = {
  // rioxx (RIOXX v3.0) and qdc (qualified Dublin Core).
  2: '02581be3843ff32d261ac9fbe8fb59026cf9c8c9f1ae50d9d2ab93c11845ea60',
  3: '02581be3843ff32d261ac9fbe8fb59026cf9c8c9f1ae50d9d2ab93c11845ea60',
  4: '02581be3843ff32d261ac9fbe8fb59026cf9c8c9f1ae50d9d2ab93c11845ea60',
};

describe('the writers’ version', () => {
  it('names the output every built-in writer writes today', () => {
    const formats = createFormatRegistry(BUILT_IN_FORMATS);
    const preparation = { formats, policy: createIdPolicy({ namespace: DEMO_NAMESPACE, mode: 'auto' }), poiInDublinCore: true };
    const records: [string, RecordFields][] = [
      ['article', ARTICLE],
      ['dataset', DATASET],
      ['no-doi', NO_DOI],
    ];
    for (const line of demoSeed()) {
      if (line.deleted) continue;
      const r = jsonToItem(line, formats, 'demo');
      if ('item' in r && r.item.fields) records.push([r.item.internalId, r.item.fields]);
    }
    expect(records.length).to.be.greaterThan(200);
    const hash = crypto.createHash('sha256');
    const optInHash = crypto.createHash('sha256');
    const optIn = new Set(BUILT_IN_FORMATS.filter((f) => f.optIn === true).map((f) => f.prefix));
    let written = 0;
    let writtenOptIn = 0;
    for (const [id, fields] of records) {
      const out = writeFormats(preparation, id, fields, {});
      for (const prefix of out.written) (optIn.has(prefix) ? optInHash : hash).update(`${id}\u0000${prefix}\u0000${out.metadata[prefix]}\u0000`);
      written += out.written.length;
      writtenOptIn += out.written.filter((p) => optIn.has(p)).length;
    }
    expect(written).to.be.greaterThan(1000);
    expect(writtenOptIn).to.be.greaterThan(400);
    expect(
      hash.digest('hex'),
      `the writers' output moved: raise WRITERS_VERSION (lib/formats/registry.ts, now ${WRITERS_VERSION}) and record its digest`,
    ).to.equal(DIGESTS[WRITERS_VERSION]);
    expect(
      optInHash.digest('hex'),
      `the opt-in writers' output moved: raise WRITERS_VERSION (lib/formats/registry.ts, now ${WRITERS_VERSION}) and record their digest`,
    ).to.equal(OPT_IN_DIGESTS[WRITERS_VERSION]);
  });
});

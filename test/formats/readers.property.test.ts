import { expect } from 'chai';
import fc from 'fast-check';
import { isNotOffered, type CrosswalkContext, type MetadataFormat } from '../../lib/formats/format';
import { BUILT_IN_FORMATS } from '../../lib/formats/registry';
import { parseRecordFields } from '../../lib/model/from-json';
import type { RecordFields } from '../../lib/model/record';
import { parseFragment } from '../../lib/xml/tree';
import { CTX, record } from '../helpers/arbitrary-record';
import { carriedByQdc, carriedByRioxx } from '../helpers/carried-rioxx-qdc';
import { carriedBackFromEdm, carriedByDatacite, carriedByEdm, carriedByMarc21, carriedByMods, carriedByOaiDc, carriedByOpenaire } from '../helpers/carried';

// No XSD validation here (the crosswalk property does it): many records per format.
const RUNS = { numRuns: 300 };

/** What each format carries of a record (test/helpers/carried.ts). */
const CARRIED: Readonly<Record<string, (r: RecordFields, ctx: CrosswalkContext) => object>> = {
  oai_dc: carriedByOaiDc,
  datacite: carriedByDatacite,
  oai_datacite: carriedByDatacite,
  oai_openaire: carriedByOpenaire,
  marc21: carriedByMarc21,
  mods: carriedByMods,
  edm: carriedByEdm,
  rioxx: carriedByRioxx,
  qdc: carriedByQdc,
};

/** What a format's reader gives back of what it carries, where it is read into another field than it was written from. */
const CARRIED_BACK: Readonly<Record<string, (r: RecordFields, ctx: CrosswalkContext) => object>> = {
  edm: carriedBackFromEdm,
};

/** The format's writer: its crosswalk from the record, or (oai_dc) from the record's Dublin Core. */
function write(format: MetadataFormat, r: RecordFields, ctx: CrosswalkContext): string | null {
  if (format.fromRecord) {
    const out = format.fromRecord(r, format.options ? { ...ctx, options: { ...ctx.options, ...format.options } } : ctx);
    return isNotOffered(out) ? null : out;
  }
  return format.fromDublinCore ? format.fromDublinCore(r.dc) : null;
}

describe('reading back what every writer writes', () => {
  it('has a reader and a statement of what it carries for every built-in format', () => {
    expect(BUILT_IN_FORMATS.filter((f) => f.read === undefined).map((f) => f.prefix)).to.deep.equal([]);
    expect(Object.keys(CARRIED).sort()).to.deep.equal(BUILT_IN_FORMATS.map((f) => f.prefix).sort());
  });

  for (const format of BUILT_IN_FORMATS) {
    it(`${format.prefix}: model → ${format.prefix} → model is equal on every field ${format.prefix} carries, and a record the record format accepts`, () => {
      const carried = CARRIED[format.prefix]!;
      let written = 0;
      fc.assert(
        fc.property(record, CTX, (raw, ctx) => {
          const parsed = parseRecordFields(raw as Record<string, unknown>, { internalId: 'p' });
          fc.pre(!('refusals' in parsed));
          if ('refusals' in parsed) return;
          const xml = write(format, parsed.fields, ctx);
          if (xml === null) return;
          written++;
          const root = parseFragment(xml);
          expect(root, xml).to.not.equal(null);
          const back = format.read!(root!);
          expect((CARRIED_BACK[format.prefix] ?? carried)(back, ctx), xml).to.deep.equal(carried(parsed.fields, ctx));
          // What a reader lifts is a record of the model as the NDJSON format gives it, in its normal form.
          const again = parseRecordFields({ id: 'p', ...JSON.parse(JSON.stringify(back)) } as Record<string, unknown>, { internalId: 'p' });
          expect(again, JSON.stringify(back)).to.deep.equal({ fields: back });
        }),
        RUNS,
      );
      expect(written, 'records written').to.be.greaterThan(0);
    });
  }
});

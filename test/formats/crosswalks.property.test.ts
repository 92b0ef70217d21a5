import { expect } from 'chai';
import fc from 'fast-check';
import { isNotOffered } from '../../lib/formats/format';
import { BUILT_IN_FORMATS } from '../../lib/formats/registry';
import { parseRecordFields } from '../../lib/model/from-json';
import { CTX, record } from '../helpers/arbitrary-record';
import { validate, type FormatPrefix } from '../helpers/xsd';

// XSD validation is slow: a modest number of random records per format.
const RUNS = { numRuns: 100 };

describe('crosswalks of random records', () => {
  for (const format of BUILT_IN_FORMATS) {
    const crosswalk = format.fromRecord;
    if (!crosswalk) continue;
    it(`${format.prefix}: every record the parser accepts becomes XSD-valid XML or an explicit notOffered`, () => {
      let offered = 0;
      fc.assert(
        fc.property(record, CTX, (raw, ctx) => {
          // Random combinations may break a cross-field rule (an embargo without its end): the parser refuses those.
          const parsed = parseRecordFields(raw as Record<string, unknown>, { internalId: 'p' });
          fc.pre(!('refusals' in parsed));
          if ('refusals' in parsed) return;
          const out = crosswalk(parsed.fields, ctx);
          if (isNotOffered(out)) {
            expect(out.notOffered).to.be.a('string').and.not.equal('');
            expect(format.lacks?.(parsed.fields, ctx)).to.equal(out.notOffered);
            return;
          }
          offered++;
          expect(validate(out, format.prefix as FormatPrefix), out).to.deep.equal([]);
          expect(crosswalk(parsed.fields, ctx), 'deterministic').to.equal(out);
        }),
        RUNS,
      );
      // The generator must reach the XML path, or the property says nothing: oai_datacite, the strictest,
      // is offered in about one run in ten, mods and marc21 in most (the shape tests cover each format too).
      expect(offered).to.be.greaterThan(0);
    });
  }
});

/**
 * The fidelity matrix (lib/formats/fidelity.ts) held on random records: for
 * every reader → writer pair of the built-in formats, every field the matrix
 * says travels (✓) arrives with every value a random record gives it, in
 * place of the probe's own values, beside the probe's base record.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { ALL_PROBES, applies, fidelityMatrix, probeWith, throughFormat } from '../../lib/formats/fidelity';
import { BUILT_IN_FORMATS } from '../../lib/formats/registry';
import { parseRecordFields } from '../../lib/model/from-json';
import { CTX, record } from '../helpers/arbitrary-record';

const RUNS = { numRuns: 25 };
const matrix = fidelityMatrix(BUILT_IN_FORMATS);

describe('the fidelity matrix on random records', function () {
  // Each pair writes and reads four formats' XML per field and record: seconds, not the default's milliseconds.
  this.timeout(120000);
  it('probes every built-in format', () => {
    expect(matrix.formats).to.deep.equal(BUILT_IN_FORMATS.map((f) => f.prefix));
  });

  for (const a of BUILT_IN_FORMATS) {
    for (const b of BUILT_IN_FORMATS) {
      const travelling = ALL_PROBES.filter((_, i) => matrix.rows[i]!.pairs[a.prefix]![b.prefix] === 'all');
      it(`read from ${a.prefix}, written as ${b.prefix}: every value of the ${travelling.length} fields the matrix says travel arrives`, () => {
        fc.assert(
          fc.property(record, CTX, (raw, ctx) => {
            const parsed = parseRecordFields(raw as Record<string, unknown>, { internalId: 'p' });
            fc.pre(!('refusals' in parsed));
            if ('refusals' in parsed) return;
            for (const p of travelling) {
              const given = probeWith(p, parsed.fields);
              if (!applies(p, given)) continue;
              const fromA = throughFormat(a, given, ctx);
              const inB = fromA === undefined ? undefined : throughFormat(b, fromA, ctx);
              if (inB === undefined) continue;
              const arrived = new Set(p.values(inB));
              const lost = p.values(given).filter((v) => !arrived.has(v));
              expect(lost, `${p.field}: ${JSON.stringify(given)}`).to.deep.equal([]);
            }
          }),
          RUNS,
        );
      });
    }
  }
});

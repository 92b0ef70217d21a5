/**
 * The trail of resumption tokens a list follows (lib/harvest/tokens.ts): a
 * token seen before in the run is a list going round, named by the page
 * that first answered it.
 */
import { expect } from 'chai';
import { followed, tokenTrail } from '../../lib/harvest/tokens';

describe('the resumption tokens a list follows', () => {
  const cases: { name: string; tokens: string[]; want: (number | null)[] }[] = [
    { name: 'new tokens are no circle', tokens: ['A', 'B', 'C'], want: [null, null, null] },
    { name: 'a token answered again on the next page is a circle of one', tokens: ['A', 'A'], want: [null, 1] },
    { name: 'tokens going A, B, A are a circle, named by the page that first answered A', tokens: ['A', 'B', 'A'], want: [null, null, 1] },
    { name: 'tokens that differ only in a long tail are told apart', tokens: [`${'x'.repeat(5000)}1`, `${'x'.repeat(5000)}2`], want: [null, null] },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const trail = tokenTrail();
      expect(c.tokens.map((t, i) => followed(trail, t, i + 1))).to.deep.equal(c.want);
    });
  }
});

import { expect } from 'chai';
import fc from 'fast-check';
import { createIdPolicy, IdMappingError, type IdMappingMode } from '../../lib/ids/policy';
import { escapeLocalIdentifier, isValidOaiIdentifier, unescapeLocalIdentifier } from '../../lib/ids/oai-identifier';
import { isValidPoi, oaiIdentifierFromPoi, poiFromOaiIdentifier } from '../../lib/ids/poi';
import { isWellFormedUtf16 } from '../../lib/ids/uric';
import { parseFedoraPid } from '../../lib/ids/fedora-pid';

function normalizeFedoraPidOrNull(s: string): string | null {
  const p = parseFedoraPid(s);
  return p.ok ? p.normalized : null;
}

const NS = 'example.org';
const RUNS = { numRuns: 2000 };

// Internal ids: full Unicode, arbitrary UTF-16 (lone surrogates included),
// and PID-like strings that probe the boundary between the two mappings.
const pidChar = fc.constantFrom('a', 'B', '1', '-', '.', '~', '_', '%3A', '%3a', '%20', '%25', '%41', '%FF', '%C3%A9', ':', ' ', '%');
const pidLike = fc
  .tuple(fc.constantFrom('demo', 'a.b', 'x-1', 'demo%3A', 'demo%3a'), fc.array(pidChar, { minLength: 1, maxLength: 8 }))
  .map(([ns, parts]) => (ns.endsWith('%3A') || ns.endsWith('%3a') ? ns : ns + ':') + parts.join(''));
const anyId = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1 }),
  fc.string({ unit: 'grapheme', minLength: 1 }),
  fc.string({ unit: 'binary-ascii', minLength: 1 }),
  pidLike,
);
const encodable = anyId.filter(isWellFormedUtf16);

const modes: IdMappingMode[] = ['auto', 'opaque', 'fedora-pid'];

describe('id mapping policy properties', () => {
  for (const mode of modes) {
    const policy = createIdPolicy({ namespace: NS, mode });

    it(`${mode} mode: every id it maps unmaps back to itself and gives a valid identifier and POI`, () => {
      fc.assert(
        fc.property(anyId, (id) => {
          let mapped;
          try {
            mapped = policy.map(id);
          } catch (e) {
            // Refusal is allowed only as an IdMappingError, and never for an
            // encodable id in the modes that take every string.
            expect(e).to.be.instanceOf(IdMappingError);
            if (mode !== 'fedora-pid') expect(isWellFormedUtf16(id)).to.equal(false);
            return;
          }
          expect(isValidOaiIdentifier(mapped.identifier)).to.equal(true);
          expect(policy.unmap(mapped.identifier)).to.equal(id);
          const poi = poiFromOaiIdentifier(mapped.identifier);
          expect(isValidPoi(poi)).to.equal(true);
          expect(oaiIdentifierFromPoi(poi)).to.equal(mapped.identifier);
        }),
        RUNS,
      );
    });

    it(`${mode} mode: two different ids never map to one identifier`, () => {
      fc.assert(
        fc.property(anyId, anyId, (a, b) => {
          fc.pre(a !== b);
          let ma: string;
          let mb: string;
          try {
            ma = policy.map(a).identifier;
            mb = policy.map(b).identifier;
          } catch {
            return;
          }
          expect(ma).to.not.equal(mb);
        }),
        RUNS,
      );
    });
  }

  it('auto mode never maps a PID-like id and its decoded or normalized spelling to one identifier', () => {
    const auto = createIdPolicy({ namespace: NS, mode: 'auto' });
    fc.assert(
      fc.property(pidLike, (p) => {
        const variants = new Set<string>([p]);
        try {
          variants.add(decodeURIComponent(p));
        } catch {
          /* not decodable */
        }
        const norm = normalizeFedoraPidOrNull(p);
        if (norm !== null) variants.add(norm);
        const ids = [...variants].filter((v) => v.length > 0 && isWellFormedUtf16(v));
        const identifiers = new Set(ids.map((v) => auto.map(v).identifier));
        expect(identifiers.size).to.equal(ids.length);
      }),
      RUNS,
    );
  });

  it('auto and opaque modes map every encodable non-empty string', () => {
    const auto = createIdPolicy({ namespace: NS, mode: 'auto' });
    const opaque = createIdPolicy({ namespace: NS, mode: 'opaque' });
    fc.assert(
      fc.property(encodable, (id) => {
        expect(() => auto.map(id)).to.not.throw();
        expect(() => opaque.map(id)).to.not.throw();
      }),
      RUNS,
    );
  });

  it('auto mode refuses every string with a lone surrogate', () => {
    const auto = createIdPolicy({ namespace: NS, mode: 'auto' });
    const withSurrogate = fc
      .tuple(fc.string(), fc.integer({ min: 0xd800, max: 0xdfff }), fc.string())
      .map(([a, c, b]) => a + String.fromCharCode(c) + b)
      .filter((s) => !isWellFormedUtf16(s));
    fc.assert(
      fc.property(withSurrogate, (id) => {
        expect(() => auto.map(id)).to.throw(IdMappingError, /surrogate/);
      }),
      RUNS,
    );
  });

  it('no identifier unmaps to an id that maps to a different identifier (unmap is the exact inverse)', () => {
    const auto = createIdPolicy({ namespace: NS, mode: 'auto' });
    const local = fc
      .array(fc.oneof(fc.constantFrom('%20', '%3A', '%25', '%41', '%C3%A9', '%FF', ':', 'a', '-', '/'), fc.string({ unit: 'binary-ascii', maxLength: 2 })), {
        minLength: 1,
        maxLength: 6,
      })
      .map((xs) => xs.join(''));
    fc.assert(
      fc.property(local, (l) => {
        const identifier = `oai:${NS}:${l}`;
        const id = auto.unmap(identifier);
        if (id !== null) expect(auto.map(id).identifier).to.equal(identifier);
      }),
      RUNS,
    );
  });

  it('escaping is the inverse of unescaping for every encodable string', () => {
    fc.assert(
      fc.property(encodable, (id) => {
        expect(unescapeLocalIdentifier(escapeLocalIdentifier(id))).to.equal(id);
      }),
      RUNS,
    );
  });
});

/**
 * DataCite in, DataCite out: every kernel-4 resource no one here wrote (the
 * DataCite XML of test/fixtures/realworld/, DataCite's own published
 * examples among them) read into the model and written again, as `datacite`
 * and as the `oai_datacite` payload, holds every element and attribute it
 * was given (order and namespace prefixes aside: test/helpers/xml-embeds.ts),
 * and is valid against the published schema. An identifier is compared in
 * its scheme's normal form, the form the model keeps it in
 * (lib/model/identifiers.ts: an ISBN without hyphens, a ROR id as its URL),
 * and a language tag without regard to case (RFC 5646 section 2.1.1).
 */
import { expect } from 'chai';
import { datacite } from '../../lib/formats/datacite';
import { oaiDatacite } from '../../lib/formats/oai-datacite';
import { isNotOffered, type CrosswalkContext } from '../../lib/formats/format';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';
import { dataciteCanonical as canonical, missingFrom } from '../helpers/xml-embeds';
import { validate } from '../helpers/xsd';
import { kernel4Files } from '../helpers/datacite-corpus';

const ctx: CrosswalkContext = { oaiIdentifier: 'oai:x.org:1', options: { datacentreSymbol: 'X.Y' } };

/** The written document's root, or a failure naming why the format was not offered. */
function written(result: ReturnType<NonNullable<typeof datacite.fromRecord>>): string {
  if (result === undefined || isNotOffered(result)) throw new Error(`not offered: ${JSON.stringify(result)}`);
  return result;
}

function payloadOf(xml: string): XmlElement {
  const root = parseFragment(xml)!;
  const payload = root.children.find((c): c is XmlElement => c.kind === 'element' && c.local === 'payload')!;
  return payload.children.find((c): c is XmlElement => c.kind === 'element')!;
}

describe('DataCite kernel-4 in, DataCite out', () => {
  const files = kernel4Files();

  it('finds the kernel-4 files of the corpus (every one of them is tested below)', () => {
    expect(files.map((f) => f.name)).to.include.members([
      'datacite-bolognese/datacite-example-full-v4.6.xml',
      'samples/datacite/datacite-example-full-v4.xml',
      'samples/datacite/datacite-example-multilingual-v4.xml',
    ]);
    expect(files.length).to.be.at.least(10);
  });

  for (const { name, root } of files) {
    describe(name, () => {
      const record = datacite.read!(root);

      it('is written as datacite holding every element and attribute it was given, valid against kernel-4', () => {
        const xml = written(datacite.fromRecord!(record, ctx));
        expect(missingFrom(root, parseFragment(xml)!, canonical)).to.deep.equal([]);
        expect(validate(xml, 'datacite')).to.deep.equal([]);
      });

      it('is written as an oai_datacite payload holding every element and attribute it was given, valid against oai-1.1', () => {
        const xml = written(oaiDatacite.fromRecord!(record, ctx));
        expect(missingFrom(root, payloadOf(xml), canonical)).to.deep.equal([]);
        expect(validate(xml, 'oai_datacite')).to.deep.equal([]);
      });

      it('reads back from what it wrote a model that writes the same again', () => {
        // The first writing adds the item's oai-identifier (an alternate identifier); from then on nothing changes.
        const once = datacite.read!(parseFragment(written(datacite.fromRecord!(record, ctx)))!);
        const twice = datacite.read!(parseFragment(written(datacite.fromRecord!(once, ctx)))!);
        expect(twice).to.deep.equal(once);
        expect(written(datacite.fromRecord!(once, ctx))).to.equal(written(datacite.fromRecord!(twice, ctx)));
      });
    });
  }
});

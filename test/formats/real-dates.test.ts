/**
 * Dates by role, on records as their publishers wrote them: a system's
 * accession and availability timestamps (stock DSpace's oai_dc gives them as
 * dc:date beside dc.date.issued) are never the publication date, in any
 * format written from the record or in the readiness verdicts; DataCite's
 * publicationYear always reaches oai_dc; timestamps keep their precision.
 * Fixtures: test/fixtures/realworld/pyoai (SOURCE.txt), test/fixtures/readers
 * and test/fixtures/formats (SOURCE.md there).
 */
import { expect } from 'chai';
import { dublinCoreOf } from '../../lib/formats/oai-dc';
import { publicationDate, publicationYear } from '../../lib/model/facts';
import { parseFragment } from '../../lib/xml/tree';
import { fixtureText } from '../helpers/xml-fixtures';
import { checkItemOf, failures, recordIn, serve } from '../helpers/served';

const bare = (file: string[]): string => fixtureText(...file).replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
const dcDates = (xml: string | undefined): readonly string[] | undefined => dublinCoreOf(xml ?? null).date;
/** Every element of a local name in written XML, as `name[attr=value …]=text`. */
function dated(xml: string | undefined, ...locals: string[]): string[] {
  const out: string[] = [];
  const walk = (e: ReturnType<typeof parseFragment>): void => {
    if (!e) return;
    if (locals.includes(e.local)) {
      const attrs = [...e.attrs]
        .filter(([name]) => !name.startsWith('xmlns'))
        .map(([name, value]) => `${name}=${value}`)
        .join(' ');
      out.push(`${e.local}[${attrs}]=${e.children.map((c) => (c.kind === 'text' ? c.text : '')).join('')}`);
    }
    for (const c of e.children) if (c.kind === 'element') walk(c);
  };
  walk(parseFragment(xml ?? '<none/>'));
  return out;
}

describe('dates by role, on real records', () => {
  describe('stock DSpace oai_dc: dc.date.accessioned, dc.date.available, dc.date.issued as three dc:date', () => {
    // hdl:1765/1101, DSpace at Erasmus University, 2004: accessioned and available 2004-01-12T15:25:06Z, issued 2000.
    const item = serve('oai_dc', recordIn(['realworld', 'pyoai', 'fake2_00002.xml'], 'hdl:1765/1101'));

    it('takes dc.date.issued (2000) for the publication date and year, never the accession timestamp', () => {
      expect(publicationYear(item.fields!)).to.equal('2000');
      const d = publicationDate(item.fields!);
      expect('date' in d && d.date.text).to.equal('2000');
    });

    it('serves oai_dc with every date as given, the timestamps in their precision', () => {
      expect(dcDates(item.metadata.oai_dc)).to.deep.equal(['2004-01-12T15:25:06Z', '2004-01-12T15:25:06Z', '2000']);
    });

    it('writes MODS dateIssued 2000 as the key date and the timestamps as dateOther, encoding w3cdtf, to the second', () => {
      expect(dated(item.metadata.mods, 'dateIssued', 'dateOther')).to.deep.equal([
        'dateIssued[encoding=w3cdtf keyDate=yes]=2000',
        'dateOther[encoding=w3cdtf]=2004-01-12T15:25:06Z',
        'dateOther[encoding=w3cdtf]=2004-01-12T15:25:06Z',
      ]);
    });

    it('writes MARC 260 $c with each date as given, once (LoC Dublin Core to MARC: Date → 260 $c)', () => {
      expect(item.metadata.marc21).to.contain(
        '<datafield tag="260" ind1=" " ind2=" "><subfield code="c">2004-01-12T15:25:06Z</subfield><subfield code="c">2000</subfield></datafield>',
      );
    });

    it('gives the openaire4 profile a publication date of 2000: its publication-date rule holds', () => {
      expect(failures('openaire4', checkItemOf(item)).filter((f) => f.startsWith('publication-date'))).to.deep.equal([]);
    });
  });

  describe('DSpace 1 oai_dc whose three dates are one instant (an item not published before, issued when accessioned)', () => {
    const item = serve('oai_dc', recordIn(['realworld', 'pyoai', 'fake1_00004.xml'], 'hdl:1765/315'));

    it('takes that instant for the date of issue, in its precision', () => {
      expect(dated(item.metadata.mods, 'dateIssued', 'dateOther')).to.deep.equal(['dateIssued[encoding=w3cdtf keyDate=yes]=2003-04-22T13:13:44Z']);
      expect(publicationYear(item.fields!)).to.equal('2003');
    });
  });

  describe('DataCite: publicationYear reaches oai_dc beside dates of the same year', () => {
    it('DataCite 4.6 full example: Issued, Created, Submitted, Updated all 2023-01-01, publicationYear 2023', () => {
      const item = serve('datacite', bare(['readers', 'datacite', 'datacite-example-full-v4.6.xml']));
      expect(dcDates(item.metadata.oai_dc)).to.deep.equal(['2023-01-01', '2023']);
    });

    it('DataCite kernel-4 full example: Issued 2024-01-01 and publicationYear 2024, then the Collected range', () => {
      const item = serve('datacite', bare(['formats', 'datacite', 'datacite-example-full-v4.xml']));
      expect(dcDates(item.metadata.oai_dc)).to.deep.equal(['2024-01-01', '2024', '2024-01-01/2024-12-31']);
      expect(dated(item.metadata.mods, 'dateIssued')).to.deep.equal(['dateIssued[encoding=w3cdtf keyDate=yes]=2024-01-01']);
    });

    it('DataCite dissertation example: publicationYear 2012 and an Available date 2012-12-13, both in oai_dc, the year issued in MODS', () => {
      const item = serve('datacite', bare(['formats', 'datacite', 'datacite-example-dissertation-v4.xml']));
      expect(dcDates(item.metadata.oai_dc)).to.deep.equal(['2012', '2012-12-13']);
      expect(dated(item.metadata.mods, 'dateIssued', 'dateOther')).to.deep.equal([
        'dateIssued[encoding=w3cdtf keyDate=yes]=2012',
        'dateOther[type=available encoding=w3cdtf]=2012-12-13',
      ]);
      expect(dated(item.metadata.edm, 'issued')).to.deep.equal(['issued[]=2012']);
    });

    it('bolognese datacite.xml: Issued 2016-12-20 first, then publicationYear 2016', () => {
      const item = serve('datacite', bare(['readers', 'datacite', 'datacite.xml']));
      expect(dcDates(item.metadata.oai_dc)?.slice(0, 2)).to.deep.equal(['2016-12-20', '2016']);
    });
  });

  it('has no publication date where every date is a timestamp and they differ: the openaire4 verdict says it is missing', () => {
    const fields = { dc: { title: ['T'], date: ['2003-04-22T13:13:44Z', '2003-05-02T09:00:00Z'] } };
    expect(publicationDate(fields)).to.deep.equal({ missing: true });
    expect(publicationYear(fields)).to.equal(undefined);
  });
});

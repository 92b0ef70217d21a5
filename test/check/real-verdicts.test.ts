/**
 * Readiness verdicts from what is served, on records published by others
 * (test/fixtures/readers/SOURCE.md, test/fixtures/marc21/SOURCE.md): a rule
 * judges the format as the writer writes it, and a link to the resource is
 * not the POI of the record's own metadata.
 */
import { expect } from 'chai';
import { edmType } from '../../lib/formats/edm';
import { dublinCoreOf } from '../../lib/formats/oai-dc';
import { fixtureText } from '../helpers/xml-fixtures';
import { checkItemOf, failures, recordsOf, serve } from '../helpers/served';

const bare = (...file: string[]): string => fixtureText(...file).replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
const ruleIds = (found: string[]): string[] => found.map((f) => f.slice(0, f.indexOf(':')));

describe('readiness verdicts from what is served, on real records', () => {
  it('openaire4 resource-type: a DataCite Dataset (no COAR type given) is served in oai_openaire with COAR dataset, and the rule holds', () => {
    const item = serve('datacite', bare('readers', 'datacite', 'datacite-multiple-rights.xml'));
    expect(item.fields?.resourceType).to.deep.equal({ general: 'Dataset', label: 'DataPackage' });
    expect(item.metadata.oai_openaire).to.contain('uri="http://purl.org/coar/resource_type/c_ddb1"');
    expect(ruleIds(failures('openaire4', checkItemOf(item)))).to.not.include('resource-type');
  });

  it('europeana edm-type: an info:eu-repo publication type names a COAR concept, and so an EDM type', () => {
    // The sickle sample's dc:type words, without the DCMI "text" beside them, as an OpenAIRE 3 provider may serve them.
    expect(edmType({ dc: { type: ['info:eu-repo/semantics/article', 'doc-type:article'] } })).to.equal('TEXT');
    expect(edmType({ dc: { type: ['info:eu-repo/semantics/doctoralThesis'] } })).to.equal('TEXT');
    expect(edmType({ dc: { type: ['doc-type:article'] } })).to.equal(undefined);
  });

  describe("base identifier-link: the Library of Congress's sound recording of 1957 (no 856, no DOI), served with its POI in oai_dc", () => {
    it('is not linked by its own POI: the rule fails, naming dc.identifier', async () => {
      const [record] = await recordsOf('marc21', 'pymarc-batch.xml');
      const item = serve('marc21', record as string, 'ray-charles-1957', { poiInDublinCore: true });
      expect(dublinCoreOf(item.metadata.oai_dc ?? null).identifier).to.deep.equal(['http://purl.org/poi/example.org/ray-charles-1957']);
      expect(failures('base', checkItemOf(item)).filter((f) => f.startsWith('identifier-link'))).to.deep.equal([
        'identifier-link: dc.identifier: missing: a dc:identifier link to the full text or landing page',
      ]);
    });

    it('a DSpace record with its handle URL beside the POI is linked', () => {
      const item = serve('oai_dc', bare('dspace', 'GetRecord-hdl-1765-315.xml').replace(/^[\s\S]*<metadata>([\s\S]*)<\/metadata>[\s\S]*$/, '$1'), 'hdl-315', {
        poiInDublinCore: true,
      });
      expect(ruleIds(failures('base', checkItemOf(item)))).to.not.include('identifier-link');
    });
  });
});

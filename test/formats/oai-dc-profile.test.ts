/**
 * oai_dc by profile: the info:eu-repo terms of OpenAIRE 3.0 derived from the
 * record fields, the COAR → info:eu-repo table, and XSD validity.
 */
import { expect } from 'chai';
import { dublinCoreToOaiDc } from '../../lib/formats/oai-dc';
import { EU_REPO_TYPE_OF_COAR, EU_REPO_TYPES, euRepoType, profileDublinCore } from '../../lib/formats/oai-dc-profile';
import type { RecordFields, ResourceType } from '../../lib/model/record';
import { COAR_RESOURCE_TYPE_PREFIX, COAR_TYPES, type DataCiteResourceType } from '../../lib/model/vocabularies';
import { eachRow } from '../helpers/table';
import { assertValid } from '../helpers/xsd';

const coar = (suffix: string, general: DataCiteResourceType): ResourceType => ({ coar: COAR_RESOURCE_TYPE_PREFIX + suffix, general, label: suffix });

type Row = readonly [string, RecordFields, { type?: string[]; rights?: string[]; date?: string[] }];
const rows: Row[] = [
  [
    'an open journal article with a licence gets the article type, openAccess and the licence',
    { dc: { title: ['A'] }, resourceType: coar('c_6501', 'JournalArticle'), accessRights: 'open', license: 'https://creativecommons.org/licenses/by/4.0/' },
    { type: ['info:eu-repo/semantics/article'], rights: ['info:eu-repo/semantics/openAccess', 'https://creativecommons.org/licenses/by/4.0/'] },
  ],
  [
    'an embargoed doctoral thesis gets embargoedAccess and the embargo end date',
    { dc: { title: ['T'], date: ['2024'] }, resourceType: coar('c_db06', 'Dissertation'), accessRights: 'embargoed', dates: { embargoEnd: '2027-06-30' } },
    {
      type: ['info:eu-repo/semantics/doctoralThesis'],
      rights: ['info:eu-repo/semantics/embargoedAccess'],
      date: ['2024', 'info:eu-repo/date/embargoEnd/2027-06-30'],
    },
  ],
  [
    'a metadata-only record is closedAccess',
    { dc: { title: ['M'] }, resourceType: { general: 'Book', label: 'book' }, accessRights: 'metadataOnly' },
    { type: ['info:eu-repo/semantics/book'], rights: ['info:eu-repo/semantics/closedAccess'] },
  ],
  [
    'a restricted preprint that says it is the accepted manuscript gets the version term after the type',
    { dc: { title: ['P'], type: ['AM'] }, resourceType: coar('c_816b', 'Preprint'), accessRights: 'restricted' },
    { type: ['info:eu-repo/semantics/preprint', 'info:eu-repo/semantics/acceptedVersion', 'AM'], rights: ['info:eu-repo/semantics/restrictedAccess'] },
  ],
  [
    'a COAR version URI in dc:type becomes the DRIVER version term',
    { dc: { title: ['V'], type: ['http://purl.org/coar/version/c_970fb48d4fbd8a85'] }, resourceType: coar('c_3248', 'BookChapter') },
    { type: ['info:eu-repo/semantics/bookPart', 'info:eu-repo/semantics/publishedVersion', 'http://purl.org/coar/version/c_970fb48d4fbd8a85'] },
  ],
  [
    'a Dublin Core record keeps its own info:eu-repo terms first and repeats none',
    { dc: { title: ['D'], type: ['Text', 'info:eu-repo/semantics/workingPaper'], rights: ['info:eu-repo/semantics/openAccess'] } },
    { type: ['info:eu-repo/semantics/workingPaper', 'Text'], rights: ['info:eu-repo/semantics/openAccess'] },
  ],
  [
    'a dataset is "other" (OpenAIRE 3.0 types publications only) and gives no access term when it says none',
    { dc: { title: ['D'] }, resourceType: coar('c_ddb1', 'Dataset') },
    { type: ['info:eu-repo/semantics/other'] },
  ],
  [
    'an embargo end date is written only when the access is embargoed',
    { dc: { title: ['E'] }, accessRights: 'open', dates: { embargoEnd: '2020-01-01' } },
    { type: ['info:eu-repo/semantics/other'], rights: ['info:eu-repo/semantics/openAccess'] },
  ],
];

describe('oai_dc by profile', function () {
  describe('openaire3', function () {
    eachRow(
      rows,
      ([name]) => name,
      ([, record, expected]) => {
        const dc = profileDublinCore(record, 'openaire3');
        expect(dc.type).to.deep.equal(expected.type);
        expect(dc.rights).to.deep.equal(expected.rights);
        expect(dc.date).to.deep.equal(expected.date ?? record.dc.date);
        expect(dc.title).to.deep.equal(record.dc.title);
        assertValid(dublinCoreToOaiDc(dc), 'oai_dc');
      },
    );
  });

  it('leaves Dublin Core as it is under the plain profile', () => {
    const record: RecordFields = { dc: { title: ['A'] }, accessRights: 'open' };
    expect(profileDublinCore(record, 'plain')).to.equal(record.dc);
  });

  it('maps only COAR types of the OpenAIRE v4 list, each to an info:eu-repo term', () => {
    for (const [suffix, term] of Object.entries(EU_REPO_TYPE_OF_COAR)) {
      expect(COAR_TYPES.has(COAR_RESOURCE_TYPE_PREFIX + suffix), suffix).to.equal(true);
      expect(EU_REPO_TYPES).to.include(term);
    }
  });

  it('gives every literature type of the COAR list a term and every non-literature type "other"', () => {
    for (const t of COAR_TYPES.values()) {
      const term = euRepoType({ dc: {}, resourceType: { coar: t.uri, general: t.datacite, label: t.label } });
      if (t.openaire !== 'literature') expect(term, t.label).to.equal('other');
      else expect(EU_REPO_TYPES, t.label).to.include(term);
    }
  });
});

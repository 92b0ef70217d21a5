/**
 * DataCite's legacy JSON, as bolognese published it (test/fixtures/readers/SOURCE.md):
 * snake_case keys, bolognese's `alternativeIdentifier`, a list of one date
 * written as the object alone. Read into the same model as the current
 * serialization, and written as DataCite, field by field.
 */
import { expect } from 'chai';
import { datacite } from '../../lib/formats/datacite';
import { readDataciteJson } from '../../lib/formats/datacite-json';
import { isNotOffered } from '../../lib/formats/format';
import { fixtureText } from '../helpers/xml-fixtures';

describe('legacy snake_case DataCite JSON (bolognese crosscite.json, 2018)', () => {
  const results = readDataciteJson(JSON.parse(fixtureText('readers', 'json', 'crosscite-legacy.json')), 'crosscite-legacy.json');

  it('is one record, not refused', () => {
    expect(results).to.have.length(1);
    expect(results[0]).to.have.property('record');
  });

  const record = (): NonNullable<Extract<(typeof results)[number], { record: unknown }>['record']> => {
    const r = results[0];
    if (r === undefined || !('record' in r)) throw new Error('refused');
    return r.record;
  };

  it('reads publication_year, the lone Issued date, alternate_identifiers and rights_list', () => {
    const { internalId, fields } = record();
    expect(internalId).to.equal('10.5281/zenodo.48440');
    expect(fields.publicationYear).to.equal('2016');
    expect(fields.dates).to.deep.equal({ issued: '2016-03-27' });
    expect(fields.identifiers).to.deep.equal([
      { type: 'DOI', value: '10.5281/zenodo.48440' },
      { type: 'URL', value: 'http://zenodo.org/record/48440' },
    ]);
    expect(fields.license).to.equal('https://creativecommons.org/licenses/by-nc-sa/4.0');
    expect(fields.dc.rights).to.deep.equal(['Open Access', 'Creative Commons Attribution-NonCommercial-ShareAlike']);
    expect(fields.resourceType).to.deep.equal({ general: 'Software', label: 'Software' });
    expect(fields.creators).to.deep.equal([{ name: 'Kristian Garza', givenName: 'Kristian', familyName: 'Garza', nameType: 'person' }]);
    expect(fields.publisher).to.equal('Zenodo');
  });

  it('is written as DataCite with its year, Issued date, alternate identifier and licence', () => {
    const xml = datacite.fromRecord!(record().fields, { oaiIdentifier: 'oai:example.org:zenodo-48440', options: {} });
    if (isNotOffered(xml)) throw new Error(xml.notOffered);
    expect(xml).to.contain('<publicationYear>2016</publicationYear>');
    expect(xml).to.contain('<date dateType="Issued">2016-03-27</date>');
    expect(xml).to.contain('<alternateIdentifier alternateIdentifierType="URL">http://zenodo.org/record/48440</alternateIdentifier>');
    expect(xml).to.contain('rightsURI="https://creativecommons.org/licenses/by-nc-sa/4.0"');
  });
});

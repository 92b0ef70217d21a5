import { expect } from 'chai';
import { dublinCore, identifierUri } from '../../lib/model/facts';
import type { RecordFields } from '../../lib/model/record';
import { eachRow } from '../helpers/table';

describe('the Dublin Core of a record', () => {
  it('fills each element the record leaves empty from its typed counterpart', () => {
    const r: RecordFields = {
      dc: { title: ['T'] },
      creators: [{ name: 'Curie, Marie' }],
      contributors: [{ name: 'Joliot, Irène', type: 'Editor' }],
      publisher: 'P',
      dates: { issued: '1903-06-25' },
      resourceType: { general: 'Text', label: 'Thesis' },
      files: [{ url: 'https://example.org/f.pdf', mediaType: 'application/pdf' }],
      language: 'fr',
      license: 'https://creativecommons.org/licenses/by/4.0/',
      identifiers: [
        { type: 'DOI', value: '10.5555/x' },
        { type: 'Handle', value: '1765/315' },
      ],
    };
    expect(dublinCore(r)).to.deep.equal({
      title: ['T'],
      creator: ['Curie, Marie'],
      contributor: ['Joliot, Irène'],
      publisher: ['P'],
      date: ['1903-06-25'],
      type: ['Thesis'],
      format: ['application/pdf'],
      language: ['fr'],
      rights: ['https://creativecommons.org/licenses/by/4.0/'],
      identifier: ['https://doi.org/10.5555/x', 'https://hdl.handle.net/1765/315'],
    });
  });

  it('keeps what the record gives and adds only typed identifiers it does not name in any spelling', () => {
    const r: RecordFields = {
      dc: { creator: ['Given, A.'], identifier: ['doi:10.5555/x', 'local-7'] },
      creators: [{ name: 'Typed, B.' }],
      identifiers: [
        { type: 'DOI', value: '10.5555/x' },
        { type: 'URN', value: 'urn:nbn:de:101-1234' },
      ],
      publicationYear: '2001',
    };
    expect(dublinCore(r)).to.deep.equal({ creator: ['Given, A.'], identifier: ['doi:10.5555/x', 'local-7', 'urn:nbn:de:101-1234'], date: ['2001'] });
  });

  eachRow(
    [
      [{ type: 'DOI', value: '10.5555/a#b' }, 'https://doi.org/10.5555/a%23b'],
      [{ type: 'Handle', value: '1765/315' }, 'https://hdl.handle.net/1765/315'],
      [{ type: 'ARK', value: 'ark:/13030/tf5p30086k' }, 'https://n2t.net/ark:/13030/tf5p30086k'],
      [{ type: 'ISBN', value: '9783161484100' }, 'urn:isbn:9783161484100'],
      [{ type: 'ISSN', value: '0317-8471' }, 'urn:issn:0317-8471'],
      [{ type: 'URN', value: 'urn:nbn:de:101-1234' }, 'urn:nbn:de:101-1234'],
    ] as const,
    ([id, uri]) => `writes a ${id.type} as ${uri}`,
    ([id, uri]) => {
      expect(identifierUri(id)).to.equal(uri);
    },
  );
});

import { expect } from 'chai';
import { classifyIdentifier } from '../../lib/model/identifiers';
import { eachRow } from '../helpers/table';

describe('classifying identifier values', () => {
  eachRow(
    [
      ['http://hdl.handle.net/1765/315', 'Handle', '1765/315'],
      ['hdl:20.500.12345/678', 'Handle', '20.500.12345/678'],
      ['https://doi.org/10.5555/abc', 'DOI', '10.5555/abc'],
      ['doi:10.5555/abc', 'DOI', '10.5555/abc'],
      ['10.5555/abc', 'DOI', '10.5555/abc'],
      ['URN:NBN:de:101-1234', 'URN', 'urn:nbn:de:101-1234'],
      ['https://n2t.net/ark:/13030/tf5p30086k', 'ARK', 'ark:/13030/tf5p30086k'],
      ['ISBN 978-3-16-148410-0', 'ISBN', '9783161484100'],
      ['ISSN 0317-8471', 'ISSN', '0317-8471'],
      ['https://repository.example.org/items/7', 'URL', 'https://repository.example.org/items/7'],
    ] as const,
    ([value, type]) => `reads ${JSON.stringify(value)} as a ${type}`,
    ([value, type, normalized]) => {
      expect(classifyIdentifier(value)).to.deep.equal({ type, value: normalized });
    },
  );
  eachRow(
    ['1765/315', 'local-7', 'oai:example.org:1', 'doi:not-a-doi', 'ISBN 978-3-16-148410-1'],
    (value) => `names no scheme for ${JSON.stringify(value)}`,
    (value) => {
      expect(classifyIdentifier(value)).to.equal(null);
    },
  );
});

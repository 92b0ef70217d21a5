import { expect } from 'chai';
import { rejectsEach } from '../helpers/table';
import { isValidPoi, oaiIdentifierFromPoi, parsePoi, poiFromOaiIdentifier } from '../../lib/ids/poi';

describe('POI', () => {
  // POI 4 with the prefix the text copy lost (specs/README.md).
  const pairs: Array<[string, string]> = [
    ['oai:arXiv.org:hep-th/9901001', 'http://purl.org/poi/arXiv.org/hep-th/9901001'],
    ['oai:foo.org:some-local-id-53', 'http://purl.org/poi/foo.org/some-local-id-53'],
    ['oai:wibble.org:ab%20cd', 'http://purl.org/poi/wibble.org/ab%20cd'],
    ['oai:wibble.org:ab?cd', 'http://purl.org/poi/wibble.org/ab?cd'],
    ['oai:x.org:demo:A-B.C_D%3AE', 'http://purl.org/poi/x.org/demo:A-B.C_D%3AE'],
    ['oai:x.org:a/b/c', 'http://purl.org/poi/x.org/a/b/c'],
  ];
  for (const [oai, poi] of pairs) {
    it(`derives ${poi} from ${oai} and back`, () => {
      expect(poiFromOaiIdentifier(oai)).to.equal(poi);
      expect(oaiIdentifierFromPoi(poi)).to.equal(oai);
      expect(isValidPoi(poi)).to.equal(true);
    });
  }

  const invalid: Array<[string, string]> = [
    ['purl.org/poi/foo.org/x', 'no scheme and host'],
    ['https://purl.org/poi/foo.org/x', 'another prefix'],
    ['http://purl.org/poi/foo.org', 'no local-identifier'],
    ['http://purl.org/poi/foo.org/', 'empty local-identifier'],
    ['http://purl.org/poi/wibble/x', 'namespace is not a domain name'],
    ['http://purl.org/poi/999.org/x', 'namespace word starts with a digit'],
    ['http://purl.org/poi/wibble.org/ab cd', 'space'],
    ['http://purl.org/poi/wibble.org/ab%3ccd', 'lowercase escape'],
    ['http://purl.org/poi/wibble.org/ab#cd', '#'],
  ];
  rejectsEach(invalid, parsePoi);

  it('refuses to derive a POI from an invalid oai-identifier', () => {
    expect(() => poiFromOaiIdentifier('oai:wibble:abc123')).to.throw(RangeError);
  });
});

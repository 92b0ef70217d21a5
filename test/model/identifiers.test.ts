import { expect } from 'chai';
import { checkDoi, checkHandle, checkIsni, checkOrcid, checkRor, checkUrn, classifyIdentifier, type Checked } from '../../lib/model/identifiers';
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

describe('identifiers in their URL forms', () => {
  const rows: readonly (readonly [string, (s: string) => Checked, string, string])[] = [
    ['DOI', checkDoi, 'https://doi.org/10.5438/4k3m-nyvg', '10.5438/4k3m-nyvg'],
    ['DOI', checkDoi, 'http://dx.doi.org/10.5438/4K3M-NYVG', '10.5438/4K3M-NYVG'],
    ['DOI', checkDoi, 'https://www.doi.org/10.1000/182', '10.1000/182'],
    ['DOI', checkDoi, 'doi.org/10.1000/182', '10.1000/182'],
    ['DOI', checkDoi, 'info:doi/10.1000/182', '10.1000/182'],
    [
      'DOI',
      checkDoi,
      'https://doi.org/10.1002/(SICI)1097-4571(199806)49:8%3C693::AID-ASI4%3E3.0.CO;2-0',
      '10.1002/(SICI)1097-4571(199806)49:8<693::AID-ASI4>3.0.CO;2-0',
    ],
    ['Handle', checkHandle, 'http://hdl.handle.net/1765/315', '1765/315'],
    ['Handle', checkHandle, 'https://www.hdl.handle.net/20.500.12345/678', '20.500.12345/678'],
    ['Handle', checkHandle, 'info:hdl/1765/315', '1765/315'],
    ['URN', checkUrn, 'http://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-160648', 'urn:nbn:se:uu:diva-160648'],
    ['URN', checkUrn, 'https://nbn-resolving.org/urn:nbn:de:0168-ssoar-12345', 'urn:nbn:de:0168-ssoar-12345'],
    ['URN', checkUrn, 'https://urn.fi/URN:NBN:fi-fe2019', 'urn:nbn:fi-fe2019'],
    ['ORCID', checkOrcid, 'http://orcid.org/0000-0003-1419-2405', '0000-0003-1419-2405'],
    ['ORCID', checkOrcid, 'https://www.orcid.org/0000-0002-1825-0097', '0000-0002-1825-0097'],
    ['ORCID', checkOrcid, 'orcid.org/0000-0002-1825-0097', '0000-0002-1825-0097'],
    ['ISNI', checkIsni, 'http://www.isni.org/isni/0000000119587073', '0000000119587073'],
    ['ISNI', checkIsni, 'https://isni.org/isni/0000 0001 2281 955X', '000000012281955X'],
    ['ISNI', checkIsni, 'https://isni.org/isni/0000%200001%202281%20955X', '000000012281955X'],
    ['ISNI', checkIsni, '0000 0001 2298 6657', '0000000122986657'],
    ['ISNI', checkIsni, 'isni.org/isni/000000012281955X', '000000012281955X'],
    ['ROR', checkRor, 'http://ror.org/04wxnsj81', 'https://ror.org/04wxnsj81'],
    ['ROR', checkRor, 'https://www.ror.org/038wwg650', 'https://ror.org/038wwg650'],
    ['ROR', checkRor, 'ror.org/05gq02987', 'https://ror.org/05gq02987'],
  ];
  eachRow(
    rows,
    ([scheme, , value]) => `reads ${JSON.stringify(value)} as ${scheme}`,
    ([, check, value, want]) => {
      expect(check(value)).to.deep.equal({ value: want });
    },
  );
  const refused: readonly (readonly [string, (s: string) => Checked, string])[] = [
    ['an ORCID URL with a wrong check character', checkOrcid, 'https://orcid.org/0000-0002-1825-0098'],
    ['an ISNI URL with a wrong check character', checkIsni, 'http://www.isni.org/isni/0000000119587074'],
    ['a DOI resolver URL without a DOI', checkDoi, 'https://doi.org/about'],
    ['a resolver URL naming no URN', checkUrn, 'http://urn.kb.se/resolve?id=160648'],
    ['a ROR URL on another host', checkRor, 'https://example.org/04wxnsj81'],
  ];
  eachRow(
    refused,
    ([what]) => `refuses ${what}`,
    ([, check, value]) => {
      expect(check(value)).to.have.property('error').that.is.a('string');
    },
  );
  it('still classifies a resolver URL naming a URN as a URL: only a value typed as a URN is read for one', () => {
    expect(classifyIdentifier('http://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-160648')).to.deep.equal({
      type: 'URL',
      value: 'http://urn.kb.se/resolve?urn=urn:nbn:se:uu:diva-160648',
    });
  });
  it('classifies the info: URI and www. spellings of DOIs and Handles', () => {
    expect(classifyIdentifier('info:doi/10.1000/182')).to.deep.equal({ type: 'DOI', value: '10.1000/182' });
    expect(classifyIdentifier('https://www.doi.org/10.1000/182')).to.deep.equal({ type: 'DOI', value: '10.1000/182' });
    expect(classifyIdentifier('info:hdl/1765/315')).to.deep.equal({ type: 'Handle', value: '1765/315' });
  });
});

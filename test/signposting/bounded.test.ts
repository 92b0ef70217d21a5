/**
 * The Link header stays bounded and reads the same to a naive parser: at
 * most MAX_LINK_HEADER_BYTES and MAX_LINK_HEADER_LINKS, always pointing at
 * the linkset; link targets percent-encode what parsers split on; a media
 * type that is not type/subtype never reaches a header.
 */
import { expect } from 'chai';
import { linkHeader, linksetJson, signpostingLinks, type SignpostInput } from '../../lib/signposting';
import { MAX_LINK_HEADER_BYTES, MAX_LINK_HEADER_LINKS } from '../../lib/signposting/links';
import { requestsParseLinks } from '../helpers/requests-links';

const base: SignpostInput = {
  citeAs: 'https://doi.org/10.5555/x',
  deleted: false,
  describedBy: [
    {
      href: 'https://r.org/oai?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai:r.org:1',
      type: 'application/xml',
      profile: 'http://www.openarchives.org/OAI/2.0/oai_dc/',
    },
  ],
  types: [],
  licenses: [],
  files: [],
  linkset: 'https://r.org/poi/r.org/1',
};

describe('a bounded Link header', () => {
  it('carries at most the documented bytes and links for an item with 3,000 files, and always the linkset', () => {
    const files = Array.from({ length: 3000 }, (_, i) => ({ href: `https://r.org/files/${i}/a-long-file-name-${i}.pdf`, type: 'application/pdf' }));
    const links = signpostingLinks({ ...base, files });
    const header = linkHeader(links);
    expect(Buffer.byteLength(header)).to.be.at.most(MAX_LINK_HEADER_BYTES);
    const parsed = requestsParseLinks(header);
    expect(parsed.length).to.be.at.most(MAX_LINK_HEADER_LINKS);
    expect(parsed[0]).to.deep.include({ url: 'https://doi.org/10.5555/x', rel: 'cite-as' });
    expect(parsed.at(-1)).to.deep.include({ url: 'https://r.org/poi/r.org/1', rel: 'linkset' });
    // The linkset has every one of them.
    expect((linksetJson('https://r.org/a', links).linkset[0] as { item: unknown[] }).item).to.have.length(3000);
  });

  it('stops at the documented number of links even when they are short', () => {
    const files = Array.from({ length: 500 }, (_, i) => ({ href: `https://r.org/${i}` }));
    const parsed = requestsParseLinks(linkHeader(signpostingLinks({ ...base, files })));
    expect(parsed).to.have.length(MAX_LINK_HEADER_LINKS);
    expect(parsed.filter((l) => l.rel === 'linkset')).to.have.length(1);
  });

  it('leaves a small set of links whole', () => {
    const links = signpostingLinks({ ...base, files: [{ href: 'https://r.org/a.pdf', type: 'application/pdf' }] });
    expect(requestsParseLinks(linkHeader(links))).to.have.length(links.length);
  });
});

describe('link targets and media types a naive parser reads right', () => {
  it('reads exactly one cite-as, the DOI, when the DOI holds ";" and ","', () => {
    const header = linkHeader(signpostingLinks({ ...base, citeAs: 'https://doi.org/10.5555/a;b,c' }));
    const cites = requestsParseLinks(header).filter((l) => l.rel === 'cite-as');
    expect(cites).to.deep.equal([{ url: 'https://doi.org/10.5555/a%3Bb%2Cc', rel: 'cite-as' }]);
  });

  it('percent-encodes <, >, " and spaces in a target', () => {
    const header = linkHeader(signpostingLinks({ ...base, files: [{ href: 'https://r.org/a b"<c>.pdf', type: 'application/pdf' }] }));
    expect(header).to.contain('<https://r.org/a%20b%22%3Cc%3E.pdf>');
  });

  for (const type of ['x, <https://evil.example/10.9999/fake>; rel=cite-as; y=', 'text/html; charset=utf-8', 'application', 'a/b/c', 'text/ html']) {
    it(`drops the media type ${JSON.stringify(type)}, so no cite-as is forged`, () => {
      const header = linkHeader(signpostingLinks({ ...base, files: [{ href: 'https://r.org/a.pdf', type }] }));
      const parsed = requestsParseLinks(header);
      expect(parsed.filter((l) => l.rel === 'cite-as').map((l) => l.url)).to.deep.equal(['https://doi.org/10.5555/x']);
      expect(parsed.find((l) => l.rel === 'item')).to.deep.equal({ url: 'https://r.org/a.pdf', rel: 'item', type: 'application/octet-stream' });
      expect(header).not.to.contain('evil');
    });
  }
});

/**
 * The pieces of sitemap and ResourceSync documents (lib/resourcesync/documents.ts):
 * put together they are schema-valid, values are escaped, and the resource a
 * list describes has exactly the length and MD5 the list gives.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { changeOf, closeDocument, entry, openDocument, packagedName, resourceBytes, resourceDigest } from '../../lib/resourcesync/documents';
import { sitemapErrors } from '../helpers/xsd';
import { eachRow } from '../helpers/table';

describe('ResourceSync documents', () => {
  it('makes a schema-valid Resource List, escaping what it writes', () => {
    const xml =
      openDocument('urlset', { capability: 'resourcelist', at: 1_764_000_000 }, [{ rel: 'up', href: 'http://x.org/c.xml?a=1&b="2"' }]) +
      entry('urlset', { loc: 'http://x.org/r?a=<1>&b=2', lastmod: 1_700_000_000, md: { hash: 'md5:00', length: 12, type: 'application/xml' } }) +
      closeDocument('urlset');
    expect(sitemapErrors(xml)).to.deep.equal([]);
    expect(xml).to.contain('<loc>http://x.org/r?a=&lt;1&gt;&amp;b=2</loc><lastmod>2023-11-14T22:13:20Z</lastmod>');
    expect(xml).to.contain('href="http://x.org/c.xml?a=1&amp;b=&quot;2&quot;"');
    expect(xml).to.contain('<rs:md capability="resourcelist" at="2025-11-24T16:00:00Z"/>');
  });

  it('makes a schema-valid Change List Index and a plain sitemap without the ResourceSync namespace', () => {
    const index =
      openDocument('sitemapindex', { capability: 'changelist', from: 0 }, [{ rel: 'up', href: 'http://x.org/c.xml' }]) +
      entry('sitemapindex', { loc: 'http://x.org/1.xml', md: { from: 0, until: 60 } }) +
      closeDocument('sitemapindex');
    expect(sitemapErrors(index)).to.deep.equal([]);
    const plain = openDocument('urlset') + entry('urlset', { loc: 'http://x.org/page' }) + closeDocument('urlset');
    expect(sitemapErrors(plain)).to.deep.equal([]);
    expect(plain).not.to.contain('openarchives.org/rs');
  });

  it('describes a record by the length and MD5 of exactly the bytes it serves', () => {
    const xml = '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/"><t>Μουσείο &amp; 😀</t></oai_dc:dc>';
    const bytes = resourceBytes(xml);
    expect(bytes.toString('utf8')).to.equal(`<?xml version="1.0" encoding="UTF-8"?>\n${xml}\n`);
    expect(resourceDigest(xml)).to.deep.equal({ md5: crypto.createHash('md5').update(bytes).digest('hex'), length: bytes.length });
  });

  eachRow(
    [
      ['oai:x.org:1', 'resources/oai%3Ax.org%3A1.xml'],
      ["a/b*c'd(e)f!g~h", 'resources/a%2Fb%2Ac%27d%28e%29f%21g%7Eh.xml'],
      ['..', 'resources/...xml'],
      ['é ü', 'resources/%C3%A9%20%C3%BC.xml'],
    ] as const,
    ([id, name]) => `packs ${JSON.stringify(id)} as ${name}`,
    ([id, name]) => {
      expect(packagedName(id)).to.equal(name);
    },
  );

  eachRow(
    [
      [{ datestamp: 5, created: 5, deleted: false }, 'created'],
      [{ datestamp: 9, created: 5, deleted: false }, 'updated'],
      [{ datestamp: 3, created: 5, deleted: false }, 'updated'],
      [{ datestamp: 5, created: 5, deleted: true }, 'deleted'],
    ] as const,
    ([c, kind]) => `calls a ${c.deleted ? 'deleted ' : ''}record dated ${c.datestamp}, created ${c.created}, ${kind}`,
    ([c, kind]) => {
      expect(changeOf({ pk: 1, identifier: 'oai:x:1', ...c })).to.equal(kind);
    },
  );
});

/**
 * Where the ResourceSync and sitemap documents live (lib/resourcesync/paths.ts):
 * every document's path names that document again, and what is not a
 * document's path names none.
 */
import { expect } from 'chai';
import { parseSitemapPath, parseSyncPath, sitemapPath, syncPath, type SitemapDoc, type SyncDoc } from '../../lib/resourcesync/paths';
import { eachRow } from '../helpers/table';

const DC = { metadataPrefix: 'oai_dc' };
const IN_SET = { metadataPrefix: 'oai_dc', set: "a:b-c_d.e!f~g*h'i(j)" };

const DOCS: readonly [SyncDoc, string][] = [
  [{ kind: 'description' }, '/.well-known/resourcesync'],
  [{ kind: 'description', part: 3 }, '/resourcesync/description/3.xml'],
  [{ kind: 'capabilitylist', scope: DC }, '/resourcesync/oai_dc/capabilitylist.xml'],
  [{ kind: 'capabilitylist', scope: IN_SET }, "/resourcesync/oai_dc@a:b-c_d.e!f~g*h'i(j)/capabilitylist.xml"],
  [{ kind: 'resourcelist', scope: DC }, '/resourcesync/oai_dc/resourcelist.xml'],
  [{ kind: 'resourcelist', scope: { metadataPrefix: 'mods', set: 's' }, part: 0 }, '/resourcesync/mods@s/resourcelist/0.xml'],
  [{ kind: 'resourcedump', scope: DC }, '/resourcesync/oai_dc/resourcedump.xml'],
  [{ kind: 'package', scope: DC }, '/resourcesync/oai_dc/resourcedump.zip'],
  [{ kind: 'package', scope: DC, part: 12 }, '/resourcesync/oai_dc/resourcedump/12.zip'],
  [{ kind: 'changelist', scope: DC }, '/resourcesync/oai_dc/changelist.xml'],
  [{ kind: 'changelist', scope: DC, from: 1764000000 }, '/resourcesync/oai_dc/changelist.xml?from=2025-11-24T16:00:00Z'],
  [
    { kind: 'changepage', scope: IN_SET, after: { datestamp: 1764000000, pk: 42 } },
    "/resourcesync/oai_dc@a:b-c_d.e!f~g*h'i(j)/changelist/20251124T160000Z-42.xml",
  ],
  [{ kind: 'changepage', scope: DC, after: { datestamp: -86400, pk: 0 } }, '/resourcesync/oai_dc/changelist/19691231T000000Z-0.xml'],
  [
    { kind: 'record', metadataPrefix: 'oai_dc', identifier: 'oai:x.org:a/b?c=d&e#f%20 é' },
    '/resourcesync/oai_dc/record/oai%3Ax.org%3Aa%2Fb%3Fc%3Dd%26e%23f%2520%20%C3%A9',
  ],
];

describe('ResourceSync paths', () => {
  eachRow(
    DOCS,
    ([doc, path]) => `writes a ${doc.kind} as ${path}`,
    ([doc, path]) => {
      expect(syncPath(doc)).to.equal(path);
    },
  );

  eachRow(
    DOCS,
    ([doc]) => `reads a ${doc.kind}'s path back as the same document`,
    ([doc, path]) => {
      const q = path.indexOf('?');
      expect(parseSyncPath(q < 0 ? path : path.slice(0, q), q < 0 ? '' : path.slice(q + 1))).to.deep.equal(doc);
    },
  );

  it('reads escaped characters of a scope, and a from given as a day', () => {
    expect(parseSyncPath('/resourcesync/oai_dc%40a%3Ab/changelist.xml', 'from=2025-11-24')).to.deep.equal({
      kind: 'changelist',
      scope: { metadataPrefix: 'oai_dc', set: 'a:b' },
      from: 1763942400,
    });
  });

  const NOT_DOCS: readonly [string, string, string][] = [
    ['/resourcesync/', '', 'no scope'],
    ['/resourcesync/oai_dc', '', 'no document'],
    ['/resourcesync/oai dc/resourcelist.xml', '', 'a prefix with a space'],
    ['/resourcesync/oai_dc@a::b/resourcelist.xml', '', 'a setSpec with an empty part'],
    ['/resourcesync/oai_dc@/resourcelist.xml', '', 'an empty setSpec'],
    ['/resourcesync/oai_dc/resourcelist/01.xml', '', 'a part with a leading zero'],
    ['/resourcesync/oai_dc/resourcelist/-1.xml', '', 'a negative part'],
    ['/resourcesync/oai_dc/resourcelist/1.zip', '', 'a list part named as a package'],
    ['/resourcesync/oai_dc/resourcedump/1.xml', '', 'a package part named as a list'],
    ['/resourcesync/oai_dc/changelist/20250230T000000Z-1.xml', '', 'an impossible date'],
    ['/resourcesync/oai_dc/changelist/20250101T000000Z.xml', '', 'a position without a pk'],
    ['/resourcesync/oai_dc/changelist.xml', 'from=yesterday', 'a from that is no date'],
    ['/resourcesync/oai_dc/record/', '', 'no identifier'],
    ['/resourcesync/oai_dc/record/%E0%A4%A', '', 'a malformed escape'],
    ['/resourcesync/oai_dc/record/a/b', '', 'an identifier with a bare slash'],
    ['/resourcesync/oai_dc@s/record/x', '', 'a record in a set'],
    ['/resourcesync/oai_dc/capabilitylist.xml/x', '', 'a path below a document'],
    ['/.well-known/resourcesync/', '', 'a trailing slash on the well-known URI'],
  ];
  eachRow(
    NOT_DOCS,
    ([path, query, why]) => `names no document by ${JSON.stringify(path + (query ? `?${query}` : ''))} (${why})`,
    ([path, query]) => {
      expect(parseSyncPath(path, query)).to.equal(null);
    },
  );

  const SITEMAPS: readonly [SitemapDoc, string][] = [
    [{ kind: 'robots' }, '/robots.txt'],
    [{ kind: 'sitemap' }, '/sitemap.xml'],
    [{ kind: 'sitemap', part: 7 }, '/sitemap/7.xml'],
  ];
  eachRow(
    SITEMAPS,
    ([, path]) => `writes and reads back ${path}`,
    ([doc, path]) => {
      expect(sitemapPath(doc)).to.equal(path);
      expect(parseSitemapPath(path)).to.deep.equal(doc);
    },
  );

  it('names no sitemap by other paths', () => {
    for (const p of ['/sitemap', '/sitemap/', '/sitemap/07.xml', '/sitemap/x.xml', '/sitemap.xml/1']) expect(parseSitemapPath(p), p).to.equal(null);
  });
});

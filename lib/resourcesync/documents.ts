/**
 * Sitemap and ResourceSync documents written as text, a piece at a time, so
 * a server can stream lists of any length: the root with its `rs:ln` links
 * and `rs:md` metadata (ResourceSync 1.1 section 7, Table 2), one piece per
 * `<url>` or `<sitemap>`, and the end tag. Also the resource each list
 * describes: a record's metadata in one format as a document of its own, its
 * bytes and their digest, and the kind of its latest change.
 */
import crypto from 'node:crypto';
import type { SyncChange } from '../store';
import { formatDatestamp } from '../oai/dates';
import { escapeAttr, escapeText } from '../xml/chars';
import { RS_NS, SITEMAP_NS } from '../xml/namespaces';

/** The Sitemap protocol's limit of entries per document, which ResourceSync 1.1 section 7 follows. */
export const SITEMAP_LIMIT = 50_000;

/**
 * The longest `loc` a document may hold: sitemaps.org ("less than 2,048
 * characters") and `maxLength` in both Sitemap XSDs.
 */
export const MAX_LOC = 2048;

/** The media type of every XML document and record served here (ResourceSync 1.1 section 7, `type`). */
export const XML_TYPE = 'application/xml';

/** The XML declaration every document starts with. */
export const XML_DECL = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** The two document formats of the Sitemap protocol. */
export type Root = 'urlset' | 'sitemapindex';

/** ResourceSync 1.1 section 7's `capability` values the server writes. */
export type Capability = 'description' | 'capabilitylist' | 'resourcelist' | 'resourcedump' | 'resourcedump-manifest' | 'changelist';

/** The attributes of an `rs:md` (ResourceSync 1.1 section 7, Table 3); times in seconds. */
export interface RsMd {
  readonly capability?: Capability;
  readonly at?: number;
  readonly from?: number;
  readonly until?: number;
  readonly change?: 'created' | 'updated' | 'deleted';
  readonly datetime?: number;
  /** `md5:…` and the like (ResourceSync 1.1 section 7, `hash`). */
  readonly hash?: string;
  readonly length?: number;
  readonly type?: string;
  /** Where the bitstream is in a ZIP package, from its root, with a leading `/` (section 11.2). */
  readonly path?: string;
}

/** An `rs:ln` link (ResourceSync 1.1 section 7). */
export interface RsLn {
  readonly rel: 'up' | 'index' | 'describedby' | 'contents';
  readonly href: string;
  readonly type?: string;
}

/** One `<url>` of a urlset or `<sitemap>` of a sitemapindex. */
export interface Entry {
  readonly loc: string;
  readonly lastmod?: number;
  readonly md?: RsMd;
  readonly links?: readonly RsLn[];
}

/**
 * The declaration and start tag of a document, with the root's links and
 * metadata; without `md`, a plain sitemap (no ResourceSync namespace).
 *
 * @example openDocument('urlset', { capability: 'resourcelist', at: 0 }, [{ rel: 'up', href: 'http://x.org/c.xml' }])
 */
export function openDocument(root: Root, md?: RsMd, links: readonly RsLn[] = []): string {
  const rs = md === undefined ? '' : ` xmlns:rs="${RS_NS}"`;
  return `${XML_DECL}<${root} xmlns="${SITEMAP_NS}"${rs}>\n${links.map((l) => `${ln(l)}\n`).join('')}${md === undefined ? '' : `<rs:md${mdAttributes(md)}/>\n`}`;
}

/** The end tag of a document. */
export function closeDocument(root: Root): string {
  return `</${root}>\n`;
}

/**
 * One entry of a document: `<url>` in a urlset, `<sitemap>` in a sitemapindex.
 *
 * @example entry('urlset', { loc: 'http://x.org/r?a=1&b=2', lastmod: 0 }) // '<url><loc>http://x.org/r?a=1&amp;b=2</loc><lastmod>1970-01-01T00:00:00Z</lastmod></url>\n'
 */
export function entry(root: Root, e: Entry): string {
  const tag = root === 'urlset' ? 'url' : 'sitemap';
  const lastmod = e.lastmod === undefined ? '' : `<lastmod>${formatDatestamp(e.lastmod)}</lastmod>`;
  const md = e.md === undefined ? '' : `<rs:md${mdAttributes(e.md)}/>`;
  return `<${tag}><loc>${escapeText(e.loc)}</loc>${lastmod}${md}${(e.links ?? []).map(ln).join('')}</${tag}>\n`;
}

function ln(link: RsLn): string {
  return `<rs:ln rel="${link.rel}" href="${escapeAttr(link.href)}"${link.type === undefined ? '' : ` type="${escapeAttr(link.type)}"`}/>`;
}

function mdAttributes(md: RsMd): string {
  const out: string[] = [];
  const add = (name: string, value: string | number | undefined): void => {
    if (value !== undefined) out.push(` ${name}="${escapeAttr(String(value))}"`);
  };
  add('capability', md.capability);
  add('at', md.at === undefined ? undefined : formatDatestamp(md.at));
  add('from', md.from === undefined ? undefined : formatDatestamp(md.from));
  add('until', md.until === undefined ? undefined : formatDatestamp(md.until));
  add('change', md.change);
  add('datetime', md.datetime === undefined ? undefined : formatDatestamp(md.datetime));
  add('hash', md.hash);
  add('length', md.length);
  add('type', md.type);
  add('path', md.path);
  return out.join('');
}

/**
 * A record's stored metadata as a document of its own: the declaration, the
 * one element, a line end. What its URL serves, what a Resource Dump packs,
 * and what every `md5` and `length` describes.
 *
 * @example resourceBytes('<a/>').toString() // '<?xml version="1.0" encoding="UTF-8"?>\n<a/>\n'
 */
export function resourceBytes(xml: string): Buffer {
  return Buffer.from(`${XML_DECL}${xml}\n`, 'utf8');
}

/** The length and MD5 of {@link resourceBytes}, without building them. */
export function resourceDigest(xml: string): { readonly md5: string; readonly length: number } {
  const md5 = crypto.createHash('md5').update(XML_DECL).update(xml, 'utf8').update('\n').digest('hex');
  return { md5, length: XML_DECL.length + Buffer.byteLength(xml, 'utf8') + 1 };
}

/**
 * Where a record's file is in a Resource Dump package: `resources/`, its
 * identifier with every byte but letters, digits, `.`, `_` and `-`
 * percent-encoded (a name every file system takes), and `.xml`.
 *
 * @example packagedName('oai:x.org:a/b*') // 'resources/oai%3Ax.org%3Aa%2Fb%2A.xml'
 */
export function packagedName(identifier: string): string {
  const safe = encodeURIComponent(identifier).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `resources/${safe}.xml`;
}

/**
 * The kind of a record's latest change. The store keeps the latest version
 * only, so "created" means what it can be sure of: the item has been
 * written once and stamped by the store's own clock (its datestamp is its
 * creation time). Any other live record is "updated", which a destination
 * treats alike: it fetches the record.
 *
 * @example changeOf({ pk: 1, identifier: 'oai:x:1', datestamp: 5, created: 5, deleted: false }) // 'created'
 */
export function changeOf(c: SyncChange): 'created' | 'updated' | 'deleted' {
  if (c.deleted) return 'deleted';
  return c.datestamp === c.created ? 'created' : 'updated';
}

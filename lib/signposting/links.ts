/**
 * FAIR Signposting (https://signposting.org/FAIR/) for an item: the typed
 * links of its landing page, as an RFC 8288 `Link` header and as RFC 9264
 * linksets (`application/linkset+json` and `application/linkset`).
 *
 * Relation types of the profile used here: `cite-as` (the persistent
 * identifier a reference should use, RFC 8574: the record's DOI, else its
 * Handle, else its ARK or URN, else the item's POI; lib/model/facts.ts
 * `citationIdentifier` chooses), `describedby` (the
 * metadata in each format, with its media type and the format's namespace as
 * `profile`), `type` (`https://schema.org/AboutPage` for the landing page and
 * the kind of work), `license`, `item` (each file, with its media type) and
 * `linkset`. Pure: the caller gathers the facts and the URLs.
 */
import { percentEncode } from '../model/identifiers';
import type { FileLink } from '../model/facts';
import { isMediaType } from '../model/from-json-detail';

/**
 * The most bytes a `Link` header carries. Proxies and clients cap a header
 * field (Node's fetch at 16 KiB for all of them, nginx's default buffer is
 * 4-8 KiB); the FAIR Signposting profile lets a large set of links live in
 * the linkset alone, which the header then points at.
 */
export const MAX_LINK_HEADER_BYTES = 8192;
/** The most links a `Link` header carries; the rest are in the linkset only. */
export const MAX_LINK_HEADER_LINKS = 64;

/** One typed link (RFC 8288 section 3). */
export interface SignpostLink {
  readonly href: string;
  readonly rel: 'cite-as' | 'describedby' | 'type' | 'license' | 'item' | 'linkset';
  readonly type?: string;
  /** Extension target attribute (FAIR Signposting: the metadata's profile, here its namespace). */
  readonly profile?: string;
}

/** A metadata record of the item, for a `describedby` link. */
export interface DescribedBy {
  readonly href: string;
  readonly type: string;
  readonly profile: string;
}

/** Everything the links of one item are made from. */
export interface SignpostInput {
  /** The URI the item is cited by (`cite-as`): its citation identifier, as a URI. */
  readonly citeAs: string;
  /** A tombstone keeps only `cite-as`: the identifier outlives the item. */
  readonly deleted: boolean;
  readonly describedBy: readonly DescribedBy[];
  /** schema.org type URLs of the work; when empty, CreativeWork. */
  readonly types: readonly string[];
  readonly licenses: readonly string[];
  readonly files: readonly FileLink[];
  /** Where the linkset of the item is served (the resolver answers it to `Accept: application/linkset+json`). */
  readonly linkset?: string;
}

const ABOUT_PAGE = 'https://schema.org/AboutPage';
const CREATIVE_WORK = 'https://schema.org/CreativeWork';
/** FAIR Signposting asks for a type on every item link; this says "bytes of an unknown kind" (RFC 2046 4.5.1). */
const UNKNOWN_FILE_TYPE = 'application/octet-stream';

/**
 * The links of an item's landing page, in profile order.
 *
 * @example signpostingLinks({ citeAs: 'http://purl.org/poi/x.org/1', deleted: true, describedBy: [], types: [], licenses: [], files: [] })
 * // [{ href: 'http://purl.org/poi/x.org/1', rel: 'cite-as' }]
 */
export function signpostingLinks(input: SignpostInput): SignpostLink[] {
  const links: SignpostLink[] = [{ href: input.citeAs, rel: 'cite-as' }];
  if (input.deleted) return links;
  for (const d of input.describedBy) links.push({ href: d.href, rel: 'describedby', type: d.type, profile: d.profile });
  links.push({ href: ABOUT_PAGE, rel: 'type' });
  for (const t of input.types.length > 0 ? input.types : [CREATIVE_WORK]) links.push({ href: t, rel: 'type' });
  for (const l of input.licenses) links.push({ href: l, rel: 'license' });
  // A media type from input reaches a header only when it is one (RFC 6838 4.2: type "/" subtype, restricted names).
  for (const f of input.files) links.push({ href: f.href, rel: 'item', type: f.type !== undefined && isMediaType(f.type) ? f.type : UNKNOWN_FILE_TYPE });
  if (input.linkset !== undefined) links.push({ href: input.linkset, rel: 'linkset', type: 'application/linkset+json' });
  return links;
}

/**
 * An URI reference safe inside `<…>`: characters outside RFC 3986 are
 * percent-encoded, existing escapes kept, and so are `,` and `;`: RFC 8288
 * allows them inside `<…>`, but common parsers split a header on them
 * (python-requests' `parse_header_links` does), and would read a forged or
 * no link from a DOI holding one.
 */
function uriRef(href: string): string {
  return href.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+=:@/?#%[\]]/gu, percentEncode);
}

/** An RFC 9110 quoted-string. */
function quoted(s: string): string {
  return `"${s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '')}"`;
}

function linkValue(l: SignpostLink, anchor?: string): string {
  let v = `<${uriRef(l.href)}>; rel=${quoted(l.rel)}`;
  if (l.type !== undefined && isMediaType(l.type)) v += `; type=${quoted(l.type)}`;
  if (l.profile !== undefined) v += `; profile=${quoted(uriRef(l.profile))}`;
  if (anchor !== undefined) v += `; anchor=${quoted(uriRef(anchor))}`;
  return v;
}

/**
 * The value of a `Link` header field (RFC 8288 section 3) carrying the
 * links, in their order, as many as fit in {@link MAX_LINK_HEADER_BYTES} and
 * {@link MAX_LINK_HEADER_LINKS}; the `linkset` link is always among them, so
 * a client finds the rest there (FAIR Signposting, level 2 for large sets).
 *
 * @example linkHeader([{ href: 'https://doi.org/10.1/x', rel: 'cite-as' }]) // '<https://doi.org/10.1/x>; rel="cite-as"'
 */
export function linkHeader(
  links: readonly SignpostLink[],
  limits: { readonly bytes: number; readonly links: number } = { bytes: MAX_LINK_HEADER_BYTES, links: MAX_LINK_HEADER_LINKS },
): string {
  const linkset = links.find((l) => l.rel === 'linkset');
  const last = linkset === undefined ? [] : [linkValue(linkset)];
  // Every value is ASCII (uriRef and quoted leave nothing else), so its length is its size in bytes.
  let size = last.reduce((n, v) => n + v.length, 0);
  const out: string[] = [];
  for (const l of links) {
    if (l.rel === 'linkset') continue;
    const v = linkValue(l);
    if (out.length + last.length >= limits.links || size + v.length + 2 > limits.bytes) break;
    out.push(v);
    size += v.length + 2;
  }
  return [...out, ...last].join(', ');
}

/**
 * The `application/linkset` document (RFC 9264 section 4.1): the links in
 * `Link` header syntax, each with its context as `anchor`, one per line.
 *
 * @example linksetText('https://r.org/item', [{ href: 'https://doi.org/10.1/x', rel: 'cite-as' }])
 * // '<https://doi.org/10.1/x>; rel="cite-as"; anchor="https://r.org/item"\n'
 */
export function linksetText(anchor: string, links: readonly SignpostLink[]): string {
  return `${inLinkset(links)
    .map((l) => linkValue(l, anchor))
    .join(',\n')}\n`;
}

/** The links a linkset carries: all but the one pointing at the linkset itself. */
function inLinkset(links: readonly SignpostLink[]): SignpostLink[] {
  return links.filter((l) => l.rel !== 'linkset');
}

/** The JSON value of an RFC 9264 linkset (section 4.2). */
export interface LinksetJson {
  readonly linkset: ReadonlyArray<Readonly<Record<string, unknown>>>;
}

/**
 * The `application/linkset+json` document (RFC 9264 section 4.2): one
 * context object with the anchor and, per relation type, an array of target
 * objects. `type` is a target attribute of RFC 8288 (a string); `profile` is
 * an extension target attribute, so its value is an array (section 4.2.4.3).
 *
 * @example linksetJson('https://r.org/item', [{ href: 'https://doi.org/10.1/x', rel: 'cite-as' }])
 * // { linkset: [{ anchor: 'https://r.org/item', 'cite-as': [{ href: 'https://doi.org/10.1/x' }] }] }
 */
export function linksetJson(anchor: string, links: readonly SignpostLink[]): LinksetJson {
  const context: Record<string, unknown> = { anchor: uriRef(anchor) };
  for (const l of inLinkset(links)) {
    const target: Record<string, unknown> = { href: uriRef(l.href) };
    if (l.type !== undefined) target.type = l.type;
    if (l.profile !== undefined) target.profile = [uriRef(l.profile)];
    const list = (context[l.rel] ??= []) as unknown[];
    list.push(target);
  }
  return { linkset: [context] };
}

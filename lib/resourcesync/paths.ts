/**
 * Where each ResourceSync and sitemap document lives, both ways: the path of
 * a document, and the document a request path names. One table of shapes,
 * so that what the server links to is exactly what it answers.
 *
 * A scope (lib/store/read.ts `SyncScope`) is written as one path segment, the
 * metadataPrefix, or the metadataPrefix, `@` and the setSpec: neither may
 * hold `@` (OAI-PMH 3.4 and 2.7), and every character they may hold is
 * allowed in a path segment as it is (RFC 3986 section 3.3), so the segment
 * reads like the harvest it mirrors (`oai_dc@openaire:data`).
 */
import type { Keyset, SyncScope } from '../store';
import { METADATA_PREFIX, SET_SPEC } from '../model/header';
import { formatDatestamp, parseUtcDatetime } from '../oai/dates';

/** The Source Description, at the well-known URI of ResourceSync 1.1 section 6.3.2 (RFC 8615). */
export const WELL_KNOWN = '/.well-known/resourcesync';
/** Where every other ResourceSync document lives. */
export const SYNC_ROOT = '/resourcesync';
/** The sitemap of record pages, and its parts past the limit. */
export const SITEMAP = '/sitemap.xml';
export const ROBOTS = '/robots.txt';

/** A document (or a record's bytes) the ResourceSync side answers. */
export type SyncDoc =
  /** The Source Description; with a part, one part of the Source Description Index. */
  | { readonly kind: 'description'; readonly part?: number }
  | { readonly kind: 'capabilitylist'; readonly scope: SyncScope }
  /** The Resource List, or the Resource List Index; with a part, one Resource List of the index. */
  | { readonly kind: 'resourcelist'; readonly scope: SyncScope; readonly part?: number }
  | { readonly kind: 'resourcedump'; readonly scope: SyncScope }
  /** A ZIP package of the Resource Dump: every record of the scope, or (with a part) those of one run of pks. */
  | { readonly kind: 'package'; readonly scope: SyncScope; readonly part?: number }
  /** The Change List, or the Change List Index, of the changes from `from` (seconds; all when absent). */
  | { readonly kind: 'changelist'; readonly scope: SyncScope; readonly from?: number }
  /** One Change List of the index: the changes after a position. */
  | { readonly kind: 'changepage'; readonly scope: SyncScope; readonly after: Keyset }
  /** A record's metadata in one format, as a document of its own: the resource every list describes. */
  | { readonly kind: 'record'; readonly metadataPrefix: string; readonly identifier: string };

/** A document of the sitemap of record pages. */
export type SitemapDoc = { readonly kind: 'sitemap'; readonly part?: number } | { readonly kind: 'robots' };

/**
 * The path of a document, percent-encoded where needed.
 *
 * @example syncPath({ kind: 'resourcelist', scope: { metadataPrefix: 'oai_dc', set: 'a:b' }, part: 2 }) // '/resourcesync/oai_dc@a:b/resourcelist/2.xml'
 */
export function syncPath(doc: SyncDoc): string {
  switch (doc.kind) {
    case 'description':
      return doc.part === undefined ? WELL_KNOWN : `${SYNC_ROOT}/description/${doc.part}.xml`;
    case 'record':
      return `${SYNC_ROOT}/${doc.metadataPrefix}/record/${encodeURIComponent(doc.identifier)}`;
    case 'capabilitylist':
    case 'resourcedump':
      return `${scopePath(doc.scope)}/${doc.kind}.xml`;
    case 'resourcelist':
      return `${scopePath(doc.scope)}/resourcelist${doc.part === undefined ? '' : `/${doc.part}`}.xml`;
    case 'package':
      return `${scopePath(doc.scope)}/resourcedump${doc.part === undefined ? '' : `/${doc.part}`}.zip`;
    case 'changelist':
      return `${scopePath(doc.scope)}/changelist.xml${doc.from === undefined ? '' : `?from=${compactDatetime(doc.from, true)}`}`;
    case 'changepage':
      return `${scopePath(doc.scope)}/changelist/${compactDatetime(doc.after.datestamp, false)}-${doc.after.pk}.xml`;
  }
}

/** The path of a sitemap document. @example sitemapPath({ kind: 'sitemap', part: 3 }) // '/sitemap/3.xml' */
export function sitemapPath(doc: SitemapDoc): string {
  if (doc.kind === 'robots') return ROBOTS;
  return doc.part === undefined ? SITEMAP : `/sitemap/${doc.part}.xml`;
}

function scopePath(scope: SyncScope): string {
  return `${SYNC_ROOT}/${scope.metadataPrefix}${scope.set === undefined ? '' : `@${scope.set}`}`;
}

/**
 * The document a request names, from its path (as sent, percent-encoded)
 * and query; null for anything else. Malformed escapes, a prefix or setSpec
 * that cannot be one, an impossible date or part are all null: the caller
 * answers 404.
 *
 * @example parseSyncPath('/resourcesync/oai_dc/changelist.xml', 'from=2026-01-01') // { kind: 'changelist', scope: { metadataPrefix: 'oai_dc' }, from: 1767225600 }
 */
export function parseSyncPath(path: string, query: string): SyncDoc | null {
  if (path === WELL_KNOWN) return { kind: 'description' };
  if (!path.startsWith(`${SYNC_ROOT}/`)) return null;
  const parts = path.slice(SYNC_ROOT.length + 1).split('/');
  const [head, name, sub, ...rest] = parts.map(decoded);
  if (head === undefined || head === null || name === undefined || name === null || rest.length > 0 || sub === null) return null;
  if (head === 'description') return sub === undefined ? number(name, '.xml', (part) => ({ kind: 'description', part })) : null;
  if (name === 'record') {
    return sub !== undefined && sub !== '' && METADATA_PREFIX.test(head) ? { kind: 'record', metadataPrefix: head, identifier: sub } : null;
  }
  const scope = parseScope(head);
  if (!scope) return null;
  if (sub === undefined) {
    switch (name) {
      case 'capabilitylist.xml':
        return { kind: 'capabilitylist', scope };
      case 'resourcelist.xml':
        return { kind: 'resourcelist', scope };
      case 'resourcedump.xml':
        return { kind: 'resourcedump', scope };
      case 'resourcedump.zip':
        return { kind: 'package', scope };
      case 'changelist.xml': {
        const from = new URLSearchParams(query).get('from');
        if (from === null) return { kind: 'changelist', scope };
        const t = parseUtcDatetime(from) ?? parseCompact(from);
        return t === null ? null : { kind: 'changelist', scope, from: typeof t === 'number' ? t : t.start };
      }
      default:
        return null;
    }
  }
  if (name === 'resourcelist') return number(sub, '.xml', (part) => ({ kind: 'resourcelist', scope, part }));
  if (name === 'resourcedump') return number(sub, '.zip', (part) => ({ kind: 'package', scope, part }));
  if (name === 'changelist') {
    const m = /^(\d{8}T\d{6}Z)-(\d{1,10})\.xml$/.exec(sub);
    const datestamp = m ? parseCompact(m[1] as string) : null;
    return m && datestamp !== null ? { kind: 'changepage', scope, after: { datestamp, pk: Number(m[2]) } } : null;
  }
  return null;
}

/** The sitemap document a path names, or null. @example parseSitemapPath('/sitemap/0.xml') // { kind: 'sitemap', part: 0 } */
export function parseSitemapPath(path: string): SitemapDoc | null {
  if (path === ROBOTS) return { kind: 'robots' };
  if (path === SITEMAP) return { kind: 'sitemap' };
  const m = /^\/sitemap\/(0|[1-9]\d{0,9})\.xml$/.exec(path);
  return m ? { kind: 'sitemap', part: Number(m[1]) } : null;
}

function parseScope(segment: string): SyncScope | null {
  const at = segment.indexOf('@');
  const prefix = at < 0 ? segment : segment.slice(0, at);
  if (!METADATA_PREFIX.test(prefix)) return null;
  if (at < 0) return { metadataPrefix: prefix };
  const set = segment.slice(at + 1);
  return SET_SPEC.test(set) ? { metadataPrefix: prefix, set } : null;
}

/** A path segment with its escapes undone; null when they are malformed. */
function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** `{n}{ext}` with n a part number (no leading zeros), passed to `make`; else null. */
function number<T>(name: string, ext: string, make: (n: number) => T): T | null {
  if (!name.endsWith(ext)) return null;
  const digits = name.slice(0, -ext.length);
  return /^(0|[1-9]\d{0,9})$/.test(digits) ? make(Number(digits)) : null;
}

/**
 * A time in ISO 8601 basic format, `YYYYMMDDThhmmssZ`: a path segment
 * without `:`; `extended` gives the usual `YYYY-MM-DDThh:mm:ssZ`.
 */
function compactDatetime(seconds: number, extended: boolean): string {
  const iso = formatDatestamp(seconds);
  return extended ? iso : iso.replace(/[-:]/g, '');
}

/** Seconds of a `YYYYMMDDThhmmssZ` time; null when it is no time at all. */
function parseCompact(s: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(s);
  if (!m) return null;
  return parseUtcDatetime(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z`)?.start ?? null;
}

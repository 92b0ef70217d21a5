/**
 * URLs of OAI-PMH requests to this repository, as links on pages and in
 * Signposting headers. Every argument is percent-encoded as a form value
 * (OAI-PMH 3.1.1.1): identifiers may hold `%`, `+`, `&`, `#`, `?`, spaces
 * and non-ASCII text, and a link must ask for exactly the item it names.
 */

/** Arguments in the order they are written; an undefined or empty value is left out (OAI-PMH 3.1.1 forbids empty arguments). */
export type UrlArgs = ReadonlyArray<readonly [string, string | undefined]>;

/**
 * Appends a query built from `args` to `base` (a path or an absolute URL
 * without a query). Example: `oaiUrl('/oai', [['verb', 'GetRecord'], ['identifier', 'oai:x:a+b']])`
 * → `'/oai?verb=GetRecord&identifier=oai%3Ax%3Aa%2Bb'`.
 */
export function oaiUrl(base: string, args: UrlArgs): string {
  const query = args
    .filter((a): a is readonly [string, string] => a[1] !== undefined && a[1] !== '')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
  return query === '' ? base : `${base}?${query}`;
}

/** The GetRecord URL of an item in a format. Example: `getRecordUrl('/oai', 'oai:x:1', 'oai_dc')`. */
export function getRecordUrl(base: string, identifier: string, metadataPrefix: string): string {
  return oaiUrl(base, [
    ['verb', 'GetRecord'],
    ['metadataPrefix', metadataPrefix],
    ['identifier', identifier],
  ]);
}

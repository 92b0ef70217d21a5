/**
 * The Highwire Press `citation_*` meta tags of a record page: the tags
 * Google Scholar reads first (Google Scholar Inclusion Guidelines for
 * Webmasters, "Indexing guidelines": Highwire Press tags, `citation_title`,
 * one `citation_author` per author in the order of the work, the publication
 * date as `YYYY/MM/DD` or the year alone, `citation_pdf_url` for the full
 * text), and Zotero and Mendeley read too. Every tag is read from the record
 * model's facts (lib/model/facts.ts), never from a format's XML; a tag whose
 * fact the model does not know is left out rather than guessed.
 */
import { creators, keywords, languages, openPdf, publicationDate, publisher, recordIdentifiers, titles } from '../model/facts';
import { schemaOrgTypes } from '../model/type-facts';
import { hostOf, type HostKind } from '../model/citation-facts';
import { parseW3cdtf } from '../model/dates';
import type { RecordFields } from '../model/record';
import { esc } from './escape';

/**
 * The tag of the container's title by its kind: Google Scholar's
 * `citation_journal_title` (journal papers) and `citation_conference_title`
 * (conference papers: the conference or proceedings title); a book chapter's
 * book has no Google Scholar tag, and `citation_inbook_title` is the one
 * Zotero's Embedded Metadata translator reads as the book's title.
 */
const HOST_TITLE_TAG: Readonly<Record<HostKind, string>> = {
  journal: 'citation_journal_title',
  proceedings: 'citation_conference_title',
  book: 'citation_inbook_title',
};

/** One meta tag: its name and its content, unescaped. */
export type MetaTag = readonly [name: string, content: string];

/**
 * A W3CDTF date as Google Scholar wants it: `2010/05/12` for a full date,
 * else the year alone (the guidelines name no form for a month).
 * Example: `scholarDate('2010-05-12')` → `'2010/05/12'`; `scholarDate('2010-05')` → `'2010'`.
 */
export function scholarDate(date: string): string | undefined {
  const d = parseW3cdtf(date);
  if (!d) return undefined;
  return d.date.length === 10 ? d.date.replace(/-/g, '/') : d.year;
}

/**
 * The `citation_*` tags of a record, in the order Highwire Press writes
 * them; `landingPage` is the record page's absolute URL
 * (`citation_abstract_html_url`).
 *
 * @example citationMeta({ dc: { title: ['T'], creator: ['Curie, Marie'] } }, 'https://r.org/oai?…')
 * // [['citation_title', 'T'], ['citation_author', 'Curie, Marie'], ['citation_abstract_html_url', 'https://r.org/oai?…']]
 */
export function citationMeta(r: RecordFields, landingPage: string): MetaTag[] {
  const tags: Array<[string, string]> = [];
  const add = (name: string, value: string | undefined): void => {
    const v = value?.trim();
    if (v !== undefined && v !== '') tags.push([name, v]);
  };
  add('citation_title', titles(r)[0]);
  // Each author in the work's order, followed by what Highwire Press ties to the author before it.
  for (const a of creators(r)) {
    add('citation_author', a.name);
    for (const f of a.affiliations ?? []) add('citation_author_institution', f.name);
    if (a.orcid !== undefined) add('citation_author_orcid', `https://orcid.org/${a.orcid}`);
  }
  const date = publicationDate(r);
  if ('date' in date) add('citation_publication_date', scholarDate(date.date.text));
  if (r.dates?.available !== undefined) add('citation_online_date', scholarDate(r.dates.available));
  add('citation_doi', recordIdentifiers(r).find((i) => i.type === 'DOI')?.value);
  const by = publisher(r);
  add('citation_publisher', by);
  // Google Scholar asks theses and reports for the institution that issued them (Inclusion Guidelines).
  const types = schemaOrgTypes(r);
  if (types.includes('https://schema.org/Thesis')) add('citation_dissertation_institution', by);
  if (types.includes('https://schema.org/Report')) add('citation_technical_report_institution', by);
  // Where it was published (Inclusion Guidelines: journal or conference title, ISSN, ISBN, volume, issue, first and last page).
  const host = hostOf(r);
  if (host !== undefined) add(HOST_TITLE_TAG[host.kind], host.title);
  for (const issn of host?.issns ?? []) add('citation_issn', issn);
  const isbns = [
    ...recordIdentifiers(r)
      .filter((i) => i.type === 'ISBN')
      .map((i) => i.value),
    ...(host?.isbns ?? []),
  ];
  for (const isbn of new Set(isbns)) add('citation_isbn', isbn);
  add('citation_volume', host?.volume);
  add('citation_issue', host?.issue);
  add('citation_firstpage', host?.startPage);
  add('citation_lastpage', host?.endPage);
  for (const l of languages(r)) add('citation_language', l);
  for (const k of keywords(r)) add('citation_keywords', k);
  add('citation_pdf_url', openPdf(r));
  add('citation_abstract_html_url', landingPage);
  return tags;
}

/** The tags as HTML `<meta>` elements, one a line. Example: `metaHtml([['citation_title', 'a<b']])` → `'<meta name="citation_title" content="a&lt;b">'`. */
export function metaHtml(tags: readonly MetaTag[]): string {
  return tags.map(([name, content]) => `<meta name="${esc(name)}" content="${esc(content)}">`).join('\n');
}

/**
 * The HTML side of the endpoint: gathers what a page shows beyond the OAI
 * answer (the home page's counts and sets, every format of a record), calls
 * the pure renderer in lib/html, and sends the page with its security
 * headers. Also the two helper routes every page links to: the raw XML of
 * the same request, and the request form's target.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import type { Request, Response } from 'express';
import { renderPage, requestFromForm, PAGE_CSS } from '../../lib/html';
import type { HomeView, PagePaths, SourceFailureView } from '../../lib/html';
import { decodeForm } from '../../lib/oai';
import type { OaiResponse, ProviderContext } from '../../lib/oai';
import type { RecordFieldsStore, RunReports } from '../../lib/store';
import { linkHeader } from '../../lib/signposting';
import { oaiUrl } from '../../lib/oai-url';
import { chooseCoding, encodeBody } from './encoding';
import { itemLinks, loadItem, resolverPath } from './item';

/**
 * Content-Security-Policy of every page: nothing may load but the one
 * inline stylesheet, allowed by its hash; forms go only to this server; no
 * framing, no `<base>`. Pages run no script: a record page's JSON-LD is a
 * data block (HTML 4.12.1.2), which is never run, so it needs no `script-src`.
 */
export const PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${crypto.createHash('sha256').update(PAGE_CSS).digest('base64')}'`,
  "img-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Sets shown on the home page before "All sets". */
const HOME_SETS = 50;

/**
 * The paths of the endpoint's companions: `{endpoint}/xml` (the raw XML of a request) and `{endpoint}/form`.
 * Example: `pagePaths('/oai')` → `{ xml: '/oai/xml', form: '/oai/form' }`.
 */
export function pagePaths(oaiPath: string): { xml: string; form: string } {
  return { xml: path.posix.join(oaiPath, 'xml'), form: path.posix.join(oaiPath, 'form') };
}

/** The query of a request URL, undecoded ('' when none). */
function rawQuery(req: Request): string {
  const q = req.originalUrl.indexOf('?');
  return q < 0 ? '' : req.originalUrl.slice(q + 1);
}

/** The options {@link sendPage} needs from the app. */
export interface PageOptions {
  readonly ctx: ProviderContext;
  readonly oaiPath: string;
  readonly compressionLevel: number;
  /** The clock, in seconds (the home page counts items up to now, as a harvest would). */
  readonly now: number;
  /** Where items' record models are stored, for the record page's facts (server/http/item.ts). */
  readonly fields?: RecordFieldsStore;
  /** The runs the store reports, for the page of a harvested source's set (its last failure). */
  readonly runs?: Pick<RunReports, 'lastFailure' | 'latestRuns'>;
}

/**
 * The source whose set (`source:NAME`, or one of its sets `source:NAME:SPEC`) a list request names, or undefined.
 * Example: `harvestedSourceOf('source:arxiv:physics')` → `'arxiv'`.
 */
export function harvestedSourceOf(set: string | undefined): string | undefined {
  const m = set === undefined ? null : /^source:([^:]+)/.exec(set);
  return m?.[1];
}

/** The last failed harvest of a source, and whether a later one completed; undefined when none is kept. */
async function sourceFailureOf(runs: NonNullable<PageOptions['runs']>, source: string): Promise<SourceFailureView | undefined> {
  const [failure, latest] = await Promise.all([runs.lastFailure('harvest', source), runs.latestRuns('harvest', source, 1)]);
  if (!failure) return undefined;
  return { source, run: failure, completedSince: latest[0] !== undefined && latest[0].id !== failure.id };
}

/**
 * Renders an OAI answer as a page and sends it (410 for a deleted record's page). Extra reads happen here,
 * never in the renderer: the home page counts items per format and reads
 * the first sets; the record page reads the item's other formats.
 * Example: `await sendPage(req, res, await handleRequest(ctx, pairs, now), { ctx, oaiPath: '/oai', compressionLevel: 4, now })`.
 */
export async function sendPage(req: Request, res: Response, response: OaiResponse, o: PageOptions): Promise<void> {
  const { ctx } = o;
  const companions = pagePaths(o.oaiPath);
  const query = rawQuery(req);
  // The bare base URL's page is Identify's (server/app.ts), and so is its XML.
  const paths: PagePaths = { endpoint: o.oaiPath, rawXml: `${companions.xml}?${query === '' ? 'verb=Identify' : query}`, form: companions.form };
  const body = response.body;
  let home: HomeView | undefined;
  let link: string | undefined;
  let item: Awaited<ReturnType<typeof loadItem>> = null;
  let sourceFailure: SourceFailureView | undefined;
  const harvested =
    body.kind === 'ListRecords' || body.kind === 'ListIdentifiers' || body.kind === 'errors' ? harvestedSourceOf(response.requestArgs?.set) : undefined;
  if (harvested !== undefined && o.runs) sourceFailure = await sourceFailureOf(o.runs, harvested);
  if (body.kind === 'Identify') {
    const formats = ctx.formats.all();
    const counts = await Promise.all(
      formats.map(async (f) => ({ prefix: f.prefix, items: await ctx.store.count({ metadataPrefix: f.prefix, until: o.now }) })),
    );
    const [sets, setCount] = await Promise.all([ctx.store.listSets(null, HOME_SETS), ctx.store.countSets()]);
    home = { counts, sets, setCount };
  } else if (body.kind === 'GetRecord') {
    const prefix = response.requestArgs?.metadataPrefix ?? 'oai_dc';
    item = await loadItem(ctx, body.record.identifier, { known: { prefix, record: body.record }, ...(o.fields && { fields: o.fields }) });
    if (item) link = linkHeader(itemLinks(ctx, item));
  }
  const html = renderPage({
    response,
    repositoryName: ctx.repository.name,
    paths,
    formats: ctx.formats.all(),
    ...(home && { home }),
    ...(item && { item: { ...item, ...(item.poi !== null && { resolver: resolverPath(item.poi) }) } }),
    ...(sourceFailure && { sourceFailure }),
  });
  const coding = chooseCoding(req.headers['accept-encoding'], ctx.repository.compression as ('gzip' | 'deflate')[]);
  const encoded = await encodeBody(Buffer.from(html, 'utf8'), coding, o.compressionLevel);
  // The page of a deleted record says so and keeps its identifier, with 410 Gone, so search engines drop
  // it (RFC 9110 section 15.5.11); the XML answer stays 200, as OAI-PMH 3.1.2.2 wants for harvesters.
  const gone = body.kind === 'GetRecord' && body.record.deleted;
  res.status(gone ? 410 : 200).set({
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': PAGE_CSP,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    Vary: 'Accept, Accept-Encoding',
  });
  if (link !== undefined) res.set('Link', link);
  if (coding !== 'identity') res.set('Content-Encoding', coding);
  res.set('Content-Length', String(encoded.length)).end(encoded);
}

/**
 * `GET {endpoint}/form`: the request form's fields → a 303 to the request
 * they mean (lib/html/form.ts), so the address bar shows a clean OAI-PMH URL.
 * Example: `app.get('/oai/form', formRedirect('/oai'))`; `?verb=Identify&set=` → 303 to `/oai?verb=Identify`.
 */
export function formRedirect(oaiPath: string) {
  return (req: Request, res: Response): void => {
    const decoded = decodeForm(rawQuery(req));
    const args = decoded.ok ? requestFromForm(decoded.pairs) : [['verb', 'Identify'] as [string, string]];
    res.redirect(303, oaiUrl(oaiPath, args));
  };
}

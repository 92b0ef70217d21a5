/**
 * Server-rendered pages of OAI-PMH answers, for people in browsers. Each
 * page is rendered from the same response value the XML writer renders
 * (lib/oai/render.ts), plus a few facts the server gathers beforehand (the
 * home page's counts, every format of a record): rendering runs no query.
 */
import { formatDatestamp } from '../oai';
import type { OaiResponse, ResumptionInfo } from '../oai';
import { rootNamespaceOf, type MetadataFormat } from '../formats/format';
import type { ItemHeader, ItemRecord, SetInfo } from '../store';
import { getRecordUrl, oaiUrl } from '../oai-url';
import type { UrlArgs } from '../oai-url';
import { parseFragment, textOf } from '../xml/tree';
import type { XmlElement } from '../xml/tree';
import { isHttpUrl } from '../model/identifiers';
import { harvestedFrom } from '../pipeline/about';
import { citationMeta, metaHtml } from './citation-meta';
import { jsonLdScript, recordJsonLd } from './json-ld';
import { esc, langAttr } from './escape';
import { ERROR_EXPLANATIONS } from './errors';
import { shell } from './layout';
import { dublinCore, readableMetadata, recordTitle, shownValues, valueHtml } from './metadata';
import { HomeView, ItemFormatView, PageInput, SourceFailureView } from './views';

/** Refused records the page of a source's set lists from its last failed run (the rest are counted). */
const FAILURE_REFUSALS_SHOWN = 10;

/**
 * Renders an OAI-PMH answer as a whole HTML page. Example:
 * `renderPage({ response, repositoryName: 'Demo', paths, formats })` starts `<!DOCTYPE html>`.
 */
export function renderPage(input: PageInput): string {
  const { response } = input;
  const body = response.body;
  const page = new Page(input);
  const { title, main: answer, head } = pageOf(page, body);
  const main = input.sourceFailure ? afterHeading(answer, page.sourceFailure(input.sourceFailure)) : answer;
  const args = response.requestArgs ?? {};
  return shell({
    title,
    ...(head !== undefined && { head }),
    repositoryName: input.repositoryName,
    paths: input.paths,
    formats: input.formats,
    ...(response.requestArgs && { verb: response.requestArgs.verb }),
    args,
    main,
  });
}

/** The title and the main part of the page of one kind of answer. */
function pageOf(page: Page, body: PageInput['response']['body']): { title: string; main: string; head?: string } {
  switch (body.kind) {
    case 'errors':
      // An error page answers 200 (the protocol's errors are not HTTP's); it is not a page to index (an expired token, an unknown id).
      return { title: `Error: ${body.errors.map((e) => e.code).join(', ')}`, main: page.errors(body.errors), head: '<meta name="robots" content="noindex">' };
    case 'Identify':
      return { title: 'Home', main: page.identify(body.identify) };
    case 'ListSets':
      return { title: 'Sets', main: page.sets(body.sets, body.resumption) };
    case 'ListMetadataFormats':
      return { title: 'Formats', main: page.formats(body.formats) };
    case 'ListIdentifiers':
      return {
        title: 'Identifiers',
        main: page.list(
          body.kind,
          body.headers.map((h) => ({ header: h, tree: null })),
          body.resumption,
        ),
      };
    case 'ListRecords': {
      const items = body.records.map((r) => ({ header: r, tree: r.metadata === null ? null : parseFragment(r.metadata) }));
      return { title: 'Records', main: page.list(body.kind, items, body.resumption) };
    }
    case 'GetRecord': {
      const r = page.record(body.record);
      return { title: r.title, main: r.html, head: page.recordHead(body.record) };
    }
  }
}

/** `html` put after the page's first heading (or first when it has none). */
function afterHeading(main: string, html: string): string {
  const end = main.indexOf('</h1>');
  return end < 0 ? `${html}\n${main}` : `${main.slice(0, end + 5)}\n${html}${main.slice(end + 5)}`;
}

function time(seconds: number): string {
  const s = formatDatestamp(seconds);
  return `<time datetime="${s}">${s}</time>`;
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}

/** The page builder of one request: knows the paths and formats every link needs. */
class Page {
  constructor(private readonly input: PageInput) {}

  private url(args: UrlArgs): string {
    return esc(oaiUrl(this.input.paths.endpoint, args));
  }

  private recordLink(identifier: string, prefix: string): string {
    return esc(getRecordUrl(this.input.paths.endpoint, identifier, prefix));
  }

  /** The raw XML of another request, beside the page's own. */
  private xmlLink(args: UrlArgs): string {
    const raw = this.input.paths.rawXml;
    const q = raw.indexOf('?');
    return esc(oaiUrl(q < 0 ? raw : raw.slice(0, q), args));
  }

  private formatOf(tree: XmlElement | null): string {
    const f = tree && this.input.formats.find((x) => rootNamespaceOf(x) === tree.ns);
    return f ? f.prefix : 'oai_dc';
  }

  /** The last failed harvest of the source whose set this page lists: when, how it ended, why, and its first refused records. */
  sourceFailure(f: SourceFailureView): string {
    const r = f.run;
    const refused = r.refusals
      .slice(0, FAILURE_REFUSALS_SHOWN)
      .map(
        (x) =>
          `<li>${x.page !== null ? `page ${x.page}, ` : ''}${x.identifier !== '' ? `<code dir="auto">${esc(x.identifier)}</code>, ` : ''}field <code>${esc(x.field)}</code>: <span dir="auto">${esc(x.reason)}</span></li>`,
      );
    const more = r.refusals.length - refused.length + r.refusalsOmitted;
    return (
      `<section class="box error"><h2>The last harvest of <code dir="auto">${esc(f.source)}</code> that did not complete</h2>` +
      `<p>It ran from ${time(r.started)} to ${time(r.ended)} and was ${esc(r.outcome)}${r.error !== null ? `: <span dir="auto">${esc(r.error)}</span>` : '.'}</p>` +
      `<p class="meta">${plural(r.counts.records, 'record', 'records')} read, ${plural(r.counts.refused, 'record', 'records')} refused.${f.completedSince ? ' A later harvest completed.' : ''}</p>` +
      (refused.length > 0 ? `<ul>${refused.join('')}</ul>` : '') +
      (more > 0 ? `<p class="meta">… and ${plural(more, 'more refused record', 'more refused records')}.</p>` : '') +
      '</section>'
    );
  }

  errors(errors: readonly { code: keyof typeof ERROR_EXPLANATIONS; message: string }[]): string {
    const boxes = errors.map((e) => {
      const x = ERROR_EXPLANATIONS[e.code];
      return (
        `<section class="box error"><h2>${esc(x.title)}</h2><p>${esc(x.text)}</p>` +
        `<p class="meta">The repository said: <span dir="auto">${esc(e.message)}</span> (error code <code>${esc(e.code)}</code>, OAI-PMH 3.6)</p></section>`
      );
    });
    return `<h1>The repository could not answer this request</h1>\n${boxes.join('\n')}`;
  }

  identify(i: Extract<OaiResponse['body'], { kind: 'Identify' }>['identify']): string {
    const home = this.input.home;
    const out: string[] = [`<h1 dir="auto">${esc(i.repositoryName)}</h1>`];
    out.push(
      '<p>An open repository for harvesting with <a href="https://www.openarchives.org/OAI/openarchivesprotocol.html">OAI-PMH 2.0</a>. ' +
        'People can browse its records here; harvesters ask the same address for XML.</p>',
    );
    const admins = i.adminEmails
      .map((a) => (/^[^\s@<>"]+@[^\s@<>"]+$/.test(a) ? `<span><a href="mailto:${esc(a)}">${esc(a)}</a></span>` : `<span>${esc(a)}</span>`))
      .join('');
    const facts: Array<[string, string]> = [
      ['Base URL', `<code>${esc(i.baseURL)}</code>`],
      ['Contact', admins],
      ['Earliest datestamp', time(i.earliestDatestamp)],
      ['Deleted records', `${esc(i.deletedRecord)} (deleted items stay listed as deleted, so harvesters can remove them)`],
      ['Granularity', 'seconds (<code>YYYY-MM-DDThh:mm:ssZ</code>), days accepted'],
      ['Compression', i.compression.length > 0 ? esc(i.compression.join(', ')) : 'none'],
    ];
    if (home) {
      const items = Math.max(0, ...home.counts.map((c) => c.items));
      facts.push(['Items', plural(items, 'item', 'items')], ['Sets', plural(home.setCount, 'set', 'sets')]);
    }
    out.push(`<dl class="facts">${facts.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`);

    out.push('<h2>Formats</h2>', this.formatTable(this.input.formats, undefined, home?.counts));
    if (home && home.sets.length > 0) {
      out.push('<h2>Sets</h2>', this.setTree(home.sets));
      if (home.setCount > home.sets.length) out.push(`<p><a href="${this.url([['verb', 'ListSets']])}">All ${plural(home.setCount, 'set', 'sets')}</a></p>`);
    }
    const base = i.baseURL;
    const since = formatDatestamp(i.earliestDatestamp).slice(0, 10);
    out.push(
      '<h2>How to harvest</h2>',
      '<ol>' +
        `<li>Everything in Dublin Core: <code>${esc(
          oaiUrl(base, [
            ['verb', 'ListRecords'],
            ['metadataPrefix', 'oai_dc'],
          ]),
        )}</code></li>` +
        `<li>Follow each page's <code>resumptionToken</code>: <code>${esc(base)}?verb=ListRecords&amp;resumptionToken=…</code> until it is empty.</li>` +
        `<li>Later, only what changed: add <code>from=</code> with the <code>responseDate</code> of your last harvest, e.g. <code>${esc(
          oaiUrl(base, [
            ['verb', 'ListRecords'],
            ['metadataPrefix', 'oai_dc'],
            ['from', since],
          ]),
        )}</code></li>` +
        '<li>One set: add <code>set=</code> with its setSpec. Deleted records come as headers with <code>status="deleted"</code>.</li>' +
        '</ol>',
    );
    for (const d of i.descriptions) {
      const tree = parseFragment(d);
      const sample = tree?.local === 'oai-identifier' ? tree.children.find((c) => c.kind === 'element' && c.local === 'sampleIdentifier') : undefined;
      if (sample) {
        const id = textOf(sample);
        out.push(`<p>Identifiers look like <a href="${this.recordLink(id, 'oai_dc')}"><code dir="auto">${esc(id)}</code></a> (OAI identifier format).</p>`);
      } else if (tree) {
        // Any other description container (branding, friends, eprints, rights…): its outline.
        out.push(`<h2>About this repository: <code>${esc(tree.local)}</code></h2>`, readableMetadata(tree));
      }
    }
    return out.join('\n');
  }

  private formatTable(formats: readonly MetadataFormat[], identifier: string | undefined, counts?: HomeView['counts']): string {
    const head = `<tr><th scope="col">Format</th><th scope="col">Namespace and schema</th>${counts ? '<th scope="col">Items</th>' : ''}<th scope="col">View</th></tr>`;
    const rows = formats.map((f) => {
      const count = counts ? `<td>${(counts.find((c) => c.prefix === f.prefix)?.items ?? 0).toLocaleString('en')}</td>` : '';
      const view =
        identifier === undefined
          ? `<a href="${this.url([
              ['verb', 'ListRecords'],
              ['metadataPrefix', f.prefix],
            ])}">records</a> · <a href="${this.url([
              ['verb', 'ListIdentifiers'],
              ['metadataPrefix', f.prefix],
            ])}">identifiers</a>`
          : `<a href="${this.recordLink(identifier, f.prefix)}">page</a> · <a href="${this.xmlLink([
              ['verb', 'GetRecord'],
              ['metadataPrefix', f.prefix],
              ['identifier', identifier],
            ])}">XML</a>`;
      return `<tr><td><code>${esc(f.prefix)}</code></td><td><code>${esc(f.namespace)}</code><br>${valueHtml(f.schema)}</td>${count}<td>${view}</td></tr>`;
    });
    return `<table class="formats"><thead>${head}</thead><tbody>${rows.join('')}</tbody></table>`;
  }

  formats(formats: readonly MetadataFormat[]): string {
    const id = this.input.response.requestArgs?.identifier;
    const h1 = id === undefined ? '<h1>Metadata formats</h1>' : `<h1>Metadata formats of <code dir="auto">${esc(id)}</code></h1>`;
    return `${h1}\n${this.formatTable(formats, id)}`;
  }

  /** Sets as a tree: `a:b` under `a` (OAI-PMH 2.7.2); a parent not on this page still gets its place. */
  private setTree(sets: readonly SetInfo[]): string {
    interface Node {
      spec: string;
      set?: SetInfo;
      children: Map<string, Node>;
    }
    const root: Node = { spec: '', children: new Map() };
    for (const s of sets) {
      let node = root;
      const parts = s.spec.split(':');
      parts.forEach((_p, i) => {
        const spec = parts.slice(0, i + 1).join(':');
        let next = node.children.get(spec);
        if (!next) node.children.set(spec, (next = { spec, children: new Map() }));
        node = next;
      });
      node.set = s;
    }
    const li = (n: Node): string => {
      const name = n.set ? `<span dir="auto">${esc(n.set.name)}</span> ` : '';
      const descs = (n.set?.descriptions ?? [])
        .map((d) => parseFragment(d))
        .filter((t): t is XmlElement => t !== null)
        .map(textOf)
        .filter((t) => t !== '');
      const desc = descs.map((d) => `<br><span class="meta" dir="auto">${esc(d)}</span>`).join('');
      const links =
        ` <span class="meta">(<a href="${this.url([
          ['verb', 'ListRecords'],
          ['metadataPrefix', 'oai_dc'],
          ['set', n.spec],
        ])}">records</a>` +
        ` · <a href="${this.url([
          ['verb', 'ListIdentifiers'],
          ['metadataPrefix', 'oai_dc'],
          ['set', n.spec],
        ])}">identifiers</a>)</span>`;
      const kids = n.children.size > 0 ? `<ul>${[...n.children.values()].map(li).join('')}</ul>` : '';
      return `<li>${name}<code>${esc(n.spec)}</code>${links}${desc}${kids}</li>`;
    };
    return `<ul class="tree">${[...root.children.values()].map(li).join('')}</ul>`;
  }

  sets(sets: readonly SetInfo[], resumption: ResumptionInfo | undefined): string {
    return `<h1>Sets</h1>\n${this.counter(sets.length, resumption, 'Sets')}\n${this.setTree(sets)}\n${this.pager('ListSets', resumption)}`;
  }

  /** "Records 101–200 of 285" (OAI-PMH 3.5: cursor counts what came before this page). */
  private counter(count: number, r: ResumptionInfo | undefined, noun: string): string {
    const first = (r?.cursor ?? 0) + 1;
    const total = r ? r.completeListSize : count;
    const range =
      count === 0 ? `${noun}: none` : `${noun} ${first.toLocaleString('en')}–${(first + count - 1).toLocaleString('en')} of ${total.toLocaleString('en')}`;
    return `<p class="meta count">${range}</p>`;
  }

  private pager(verb: string, r: ResumptionInfo | undefined): string {
    if (!r || r.token === '') return r ? '<p class="pager meta">This is the last page.</p>' : '';
    const expires = r.expirationDate !== undefined ? ` <span class="meta">(the link works until ${time(r.expirationDate)})</span>` : '';
    return `<p class="pager"><a class="next" rel="next" href="${this.url([
      ['verb', verb],
      ['resumptionToken', r.token],
    ])}">Next page</a>${expires}</p>`;
  }

  private describeRequest(): string {
    const a = this.input.response.requestArgs;
    if (!a) return '';
    const parts: string[] = [];
    if (a.metadataPrefix !== undefined) parts.push(`format <code>${esc(a.metadataPrefix)}</code>`);
    if (a.set !== undefined) parts.push(`set <code>${esc(a.set)}</code>`);
    if (a.from !== undefined) parts.push(`from ${esc(a.from)}`);
    if (a.until !== undefined) parts.push(`until ${esc(a.until)}`);
    if (a.resumptionToken !== undefined) parts.push('continued');
    return parts.length > 0 ? `<p class="meta">${parts.join(', ')}</p>` : '';
  }

  list(verb: 'ListRecords' | 'ListIdentifiers', items: readonly { header: ItemHeader; tree: XmlElement | null }[], r: ResumptionInfo | undefined): string {
    const lis = items.map(({ header: h, tree }) => {
      const prefix = this.input.response.requestArgs?.metadataPrefix ?? this.formatOf(tree);
      const title = recordTitle(tree);
      const heading = title.text !== '' ? `<span dir="auto"${langAttr(title.lang)}>${esc(title.text)}</span>` : `<code dir="auto">${esc(h.identifier)}</code>`;
      const dc = dublinCore(tree);
      const creators = dc.get('creator') ?? [];
      const who =
        creators.length === 0
          ? ''
          : `<p dir="auto">${creators
              .slice(0, 3)
              .map((c) => esc(c.value))
              .join('; ')}${creators.length > 3 ? ' et al.' : ''}</p>`;
      const deleted = h.deleted ? ' <span class="badge">deleted</span>' : '';
      return (
        `<li><article class="box item${h.deleted ? ' deleted' : ''}"><h2><a class="identifier" href="${this.recordLink(h.identifier, prefix)}">${heading}</a>${deleted}</h2>` +
        who +
        `<p class="meta"><code dir="auto">${esc(h.identifier)}</code> · ${time(h.datestamp)}${this.setLinks(h.sets)}</p></article></li>`
      );
    });
    const start = (r?.cursor ?? 0) + 1;
    return [
      `<h1>${verb === 'ListRecords' ? 'Records' : 'Identifiers'}</h1>`,
      this.describeRequest(),
      this.counter(items.length, r, 'Records'),
      `<ol class="items" start="${start}">${lis.join('\n')}</ol>`,
      this.pager(verb, r),
    ].join('\n');
  }

  private setLinks(sets: readonly string[]): string {
    if (sets.length === 0) return '';
    return ` · sets: ${shownValues(
      sets,
      (s) =>
        `<a href="${this.url([
          ['verb', 'ListRecords'],
          ['metadataPrefix', 'oai_dc'],
          ['set', s],
        ])}"><code>${esc(s)}</code></a>`,
      (more) => more,
      ', ',
    )}`;
  }

  /**
   * What a live record's page says about the record to machines, all read
   * from its model: the canonical page (the record in oai_dc, the one the
   * sitemap lists), Google Scholar's citation_* tags and schema.org JSON-LD.
   * A deleted record's page (410) says nothing of the kind.
   */
  recordHead(record: ItemRecord): string {
    if (record.deleted) return '';
    const item = this.input.item;
    const landingPage = getRecordUrl(this.input.response.baseURL, record.identifier, 'oai_dc');
    const canonical = `<link rel="canonical" href="${esc(landingPage)}">`;
    if (!item) return canonical;
    const place = { landingPage, ...(item.facts.citation && { citation: item.facts.citation }), ...(item.poi !== null && { poi: item.poi }) };
    return [canonical, metaHtml(citationMeta(item.model, landingPage)), jsonLdScript(recordJsonLd(item.model, place))].join('\n');
  }

  record(record: ItemRecord): { title: string; html: string } {
    const prefix = this.input.response.requestArgs?.metadataPrefix ?? 'oai_dc';
    const item = this.input.item;
    const own = record.metadata === null ? null : parseFragment(record.metadata);
    const views: ItemFormatView[] = item?.formats.length
      ? [...item.formats]
      : [{ format: this.input.formats.find((f) => f.prefix === prefix) ?? { prefix, schema: '', namespace: '' }, record, tree: own }];
    const title = recordTitle(views.find((v) => v.format.prefix === 'oai_dc')?.tree ?? own);
    const out: string[] = [];
    out.push(
      title.text !== '' ? `<h1 dir="auto"${langAttr(title.lang)}>${esc(title.text)}</h1>` : `<h1><code dir="auto">${esc(record.identifier)}</code></h1>`,
    );
    if (record.deleted) {
      out.push(
        `<p class="box deleted"><span class="badge">deleted</span> This item was withdrawn on ${time(record.datestamp)}. Its identifiers stay reserved for it and are never reused.</p>`,
      );
    }
    const facts = item?.facts;
    const ids: Array<[string, string]> = [['OAI identifier', `<code dir="auto">${esc(record.identifier)}</code>`]];
    if (item?.poi) {
      const here = item.resolver === undefined ? '' : ` <span class="meta">(<a class="poi-resolver" href="${esc(item.resolver)}">resolve here</a>)</span>`;
      ids.push(['POI', `<a class="poi" href="${esc(item.poi)}">${esc(item.poi)}</a>${here}`]);
    }
    // The identifier to cite (FAIR Signposting's cite-as, chosen from the record model), named by its scheme.
    const cite = facts?.citation;
    if (cite) {
      const target = isHttpUrl(cite.uri)
        ? `<a class="cite-as" href="${esc(cite.uri)}">${esc(cite.uri)}</a>`
        : `<span class="cite-as" dir="auto">${esc(cite.uri)}</span>`;
      ids.push(['Cite as', `${target} <span class="meta">(${esc(cite.scheme)})</span>`]);
    }
    const others = facts?.identifiers ?? [];
    if (others.length > 0)
      ids.push([
        'Other identifiers',
        shownValues(
          others,
          (v) => `<span dir="auto">${valueHtml(v)}</span>`,
          (more) => `<span class="more">${more}</span>`,
        ),
      ]);
    // A harvested record: its identifier at the repository it came from (the provenance container).
    const origin = harvestedFrom(record.about ?? []);
    if (origin)
      ids.push([
        'Harvested from',
        `<code class="harvested-id" dir="auto">${esc(origin.identifier)}</code> <span class="meta">at ${valueHtml(origin.baseURL)}</span>`,
      ]);
    ids.push(['Datestamp', time(record.datestamp)]);
    if (record.sets.length > 0)
      ids.push([
        'Sets',
        shownValues(
          record.sets,
          (s) =>
            `<span><a href="${this.url([
              ['verb', 'ListRecords'],
              ['metadataPrefix', 'oai_dc'],
              ['set', s],
            ])}"><code>${esc(s)}</code></a></span>`,
          (more) => `<span class="more">${more}</span>`,
        ),
      ]);
    if (facts && facts.licenses.length > 0)
      ids.push([
        'Licence',
        shownValues(
          facts.licenses,
          (l) => `<span>${valueHtml(l)}</span>`,
          (more) => `<span class="more">${more}</span>`,
        ),
      ]);
    out.push(`<h2>Identifiers</h2><dl class="facts ids">${ids.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('')}</dl>`);
    if (facts && facts.files.length > 0) {
      out.push(
        `<h2>Files</h2><ul class="files">${shownValues(
          facts.files,
          (f) => `<li>${valueHtml(f.href)}${f.type ? ` <span class="meta">(${esc(f.type)})</span>` : ''}</li>`,
          (more) => `<li class="meta">${more}</li>`,
        )}</ul>`,
      );
    }
    for (const v of views) {
      const xml = this.xmlLink([
        ['verb', 'GetRecord'],
        ['metadataPrefix', v.format.prefix],
        ['identifier', record.identifier],
      ]);
      out.push(
        `<section class="box format" id="format-${esc(v.format.prefix)}"><h2>Metadata: <code>${esc(v.format.prefix)}</code></h2>` +
          `<p class="meta"><code>${esc(v.format.namespace)}</code> · <a class="as-xml" href="${xml}">as XML</a>` +
          (v.format.prefix === prefix ? '' : ` · <a href="${this.recordLink(record.identifier, v.format.prefix)}">this page in ${esc(v.format.prefix)}</a>`) +
          '</p>' +
          (v.record.deleted || v.record.metadata === null ? '<p class="meta">A deleted item has no metadata (OAI-PMH 2.5.1).</p>' : readableMetadata(v.tree)) +
          '</section>',
      );
    }
    return { title: title.text !== '' ? title.text : record.identifier, html: out.join('\n') };
  }
}

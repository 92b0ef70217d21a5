/**
 * The page for people (issue 4), in a real browser: Debian's Chromium,
 * driven by playwright-core, opens the base URL, applies lib/xml/oai2.xsl
 * through the `xml-stylesheet` processing instruction and renders HTML. A
 * person starts at Identify, follows links to the records, to the next page
 * and to one record, and sees error codes. Screenshots go to
 * test-artifacts/browser/ for a human to look at.
 *
 * What the pages must show is computed from seeds/demo (test/helpers/demo-records.ts),
 * not from the server's own output. Every response the browser rendered is
 * also fetched as XML and checked against the XSDs with the processing
 * instruction in place.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestServer } from '../helpers/server';
import type { TestServer } from '../helpers/server';
import { assertValid } from '../helpers/xsd';
import { demoByIdentifier, demoRecords, normalizeSpace } from '../helpers/demo-records';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(__dirname, '..', '..', 'test-artifacts', 'browser');
const PI = '<?xml-stylesheet type="text/xsl" href="/oai2.xsl"?>';

/** What a rendered record box shows. */
interface RenderedRecord {
  identifier: string;
  href: string;
  deleted: boolean;
  title: string | null;
}

/** Reads the record (or header) boxes of the current page. */
function renderedRecords(page: Page): Promise<RenderedRecord[]> {
  return page.$$eval('main div.record', (boxes) =>
    boxes.map((box) => {
      const link = box.querySelector('a.identifier') as HTMLAnchorElement | null;
      const rows = Array.from(box.querySelectorAll('table.dc tr'));
      const titleRow = rows.find((tr) => tr.querySelector('th')?.textContent?.trim().startsWith('Title'));
      return {
        identifier: link?.textContent ?? '',
        href: link?.href ?? '',
        deleted: box.classList.contains('deleted'),
        title: titleRow ? (titleRow.querySelector('td')?.textContent ?? '') : null,
      };
    }),
  );
}

describe('the browser view in headless Chromium', function () {
  this.timeout(60_000);
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Every OAI-PMH URL the browser rendered, for the XSD check. */
  const visited = new Set<string>();
  const expected = demoByIdentifier();

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/system-deps.sh (apt-get install chromium)`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    context = await browser.newContext();
    page = await context.newPage();
    page.on('response', (res) => {
      if (res.url().split('?')[0] === server.baseUrl) visited.add(res.url());
    });
  });

  after(async function () {
    await context?.close();
    await browser?.close();
    await server?.stop();
  });

  /**
   * Chromium 156 puts an `xslt-warning-banner` popover ("This site uses
   * XSLT…", chromestatus 4709671889534976) in the top layer, over the page
   * header and its navigation links; a person closes it with its ×. The
   * tests take it away so clicks reach the page and screenshots show it.
   */
  async function loaded(): Promise<void> {
    // Chromium commits the XML document, then replaces it with the result of
    // the transformation: wait for the HTML, whose execution context lasts.
    for (let attempt = 1; ; attempt++) {
      try {
        await page.waitForSelector('body > main', { state: 'attached', timeout: 10_000 });
        await page.evaluate(() => document.querySelector('xslt-warning-banner')?.remove());
        return;
      } catch (err) {
        const message = (err as Error).message;
        if (/Execution context was destroyed/.test(message) && attempt < 5) continue;
        if (/Timeout/.test(message)) {
          throw new Error(`the page at ${page.url()} was not transformed into HTML: does this Chromium still apply XSLT from xml-stylesheet?\n${message}`);
        }
        throw err;
      }
    }
  }

  /** Opens a URL and waits until the page has loaded. */
  async function open(url: string): Promise<void> {
    await page.goto(url, { waitUntil: 'load' });
    await loaded();
  }

  /** Saves a screenshot: the whole page, or (for long lists, where that takes seconds) what a window shows. */
  async function shot(name: string, fullPage = true): Promise<void> {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });
  }

  /** Clicks a link and waits until the page it leads to has loaded. */
  async function follow(selector: string): Promise<void> {
    const link = page.locator(selector).first();
    const href = await link.evaluate((a) => (a as HTMLAnchorElement).href);
    await Promise.all([page.waitForURL(href, { waitUntil: 'load' }), link.click()]);
    await loaded();
  }

  it('renders Identify as an HTML page with the repository name and the sample identifier', async function () {
    await open(`${server.baseUrl}?verb=Identify`);
    await shot('01-identify');
    // When Chromium no longer runs XSLT, the page is the raw XML tree: say so plainly.
    const rootName = await page.evaluate(() => document.documentElement.nodeName);
    expect(rootName.toLowerCase(), 'the stylesheet was applied (Chromium still runs XSLT from xml-stylesheet)').to.equal('html');
    expect(await page.title()).to.equal('Identify · oai-steward demo repository');
    const rows = await page.$$eval('table.identify tr', (trs) =>
      trs.map((tr) => [tr.querySelector('th')?.textContent?.trim() ?? '', tr.querySelector('td')?.textContent?.trim() ?? '']),
    );
    const table = new Map(rows as [string, string][]);
    expect(table.get('Repository name')).to.equal('oai-steward demo repository');
    expect(table.get('Base URL')).to.equal(server.baseUrl);
    expect(table.get('Protocol version')).to.equal('2.0');
    const sample = await page.locator('table.oai-identifier a').first().textContent();
    expect(sample).to.match(/^oai:demo\.oai-steward\.org:\S+$/);
  });

  it('follows the ListRecords link from Identify and shows the first page of records with their titles', async function () {
    await follow('nav a:has-text("ListRecords")');
    await shot('02-list-records-page-1', false);
    const url = new URL(page.url());
    expect(url.searchParams.get('verb')).to.equal('ListRecords');
    expect(url.searchParams.get('metadataPrefix')).to.equal('oai_dc');
    expect(await page.locator('main p.meta').first().textContent()).to.equal('Items 1–100 of 285');
    const records = await renderedRecords(page);
    expect(records).to.have.length(100);
    for (const r of records) {
      const seed = expected.get(r.identifier);
      expect(seed, `a seeded identifier: ${r.identifier}`).to.not.equal(undefined);
      expect(r.deleted, `${r.identifier} deleted`).to.equal(seed?.deleted);
      // A deleted record has no metadata (OAI-PMH 2.5.1), so no title row.
      expect(r.title === null ? null : normalizeSpace(r.title), `${r.identifier} title`).to.equal(seed?.deleted ? null : seed?.title);
    }
  });

  it('follows the next-page link to items 101–200, none of them seen on page 1', async function () {
    const first = new Set((await renderedRecords(page)).map((r) => r.identifier));
    await follow('a.next');
    await shot('03-list-records-page-2', false);
    expect(new URL(page.url()).searchParams.get('resumptionToken')).to.be.a('string').and.not.equal('');
    expect(await page.locator('main p.meta').first().textContent()).to.equal('Items 101–200 of 285');
    const records = await renderedRecords(page);
    expect(records).to.have.length(100);
    for (const r of records) {
      expect(first.has(r.identifier), `${r.identifier} not repeated`).to.equal(false);
      expect(expected.has(r.identifier), `${r.identifier} seeded`).to.equal(true);
    }
  });

  it('follows the link of a record to GetRecord and shows its Dublin Core metadata', async function () {
    const live = (await renderedRecords(page)).find((r) => !r.deleted);
    expect(live, 'a live record on page 2').to.not.equal(undefined);
    await follow(`main div.record:not(.deleted) a.identifier`);
    await shot('04-get-record');
    const url = new URL(page.url());
    expect(url.searchParams.get('verb')).to.equal('GetRecord');
    expect(url.searchParams.get('identifier')).to.equal(live?.identifier);
    const [record] = await renderedRecords(page);
    expect(record?.identifier).to.equal(live?.identifier);
    expect(normalizeSpace(record?.title ?? '')).to.equal(expected.get(live?.identifier ?? '')?.title);
    const creators = await page.$$eval('table.dc tr', (trs) => trs.filter((tr) => tr.querySelector('th')?.textContent?.trim() === 'Creator').length);
    expect(creators, 'creator rows').to.be.greaterThan(0);
  });

  it('follows every link to a record whose identifier needs escaping to that same record', async function () {
    // The identifiers a URL can mangle: %, +, &, #, ?, spaces, non-ASCII (seeds/demo/README.md).
    const tricky = demoRecords().filter((r) => !/^(rep|thesis|data)-\d{4}-\d{4}$/.test(r.internalId));
    expect(tricky.length, 'tricky ids in the demo data').to.be.greaterThan(20);
    // Collect the links as the browser resolved them, from every page of ListIdentifiers.
    const hrefs = new Map<string, string>();
    await open(`${server.baseUrl}?verb=ListIdentifiers&metadataPrefix=oai_dc`);
    for (let pages = 1; ; pages++) {
      for (const r of await renderedRecords(page)) hrefs.set(r.identifier, r.href);
      if ((await page.locator('a.next').count()) === 0) break;
      expect(pages, 'pages of ListIdentifiers').to.be.lessThan(10);
      await follow('a.next');
    }
    expect(hrefs.size).to.equal(demoRecords().length);
    for (const seed of tricky) {
      const href = hrefs.get(seed.identifier);
      expect(href, `a link for ${seed.identifier}`).to.be.a('string');
      await open(href as string);
      const errors = await page.locator('div.error code').allTextContents();
      expect(errors, `no error for ${seed.identifier} (${href})`).to.deep.equal([]);
      const [record] = await renderedRecords(page);
      expect(record?.identifier, `the link ${href} opens ${seed.identifier}`).to.equal(seed.identifier);
      expect(record?.deleted, `${seed.identifier} deleted`).to.equal(seed.deleted);
      if (!seed.deleted) expect(normalizeSpace(record?.title ?? '')).to.equal(seed.title);
    }
    await open(hrefs.get(tricky.find((r) => !r.deleted && /[^\x00-\x7f]/.test(r.internalId))?.identifier ?? '') as string);
    await shot('05-get-record-non-ascii');
  });

  const errorCases = [
    { name: 'an unknown verb shows badVerb', query: 'verb=Nonsense', code: 'badVerb' },
    { name: 'a missing argument shows badArgument', query: 'verb=GetRecord&metadataPrefix=oai_dc', code: 'badArgument' },
    { name: 'an unknown identifier shows idDoesNotExist', query: 'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Anope', code: 'idDoesNotExist' },
    { name: 'an unknown format shows cannotDisseminateFormat', query: 'verb=ListRecords&metadataPrefix=marc99', code: 'cannotDisseminateFormat' },
  ];
  for (const c of errorCases) {
    it(`renders an error page: ${c.name}`, async function () {
      await open(`${server.baseUrl}?${c.query}`);
      await shot(`06-error-${c.code}`);
      expect(await page.title()).to.equal('OAI-PMH error');
      expect(await page.locator('main h2').first().textContent()).to.equal('Error');
      expect(await page.locator('div.error code').allTextContents()).to.include(c.code);
    });
  }

  it('renders ListSets and ListMetadataFormats from the navigation links', async function () {
    await open(`${server.baseUrl}?verb=Identify`);
    await follow('nav a:has-text("ListSets")');
    await shot('07-list-sets');
    const sets = (await page.locator('table.sets').textContent()) ?? '';
    for (const spec of ['physics:hep:theory', 'collections:rare_books.v2', 'history:medieval']) expect(sets).to.contain(spec);
    await follow('nav a:has-text("ListMetadataFormats")');
    await shot('08-list-metadata-formats');
    expect((await page.locator('table.formats').textContent()) ?? '').to.contain('oai_dc');
  });

  it('rendered only responses that are XSD-valid and carry the stylesheet processing instruction', async function () {
    expect(visited.size, 'responses seen by the browser').to.be.greaterThan(20);
    for (const url of visited) {
      const res = await fetch(url);
      expect(res.status, url).to.equal(200);
      expect(res.headers.get('content-type'), url).to.match(/^text\/xml/);
      const xml = await res.text();
      // The PI comes right after the XML declaration, before the root element.
      expect(xml.split('\n', 2)[1], `the processing instruction in ${url}`).to.equal(PI);
      assertValid(xml);
    }
  });

  it('serves the stylesheet the processing instruction points to as XSLT', async function () {
    const res = await fetch(new URL('/oai2.xsl', server.origin));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/xsl/);
    expect(await res.text()).to.contain('<xsl:stylesheet');
  });
});

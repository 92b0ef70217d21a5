/**
 * The pages for people in a real browser with XSLT switched off, as
 * Chromium ships from M155: Debian's Chromium driven by playwright-core,
 * `--disable-features=XSLT`, a fresh profile. A person starts at the home
 * page (Identify), opens the sets, a set's records, the next page, a
 * record, its POI, and goes back; every page is a real HTML page served as
 * such, with no Content-Security-Policy violation, no serious or critical
 * axe-core finding, and no horizontal scrolling on a phone. Screenshots go
 * to test-artifacts/browser/ for a human to look at.
 *
 * What the pages must show is computed from seeds/demo
 * (test/helpers/demo-records.ts), not from the server's own output. The
 * XML of every request the browser rendered is fetched from {endpoint}/xml
 * and checked against the XSDs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestServer } from '../helpers/server';
import type { TestServer } from '../helpers/server';
import { assertValid } from '../helpers/xsd';
import { demoByIdentifier, demoRecords, normalizeSpace } from '../helpers/demo-records';
import { dublinCoreToOaiDc } from '../../lib/formats/oai-dc';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts', 'browser');
const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');
const PAGE_SIZE = 40;

/** Values that would act on a page if they were not escaped (stored metadata carries only XML characters). */
const HOSTILE = `<script>alert(1)</script> "><img src=x onerror=alert(2)> ' onmouseover='alert(3) javascript:alert(4) \u007f\u0085 <svg onload=alert(5)>`;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown }>;
}

describe('the pages in headless Chromium with XSLT switched off', function () {
  this.timeout(120_000);
  let server: TestServer;
  let context: BrowserContext;
  let page: Page;
  let profile: string;
  /** Every endpoint URL the browser rendered, for the XSD check. */
  const visited = new Set<string>();
  /** Problems the browser reported: CSP violations, page errors, dialogs (none may happen). */
  const problems: string[] = [];
  const expected = demoByIdentifier();
  const axeSource = fs.readFileSync(AXE, 'utf8');

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: run scripts/system-deps.sh (apt-get install chromium)`);
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    server = await startTestServer({ OAI_PAGE_SIZE: String(PAGE_SIZE) });
    // Hostile values written through the store, as a loader would: the pages must show them as text.
    await server.running.provider.store.putSets([{ spec: 'hostile', name: HOSTILE }]);
    await server.running.provider.store.writeItems([
      {
        internalId: 'hostile-1',
        sets: ['hostile'],
        metadata: {
          oai_dc: dublinCoreToOaiDc({
            title: [HOSTILE],
            creator: [HOSTILE],
            identifier: ['javascript:alert(6)', HOSTILE],
            relation: ['javascript:alert(7)'],
            rights: [HOSTILE],
          }),
        },
      },
      { internalId: `<b onclick="alert(8)">'x'</b>`, sets: ['hostile'], metadata: { oai_dc: dublinCoreToOaiDc({ title: ['Hostile identifier'] }) } },
    ]);
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-chromium-'));
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-features=XSLT',
      ],
      viewport: { width: 1100, height: 900 },
    });
    page = context.pages()[0] ?? (await context.newPage());
    page.on('response', (res) => {
      if (res.url().split('?')[0] === server.baseUrl && res.request().method() === 'GET') visited.add(res.url());
    });
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', (d) => {
      problems.push(`dialog: ${d.message()}`);
      void d.dismiss();
    });
  });

  after(async function () {
    await context?.close();
    await server?.stop();
    if (profile) fs.rmSync(profile, { recursive: true, force: true });
  });

  /** Asserts the current page is a real HTML page (not an XML tree), served as text/html. */
  async function isHtmlPage(): Promise<void> {
    const [root, type] = await page.evaluate(() => [document.documentElement.nodeName, document.contentType]);
    expect(root, `the root element of ${page.url()}`).to.equal('HTML');
    expect(type, `the content type of ${page.url()}`).to.equal('text/html');
    expect(await page.locator('main h1').count(), 'a heading').to.equal(1);
  }

  /** Runs axe-core in the page and asserts no serious or critical violation. */
  async function accessible(name: string): Promise<void> {
    // The page's CSP forbids script; page.evaluate runs through the DevTools protocol, which CSP does not govern.
    await page.evaluate(axeSource);
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> } }).axe;
      const r = await axe.run(document, { resultTypes: ['violations'] });
      return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target })) }));
    });
    const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(bad, `axe-core on ${name}: ${JSON.stringify(bad, null, 1)}`).to.deep.equal([]);
  }

  async function open(url: string): Promise<void> {
    await page.goto(url, { waitUntil: 'load' });
    await isHtmlPage();
  }

  async function shot(name: string, fullPage = true): Promise<void> {
    await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage });
  }

  /** Clicks a link and waits for the page it leads to (after any redirect). */
  async function follow(selector: string): Promise<void> {
    const link = page.locator(selector).first();
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), link.click()]);
    await isHtmlPage();
  }

  /** The records of a list page: identifier (from the link's target) and shown title. */
  function listed(): Promise<Array<{ identifier: string; title: string; deleted: boolean }>> {
    return page.$$eval('ol.items > li', (items) =>
      items.map((li) => ({
        identifier: li.querySelector('p.meta code')?.textContent ?? '',
        title: li.querySelector('a.identifier')?.textContent ?? '',
        deleted: li.querySelector('.badge') !== null,
      })),
    );
  }

  it('shows the home page (Identify) with the name, counts, formats, sets and how to harvest', async function () {
    await open(`${server.baseUrl}?verb=Identify`);
    await shot('01-home');
    expect(await page.title()).to.equal('Home · oai-steward demo repository');
    expect(await page.locator('main h1').textContent()).to.equal('oai-steward demo repository');
    const facts = await page.$$eval('main dl.facts > dt', (dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
    const table = new Map(facts as [string, string][]);
    expect(table.get('Items')).to.equal(`${demoRecords().length + 2} items`);
    expect(table.get('Base URL')).to.equal(server.baseUrl);
    expect(await page.locator('table.formats').textContent()).to.contain('oai_dc');
    expect(await page.locator('main h2', { hasText: 'How to harvest' }).count()).to.equal(1);
    await accessible('the home page');
  });

  it('opens the sets from the navigation and shows them as a tree', async function () {
    await follow('nav a:has-text("Sets")');
    await shot('02-sets');
    expect(new URL(page.url()).searchParams.get('verb')).to.equal('ListSets');
    // physics:hep:theory sits inside physics:hep, inside physics.
    const nested = await page.$$eval('ul.tree code', (codes) =>
      codes
        .filter((c) => c.textContent === 'physics:hep:theory')
        .map((c) => {
          const parents: string[] = [];
          for (let li = c.closest('li')?.parentElement?.closest('li'); li; li = li.parentElement?.closest('li'))
            parents.push(li.querySelector(':scope > code')?.textContent ?? '');
          return parents;
        }),
    );
    expect(nested).to.deep.equal([['physics:hep', 'physics']]);
    await accessible('the sets page');
  });

  let firstPage: string[] = [];
  it("opens a set's records: the first page says which records of how many it holds", async function () {
    await follow('ul.tree li:has(> code:text-is("math")) > span.meta a:has-text("records")');
    await shot('03-set-records-page-1', false);
    const url = new URL(page.url());
    expect([url.searchParams.get('verb'), url.searchParams.get('set')]).to.deep.equal(['ListRecords', 'math']);
    const inMath = demoRecords().filter((r) => r.sets.some((s) => s === 'math' || s.startsWith('math:')));
    expect(await page.locator('main p.count').textContent()).to.equal(`Records 1–${PAGE_SIZE} of ${inMath.length}`);
    const items = await listed();
    expect(items).to.have.length(PAGE_SIZE);
    for (const r of items) {
      const seed = expected.get(r.identifier);
      expect(
        seed?.sets.some((s) => s === 'math' || s.startsWith('math:')),
        `${r.identifier} in math`,
      ).to.equal(true);
      expect(r.deleted).to.equal(seed?.deleted);
      if (!seed?.deleted) expect(normalizeSpace(r.title)).to.equal(seed?.title);
    }
    firstPage = items.map((r) => r.identifier);
    await accessible('a list page');
  });

  it('follows the next-page link, which carries the resumption token, to records none of which were on page 1', async function () {
    await follow('a.next');
    await shot('04-set-records-page-2', false);
    expect(new URL(page.url()).searchParams.get('resumptionToken')).to.be.a('string').and.not.equal('');
    expect(await page.locator('main p.count').textContent()).to.match(new RegExp(`^Records ${PAGE_SIZE + 1}–${2 * PAGE_SIZE} of \\d+$`));
    for (const r of await listed()) expect(firstPage, r.identifier).to.not.include(r.identifier);
  });

  let recordUrl = '';
  it('opens a record: its title, identifiers (oai-identifier, POI, DOI) and each format readable and as XML', async function () {
    const live = (await listed()).find((r) => !r.deleted);
    await follow('ol.items article:not(.deleted) a.identifier');
    recordUrl = page.url();
    await shot('05-record');
    const seed = expected.get(live?.identifier ?? '');
    expect(normalizeSpace((await page.locator('main h1').textContent()) ?? '')).to.equal(seed?.title);
    const ids = await page.locator('dl.ids').textContent();
    expect(ids).to.contain(live?.identifier);
    expect(ids).to.contain('http://purl.org/poi/demo.oai-steward.org/');
    expect(ids).to.match(/https:\/\/doi\.org\/10\.5555\//);
    expect(await page.locator('section.format dl.dc dt', { hasText: 'Title' }).count()).to.equal(1);
    // What the page tells search engines: the citation_* tags and one JSON-LD block the browser parsed as data, not script.
    expect(await page.locator('meta[name="citation_title"]').getAttribute('content')).to.equal(seed?.title);
    const ld = await page.$$eval('script[type="application/ld+json"]', (ss) =>
      ss.map((s) => JSON.parse(s.textContent ?? '') as { name?: string; '@id'?: string }),
    );
    expect(ld).to.have.length(1);
    expect(normalizeSpace(ld[0]?.name ?? '')).to.equal(seed?.title);
    expect(ld[0]?.['@id']).to.match(/^https:\/\/doi\.org\/10\.5555\//);
    const xml = await page.locator('section#format-oai_dc a.as-xml').getAttribute('href');
    const res = await fetch(new URL(xml as string, server.origin));
    expect(res.headers.get('content-type')).to.equal('text/xml; charset=UTF-8');
    assertValid(await res.text());
    await accessible('a record page');
  });

  it('follows the POI to the resolver, which sends the browser back to the same record page, and goes back', async function () {
    const before = page.url();
    await follow('a.poi-resolver');
    expect(page.url()).to.equal(recordUrl.replace(/^http:\/\/[^/]+/, server.origin));
    expect(await page.locator('dl.ids').textContent()).to.contain(new URL(before).searchParams.get('identifier'));
    await page.goBack({ waitUntil: 'load' });
    await isHtmlPage();
    expect(new URL(page.url()).searchParams.get('verb')).to.equal('GetRecord');
    await page.goBack({ waitUntil: 'load' });
    await isHtmlPage();
    expect(new URL(page.url()).searchParams.get('resumptionToken')).to.be.a('string');
  });

  it('shows the raw XML of a page in the browser through its "View it as XML" link', async function () {
    await page.goto(recordUrl, { waitUntil: 'load' });
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.locator('a.raw-xml').click()]);
    expect(new URL(page.url()).pathname).to.equal('/oai/xml');
    // Without XSLT, Chromium shows the XML as a plain tree or as text: either way the document is the XML answer.
    const [type, text] = await page.evaluate(() => [document.contentType, document.documentElement.textContent ?? '']);
    expect(type).to.equal('text/xml');
    expect(text).to.contain('GetRecord');
  });

  it('fits a phone: the record page scrolls only vertically at 390 pixels', async function () {
    await page.setViewportSize({ width: 390, height: 844 });
    for (const url of [recordUrl, `${server.baseUrl}?verb=Identify`, `${server.baseUrl}?verb=ListSets`]) {
      await open(url);
      const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
      expect(scroll, `page width of ${url}`).to.be.at.most(width);
    }
    await open(recordUrl);
    await shot('06-record-phone');
    await page.setViewportSize({ width: 1100, height: 900 });
  });

  it('builds a selective request with the form and shows its answer', async function () {
    await open(`${server.baseUrl}?verb=Identify`);
    await page.selectOption('#f-verb', 'ListIdentifiers');
    await page.fill('#f-set', 'physics');
    await page.fill('#f-from', '2024-01-01');
    await page.fill('#f-id', 'not for this verb');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('form.build button')]);
    await isHtmlPage();
    const url = new URL(page.url());
    expect([...url.searchParams]).to.deep.equal([
      ['verb', 'ListIdentifiers'],
      ['metadataPrefix', 'oai_dc'],
      ['set', 'physics'],
      ['from', '2024-01-01'],
    ]);
    expect((await listed()).length).to.be.greaterThan(0);
  });

  it('follows every link to a record whose identifier needs escaping to that same record', async function () {
    const tricky = demoRecords().filter((r) => !/^(rep|thesis|data)-\d{4}-\d{4}$/.test(r.internalId));
    expect(tricky.length, 'tricky ids in the demo data').to.be.greaterThan(20);
    const hrefs = new Map<string, string>();
    await open(`${server.baseUrl}?verb=ListIdentifiers&metadataPrefix=oai_dc`);
    for (let pages = 1; ; pages++) {
      const links = await page.$$eval('ol.items > li', (lis) =>
        lis.map((li) => [li.querySelector('p.meta code')?.textContent ?? '', (li.querySelector('a.identifier') as HTMLAnchorElement).href]),
      );
      for (const [id, href] of links) hrefs.set(id as string, href as string);
      if ((await page.locator('a.next').count()) === 0) break;
      expect(pages, 'pages of ListIdentifiers').to.be.lessThan(20);
      await follow('a.next');
    }
    expect(hrefs.size).to.equal(demoRecords().length + 2);
    for (const seed of tricky) {
      const href = hrefs.get(seed.identifier);
      expect(href, `a link for ${seed.identifier}`).to.be.a('string');
      await open(href as string);
      expect(await page.locator('section.error').count(), `no error for ${seed.identifier} (${href})`).to.equal(0);
      expect(await page.locator('dl.ids code').first().textContent(), `the link ${href} opens ${seed.identifier}`).to.equal(seed.identifier);
      if (!seed.deleted) expect(normalizeSpace((await page.locator('main h1').textContent()) ?? '')).to.equal(seed.title);
    }
    await open(hrefs.get(tricky.find((r) => !r.deleted && /[^\x00-\x7f]/.test(r.internalId))?.identifier ?? '') as string);
    await shot('07-record-non-ascii');
  });

  const errorCases = [
    { query: 'verb=Nonsense', code: 'badVerb' },
    { query: 'verb=GetRecord&metadataPrefix=oai_dc', code: 'badArgument' },
    { query: 'verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Anope', code: 'idDoesNotExist' },
    { query: 'verb=ListRecords&metadataPrefix=marc99', code: 'cannotDisseminateFormat' },
    { query: 'verb=ListRecords&resumptionToken=forged', code: 'badResumptionToken' },
  ];
  for (const c of errorCases) {
    it(`explains ${c.code} in words`, async function () {
      await open(`${server.baseUrl}?${c.query}`);
      await shot(`08-error-${c.code}`);
      expect(await page.title()).to.equal(`Error: ${c.code} · oai-steward demo repository`);
      expect(await page.locator('section.error code').allTextContents()).to.include(c.code);
      expect(await page.locator('section.error h2').count()).to.be.greaterThan(0);
    });
  }

  it('shows the formats page', async function () {
    await open(`${server.baseUrl}?verb=Identify`);
    await follow('nav a:has-text("Formats")');
    await shot('09-formats');
    expect(await page.locator('table.formats').textContent()).to.contain('http://www.openarchives.org/OAI/2.0/oai_dc/');
    await accessible('the formats page');
  });

  it('keeps hostile values inert on every page that shows them', async function () {
    const hostile = [...expected.keys()].length; // the demo items; the hostile ones are the rest
    expect(hostile).to.equal(demoRecords().length);
    const urls = [
      `${server.baseUrl}?verb=ListSets`,
      `${server.baseUrl}?verb=ListRecords&metadataPrefix=oai_dc&set=hostile`,
      `${server.baseUrl}?verb=ListIdentifiers&metadataPrefix=oai_dc&set=hostile`,
      `${server.baseUrl}?verb=GetRecord&metadataPrefix=oai_dc&identifier=oai%3Ademo.oai-steward.org%3Ahostile-1`,
      `${server.baseUrl}?verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(HOSTILE)}`,
      `${server.baseUrl}?verb=ListRecords&metadataPrefix=oai_dc&set=hostile&from=${encodeURIComponent(HOSTILE)}`,
    ];
    for (const url of urls) {
      await open(url);
      const found = await page.evaluate(() => ({
        // The record's JSON-LD is a data block (HTML 4.12.1.2), never run; any other script would be.
        scripts: document.querySelectorAll('script:not([type="application/ld+json"]), img, svg, iframe, object, embed').length,
        dataBlocks: document.querySelectorAll('script[type="application/ld+json"]').length,
        handlers: Array.from(document.querySelectorAll('*'))
          .flatMap((e) => Array.from(e.attributes).map((a) => a.name))
          .filter((n) => n.startsWith('on')),
        schemes: Array.from(document.querySelectorAll('a[href]'))
          .map((a) => (a as HTMLAnchorElement).protocol)
          .filter((p) => !['http:', 'https:', 'mailto:'].includes(p)),
      }));
      expect(found, url).to.deep.equal({ scripts: 0, dataBlocks: url === urls[3] ? 1 : 0, handlers: [], schemes: [] });
    }
    await open(urls[3] as string);
    expect(await page.locator('main h1').textContent()).to.contain('<script>alert(1)</script>');
    // The hostile title stays a string inside the JSON-LD, which parses to exactly what the record says.
    const ld = await page.$eval('script[type="application/ld+json"]', (s) => JSON.parse(s.textContent ?? '') as { name?: string });
    expect(ld.name).to.equal(HOSTILE);
    await shot('10-hostile-record');
    await open(urls[1] as string);
    const items = await listed();
    expect(items.map((i) => i.title)).to.include('Hostile identifier');
  });

  it('saw no Content-Security-Policy violation, page error or dialog on any page', function () {
    expect(problems).to.deep.equal([]);
  });

  it('rendered only requests whose XML answers are XSD-valid', async function () {
    expect(visited.size, 'requests seen by the browser').to.be.greaterThan(30);
    for (const url of visited) {
      const u = new URL(url);
      const res = await fetch(`${server.origin}/oai/xml${u.search}`);
      expect(res.status, url).to.equal(200);
      assertValid(await res.text());
    }
  });
});

/**
 * Records that repeat a field thousands of times (a harvested record may):
 * their pages show the first values and say how many more there are, the
 * XML they link to keeps every value, and drawing them takes time linear in
 * the number of values.
 */
import { expect } from 'chai';
import { renderPage } from '../../lib/html';
import type { PageInput, PagePaths } from '../../lib/html';
import { SHOWN_VALUES } from '../../lib/html/metadata';
import { dublinCoreToOaiDc, oaiDc } from '../../lib/formats/oai-dc';
import { parseFragment } from '../../lib/xml/tree';
import type { ItemRecord } from '../../lib/store';
import { expectValidHtml } from '../helpers/html-valid';

const paths: PagePaths = { endpoint: '/oai', rawXml: '/oai/xml?verb=Identify', form: '/oai/form' };
const NOW = 1_700_000_000;

function titled(count: number): ItemRecord {
  return {
    pk: 1,
    internalId: 'x',
    identifier: 'oai:x:1',
    datestamp: NOW - 100,
    deleted: false,
    sets: [],
    metadata: dublinCoreToOaiDc({ title: Array.from({ length: count }, (_v, i) => `Title number ${i}`), creator: ['Curie, Marie'] }),
  };
}

function recordPage(record: ItemRecord, prefix = 'oai_dc', formats = [oaiDc]): string {
  const input: PageInput = {
    response: {
      responseDate: NOW,
      baseURL: 'http://localhost/oai',
      requestArgs: { verb: 'GetRecord', metadataPrefix: prefix, identifier: record.identifier },
      body: { kind: 'GetRecord', record },
    },
    repositoryName: 'Repo',
    paths,
    formats,
  };
  return renderPage(input);
}

function listPage(records: ItemRecord[]): string {
  return renderPage({
    response: {
      responseDate: NOW,
      baseURL: 'http://localhost/oai',
      requestArgs: { verb: 'ListRecords', metadataPrefix: 'oai_dc' },
      body: { kind: 'ListRecords', records },
    },
    repositoryName: 'Repo',
    paths,
    formats: [oaiDc],
  });
}

/** The labelled Dublin Core of a record page (the metadata section, not the head's machine-readable tags). */
function dcList(html: string): string {
  const m = /<dl class="facts dc">.*?<\/dl>/s.exec(html);
  expect(m, 'the Dublin Core list of the page').to.not.equal(null);
  return (m as RegExpExecArray)[0];
}

/**
 * How many times longer one render of `large` takes than one of `small`, by the CPU time this process spends (not the
 * wall clock, which other work on the machine stretches). `small` is timed ten at a time, so both measures span about
 * as long and a busy moment of the machine weighs on both alike; each is the least of several, taken in turns, after
 * one of each to warm up.
 */
function timeRatio(large: () => void, small: () => void): number {
  const cpu = (render: () => void): number => {
    const start = process.cpuUsage();
    render();
    const used = process.cpuUsage(start);
    return used.user + used.system;
  };
  const tenSmall = (): void => {
    for (let i = 0; i < 10; i++) small();
  };
  large();
  small();
  let bestLarge = Infinity;
  let bestTenSmall = Infinity;
  for (let i = 0; i < 5; i++) {
    bestLarge = Math.min(bestLarge, cpu(large));
    bestTenSmall = Math.min(bestTenSmall, cpu(tenSmall));
  }
  return (bestLarge / Math.max(bestTenSmall, 1)) * 10;
}

describe('pages of records that repeat a field many times', () => {
  it('show the first values of a field on the record page and how many more the XML has', () => {
    const rec = titled(20_000);
    const dl = dcList(recordPage(rec));
    const titles = dl.match(/Title number \d+/g) ?? [];
    expect(titles).to.have.length(SHOWN_VALUES);
    expect(titles[0]).to.equal('Title number 0');
    expect(titles[SHOWN_VALUES - 1]).to.equal(`Title number ${SHOWN_VALUES - 1}`);
    expect(dl).to.contain(`<span class="more">… and ${(20_000 - SHOWN_VALUES).toLocaleString('en')} more</span>`);
    expect(dl).to.contain('… and 19,950 more');
    // The page's XML link leads to the record as stored, which keeps every title.
    expect(parseFragment(rec.metadata as string)?.children.filter((c) => c.kind === 'element' && c.local === 'title')).to.have.length(20_000);
  });

  it('shows every value, and no count, when a field has no more values than the page shows', () => {
    const dl = dcList(recordPage(titled(SHOWN_VALUES)));
    expect(dl.match(/Title number \d+/g)).to.have.length(SHOWN_VALUES);
    expect(dl).to.not.contain('more</span>');
  });

  it('cuts a long run of elements of a format other than oai_dc short the same way', () => {
    const other = { prefix: 'other', schema: 'https://example.org/other.xsd', namespace: 'urn:other' };
    const items = Array.from({ length: 1_000 }, (_v, i) => `<o:item>Item ${i}</o:item>`).join('');
    const rec = { ...titled(1), metadata: `<o:r xmlns:o="urn:other">${items}</o:r>` };
    const html = recordPage(rec, 'other', [oaiDc, other]);
    expect(html.match(/Item \d+/g)).to.have.length(SHOWN_VALUES);
    expect(html).to.contain(`<li class="meta">… and ${(1_000 - SHOWN_VALUES).toLocaleString('en')} more</li>`);
  });

  it('are valid HTML by the recommended rules of html-validate when a field is cut short', async () => {
    await expectValidHtml(recordPage(titled(SHOWN_VALUES + 10)), 'a record page with a field cut short');
  });

  it('draw a record page in time linear in the number of values: ten times the values take under twenty times as long', () => {
    const small = titled(2_000);
    const large = titled(20_000);
    const ratio = timeRatio(
      () => recordPage(large),
      () => recordPage(small),
    );
    // Linear work takes about 10 times as long; work quadratic in the values about 100 times.
    expect(ratio).to.be.below(20);
  });

  it('draw a list page in time linear in the number of values of its records: ten times the values take under twenty times as long', () => {
    const small = [titled(2_000)];
    const large = [titled(20_000)];
    const ratio = timeRatio(
      () => listPage(large),
      () => listPage(small),
    );
    expect(ratio).to.be.below(20);
  });
});

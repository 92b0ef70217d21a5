/**
 * A ResourceSync destination (ResourceSync 1.1 section 5.2), written for the
 * tests from the specification alone: it baselines from a Resource List (or
 * a Resource Dump), checking every resource's length and MD5, then follows
 * the Change Lists, and keeps a copy of every resource by its URL. Every
 * document it reads must be valid against the sitemap and ResourceSync
 * schemas. It reads the documents with regular expressions over the
 * server's output, not with the server's code.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import { expect } from 'chai';
import { unescapeXml } from './server';
import { assertValidSitemap } from './xsd';
import { readZip } from './zip';

/** An HTTP answer with its body as bytes (no content coding is asked for). */
export interface RawAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
}

/** GET (or another method) of an absolute URL, rewritten to the test server's port. */
export function getRaw(port: number, url: string, headers: http.OutgoingHttpHeaders = {}, method = 'GET'): Promise<RawAnswer> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method, path: `${u.pathname}${u.search}`, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** One `<url>` or `<sitemap>` of a document. */
export interface DocEntry {
  readonly loc: string;
  readonly lastmod?: string;
  /** The attributes of its `rs:md`. */
  readonly md: Record<string, string>;
}

/** A sitemap or ResourceSync document, read. */
export interface Doc {
  readonly root: 'urlset' | 'sitemapindex';
  /** The attributes of the root's `rs:md`. */
  readonly md: Record<string, string>;
  /** rel → href of the root's `rs:ln` links. */
  readonly links: Record<string, string>;
  readonly entries: DocEntry[];
}

function attributes(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1] as string, unescapeXml(m[2] as string)]));
}

/** Reads a document (after checking it against the schemas). */
export function readDoc(xml: string): Doc {
  assertValidSitemap(xml);
  const root = /<(urlset|sitemapindex)[\s>]/.exec(xml)?.[1] as Doc['root'];
  const tag = root === 'urlset' ? 'url' : 'sitemap';
  const first = xml.indexOf(`<${tag}>`);
  const head = first < 0 ? xml : xml.slice(0, first);
  const md = attributes(/<rs:md([^>]*)\/>/.exec(head)?.[1] ?? '');
  const links = Object.fromEntries(
    [...head.matchAll(/<rs:ln([^>]*)\/>/g)].map((m) => attributes(m[1] as string)).map((a) => [a.rel as string, a.href as string]),
  );
  const entries = [...xml.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => {
    const body = m[1] as string;
    const lastmod = /<lastmod>([^<]*)<\/lastmod>/.exec(body)?.[1];
    return {
      loc: unescapeXml(/<loc>([^<]*)<\/loc>/.exec(body)?.[1] ?? ''),
      ...(lastmod !== undefined && { lastmod }),
      md: attributes(/<rs:md([^>]*)\/>/.exec(body)?.[1] ?? ''),
    };
  });
  return { root, md, links, entries };
}

const seconds = (iso: string): number => Date.parse(iso) / 1000;

/** A destination keeping a copy of one capability list's resources. */
export class Destination {
  /** URL → the bytes last fetched. */
  readonly copies = new Map<string, Buffer>();
  /** From when on changes must still be applied (seconds): the baseline's `at`, then the latest change applied. */
  since = 0;
  /** Every document URL read, for the tests to inspect. */
  readonly read: string[] = [];

  constructor(
    private readonly port: number,
    private readonly capabilityList: string,
  ) {}

  /** GETs a document, asserting 200 and validity, and reads it. */
  async doc(url: string): Promise<Doc> {
    const a = await getRaw(this.port, url);
    expect(a.status, `${url}: ${a.body.toString().slice(0, 200)}`).to.equal(200);
    this.read.push(url);
    return readDoc(a.body.toString('utf8'));
  }

  /** The URL of one capability of the capability list, or undefined when it is not offered. */
  async capability(name: string): Promise<string | undefined> {
    const caps = await this.doc(this.capabilityList);
    expect(caps.md.capability).to.equal('capabilitylist');
    return caps.entries.find((e) => e.md.capability === name)?.loc;
  }

  /** Baseline synchronization from the Resource List (or its index): every resource fetched, its length and MD5 checked. */
  async baseline(): Promise<void> {
    this.copies.clear();
    const url = await this.capability('resourcelist');
    if (url === undefined) return;
    const top = await this.doc(url);
    expect(top.md.capability).to.equal('resourcelist');
    const lists = top.root === 'urlset' ? [top] : await Promise.all(top.entries.map((e) => this.doc(e.loc)));
    const ats = [top.md.at as string, ...lists.map((l) => l.md.at as string)].map(seconds);
    for (const list of lists) {
      expect(list.md.capability).to.equal('resourcelist');
      for (const e of list.entries) {
        const a = await getRaw(this.port, e.loc);
        expect(a.status, e.loc).to.equal(200);
        this.check(e, a.body);
        this.copies.set(e.loc, a.body);
      }
    }
    this.since = Math.min(...ats);
  }

  /** Baseline synchronization from the Resource Dump: every package unpacked, guided by its manifest. */
  async baselineFromDump(): Promise<void> {
    this.copies.clear();
    const url = await this.capability('resourcedump');
    if (url === undefined) return;
    const dump = await this.doc(url);
    expect(dump.md.capability).to.equal('resourcedump');
    const ats = [seconds(dump.md.at as string)];
    for (const pkg of dump.entries) {
      expect(pkg.md.type).to.equal('application/zip');
      const a = await getRaw(this.port, pkg.loc);
      expect(a.status, pkg.loc).to.equal(200);
      expect(a.headers['content-type']).to.equal('application/zip');
      const files = new Map(readZip(a.body).map((f) => [f.name, f.data]));
      const manifest = readDoc((files.get('manifest.xml') as Buffer).toString('utf8'));
      expect(manifest.md.capability).to.equal('resourcedump-manifest');
      ats.push(seconds(manifest.md.at as string));
      // Section 11.2: one entry per bitstream, nothing in the package that the manifest does not name.
      expect(manifest.entries.length).to.equal(files.size - 1);
      for (const e of manifest.entries) {
        const data = files.get((e.md.path as string).slice(1));
        expect(data, e.md.path).to.be.instanceOf(Buffer);
        this.check(e, data as Buffer);
        this.copies.set(e.loc, data as Buffer);
      }
    }
    this.since = Math.min(...ats);
  }

  /**
   * Incremental synchronization: the Change Lists' changes at or after
   * `since` applied in order (a change in the second of `since` may have come
   * after it, so that second is read again), then `since` moved to the latest
   * change applied. Returns how many changes were applied.
   */
  async follow(): Promise<number> {
    const url = await this.capability('changelist');
    if (url === undefined) return 0;
    const top = await this.doc(url);
    expect(top.md.capability).to.equal('changelist');
    const lists =
      top.root === 'urlset'
        ? [top]
        : await Promise.all(top.entries.filter((e) => e.md.until === undefined || seconds(e.md.until) >= this.since).map((e) => this.doc(e.loc)));
    let applied = 0;
    let latest = this.since;
    let previous = -Infinity;
    for (const list of lists) {
      for (const e of list.entries) {
        const at = seconds(e.md.datetime as string);
        // Section 12.1: forward chronological order, within a list and from one list to the next.
        expect(at, 'changes in forward chronological order').to.be.at.least(previous);
        previous = at;
        if (at < this.since) continue;
        if (e.md.change === 'deleted') {
          this.copies.delete(e.loc);
        } else {
          const a = await getRaw(this.port, e.loc);
          if (a.status === 410) this.copies.delete(e.loc);
          else {
            expect(a.status, e.loc).to.equal(200);
            this.copies.set(e.loc, a.body);
          }
        }
        latest = Math.max(latest, at);
        applied++;
      }
    }
    this.since = latest;
    return applied;
  }

  /** Checks fetched bytes against an entry's `length` and `hash` (section 7). */
  private check(e: DocEntry, body: Buffer): void {
    expect(Number(e.md.length), `length of ${e.loc}`).to.equal(body.length);
    expect(e.md.hash, `hash of ${e.loc}`).to.equal(`md5:${crypto.createHash('md5').update(body).digest('hex')}`);
    expect(e.md.type).to.equal('application/xml');
  }
}

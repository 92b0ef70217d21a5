/**
 * An OAI-PMH provider for the harvester's tests that attacks rather than
 * stumbles, on 127.0.0.1: a ListRecords page that is a gzip or a deflate
 * bomb (a small body inflating to hundreds of megabytes, made as it is sent
 * so the test holds none of it), a list that answers a new
 * resumptionToken for ever, one record a page, or one ListRecords page of
 * some 50 MB of ordinary records (each with an abstract of some 10 KB), made
 * as it is sent.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';

/** What ListRecords answers. */
export type Attack = 'gzip-bomb' | 'deflate-bomb' | 'endless' | 'big-page';

/** Records of the big page, and the bytes of each one's abstract: some 50 MB in all. */
export const BIG_PAGE_RECORDS = 5000;
const ABSTRACT = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor. '.repeat(125);

export interface HostileProvider {
  readonly baseUrl: string;
  attack: Attack;
  /** Every request's query, in order. */
  readonly requests: Record<string, string>[];
  /** With a number: ListSets answers one set whose name takes this many bytes (else noSetHierarchy). */
  setNameBytes: number | undefined;
  /** Bytes of the bombs' bodies sent, as compressed. */
  readonly sent: { bytes: number };
  close(): Promise<void>;
}

const NS = 'http://www.openarchives.org/OAI/2.0/';
const DC = 'xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"';

/** What a bomb inflates to: far past the default cap of an answer (64 MiB). */
export const BOMB_BYTES = 256 * 1024 * 1024;

function envelope(q: Record<string, string>, body: string): string {
  const request = `<request${Object.entries(q)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('')}>http://hostile.example.org/oai</request>`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="${NS}"><responseDate>2024-03-05T10:00:00Z</responseDate>${request}${body}</OAI-PMH>`;
}

function record(n: number): string {
  return (
    `<record><header><identifier>oai:hostile.example.org:${n}</identifier><datestamp>2024-01-01T00:00:00Z</datestamp></header>` +
    `<metadata><oai_dc:dc ${DC}><dc:title>Record ${n}</dc:title></oai_dc:dc></metadata></record>`
  );
}

export async function startHostileProvider(attack: Attack): Promise<HostileProvider> {
  const state = { attack, requests: [] as Record<string, string>[], sent: { bytes: 0 }, setNameBytes: undefined as number | undefined };
  const server = http.createServer((req, res) => {
    const q = Object.fromEntries(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    state.requests.push(q);
    const send = (body: string): void => {
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
      res.end(body);
    };
    if (q.verb === 'Identify') {
      return send(
        envelope(
          q,
          '<Identify><repositoryName>A hostile repository</repositoryName><baseURL>http://hostile.example.org/oai</baseURL><protocolVersion>2.0</protocolVersion>' +
            '<adminEmail>a@example.org</adminEmail><earliestDatestamp>2000-01-01T00:00:00Z</earliestDatestamp><deletedRecord>no</deletedRecord><granularity>YYYY-MM-DDThh:mm:ssZ</granularity></Identify>',
        ),
      );
    }
    if (q.verb === 'ListSets' && state.setNameBytes !== undefined)
      return send(envelope(q, `<ListSets><set><setSpec>s</setSpec><setName>${'n'.repeat(state.setNameBytes)}</setName></set></ListSets>`));
    if (q.verb !== 'ListRecords') return send(envelope(q, '<error code="noSetHierarchy">no sets</error>'));
    if (state.attack === 'big-page') {
      res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' });
      const head = envelope(q, '<ListRecords>').replace(/<\/OAI-PMH>$/, '');
      let n = 0;
      const pump = (): void => {
        while (n < BIG_PAGE_RECORDS) {
          n++;
          const rec =
            `<record><header><identifier>oai:hostile.example.org:big-${n}</identifier><datestamp>2024-01-01T00:00:00Z</datestamp></header>` +
            `<metadata><oai_dc:dc ${DC}><dc:title>Record ${n}</dc:title><dc:creator>Author ${n}</dc:creator><dc:description>${ABSTRACT}</dc:description></oai_dc:dc></metadata></record>`;
          state.sent.bytes += rec.length;
          if (!res.write(rec)) {
            res.once('drain', pump);
            return;
          }
        }
        res.end('</ListRecords></OAI-PMH>');
      };
      res.write(head);
      pump();
      return;
    }
    if (state.attack === 'endless') {
      // Page n answers token n: every token is new, and the list never ends.
      const n = q.resumptionToken === undefined ? 1 : Number(q.resumptionToken.replace(/^t/, ''));
      return send(envelope(q, `<ListRecords>${record(n)}<resumptionToken>t${n + 1}</resumptionToken></ListRecords>`));
    }
    // A record whose title never ends, compressed as it is sent.
    const coding = state.attack === 'gzip-bomb' ? 'gzip' : 'deflate';
    res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Encoding': coding });
    const z = coding === 'gzip' ? zlib.createGzip({ level: 9 }) : zlib.createDeflate({ level: 9 });
    z.on('data', (c: Buffer) => {
      state.sent.bytes += c.length;
      if (!res.write(c)) z.pause();
    });
    res.on('drain', () => z.resume());
    z.on('end', () => res.end());
    const head = envelope(
      q,
      `<ListRecords><record><header><identifier>oai:hostile.example.org:bomb</identifier><datestamp>2024-01-01T00:00:00Z</datestamp></header><metadata><oai_dc:dc ${DC}><dc:title>`,
    ).replace(/<\/OAI-PMH>$/, '');
    const filler = Buffer.alloc(1024 * 1024, 'a');
    let left = BOMB_BYTES;
    let closed = false;
    res.on('close', () => {
      closed = true;
      z.destroy();
    });
    const pump = (): void => {
      while (!closed && left > 0) {
        left -= filler.length;
        if (!z.write(filler)) {
          z.once('drain', pump);
          return;
        }
      }
      if (!closed) z.end('</dc:title></oai_dc:dc></metadata></record></ListRecords></OAI-PMH>');
    };
    z.write(head);
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/oai`,
    get attack() {
      return state.attack;
    },
    set attack(v) {
      state.attack = v;
    },
    requests: state.requests,
    get setNameBytes() {
      return state.setNameBytes;
    },
    set setNameBytes(v) {
      state.setNameBytes = v;
    },
    sent: state.sent,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

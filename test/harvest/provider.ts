/**
 * A small OAI-PMH provider written for the harvester's tests, on
 * 127.0.0.1, that misbehaves on purpose: each fault is given with a
 * predicate over the request and how many times it strikes (503 with
 * Retry-After, 429 with an HTTP-date, a connection dropped in the middle of
 * a page, a slow answer, no answer until the provider closes, a page that
 * is not XML, badResumptionToken, a page of some 50 MB, 503 with a
 * Retry-After of some 31 years, a page dripped a byte at a time, an error
 * body full of terminal escape sequences, resumption tokens of megabytes it
 * then refuses, echoing them), records hostile to an XML parser (nested 300
 * deep, 100,000 attributes on one element, 50,000 namespace declarations),
 * or a ListSets that names new sets for ever. It
 * serves oai_dc records from an array the test changes between harvests,
 * in day or second granularity, gzip-compressed when asked.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';

export interface FakeRecord {
  /** The local part; the identifier is `oai:bad.example.org:ID`. */
  id: string;
  /** YYYY-MM-DDThh:mm:ssZ (shown as a day in day granularity). */
  datestamp: string;
  title: string;
  deleted?: boolean;
  sets?: string[];
  /** `dc:subject` values, after the title (e.g. `ddc:530`, for sets by rule). */
  subjects?: string[];
  /** The record's metadata also holds what a parser finds hostile, every time it is served. */
  hostile?: Hostile;
}

/**
 * What makes a record hostile: `deep` nests 300 elements (libxml2's default
 * limit is 256), `attributes` gives one element 100,000 attributes,
 * `namespaces` one element 50,000 namespace declarations.
 */
export type Hostile = 'deep' | 'attributes' | 'namespaces';

/** The hostile part of a record's metadata, after its title. */
function hostileXml(h: Hostile): string {
  if (h === 'deep') return `${'<x:a xmlns:x="urn:x">'.repeat(300)}${'</x:a>'.repeat(300)}`;
  if (h === 'attributes') return `<x:a xmlns:x="urn:x" ${Array.from({ length: 100_000 }, (_, i) => `a${i}="v"`).join(' ')}/>`;
  return `<x:a xmlns:x="urn:x" ${Array.from({ length: 50_000 }, (_, i) => `xmlns:p${i}="urn:p:${i}"`).join(' ')}/>`;
}

export type Fault =
  '500' | '503' | '503-for-ever' | '429' | 'drop' | 'slow' | 'drip' | 'hang' | 'not-xml' | 'malformed' | 'bad-token' | 'not-utf8' | 'huge' | 'escapes';

/**
 * What a hostile error body says: ECMA-48 sequences that clear the screen,
 * retitle the window (OSC … BEL), move the cursor with a C1 CSI (U+009B),
 * ring the bell, and a DEL, with a carriage return that would hide what came before.
 */
export const ESCAPES_BODY = 'denied\x1b[2J\x1b]0;pwned\x07 \u009b31m red \x7f\x08 \rhidden\x1b[0m';

/** What the provider saw of one request. */
export interface SeenRequest {
  readonly query: Record<string, string>;
  readonly headers: http.IncomingHttpHeaders;
  /** When it arrived, in milliseconds of this process's monotonic clock. */
  readonly atMs: number;
}

export interface FakeProvider {
  readonly baseUrl: string;
  records: FakeRecord[];
  /** Faults to come: each strikes `times` times on the requests `when` accepts. */
  faults: { when: (q: Record<string, string>) => boolean; times: number; fault: Fault }[];
  readonly requests: SeenRequest[];
  /** Requests whose connection the harvester closed before their answer was sent (a page asked ahead and then not wanted). */
  readonly abandoned: number;
  /** The responseDate every answer carries. */
  responseDate: string;
  /** A list that runs in a circle: the page of this number (from 1) answers the token of page 2 again. */
  loopAt: number | undefined;
  /** ListSets answers a set a page, its tokens going round S1, S2, S1 … (else noSetHierarchy). */
  cyclingSets: boolean;
  /** The base URL every answer's request element claims it was asked at (a lie: it is not `baseUrl`). */
  requestUrl: string;
  /** A metadataPrefix the request element claims instead of the one asked (a lie too). */
  requestPrefix: string | undefined;
  /** With a number: ListSets answers this many new sets a page with a new token, for ever (before `sets` and cyclingSets). */
  endlessSets: number | undefined;
  /** The sets ListSets answers in one page, descriptions as given (else noSetHierarchy, unless cyclingSets). */
  sets: { spec: string; name: string; descriptions?: string[] }[];
  /** How many `dc:title`s each record has (default 1; the others numbered): records heavy to read and write. */
  titles: number;
  /**
   * Characters each ListRecords resumptionToken is padded to (0: none); a
   * request carrying a padded token is refused with badArgument, the
   * token echoed in the error's message.
   */
  tokenChars: number;
  close(): Promise<void>;
}

const NS = 'http://www.openarchives.org/OAI/2.0/';

export async function startFakeProvider(options: {
  granularity: 'day' | 'second';
  pageSize: number;
  gzip?: boolean;
  deflate?: boolean;
  slowMs?: number;
}): Promise<FakeProvider> {
  const state = {
    records: [] as FakeRecord[],
    faults: [] as FakeProvider['faults'],
    requests: [] as SeenRequest[],
    abandoned: 0,
    responseDate: '2024-03-05T10:00:00Z',
    loopAt: undefined as number | undefined,
    cyclingSets: false,
    endlessSets: undefined as number | undefined,
    requestUrl: 'http://bad.example.org/oai',
    requestPrefix: undefined as string | undefined,
    sets: [] as FakeProvider['sets'],
    titles: 1,
    tokenChars: 0,
  };
  const day = options.granularity === 'day';
  const stamp = (s: string): string => (day ? s.slice(0, 10) : s);
  const envelope = (q: Record<string, string>, body: string): string =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<OAI-PMH xmlns="${NS}"><responseDate>${state.responseDate}</responseDate>` +
    `<request${Object.entries(q)
      .map(([k, v]) => ` ${k}="${k === 'metadataPrefix' ? (state.requestPrefix ?? v) : v}"`)
      .join('')}>${state.requestUrl}</request>${body}</OAI-PMH>`;
  const error = (code: string): string => `<error code="${code}">${code}</error>`;

  const answer = (q: Record<string, string>, titles: number = state.titles): string => {
    if (q.verb === 'Identify') {
      return envelope(
        q,
        `<Identify><repositoryName>A misbehaving repository</repositoryName><baseURL>http://bad.example.org/oai</baseURL><protocolVersion>2.0</protocolVersion><adminEmail>a@example.org</adminEmail><earliestDatestamp>${day ? '2000-01-01' : '2000-01-01T00:00:00Z'}</earliestDatestamp><deletedRecord>persistent</deletedRecord><granularity>${day ? 'YYYY-MM-DD' : 'YYYY-MM-DDThh:mm:ssZ'}</granularity></Identify>`,
      );
    }
    if (q.verb === 'ListSets' && state.endlessSets !== undefined) {
      // Page n (token n) names sets n.1 … n.N and answers token n + 1: every set and every token is new.
      const n = q.resumptionToken === undefined ? 1 : Number(q.resumptionToken);
      const sets = Array.from({ length: state.endlessSets }, (_, i) => `<set><setSpec>e${n}.${i + 1}</setSpec><setName>Set ${n}.${i + 1}</setName></set>`);
      return envelope(q, `<ListSets>${sets.join('')}<resumptionToken>${n + 1}</resumptionToken></ListSets>`);
    }
    if (q.verb === 'ListSets' && state.sets.length > 0) {
      const sets = state.sets.map(
        (s) =>
          `<set><setSpec>${s.spec}</setSpec><setName>${s.name}</setName>${(s.descriptions ?? []).map((d) => `<setDescription>${d}</setDescription>`).join('')}</set>`,
      );
      return envelope(q, `<ListSets>${sets.join('')}</ListSets>`);
    }
    if (q.verb === 'ListSets') {
      if (!state.cyclingSets) return envelope(q, error('noSetHierarchy'));
      // No token and S2 answer set s1 and S1; S1 answers set s2 and S2: S1, S2, S1 …
      const n = q.resumptionToken === 'S1' ? 2 : 1;
      return envelope(q, `<ListSets><set><setSpec>s${n}</setSpec><setName>Set ${n}</setName></set><resumptionToken>S${n}</resumptionToken></ListSets>`);
    }
    if (q.verb !== 'ListRecords') return envelope(q, error('badVerb'));
    let offset = 0;
    let args = q;
    if (q.resumptionToken !== undefined) {
      // The request element echoes no token of megabytes: the error's message does.
      if (state.tokenChars > 0 && q.resumptionToken.length >= state.tokenChars)
        return envelope({ verb: 'ListRecords' }, `<error code="badArgument">no such resumptionToken: ${q.resumptionToken}</error>`);
      // Its arguments are URI-encoded, so a second "|" starts the padding.
      const [o, encoded] = q.resumptionToken.split('|');
      offset = Number(o);
      args = JSON.parse(decodeURIComponent(encoded ?? '')) as Record<string, string>;
    }
    const inRange = (r: FakeRecord): boolean =>
      (args.from === undefined || stamp(r.datestamp) >= args.from) && (args.until === undefined || stamp(r.datestamp) <= args.until);
    const all = state.records.filter(inRange).sort((a, b) => (a.datestamp < b.datestamp ? -1 : a.datestamp > b.datestamp ? 1 : 0));
    if (all.length === 0) return envelope(q, error('noRecordsMatch'));
    const page = all.slice(offset, offset + options.pageSize);
    const more = offset + options.pageSize < all.length;
    const records = page
      .map((r) => {
        const header = `<header${r.deleted ? ' status="deleted"' : ''}><identifier>oai:bad.example.org:${r.id}</identifier><datestamp>${stamp(r.datestamp)}</datestamp>${(r.sets ?? []).map((s) => `<setSpec>${s}</setSpec>`).join('')}</header>`;
        const metadata = r.deleted
          ? ''
          : `<metadata><oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/">${Array.from({ length: titles }, (_, i) => `<dc:title>${r.title}${i === 0 ? '' : ` ${i}`}</dc:title>`).join('')}${r.hostile ? hostileXml(r.hostile) : ''}${(r.subjects ?? []).map((v) => `<dc:subject>${v}</dc:subject>`).join('')}<dc:identifier>https://bad.example.org/${r.id}</dc:identifier></oai_dc:dc></metadata>`;
        return `<record>${header}${metadata}</record>`;
      })
      .join('\n');
    // The page of number loopAt points back to page 2: the list runs in a circle.
    const nextOffset = state.loopAt !== undefined && offset === (state.loopAt - 1) * options.pageSize ? options.pageSize : offset + options.pageSize;
    const plain = `${nextOffset}|${encodeURIComponent(JSON.stringify(args))}`;
    const padded = state.tokenChars > plain.length + 1 ? `${plain}|${'x'.repeat(state.tokenChars - plain.length - 1)}` : plain;
    const token = more
      ? `<resumptionToken completeListSize="${all.length}" cursor="${offset}">${padded}</resumptionToken>`
      : q.resumptionToken !== undefined
        ? `<resumptionToken completeListSize="${all.length}" cursor="${offset}"/>`
        : '';
    return envelope(q, `<ListRecords>\n${records}\n${token}</ListRecords>`);
  };

  // Requests carrying a token of megabytes are read whole (Node's default refuses headers past 16 KiB).
  const server = http.createServer({ maxHeaderSize: 64 * 1024 * 1024 }, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const q = Object.fromEntries(url.searchParams);
    state.requests.push({ query: q, headers: req.headers, atMs: performance.now() });
    res.on('close', () => {
      if (!res.writableFinished) state.abandoned++;
    });
    const f = state.faults.find((x) => x.times > 0 && x.when(q));
    if (f) f.times--;
    const send = (status: number, body: string, headers: http.OutgoingHttpHeaders = {}): void => {
      const accepts = String(req.headers['accept-encoding'] ?? '');
      const coding = options.gzip === true && /gzip/.test(accepts) ? 'gzip' : options.deflate === true && /deflate/.test(accepts) ? 'deflate' : undefined;
      const bytes = coding === 'gzip' ? zlib.gzipSync(body) : coding === 'deflate' ? zlib.deflateSync(body) : Buffer.from(body, 'utf8');
      res.writeHead(status, {
        'Content-Type': 'text/xml; charset=utf-8',
        'Content-Length': bytes.length,
        ...(coding && { 'Content-Encoding': coding }),
        ...headers,
      });
      res.end(bytes);
    };
    switch (f?.fault) {
      case '500':
        return send(500, 'Internal Server Error');
      case '503':
        return send(503, 'busy', { 'Retry-After': '7' });
      case '503-for-ever':
        // Come back in a billion seconds: no harvester should wait that long, nor past its own time.
        return send(503, 'busy', { 'Retry-After': '1000000000' });
      case '429':
        return send(429, 'slow down', { 'Retry-After': new Date(Date.now() + 3000).toUTCString() });
      case 'drop': {
        const body = Buffer.from(answer(q), 'utf8');
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': body.length });
        res.write(body.subarray(0, Math.floor(body.length / 2)));
        setTimeout(() => res.destroy(), 5);
        return;
      }
      case 'slow':
        setTimeout(() => {
          if (!res.destroyed) send(200, answer(q));
        }, options.slowMs ?? 300);
        return;
      case 'drip': {
        // The page's first bytes, then one byte every 100 ms: an answer that never times out byte by byte.
        const body = Buffer.from(answer(q), 'utf8');
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': body.length });
        res.write(body.subarray(0, 100));
        let at = 100;
        const timer = setInterval(() => {
          if (res.destroyed || at >= body.length) return clearInterval(timer);
          res.write(body.subarray(at, at + 1));
          at++;
        }, 100);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'hang':
        // No answer: the connection stays open until the client gives up or the provider closes.
        return;
      case 'not-xml':
        return send(200, '<html><body>Proxy error <b>502</body></html');
      case 'malformed':
        return send(200, answer(q).replace('</record>', '</recrod>'));
      case 'huge':
        // Some 50 MB: each record of the page has 800,000 titles (under the client's 64 MiB cap on an answer).
        return send(200, answer(q, 800_000));
      case 'escapes':
        // HTTP 403: the client keeps the start of a refused answer's body for its message.
        return send(403, ESCAPES_BODY);
      case 'bad-token':
        return send(200, envelope(q, error('badResumptionToken')));
      case 'not-utf8': {
        // The title of the page's second record holds a byte that is never UTF-8 (RFC 3629): 0xFF.
        const text = answer(q);
        const at = text.indexOf('</dc:title>', text.indexOf('</dc:title>') + 1);
        const body = Buffer.concat([Buffer.from(text.slice(0, at), 'utf8'), Buffer.from([0xff]), Buffer.from(text.slice(at), 'utf8')]);
        res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8', 'Content-Length': body.length });
        res.end(body);
        return;
      }
      default:
        return send(200, answer(q));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}/oai`,
    get records() {
      return state.records;
    },
    set records(v) {
      state.records = v;
    },
    get faults() {
      return state.faults;
    },
    set faults(v) {
      state.faults = v;
    },
    requests: state.requests,
    get abandoned() {
      return state.abandoned;
    },
    get responseDate() {
      return state.responseDate;
    },
    get loopAt() {
      return state.loopAt;
    },
    set loopAt(v) {
      state.loopAt = v;
    },
    get cyclingSets() {
      return state.cyclingSets;
    },
    set cyclingSets(v) {
      state.cyclingSets = v;
    },
    get endlessSets() {
      return state.endlessSets;
    },
    set endlessSets(v) {
      state.endlessSets = v;
    },
    set responseDate(v) {
      state.responseDate = v;
    },
    get requestUrl() {
      return state.requestUrl;
    },
    set requestUrl(v) {
      state.requestUrl = v;
    },
    get requestPrefix() {
      return state.requestPrefix;
    },
    set requestPrefix(v) {
      state.requestPrefix = v;
    },
    get sets() {
      return state.sets;
    },
    set sets(v) {
      state.sets = v;
    },
    get titles() {
      return state.titles;
    },
    set titles(v) {
      state.titles = v;
    },
    get tokenChars() {
      return state.tokenChars;
    },
    set tokenChars(v) {
      state.tokenChars = v;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

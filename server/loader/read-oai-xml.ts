/**
 * Streams records and sets out of OAI-PMH XML: a saved ListRecords or
 * GetRecord response, a saved ListSets response, one bare metadata
 * document (a file of a folder of oai_dc files), or a collection of bare
 * records of one format (a MARCXML `collection`, a MODS `modsCollection`),
 * each record its own document. libxmljs2's SAX push
 * parser reads the input a line at a time, so memory holds one record, not
 * the file, and refusals can name the line a record starts on. What would
 * stop the parser or cost it more than linear time (an element too deep, or
 * with too many attributes) is kept from it by a pass before it
 * (xml-guard.ts), and refuses the one record that held it.
 */
import { CanonicalXml, type NsScope, type SaxAttribute, type SaxNamespace } from './canonical-xml';
import { libxml } from '../xsd/libxml';
import { OAI_NS } from '../../lib/xml/namespaces';
import { bytesText, DEFAULT_READ_LIMITS, type ReadLimits } from './limits';
import { XmlDecoder } from './xml-decode';
import { ELIDED, XmlGuard } from './xml-guard';
import { CollectionShape, ReadOptions, XmlEvent, XmlInputShape } from './xml-events';

/** The most text the prolog (what precedes the root element) may hold. */
const MAX_PROLOG = 64 * 1024;

const DC_IDENTIFIER = '{http://purl.org/dc/elements/1.1/}identifier';

interface RecordState {
  number: number;
  line: number;
  identifier?: string;
  datestamp?: string;
  deleted: boolean;
  sets: string[];
  metadata?: string;
  metadataNamespace?: string;
  dcIdentifiers: string[];
  about: string[];
  problems: { field: string; reason: string }[];
  cut?: boolean;
}

/**
 * Reads an XML input chunk by chunk and yields its records and sets in
 * document order. With shape `response` the root must be `OAI-PMH`; with
 * `bare` the root element is the metadata of one record; with `auto`, an
 * `OAI-PMH` root is a response and any other root one bare record. A bare
 * root that is one of `collections` is split instead: each of its children
 * is one record (`member`), written as a document of its own with the
 * namespace declarations it needs from the container.
 *
 * @example for await (const ev of readOaiXml(fs.createReadStream('page1.xml'), 'response')) …
 */
export async function* readOaiXml(
  chunks: AsyncIterable<Buffer | string>,
  expected: XmlInputShape,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
  collections: readonly CollectionShape[] = [],
  options: ReadOptions = {},
): AsyncGenerator<XmlEvent> {
  let shape: 'response' | 'bare' | 'auto' = expected;
  // index.d.ts omits push's second argument, `terminate` (src/xml_sax_parser.cc).
  const parser = new (libxml().SaxPushParser)() as unknown as import('node:events').EventEmitter & { push(source: string, terminate?: boolean): boolean };
  const queue: XmlEvent[] = [];
  let line = 1;
  let faulted = false;

  // Element path by local names in the OAI namespace ('*' for anything else).
  const path: string[] = [];
  const scopes: Map<string, string>[] = [];
  let text = '';
  let capture: CanonicalXml | undefined;
  let captureFor: 'metadata' | 'setDescription' | 'about' | undefined;
  let responseDate: string | undefined;
  let request: { verb?: string; metadataPrefix?: string } | undefined;
  let rec: RecordState | undefined;
  let set: { number: number; line: number; spec: string; name: string; descriptions: string[] } | undefined;
  let records = 0;
  let sets = 0;
  /** The collection the bare root is, while it is open. */
  let collection: CollectionShape | undefined;

  let resumption: { completeListSize?: number; cursor?: number } | undefined;
  /** Inside a record's element dropped for its size: how many of its elements are open (0: none dropped). */
  let skipping = 0;
  /** The record's texts outside its metadata are no longer kept: one of them outgrew the bound. */
  let skipText = false;
  const refuseAlone = options.refuseOversizedRecords === true && shape === 'response';
  const fault = (reason: string, extra: { code?: string; malformed?: boolean } = {}): void => {
    if (!faulted) queue.push({ kind: 'fault', line, reason, ...extra });
    faulted = true;
  };
  const currentScope = (): NsScope => {
    const m = new Map<string, string>();
    for (const s of scopes) for (const [k, v] of s) m.set(k, v);
    return m;
  };
  const newRecord = (): RecordState => ({ number: ++records, line, deleted: false, sets: [], dcIdentifiers: [], about: [], problems: [] });
  const finishCapture = (): void => {
    if (!capture) return;
    const xml = capture.result();
    if (captureFor === 'metadata' && rec) {
      if (rec.metadata !== undefined) rec.problems.push({ field: 'metadata', reason: 'holds more than one element' });
      rec.metadata = xml;
      rec.dcIdentifiers.push(...capture.watched.filter((w) => w.key === DC_IDENTIFIER).map((w) => w.text));
    } else if (captureFor === 'about' && rec) {
      rec.about.push(xml);
    } else if (captureFor === 'setDescription' && set) {
      set.descriptions.push(xml);
    }
    capture = undefined;
    captureFor = undefined;
  };

  /** Refuses the input (or, with `refuseOversizedRecords`, the record) when what is being collected outgrows the largest record. */
  const checkSize = (): void => {
    if (refuseAlone && rec && capture && captureFor !== 'setDescription' && capture.size > limits.maxRecordBytes) {
      // What was collected is let go at once, and the rest of the element is read past without being kept.
      rec.problems.push({
        field: captureFor ?? 'metadata',
        reason: `is larger than ${bytesText(limits.maxRecordBytes)}, the largest record read from this source`,
      });
      rec.cut = true;
      skipping = capture.level;
      capture = undefined;
      captureFor = undefined;
    } else if (refuseAlone && rec && !capture && text.length > limits.maxRecordBytes) {
      rec.problems.push({ field: 'header', reason: `holds a text larger than ${bytesText(limits.maxRecordBytes)}, the largest record read from this source` });
      rec.cut = true;
      text = '';
      skipText = true;
    } else if (capture && capture.size > limits.maxRecordBytes) {
      const what =
        captureFor === 'setDescription'
          ? `set ${set?.number ?? ''}: a setDescription`
          : `record ${rec?.number ?? ''} (from line ${rec?.line ?? line}): its ${captureFor ?? 'metadata'}`;
      fault(`${what} is larger than ${bytesText(limits.maxRecordBytes)} (maxRecordBytes)`);
    } else if (text.length > limits.maxRecordBytes) {
      fault(`a text of more than ${bytesText(limits.maxRecordBytes)} (maxRecordBytes) outside any metadata`);
    }
  };

  parser.on('startElementNS', (local: string, attrs: SaxAttribute[], prefix: string | null, uri: string | null, ns: SaxNamespace[]) => {
    if (faulted) return;
    if (skipping > 0) {
      skipping++;
      return;
    }
    if (capture) {
      capture.start(local, attrs, prefix, uri, ns);
      checkSize();
      return;
    }
    const parent = path[path.length - 1];
    if (shape === 'auto') shape = uri === OAI_NS && local === 'OAI-PMH' ? 'response' : 'bare';
    if (shape === 'bare' && path.length === 0) {
      collection = collections.find((c) => c.namespace === (uri ?? '') && c.container === local);
    }
    if (collection && path.length === 0) {
      // The container is not kept: what its records need of its namespace declarations, each record declares.
      const scope = new Map<string, string>();
      for (const [p, u] of ns) scope.set(p ?? '', u);
      scopes.push(scope);
      path.push('*');
      return;
    }
    if (collection && path.length === 1) {
      if ((uri ?? '') !== collection.namespace || local !== collection.record) {
        fault(
          `the {${collection.namespace}}${collection.container} holds a {${uri ?? ''}}${local} element as its record ${records + 1}, not a {${collection.namespace}}${collection.record}`,
        );
        return;
      }
      rec = newRecord();
      capture = new CanonicalXml(currentScope(), new Set([DC_IDENTIFIER]));
      captureFor = 'metadata';
      rec.metadataNamespace = uri ?? '';
      capture.start(local, attrs, prefix, uri, ns);
      return;
    }
    if (shape === 'bare' && path.length === 0) {
      rec = newRecord();
      capture = new CanonicalXml(new Map(), new Set([DC_IDENTIFIER]));
      captureFor = 'metadata';
      rec.metadataNamespace = uri ?? '';
      capture.start(local, attrs, prefix, uri, ns);
      path.push('*');
      return;
    }
    if (parent === 'metadata' || parent === 'setDescription' || parent === 'about') {
      captureFor = parent;
      capture = new CanonicalXml(currentScope(), new Set([DC_IDENTIFIER]));
      if (parent === 'metadata' && rec) rec.metadataNamespace = uri ?? '';
      capture.start(local, attrs, prefix, uri, ns);
      return;
    }
    const scope = new Map<string, string>();
    for (const [p, u] of ns) scope.set(p ?? '', u);
    scopes.push(scope);
    const name = uri === OAI_NS ? local : '*';
    path.push(name);
    text = '';
    if (path.length === 1 && name !== 'OAI-PMH') fault(`the root element is {${uri ?? ''}}${local}, not an OAI-PMH response`);
    else if (name === 'request' && path.length === 2) {
      const get = (n: string): string | undefined => attrs.find((a) => a[0] === n && !a[2])?.[3];
      const verb = get('verb');
      const metadataPrefix = get('metadataPrefix');
      // Reported at its end, with its content (the baseURL).
      request = { ...(verb !== undefined && { verb }), ...(metadataPrefix !== undefined && { metadataPrefix }) };
    } else if (name === 'error' && path.length === 2) {
      const code = attrs.find((a) => a[0] === 'code')?.[3] ?? '';
      // OAI-PMH 3.6: noRecordsMatch is an empty list, not a failure.
      if (code !== 'noRecordsMatch') fault(`the response is an OAI-PMH error (${code})`, { code });
    } else if (name === 'resumptionToken' && path.length === 3 && (parent === 'ListRecords' || parent === 'ListSets')) {
      const num = (n: string): number | undefined => {
        const v = attrs.find((a) => a[0] === n && !a[2])?.[3];
        return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
      };
      const completeListSize = num('completeListSize');
      const cursor = num('cursor');
      resumption = { ...(completeListSize !== undefined && { completeListSize }), ...(cursor !== undefined && { cursor }) };
    } else if (name === 'record' && (parent === 'ListRecords' || parent === 'GetRecord')) {
      rec = newRecord();
    } else if (name === 'header' && parent === 'record' && rec) {
      rec.deleted = attrs.some((a) => a[0] === 'status' && !a[2] && a[3] === 'deleted');
    } else if (name === 'set' && parent === 'ListSets') {
      set = { number: ++sets, line, spec: '', name: '', descriptions: [] };
    } else if (name === 'ListIdentifiers' && path.length === 2) {
      fault('a ListIdentifiers response has no metadata to load; save a ListRecords response instead');
    }
  });

  parser.on('endElementNS', (local: string, prefix: string | null) => {
    if (faulted) return;
    if (skipping > 0) {
      skipping--;
      return;
    }
    if (capture) {
      capture.end(local, prefix);
      if (capture.done) {
        finishCapture();
        if (collection && rec) {
          queue.push({ kind: 'record', ...rec, bare: true, member: true });
          rec = undefined;
        } else if (shape === 'bare' && rec) {
          path.pop();
          queue.push({ kind: 'record', ...rec, bare: true });
          rec = undefined;
        }
      }
      return;
    }
    const name = path.pop();
    scopes.pop();
    const parent = path[path.length - 1];
    const value = text;
    text = '';
    if (collection && path.length === 0) {
      if (records === 0) fault(`the {${collection.namespace}}${collection.container} holds no record`);
      collection = undefined;
    } else if (path.length === 1 && name === 'responseDate') {
      responseDate = value.trim();
    } else if (path.length === 1 && name === 'request' && request) {
      const baseURL = value.trim();
      queue.push({ kind: 'request', ...request, ...(baseURL !== '' && { baseURL }), ...(responseDate !== undefined && { responseDate }) });
      request = undefined;
    } else if (rec && parent === 'header') {
      if (name === 'identifier') rec.identifier = value;
      else if (name === 'datestamp') rec.datestamp = value;
      else if (name === 'setSpec') rec.sets.push(value);
    } else if (name === 'resumptionToken' && resumption) {
      queue.push({ kind: 'resumption', token: value.trim(), ...resumption });
      resumption = undefined;
    } else if (name === 'record' && rec) {
      queue.push({ kind: 'record', ...rec });
      rec = undefined;
      skipText = false;
    } else if (set && parent === 'set') {
      if (name === 'setSpec') set.spec = value;
      else if (name === 'setName') set.name = value;
    } else if (name === 'set' && set) {
      queue.push({ kind: 'set', number: set.number, line: set.line, set: { spec: set.spec, name: set.name, descriptions: set.descriptions } });
      set = undefined;
    }
  });

  /**
   * An element the guard left out: a record of a response (or of a
   * collection) is refused alone, the records after it read on; anywhere
   * else the input stops, as the parser would have stopped it.
   */
  const elided = (): void => {
    const reason = guard.reasons.shift() ?? 'an element past a bound of the XML read';
    if (rec && (shape === 'response' || collection)) {
      if (!rec.problems.some((p) => p.reason.endsWith(reason))) rec.problems.push({ field: captureFor ?? 'header', reason: `holds ${reason}` });
      rec.cut = true;
    } else {
      fault(`${reason}${rec ? ` in record ${rec.number} (from line ${rec.line})` : ''}`);
    }
  };
  const onText = (s: string): void => {
    if (faulted) return;
    if (s.includes(ELIDED) && guard.reasons.length > 0) {
      for (let at = s.indexOf(ELIDED); at >= 0 && guard.reasons.length > 0; at = s.indexOf(ELIDED, at + 1)) elided();
      s = s.replaceAll(ELIDED, '');
      if (faulted || s === '') return;
    }
    // Text between a collection's records has no record to belong to: rather refused than lost.
    if (collection && !capture && s.trim() !== '') {
      fault(`the {${collection.namespace}}${collection.container} holds text between its records (${JSON.stringify(s.trim().slice(0, 40))})`);
      return;
    }
    if (skipping > 0 || skipText) return;
    if (capture) capture.text(s);
    else text += s;
    checkSize();
  };
  parser.on('characters', onText);
  parser.on('cdata', onText);
  parser.on('comment', (s: string) => {
    if (!faulted && capture && skipping === 0) {
      capture.comment(s);
      checkSize();
    }
  });
  parser.on('error', (message: string) => {
    // The root element itself left out: the parser finds no element, and the guard knows why.
    if (guard.reasons.length > 0 && path.length === 0 && !capture) elided();
    else fault(`not well-formed XML: ${message.replace(/\s+/g, ' ').trim()}`, { malformed: true });
  });

  const guard = new XmlGuard();
  // The prolog is held until it is known to have no DOCTYPE: nothing of a DTD ever reaches the parser.
  let prolog: string | undefined = '';
  const push = (s: string, last: boolean): void => {
    if (prolog !== undefined) {
      prolog += s;
      const verdict = prologVerdict(prolog);
      if (verdict === 'doctype') {
        line += prolog.slice(0, prolog.search(/<!DOCTYPE/)).match(/\n/g)?.length ?? 0;
        fault(
          'a DOCTYPE declaration: document type definitions are not read (their entities could expand without bound, or name files and URLs elsewhere); remove it',
        );
        return;
      }
      if (verdict === 'open' && !last) {
        if (prolog.length > MAX_PROLOG) fault(`more than ${MAX_PROLOG} characters before the root element`);
        return;
      }
      s = prolog;
      prolog = undefined;
    }
    // One line at a time, so `line` is the line the parser is on.
    let start = 0;
    for (;;) {
      if (faulted) return;
      const nl = s.indexOf('\n', start);
      if (nl < 0) break;
      parser.push(guard.write(s.slice(start, nl + 1)));
      line++;
      start = nl + 1;
    }
    if (start < s.length || last) parser.push(guard.write(s.slice(start)), last);
  };
  const decoder = new XmlDecoder();
  const feed = (d: ReturnType<XmlDecoder['write']>, last: boolean): void => {
    if ('problem' in d) {
      // The text before the bad byte is read, so the refusal names the line the byte is on.
      push(d.before, false);
      fault(d.problem);
      return;
    }
    push(d.text, last);
  };
  for await (const chunk of chunks) {
    feed(typeof chunk === 'string' ? decoder.writeText(chunk) : decoder.write(chunk), false);
    while (queue.length > 0) yield queue.shift() as XmlEvent;
    if (faulted) return;
  }
  feed(decoder.end(), true);
  if (!faulted && records === 0 && sets === 0 && shape === 'bare') fault('the file holds no element');
  while (queue.length > 0) yield queue.shift() as XmlEvent;
}

/**
 * Whether the prolog read so far holds a DOCTYPE, has reached the root
 * element (or something the parser will refuse), or is still open: the XML
 * declaration, processing instructions, comments and white space may come
 * before the root (XML 1.0 section 2.8).
 */
function prologVerdict(text: string): 'doctype' | 'root' | 'open' {
  let i = 0;
  for (;;) {
    while (i < text.length && /[\s\uFEFF]/.test(text[i] as string)) i++;
    if (i >= text.length) return 'open';
    const rest = text.slice(i, i + 9);
    if (rest.startsWith('<?')) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return 'open';
      i = end + 2;
    } else if (rest.startsWith('<!--')) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return 'open';
      i = end + 3;
    } else if ('<!DOCTYPE'.startsWith(rest) && rest.length < 9) {
      return 'open';
    } else if (rest === '<!DOCTYPE') {
      return 'doctype';
    } else {
      return 'root';
    }
  }
}

/**
 * Reads what a harvester needs of an Identify response (OAI-PMH 2.0
 * section 4.2): the repository's name, its granularity, its earliest
 * datestamp and how it keeps deletions; or the OAI-PMH error it answered.
 * libxmljs2's SAX parser, as the record reader uses (server/loader/read-oai-xml.ts),
 * behind the same guard (server/loader/xml-guard.ts), so an answer too deep
 * or with an attribute bomb is refused in time linear in its size.
 */
import { libxml } from '../xsd/libxml';
import { OAI_NS } from '../../lib/xml/namespaces';
import { XmlGuard } from '../loader/xml-guard';

/** What Identify says, as written. */
export interface IdentifyInfo {
  readonly repositoryName?: string;
  readonly baseURL?: string;
  readonly granularity?: string;
  readonly earliestDatestamp?: string;
  readonly deletedRecord?: string;
  readonly responseDate?: string;
}

/**
 * Parses an Identify response; throws an Error with the reason when it is
 * not well-formed, not an OAI-PMH response or an OAI-PMH error.
 *
 * @example parseIdentify(body).granularity // 'YYYY-MM-DDThh:mm:ssZ'
 */
export function parseIdentify(body: Buffer | string): IdentifyInfo {
  const parser = new (libxml().SaxParser)() as unknown as import('node:events').EventEmitter & { parseString(s: string): boolean };
  const path: string[] = [];
  const out: Record<string, string> = {};
  let text = '';
  let problem: string | undefined;
  parser.on('startElementNS', (local: string, attrs: [string, string | null, string | null, string][], _prefix: string | null, uri: string | null) => {
    path.push(uri === OAI_NS ? local : '*');
    text = '';
    if (path.length === 1 && path[0] !== 'OAI-PMH') problem ??= `the root element is {${uri ?? ''}}${local}, not an OAI-PMH response`;
    if (path.length === 2 && path[1] === 'error') problem ??= `the response is an OAI-PMH error (${attrs.find((a) => a[0] === 'code')?.[3] ?? ''})`;
  });
  parser.on('endElementNS', () => {
    const name = path.pop() as string;
    if ((path.length === 2 && path[1] === 'Identify') || (path.length === 1 && name === 'responseDate')) out[name] = text.trim();
    text = '';
  });
  parser.on('characters', (s: string) => {
    text += s;
  });
  parser.on('error', (m: string) => {
    problem ??= `not well-formed XML: ${m.replace(/\s+/g, ' ').trim()}`;
  });
  const guard = new XmlGuard();
  const guarded = guard.write(typeof body === 'string' ? body : body.toString('utf8'));
  // One document: what the guard left out of it is the answer's refusal, whatever the parser made of the rest.
  if (guard.reasons.length > 0) throw new Error(`the Identify answer holds ${guard.reasons[0] ?? ''}`);
  parser.parseString(guarded);
  if (problem !== undefined) throw new Error(problem);
  if (path.length !== 0 || out.granularity === undefined) throw new Error('the answer is not an Identify response');
  return out;
}

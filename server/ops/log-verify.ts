/**
 * `oai-steward log verify URL`: checks a repository's publication log from
 * the outside, as any harvester can: it reads the log's address and key
 * from Identify (or takes the key given), checks the signed checkpoint,
 * downloads every entry bundle and tile and checks them against each other
 * and the checkpoint's root, checks a checkpoint seen before is a prefix of
 * this one, then harvests every format and checks every record against its
 * identifier's latest entry. It names the first disagreement.
 */
import { openNote, parseCheckpoint, parseVerifierKey, type Checkpoint } from '../../lib/tlog/note';
import { decodeBundle, tilePath, tilesOf } from '../../lib/tlog/tiles';
import { historyOf, recordProblem, tileLevelProblem, treeOf, type HarvestedRecord } from '../../lib/tlog/verify';
import { rootOf } from '../../lib/tlog/merkle';

/** What a verification found. */
export interface LogVerification {
  readonly checkpoint: Checkpoint | null;
  /** Records checked against the log. */
  readonly records: number;
  /** The first disagreement, or null when everything agrees. */
  readonly problem: string | null;
}

/** Options of a verification. */
export interface VerifyOptions {
  /** The verifier key to trust; default: the one Identify names (trust on first use). */
  readonly key?: string;
  /** A checkpoint seen before, which the log must extend. */
  readonly previous?: Checkpoint;
  /** The log's URL, when it is reached at another address than the one Identify names (behind a proxy, say). */
  readonly logUrl?: string;
  /** Harvest and check the records too (default true). */
  readonly harvest?: boolean;
}

class Problem extends Error {}

async function get(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Problem(`GET ${url} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

function unescape(s: string): string {
  return s.replace(/&(lt|gt|amp|quot|apos);/g, (_m, n: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[n] as string);
}

/** The log's address and verifier key, from Identify's publicationLog description. */
async function fromIdentify(baseUrl: string): Promise<{ url: string; key: string }> {
  const xml = (await get(`${baseUrl}?verb=Identify`)).toString('utf8');
  const d = /<publicationLog\b[\s\S]*?<url>([^<]*)<\/url>[\s\S]*?<verifierKey>([^<]*)<\/verifierKey>/.exec(xml);
  if (d === null) throw new Problem(`${baseUrl} names no publication log in Identify`);
  return { url: unescape(d[1] as string), key: unescape(d[2] as string) };
}

/** The records of one ListRecords response and its resumption token. */
function recordsOf(xml: string, prefix: string): { records: HarvestedRecord[]; token: string | null } {
  const records: HarvestedRecord[] = [];
  // A record runs to the next record's header or the list's end: a format's own root may be a `record` too (MARCXML).
  for (const m of xml.matchAll(/<record>\s*(<header[\s\S]*?)(?=<record>\s*<header|<\/ListRecords>|<resumptionToken)/g)) {
    const body = m[1] as string;
    const header = /<header( status="deleted")?>([\s\S]*?)<\/header>/.exec(body);
    if (header === null) continue;
    const h = header[2] as string;
    const metadata = /<metadata>([\s\S]*)<\/metadata>/.exec(body);
    records.push({
      identifier: unescape(/<identifier>([^<]*)<\/identifier>/.exec(h)?.[1] ?? ''),
      datestamp: /<datestamp>([^<]*)<\/datestamp>/.exec(h)?.[1] ?? '',
      deleted: header[1] !== undefined,
      sets: [...h.matchAll(/<setSpec>([^<]*)<\/setSpec>/g)].map((s) => unescape(s[1] as string)),
      metadata: metadata === null ? null : (metadata[1] as string),
      prefix,
    });
  }
  const token = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml)?.[1];
  return { records, token: token === undefined ? null : unescape(token) };
}

/**
 * Verifies the publication log of the OAI-PMH repository at `baseUrl`.
 *
 * @example const v = await verifyLog('https://repo.example.org/oai'); if (v.problem) console.log(v.problem);
 */
export async function verifyLog(baseUrl: string, options: VerifyOptions = {}): Promise<LogVerification> {
  let checkpoint: Checkpoint | null = null;
  let records = 0;
  try {
    const identified = await fromIdentify(baseUrl);
    const named = { ...identified, url: options.logUrl ?? identified.url };
    const verifier = parseVerifierKey(options.key ?? named.key);
    let text: string;
    try {
      text = openNote((await get(`${named.url}checkpoint`)).toString('utf8'), verifier);
    } catch (err) {
      throw new Problem(`the checkpoint: ${(err as Error).message}`);
    }
    checkpoint = parseCheckpoint(text);
    if (checkpoint.origin !== verifier.name) throw new Problem(`the checkpoint's origin ${checkpoint.origin} is not the key's name ${verifier.name}`);
    const size = checkpoint.size;
    const entries: Buffer[] = [];
    const levels = new Map<number, Buffer[]>();
    for (const t of tilesOf(size)) {
      const hashes = await get(`${named.url}${tilePath(t)}`);
      levels.set(t.level as number, [...(levels.get(t.level as number) ?? []), hashes]);
      if (t.level === 0) {
        const bundle = decodeBundle(await get(`${named.url}${tilePath({ level: 'entries', n: t.n, width: t.width })}`));
        if (bundle.length !== t.width) throw new Problem(`entry bundle ${t.n} holds ${bundle.length} entries, not ${t.width}`);
        entries.push(...bundle);
      }
    }
    const tree = treeOf(entries);
    for (const [level, parts] of levels) {
      const problem = tileLevelProblem(level, Buffer.concat(parts), tree.leaves);
      if (problem !== null) throw new Problem(problem);
    }
    if (!tree.root.equals(checkpoint.root)) throw new Problem(`the entries' root is not the checkpoint's (size ${size})`);
    const prev = options.previous;
    if (prev !== undefined) {
      if (prev.origin !== checkpoint.origin) throw new Problem(`the earlier checkpoint is of ${prev.origin}, this one of ${checkpoint.origin}`);
      if (prev.size > size) throw new Problem(`the log has ${size} entries, fewer than the ${prev.size} of the earlier checkpoint`);
      if (!rootOf(tree.leaves, 0, prev.size).equals(prev.root))
        throw new Problem(`the log's first ${prev.size} entries are not those of the earlier checkpoint`);
    }
    const history = historyOf(entries);
    if ('problem' in history) throw new Problem(history.problem);
    if (options.harvest !== false) {
      const formats = (await get(`${baseUrl}?verb=ListMetadataFormats`)).toString('utf8');
      for (const m of formats.matchAll(/<metadataPrefix>([^<]+)<\/metadataPrefix>/g)) {
        const prefix = unescape(m[1] as string);
        let query = `verb=ListRecords&metadataPrefix=${encodeURIComponent(prefix)}`;
        for (;;) {
          const xml = (await get(`${baseUrl}?${query}`)).toString('utf8');
          const page = recordsOf(xml, prefix);
          for (const r of page.records) {
            const problem = recordProblem(r, history.latest.get(r.identifier));
            if (problem !== null) throw new Problem(problem);
            records++;
          }
          if (page.token === null) break;
          query = `verb=ListRecords&resumptionToken=${encodeURIComponent(page.token)}`;
        }
      }
    }
    return { checkpoint, records, problem: null };
  } catch (err) {
    if (err instanceof Problem) return { checkpoint, records, problem: err.message };
    throw err;
  }
}

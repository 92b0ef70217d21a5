/**
 * HTTP content-coding negotiation for OAI-PMH 3.1.3: gzip and deflate when
 * the harvester asks for them, identity otherwise.
 */
import zlib from 'node:zlib';
import { promisify } from 'node:util';

export type Coding = 'gzip' | 'deflate' | 'identity';

/**
 * Picks the coding for an `Accept-Encoding` header among the offered ones:
 * the highest q-value wins, gzip before deflate on a tie, identity when
 * nothing offered is acceptable (OAI-PMH: identity must always work).
 * Example: `chooseCoding('deflate;q=0.5, gzip', ['gzip', 'deflate'])` is `'gzip'`.
 */
export function chooseCoding(header: string | undefined, offered: readonly ('gzip' | 'deflate')[]): Coding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let weight = 1;
    for (const p of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(p);
      if (m) weight = Number(m[1]);
    }
    if (Number.isFinite(weight)) q.set(name, weight);
  }
  let best: Coding = 'identity';
  let bestQ = 0;
  for (const c of offered) {
    const w = q.get(c) ?? (c === 'gzip' ? q.get('x-gzip') : undefined) ?? q.get('*') ?? 0;
    if (w > bestQ) {
      best = c;
      bestQ = w;
    }
  }
  return best;
}

const gzip = promisify(zlib.gzip);
const deflate = promisify(zlib.deflate);

/** Compresses a body in the thread pool (never blocking the event loop). `deflate` is the zlib format (RFC 1950), as HTTP defines it. */
export async function encodeBody(body: Buffer, coding: Coding, level: number): Promise<Buffer> {
  if (coding === 'gzip') return gzip(body, { level });
  if (coding === 'deflate') return deflate(body, { level });
  return body;
}

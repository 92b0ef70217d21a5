/**
 * The bytes of an XML input as text, in the encoding the document says it
 * is in (XML 1.0 section 4.3.3 and Appendix F): a byte order mark first
 * (UTF-8, UTF-16 LE or BE), else UTF-16 recognised by its first `<?`, else
 * the `encoding` of the XML declaration, else UTF-8. The text handed on has
 * no byte order mark, and its declaration says `UTF-8` (it is given to the
 * parser as UTF-8 whatever it was on disk, so the parser must not decode it
 * a second time). Bytes that are not of the encoding, or an encoding that
 * cannot be read, are a problem naming the byte, never replaced silently.
 */
import { TextDecoder } from 'node:util';
import { firstInvalidUtf8, utf8Tail } from './limits';

/** A piece of text, or why the input cannot be read from here on. */
export type Decoded = { readonly text: string } | { readonly problem: string; readonly before: string };

/** Bytes the document's start may take before its encoding is known (a BOM and an XML declaration). */
const SNIFF_BYTES = 512;

type Encoding = { kind: 'utf-8' } | { kind: 'latin1' } | { kind: 'ascii' } | { kind: 'decoder'; label: string; decoder: TextDecoder };

/**
 * Decodes one XML input, chunk by chunk.
 *
 * @example const d = new XmlDecoder(); d.write(chunk); … d.end();
 */
export class XmlDecoder {
  private head: Buffer = Buffer.alloc(0);
  private encoding: Encoding | undefined;
  private carry: Buffer = Buffer.alloc(0);
  /** Bytes of the input decoded so far (for the offset of a bad byte). */
  private offset = 0;
  private first = true;

  /** The text of the next chunk (possibly empty while the start is being recognised). */
  write(chunk: Buffer): Decoded {
    if (this.encoding === undefined) {
      this.head = Buffer.concat([this.head, chunk]);
      if (this.head.length < SNIFF_BYTES && !this.head.includes(0x3e)) return { text: '' };
      return this.start(false);
    }
    return this.decode(chunk, false);
  }

  /**
   * A piece of text already decoded (a caller that read the bytes itself):
   * taken as it is, its declaration made to say UTF-8 all the same.
   */
  writeText(text: string): Decoded {
    if (this.first && text !== '') {
      this.first = false;
      return { text: utf8Declaration(text.replace(/^\uFEFF/, '')) };
    }
    return { text };
  }

  /** The rest, at the end of the input. */
  end(): Decoded {
    if (this.encoding === undefined && this.head.length === 0 && !this.first) return { text: '' };
    if (this.encoding === undefined) return this.start(true);
    return this.decode(Buffer.alloc(0), true);
  }

  /** Recognises the encoding from the head read so far, then decodes it. */
  private start(last: boolean): Decoded {
    const h = this.head;
    let skip = 0;
    if (h[0] === 0xef && h[1] === 0xbb && h[2] === 0xbf) {
      this.encoding = { kind: 'utf-8' };
      skip = 3;
    } else if ((h[0] === 0xfe && h[1] === 0xff) || (h[0] === 0x00 && h[1] === 0x3c && h[2] === 0x00 && h[3] === 0x3f)) {
      this.encoding = { kind: 'decoder', label: 'UTF-16BE', decoder: new TextDecoder('utf-16be', { fatal: true }) };
      skip = h[0] === 0xfe ? 2 : 0;
    } else if ((h[0] === 0xff && h[1] === 0xfe) || (h[0] === 0x3c && h[1] === 0x00 && h[2] === 0x3f && h[3] === 0x00)) {
      this.encoding = { kind: 'decoder', label: 'UTF-16LE', decoder: new TextDecoder('utf-16le', { fatal: true }) };
      skip = h[0] === 0xff ? 2 : 0;
    } else {
      const declared = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/.exec(h.toString('latin1'))?.[1];
      const chosen = declared === undefined ? { kind: 'utf-8' as const } : encodingNamed(declared);
      if (typeof chosen === 'string') return { problem: chosen, before: '' };
      this.encoding = chosen;
    }
    this.offset = skip;
    const rest = h.subarray(skip);
    this.head = Buffer.alloc(0);
    return this.decode(rest, last);
  }

  private decode(chunk: Buffer, last: boolean): Decoded {
    const e = this.encoding as Encoding;
    let text: string;
    if (e.kind === 'utf-8') {
      const bytes = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
      const keep = last ? 0 : utf8Tail(bytes);
      const whole = bytes.subarray(0, bytes.length - keep);
      const bad = firstInvalidUtf8(whole);
      if (bad >= 0)
        return {
          problem: `byte ${this.offset + bad + 1} of the input is not UTF-8, the encoding the document is in`,
          before: whole.subarray(0, bad).toString('utf8'),
        };
      this.carry = Buffer.from(bytes.subarray(bytes.length - keep));
      this.offset += whole.length;
      text = whole.toString('utf8');
    } else if (e.kind === 'latin1') {
      this.offset += chunk.length;
      text = chunk.toString('latin1');
    } else if (e.kind === 'ascii') {
      const bad = chunk.findIndex((b) => b > 0x7f);
      if (bad >= 0)
        return {
          problem: `byte ${this.offset + bad + 1} of the input is not US-ASCII, the encoding the document declares`,
          before: chunk.subarray(0, bad).toString('latin1'),
        };
      this.offset += chunk.length;
      text = chunk.toString('latin1');
    } else {
      try {
        text = e.decoder.decode(chunk, { stream: !last });
      } catch {
        return { problem: `the bytes after byte ${this.offset} of the input are not ${e.label}, the encoding the document is in`, before: '' };
      }
      this.offset += chunk.length;
    }
    if (this.first && text !== '') {
      this.first = false;
      text = utf8Declaration(text.replace(/^\uFEFF/, ''));
    }
    return { text };
  }
}

/** The encoding a declaration names, or why it cannot be read. */
function encodingNamed(label: string): Encoding | string {
  const l = label.toLowerCase();
  if (l === 'utf-8' || l === 'utf8') return { kind: 'utf-8' };
  // ISO-8859-1 exactly: the WHATWG decoder of that label is windows-1252, which differs at 0x80-0x9F.
  if (l === 'iso-8859-1' || l === 'iso8859-1' || l === 'iso_8859-1' || l === 'latin1' || l === 'l1') return { kind: 'latin1' };
  if (l === 'us-ascii' || l === 'ascii') return { kind: 'ascii' };
  if (l.startsWith('utf-16') || l === 'utf16')
    return `the document declares the encoding ${label}, but does not begin as UTF-16 does (a byte order mark or "<?" in two bytes each)`;
  try {
    return { kind: 'decoder', label, decoder: new TextDecoder(l, { fatal: true }) };
  } catch {
    return `the document declares the encoding ${JSON.stringify(label)}, which cannot be read (UTF-8, UTF-16, ISO-8859-1, US-ASCII and the encodings of the WHATWG Encoding Standard can)`;
  }
}

/** The text with its XML declaration saying UTF-8, the encoding it is now in. */
function utf8Declaration(text: string): string {
  return text.replace(/^(<\?xml\s[^>]*?encoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
}

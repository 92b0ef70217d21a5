/**
 * Signed notes (C2SP signed-note) and checkpoints (C2SP tlog-checkpoint):
 * the signed tree head a publication log serves and a verifier checks.
 *
 * A note is UTF-8 text ending in a newline, a blank line, then one line per
 * signature, `— <key name> <base64(key ID ‖ signature)>`. An Ed25519 key's ID
 * is the first 4 bytes of SHA-256(name ‖ 0x0A ‖ 0x01 ‖ public key), and its
 * verifier key is written `<name>+<8 hex key ID>+<base64(0x01 ‖ public key)>`.
 * A checkpoint's text is `<origin>\n<tree size>\n<base64 root>\n`.
 */
import crypto, { type KeyObject } from 'node:crypto';
import { HASH_SIZE } from './merkle';

/** The signature algorithm byte of Ed25519 in a signed note. */
const ALG_ED25519 = 0x01;
/** What precedes a signature line: an em dash and a space. */
const SIG_PREFIX = '\u2014 ';
/** DER of a PKCS #8 Ed25519 private key before its 32-byte seed (RFC 8410 section 7). */
const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The 4-byte key ID of an Ed25519 key named `name`. */
export function keyId(name: string, publicKey: Uint8Array): Buffer {
  return crypto
    .createHash('sha256')
    .update(Buffer.from(`${name}\n`, 'utf8'))
    .update(Buffer.of(ALG_ED25519))
    .update(publicKey)
    .digest()
    .subarray(0, 4);
}

/** A key name as C2SP signed-note allows it: non-empty, no space, no `+`. */
export function isKeyName(name: string): boolean {
  return name.length > 0 && !/[\s+]/u.test(name);
}

/**
 * The verifier key of an Ed25519 key: `name+hex(key ID)+base64(0x01 ‖ public key)`.
 *
 * @example verifierKey('example.org/log', pub) // 'example.org/log+1a2b3c4d+AR…'
 */
export function verifierKey(name: string, publicKey: Uint8Array): string {
  return `${name}+${keyId(name, publicKey).toString('hex')}+${Buffer.concat([Buffer.of(ALG_ED25519), publicKey]).toString('base64')}`;
}

/** A verifier key read back. */
export interface Verifier {
  readonly name: string;
  readonly id: Buffer;
  readonly publicKey: Buffer;
}

/** Reads a verifier key; throws naming what is wrong. */
export function parseVerifierKey(vkey: string): Verifier {
  const m = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(vkey);
  if (m === null) throw new Error(`not a verifier key: ${vkey}`);
  const name = m[1] as string;
  const raw = Buffer.from(m[3] as string, 'base64');
  if (raw.length !== 33 || raw[0] !== ALG_ED25519) throw new Error(`not an Ed25519 verifier key: ${vkey}`);
  const publicKey = raw.subarray(1);
  const id = keyId(name, publicKey);
  if (id.toString('hex') !== m[2]) throw new Error(`the key ID of ${vkey} does not match its key`);
  return { name, id, publicKey };
}

/** The Ed25519 private key of a 32-byte seed. */
export function privateKeyFromSeed(seed: Uint8Array): KeyObject {
  if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
  return crypto.createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

/** The raw 32-byte public key of an Ed25519 private key. */
export function publicKeyOf(key: KeyObject): Buffer {
  const jwk = crypto.createPublicKey(key).export({ format: 'jwk' });
  return Buffer.from(jwk.x as string, 'base64url');
}

/**
 * Signs `text` (which ends in a newline) as the note of `name`: the text, a
 * blank line and the signature line.
 *
 * @example signNote('hello\n', 'example.org/log', key) // 'hello\n\n— example.org/log AbCd…\n'
 */
export function signNote(text: string, name: string, key: KeyObject): string {
  if (!text.endsWith('\n') || text.includes('\n\n') || !isKeyName(name)) throw new Error('a note text ends in one newline and has no blank line');
  const signature = crypto.sign(null, Buffer.from(text, 'utf8'), key);
  const sig = Buffer.concat([keyId(name, publicKeyOf(key)), signature]).toString('base64');
  return `${text}\n${SIG_PREFIX}${name} ${sig}\n`;
}

/**
 * The text of a note with a valid signature by `verifier`; throws naming
 * why not (signatures by other keys are ignored, as signed-note allows).
 */
export function openNote(note: string, verifier: Verifier): string {
  const split = note.lastIndexOf('\n\n');
  if (!note.endsWith('\n') || split < 0) throw new Error('malformed note: no blank line before the signatures');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  for (const line of lines) {
    if (!line.startsWith(SIG_PREFIX)) throw new Error(`malformed note: a signature line is ${JSON.stringify(line)}`);
    const [name, b64] = line.slice(SIG_PREFIX.length).split(' ');
    if (name !== verifier.name || b64 === undefined) continue;
    const raw = Buffer.from(b64, 'base64');
    if (raw.length !== 4 + 64 || !raw.subarray(0, 4).equals(verifier.id)) continue;
    const publicKey = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: verifier.publicKey.toString('base64url') }, format: 'jwk' });
    if (!crypto.verify(null, Buffer.from(text, 'utf8'), publicKey, raw.subarray(4))) throw new Error(`invalid signature for key ${verifier.name}`);
    return text;
  }
  throw new Error(`the note has no signature by ${verifier.name}+${verifier.id.toString('hex')}`);
}

/** A checkpoint: the log's origin, its size and root. */
export interface Checkpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: Buffer;
}

/** The text of a checkpoint (C2SP tlog-checkpoint). */
export function checkpointText(c: Checkpoint): string {
  return `${c.origin}\n${c.size}\n${c.root.toString('base64')}\n`;
}

/** Reads a checkpoint's text (extension lines after the root are allowed and ignored); throws naming what is wrong. */
export function parseCheckpoint(text: string): Checkpoint {
  const lines = text.split('\n');
  const [origin, size, root] = lines;
  if (origin === undefined || origin === '' || size === undefined || !/^(0|[1-9][0-9]*)$/.test(size) || root === undefined) {
    throw new Error('malformed checkpoint: it needs an origin, a size and a root');
  }
  const hash = Buffer.from(root, 'base64');
  if (hash.length !== HASH_SIZE || hash.toString('base64') !== root) throw new Error('malformed checkpoint: the root is not a base64 SHA-256 hash');
  return { origin, size: Number(size), root: hash };
}

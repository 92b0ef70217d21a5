/**
 * The publication log's signing key: an Ed25519 key and its name, the log's
 * origin (`<repositoryIdentifier>/log`), kept in a file of its own, mode
 * 0600, in the form Go's golang.org/x/mod/sumdb/note reads
 * (`PRIVATE+KEY+<name>+<hex key ID>+<base64(0x01 ‖ seed)>`), so the name,
 * and with it the origin, is fixed when the key is made and every tool that
 * reads a note signer key can sign with it.
 *
 * The key is made with the log: when a command that migrates the store
 * (serve, migrate, seed, load, harvest) opens it and finds none
 * (./provider.ts), and kept beside the store (`<store file>-log.key` for SQLite, or `logKeyFile`);
 * `backup` copies it beside the backup and `restore` brings it back
 * (./ops/backup.ts), so a restored repository signs with the key its
 * harvesters know.
 */
import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { isKeyName, keyId, privateKeyFromSeed, publicKeyOf, verifierKey } from '../lib/tlog/note';

/** A loaded signing key. */
export interface LogKey {
  /** The key name, the log's origin. */
  readonly name: string;
  readonly key: KeyObject;
  /** `name+hex(key ID)+base64(0x01 ‖ public key)` (lib/tlog/note.ts). */
  readonly verifier: string;
}

/** The key file's text for a name and a 32-byte seed. */
export function keyFileText(name: string, seed: Uint8Array): string {
  const pub = publicKeyOf(privateKeyFromSeed(seed));
  return `PRIVATE+KEY+${name}+${keyId(name, pub).toString('hex')}+${Buffer.concat([Buffer.of(1), seed]).toString('base64')}\n`;
}

/** Reads a key file's text; throws naming what is wrong (never the key). */
export function parseKeyFile(text: string, where: string): LogKey {
  const m = /^PRIVATE\+KEY\+([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)\s*$/.exec(text);
  const raw = m === null ? null : Buffer.from(m[3] as string, 'base64');
  if (m === null || raw === null || raw.length !== 33 || raw[0] !== 1)
    throw new Error(`${where} is not an Ed25519 note signer key (PRIVATE+KEY+<name>+<id>+<key>)`);
  const name = m[1] as string;
  const key = privateKeyFromSeed(raw.subarray(1));
  const pub = publicKeyOf(key);
  if (keyId(name, pub).toString('hex') !== m[2]) throw new Error(`${where}: the key ID does not match the key`);
  return { name, key, verifier: verifierKey(name, pub) };
}

/**
 * The key in `file`, made (mode 0600, written whole or not at all) with the
 * name `name` when the file does not exist. A key that exists keeps its
 * name, whatever `name` is now: the origin is fixed when the log is created.
 *
 * @example const k = loadOrCreateLogKey('data/oai-steward.sqlite-log.key', 'example.org/log'); k.verifier
 */
export function loadOrCreateLogKey(file: string, name: string): LogKey {
  if (!fs.existsSync(file)) {
    if (!isKeyName(name)) throw new Error(`the publication log's key name ${JSON.stringify(name)} holds white space or "+"`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const partial = `${file}.partial-${process.pid}`;
    fs.writeFileSync(partial, keyFileText(name, crypto.randomBytes(32)), { mode: 0o600, flag: 'wx' });
    try {
      // Another process may have made it first: theirs is kept (link fails when the name exists).
      fs.linkSync(partial, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(partial, { force: true });
    }
  }
  return parseKeyFile(fs.readFileSync(file, 'utf8'), file);
}

/** An ephemeral key, for a store without a file (`:memory:`): a harvester can check it only for the life of the process. */
export function ephemeralLogKey(name: string): LogKey {
  const seed = crypto.randomBytes(32);
  return parseKeyFile(keyFileText(name, seed), 'an ephemeral key');
}

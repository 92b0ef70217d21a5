import { expect } from 'chai';
import crypto from 'node:crypto';
import {
  checkpointText,
  keyId,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  privateKeyFromSeed,
  publicKeyOf,
  signNote,
  verifierKey,
} from '../../lib/tlog/note';

// Go's golang.org/x/mod/sumdb/note example (note_test.go): a signer key, its verifier key, a text and the note it signs.
const GO_SIGNER = 'PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const GO_VERIFIER = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;

function goKey(): crypto.KeyObject {
  const raw = Buffer.from(GO_SIGNER.split('+').slice(4).join('+'), 'base64');
  expect(raw[0]).to.equal(1);
  return privateKeyFromSeed(raw.subarray(1));
}

describe('signed notes and checkpoints', () => {
  it("reproduces Go's sumdb/note example byte for byte", () => {
    expect(signNote(GO_TEXT, 'PeterNeumann', goKey())).to.equal(GO_NOTE);
  });

  it("writes Go's verifier key for its signer key, with its key ID", () => {
    const pub = publicKeyOf(goKey());
    expect(verifierKey('PeterNeumann', pub)).to.equal(GO_VERIFIER);
    expect(keyId('PeterNeumann', pub).toString('hex')).to.equal('c74f20a3');
  });

  it("opens Go's note with its verifier key", () => {
    expect(openNote(GO_NOTE, parseVerifierKey(GO_VERIFIER))).to.equal(GO_TEXT);
  });

  it('refuses a note whose text or signature was changed', () => {
    const v = parseVerifierKey(GO_VERIFIER);
    expect(() => openNote(GO_NOTE.replace('answer', 'ANSWER'), v)).to.throw(/invalid signature/);
    expect(() => openNote(GO_NOTE.replace('x08go/ZJ', 'x08go/ZK'), v)).to.throw(/invalid signature/);
    expect(() => openNote(GO_TEXT, v)).to.throw(/malformed/);
  });

  it('refuses a note signed by another key of the same name', () => {
    const other = crypto.generateKeyPairSync('ed25519').privateKey;
    expect(() => openNote(signNote(GO_TEXT, 'PeterNeumann', other), parseVerifierKey(GO_VERIFIER))).to.throw(/no signature by PeterNeumann\+c74f20a3/);
  });

  it('refuses a verifier key whose key ID does not match its key', () => {
    expect(() => parseVerifierKey(GO_VERIFIER.replace('c74f20a3', 'c74f20a4'))).to.throw(/does not match/);
  });

  it('writes a checkpoint as origin, size and base64 root, and reads it back', () => {
    const root = crypto.createHash('sha256').update('x').digest();
    const text = checkpointText({ origin: 'example.org/log', size: 70000, root });
    expect(text).to.equal(`example.org/log\n70000\n${root.toString('base64')}\n`);
    expect(parseCheckpoint(text)).to.deep.equal({ origin: 'example.org/log', size: 70000, root });
    expect(() => parseCheckpoint('example.org/log\n07\nAAAA\n')).to.throw(/malformed/);
  });
});

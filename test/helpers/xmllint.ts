/**
 * An independent exclusive C14N to test ours against: libxml2's, through
 * `xmllint --exc-c14n` (Debian libxml2-utils, installed by
 * scripts/system-deps.sh). xmllint keeps comments, so they are cut from its
 * output (in canonical output `<!--` can only open a comment: text and
 * attribute values have `<` escaped).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { escapeAttr } from '../../lib/xml/chars';

export const XMLLINT = '/usr/bin/xmllint';

/** The wrapper's own namespace, one no fragment uses, so the wrapper declares nothing else. */
const WRAP_NS = 'urn:x-c14n-test-wrapper';

/**
 * libxml2's exclusive C14N (without comments) of `fragment`, one element,
 * standing where the namespaces of `scope` are in scope (prefix '' is the
 * default namespace).
 */
export function xmllintExcC14n(fragment: string, scope: ReadonlyMap<string, string>): string {
  return canonicalWrapped(fragment, scope);
}

function canonicalWrapped(fragment: string, scope: ReadonlyMap<string, string>): string {
  const decls = [...scope].map(([p, uri]) => (p === '' ? ` xmlns="${escapeAttr(uri)}"` : ` xmlns:${p}="${escapeAttr(uri)}"`)).join('');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'c14n-'));
  const file = path.join(dir, 'doc.xml');
  try {
    fs.writeFileSync(file, `<zzw:w xmlns:zzw="${WRAP_NS}"${decls}>${fragment}</zzw:w>`);
    const out = execFileSync(XMLLINT, ['--nonet', '--exc-c14n', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const open = `<zzw:w xmlns:zzw="${WRAP_NS}">`;
    if (!out.startsWith(open) || !out.endsWith('</zzw:w>')) throw new Error(`xmllint wrote an unexpected document: ${out.slice(0, 200)}`);
    return out.slice(open.length, -'</zzw:w>'.length).replace(/<!--[\s\S]*?-->/g, '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** {@link xmllintExcC14n} of many fragments standing in the same scope, in one run of xmllint. */
export function xmllintExcC14nMany(fragments: readonly string[], scope: ReadonlyMap<string, string>): string[] {
  if (fragments.length === 0) return [];
  const joined = xmllintExcC14n(fragments.map((f) => `<zzw:i>${f}</zzw:i>`).join(''), scope);
  return joined.slice('<zzw:i>'.length, -'</zzw:i>'.length).split('</zzw:i><zzw:i>');
}

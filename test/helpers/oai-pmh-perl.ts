/**
 * Debian's libhttp-oai-perl `oai_pmh` command, the suite's real Perl
 * harvester (test/interop/). It prints each record as header lines
 * ("identifier: …", "status: deleted", "setSpec: …"), a blank line, the
 * metadata XML, and a form feed; an OAI error makes it exit non-zero.
 * PERL_UNICODE=SO makes it print UTF-8 throughout (without it, Perl writes
 * strings without wide characters as Latin-1).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';

export const OAI_PMH = '/usr/bin/oai_pmh';

/** One record as `oai_pmh` printed it. */
export interface PrintedRecord {
  identifier: string;
  deleted: boolean;
  sets: string[];
  /** The metadata XML; empty for headers and deleted records. */
  xml: string;
}

/** Fails with the way to install it when `oai_pmh` is missing. */
export function requireOaiPmh(): void {
  if (!fs.existsSync(OAI_PMH)) throw new Error(`${OAI_PMH} is missing: run scripts/system-deps.sh (apt-get install libhttp-oai-perl)`);
}

/**
 * Runs `oai_pmh` with the arguments (asynchronously: the server may run in
 * this process) and returns its standard output; rejects with its standard
 * error when it exits non-zero.
 */
export function oaiPmh(args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      OAI_PMH,
      [...args],
      { env: { ...process.env, PERL_UNICODE: 'SO' }, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`oai_pmh ${args.join(' ')} failed (${err.message}):\n${stderr}\n${stdout.slice(0, 2000)}`));
        else resolve(stdout);
      },
    );
  });
}

/** Splits the output of `oai_pmh` into records: form-feed separated, header lines, a blank line, then XML. */
export function parseOutput(out: string): PrintedRecord[] {
  return out
    .split('\f')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const text = chunk.replace(/^\n+/, '');
      const blank = text.indexOf('\n\n');
      const head = blank < 0 ? text : text.slice(0, blank);
      const fields = head.split('\n').map((line) => {
        const colon = line.indexOf(': ');
        return colon < 0 ? [line.replace(/:$/, ''), ''] : [line.slice(0, colon), line.slice(colon + 2)];
      });
      const get = (name: string): string[] => fields.filter(([k]) => k === name).map(([, v]) => v ?? '');
      return {
        identifier: get('identifier')[0] ?? '',
        deleted: get('status')[0] === 'deleted',
        sets: get('setSpec'),
        xml: blank < 0 ? '' : text.slice(blank + 2).trim(),
      };
    });
}

/** Decodes the five predefined entities and character references of XML text. */
export function xmlText(s: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
  return s.replace(
    /&(#x[0-9a-fA-F]+|#[0-9]+|amp|lt|gt|quot|apos);/g,
    (_m, e: string) => named[e] ?? String.fromCodePoint(e.startsWith('#x') ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
  );
}

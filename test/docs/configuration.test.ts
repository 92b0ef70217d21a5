/**
 * The configuration reference cannot drift from the code: every key the code
 * knows has a row in its table, every row names a key the code knows, with
 * the environment variable the code reads and, where the row gives one as
 * code, the default the code applies. The lists come from the code itself
 * (server/config-keys.ts `CONFIG_KEYS`, server/config-file.ts `FORMAT_KEYS` and
 * `BUILTIN_FORMATS`, lib/oai/descriptions.ts, lib/sets/), so a key added
 * there fails here until its row is written.
 */
import os from 'node:os';
import { expect } from 'chai';
import { loadConfig, type Config } from '../../server/config';
import { CONFIG_KEYS, type KeySpec } from '../../server/config-keys';
import { BUILTIN_FORMATS, FORMAT_KEYS } from '../../server/config-file';
import { DESCRIPTION_SCHEMAS } from '../../lib/oai/descriptions';
import { ENTRY_KEYS, RULE_KEYS } from '../../lib/sets/parse';
import { PRESETS } from '../../lib/sets/rules';
import { readMarkdown, tableRows, unquote, type Located } from '../helpers/markdown';

/** The first cell of each row, without its backticks, mapped to the row; a key given twice fails at once. */
function byKey(page: string, rows: Located<string[]>[]): Map<string, Located<string[]>> {
  const out = new Map<string, Located<string[]>>();
  for (const row of rows) {
    const key = unquote(row.value[0] ?? '');
    expect(out.has(key), `${page}:${row.line}: ${key} is documented twice`).to.equal(false);
    out.set(key, row);
  }
  return out;
}

/** Asserts the documented keys of a table are exactly the code's keys, naming each one missing or unknown. */
function sameKeys(page: string, header: string, documented: Map<string, Located<string[]>>, known: readonly string[]): void {
  const missing = known.filter((k) => !documented.has(k));
  const unknown = [...documented].filter(([k]) => !known.includes(k)).map(([k, row]) => `${k} (line ${row.line})`);
  expect(missing, `${page}: no row in the "${header}" table for`).to.deep.equal([]);
  expect(unknown, `${page}: the "${header}" table documents keys the code does not know`).to.deep.equal([]);
}

/** The value a default cell shows when it starts with a code span: `100`, `gzip,deflate`, `"text"` (quotes dropped). */
function shownDefault(cell: string): string | undefined {
  const m = /^`([^`]*)`/.exec(cell.trim());
  if (!m) return undefined;
  const v = m[1] as string;
  return /^".*"$/.test(v) ? v.slice(1, -1) : v;
}

/** A configuration value written as the docs write it: lists comma-separated, everything else as text. */
function asShown(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

/** A page's text, read when a test first asks (a missing page fails its tests, not the whole run). */
function lazyText(page: string): () => string {
  let text: string | undefined;
  return () => (text ??= readMarkdown(page).text);
}

describe('docs/configuration.md', () => {
  const page = 'docs/configuration.md';
  const text = lazyText(page);

  describe('the settings table', () => {
    const rows = (): Map<string, Located<string[]>> => byKey(page, tableRows(text(), 'file key'));
    const keys: [string, KeySpec][] = Object.entries(CONFIG_KEYS);

    it('has a row for every key server/config.ts knows, and for no other', () => {
      sameKeys(
        page,
        'file key',
        rows(),
        keys.map(([k]) => k),
      );
    });

    for (const [key, spec] of keys) {
      it(`gives ${key} the environment variable the code reads (${spec.env ?? 'file only'})`, () => {
        const row = rows().get(key);
        expect(row, `${page}: no row for ${key}`).to.not.equal(undefined);
        const cell = unquote(row?.value[1] ?? '');
        expect(cell, `${page}:${row?.line}: ${key}`).to.equal(spec.env ?? '—');
      });
    }

    it('shows, where it gives a default as code, the default the code applies', () => {
      // An empty environment and no file: every key takes its default.
      const defaults: Config = loadConfig({}, os.tmpdir());
      let compared = 0;
      for (const [key, row] of rows()) {
        const shown = shownDefault(row.value[2] ?? '');
        if (shown === undefined || !Object.hasOwn(defaults, key)) continue;
        compared++;
        expect(shown, `${page}:${row.line}: the default of ${key}`).to.equal(asShown(defaults[key as keyof Config]));
      }
      // Most settings show their default as a literal: a table that lost them would compare nothing.
      expect(compared).to.be.greaterThan(keys.length / 2);
    });
  });

  it('has a row for every key of a `formats` entry, and for no other', () => {
    sameKeys(page, 'format key', byKey(page, tableRows(text(), 'format key')), [...FORMAT_KEYS]);
  });

  it('has a row for every option of a built-in format, with its default', () => {
    const rows = tableRows(text(), 'format option');
    const documented = rows.map((r) => `${unquote(r.value[1] ?? '')}.${unquote(r.value[0] ?? '')}`);
    const known = Object.entries(BUILTIN_FORMATS).flatMap(([prefix, options]) => Object.keys(options).map((o) => `${prefix}.${o}`));
    expect(documented.sort()).to.deep.equal(known.sort());
    for (const row of rows) {
      const prefix = unquote(row.value[1] ?? '');
      const option = unquote(row.value[0] ?? '');
      expect(shownDefault(row.value[2] ?? ''), `${page}:${row.line}: the default of ${prefix} ${option}`).to.equal(BUILTIN_FORMATS[prefix]?.[option]);
    }
  });

  it('has a row for every Identify description the `identify` section takes, and for no other', () => {
    sameKeys(page, 'identify key', byKey(page, tableRows(text(), 'identify key')), Object.keys(DESCRIPTION_SCHEMAS));
  });
});

describe('docs/sets.md', () => {
  const page = 'docs/sets.md';
  const text = lazyText(page);

  it('has a row for every key of a `sets` entry, and for no other', () => {
    sameKeys(page, 'set key', byKey(page, tableRows(text(), 'set key')), ENTRY_KEYS);
  });

  it('has a row for every key a set rule may have, and for no other', () => {
    sameKeys(page, 'rule key', byKey(page, tableRows(text(), 'rule key')), RULE_KEYS);
  });

  it('has a row for every ready-made set, and for no other', () => {
    sameKeys(page, 'preset', byKey(page, tableRows(text(), 'preset')), Object.keys(PRESETS));
  });
});

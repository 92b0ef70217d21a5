/**
 * Table-driven tests (STYLE.md, habit 3): one `it` per row of a table, each
 * named as a sentence, so a failure names the row that broke.
 */
import { expect } from 'chai';

/**
 * Defines one test per row: `name(row)` is its sentence, `check(row)` its body.
 *
 * @example eachRow([['a', 1]], ([s, n]) => `counts ${s} as ${n}`, ([s, n]) => expect(s.length).to.equal(n));
 */
export function eachRow<T>(rows: readonly T[], name: (row: T) => string, check: (row: T) => void | Promise<void>): void {
  for (const row of rows) it(name(row), () => check(row));
}

/** What the identifier parsers of lib/ids return: a value, or the errors found. */
type ParseResult = { readonly ok: true } | { readonly ok: false; readonly errors: readonly string[] };

/**
 * One test per invalid value and the reason it is invalid, asserting that a
 * parser refuses it and says why: `rejects "demo" (no separator)`.
 *
 * @example rejectsEach([['demo', 'no separator']], parseFedoraPid);
 */
export function rejectsEach(rows: readonly (readonly [string, string])[], parse: (value: string) => ParseResult): void {
  eachRow(
    rows,
    ([value, why]) => `rejects ${JSON.stringify(value)} (${why})`,
    ([value]) => {
      const r = parse(value);
      expect(r.ok, value).to.equal(false);
      if (!r.ok) expect(r.errors, value).to.have.length.greaterThan(0);
    },
  );
}

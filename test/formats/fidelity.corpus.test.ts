/**
 * The fidelity matrix held on real records no one here wrote: every record of
 * every file in test/fixtures/realworld/ (the shared real-world corpus and
 * the formats' published samples), read by its format's reader, then written
 * in every built-in format that offers it and read back. Every value the
 * target format carries (✓ in the matrix's model → format column) appears in
 * its output, and nothing appears there that the input did not say: each
 * value the output holds is one of the input's, or a term of a published
 * vocabulary derived from one (`DERIVED`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ALL_PROBES, applies, fidelityMatrix, PROBE_CONTEXT, throughFormat, type FieldProbe } from '../../lib/formats/fidelity';
import type { MetadataFormat } from '../../lib/formats/format';
import { readDataciteJson } from '../../lib/formats/datacite-json';
import { europeanaStatement } from '../../lib/formats/edm';
import { BUILT_IN_FORMATS } from '../../lib/formats/registry';
import type { RecordFields } from '../../lib/model/record';
import { ACCESS_RIGHTS, COAR_TYPES } from '../../lib/model/vocabularies';
import { DCMI_OF_TYPE_OF_RESOURCE } from '../../lib/model/type-crosswalks';
import { OAI_NS } from '../../lib/xml/namespaces';
import { findAll, parseFragment, type XmlElement } from '../../lib/xml/tree';

const CORPUS = path.resolve(__dirname, '..', 'fixtures', 'realworld');
const matrix = fidelityMatrix(BUILT_IN_FORMATS);

/** Every file of the corpus, relative to it. */
function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The format whose reader lifts an element of this namespace. */
const readerOf = (root: XmlElement): MetadataFormat | undefined =>
  BUILT_IN_FORMATS.find((f) => f.read !== undefined && (f.namespace === root.ns || (f.alsoReads ?? []).includes(root.ns)));

/** The records of one corpus file: the metadata of an OAI-PMH response, or the file's own root, or DataCite JSON. */
function recordsOf(file: string): { name: string; from: string; record: RecordFields }[] {
  const text = fs.readFileSync(file, 'utf8');
  const rel = path.relative(CORPUS, file);
  if (file.endsWith('.json'))
    return readDataciteJson(JSON.parse(text) as unknown, rel).flatMap((r, i) =>
      'record' in r && r.record.fields !== undefined ? [{ name: `${rel}[${i}]`, from: 'datacite', record: r.record.fields }] : [],
    );
  if (!file.endsWith('.xml')) return [];
  const root = parseFragment(text.replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, ''));
  if (root === null) return [];
  const roots =
    root.ns === OAI_NS ? findAll(root, OAI_NS, 'metadata').flatMap((m) => m.children.filter((c): c is XmlElement => c.kind === 'element').slice(0, 1)) : [root];
  return roots.flatMap((r, i) => {
    const f = readerOf(r);
    return f === undefined ? [] : [{ name: `${rel}#${i + 1}`, from: f.prefix, record: f.read!(r) }];
  });
}

const RECORDS = files(CORPUS).flatMap(recordsOf);

/** Every value a record holds in any field the matrix probes. */
const said = (r: RecordFields): Set<string> => new Set(ALL_PROBES.flatMap((p) => p.values(r)));

/**
 * Terms a writer derives from what the input said, by a published table: the
 * COAR type's DataCite general type and label, the DCMI Type of a MODS
 * typeOfResource, an access right's COAR label. They say what the input said
 * in another vocabulary's words.
 */
const DERIVED = new Set<string>([
  ...[...COAR_TYPES.values()].flatMap((c) => [c.datacite, c.label, c.uri]),
  ...Object.values(DCMI_OF_TYPE_OF_RESOURCE),
  ...Object.keys(ACCESS_RIGHTS),
  ...Object.values(ACCESS_RIGHTS).flatMap((a) => [a.label, a.uri]),
]);

const carriedBy = (prefix: string): FieldProbe[] => ALL_PROBES.filter((_, i) => matrix.rows[i]!.carried[prefix] === 'all');

describe('the fidelity matrix on the real-world corpus', () => {
  it('reads records from every kind of file there', () => {
    expect([...new Set(RECORDS.map((r) => r.from))]).to.include.members(['oai_dc', 'marc21', 'datacite', 'oai_openaire']);
    expect(RECORDS.length).to.be.greaterThan(50);
  });

  for (const writer of BUILT_IN_FORMATS) {
    it(`${writer.prefix}: every value it carries of each real record appears in its output, and nothing the record did not say`, () => {
      const probes = carriedBy(writer.prefix);
      let written = 0;
      for (const { name, record } of RECORDS) {
        const out = throughFormat(writer, record);
        if (out === undefined) continue;
        written++;
        for (const p of probes) {
          if (!applies(p, record)) continue;
          const arrived = new Set(p.values(out));
          const lost = p.values(record).filter((v) => !arrived.has(v));
          expect(lost, `${name} → ${writer.prefix}: ${p.field} lost`).to.deep.equal([]);
        }
        const input = said(record);
        // MARC 041 holds a language's code, the primary subtag of the tag the input gave.
        for (const v of [...input]) if (/^[a-z]{2,3}-/.test(v)) input.add(v.split('-')[0]!);
        // EDM's edm:rights holds a licence in the form of Europeana's list of rights statements (http, final slash).
        for (const v of [...input]) input.add(europeanaStatement(v) ?? v);
        const invented = [...said(out)].filter((v) => !input.has(v) && !DERIVED.has(v) && !v.includes(PROBE_CONTEXT.oaiIdentifier));
        expect(invented, `${name} → ${writer.prefix}: values the input did not say`).to.deep.equal([]);
      }
      expect(written, 'records written').to.be.greaterThan(0);
    });
  }
});

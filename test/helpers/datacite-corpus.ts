/**
 * The DataCite kernel-4 XML files of the corpus (test/fixtures/realworld/:
 * the DataCite records of bolognese's tests and DataCite's own published
 * examples; test/fixtures/datacite-examples/: every published kernel-4
 * example of datacite/schema), each with its parsed root; kernel-3 files
 * are left out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseFragment, type XmlElement } from '../../lib/xml/tree';

const CORPUS = path.resolve(__dirname, '..', 'fixtures', 'realworld');
const KERNEL_4 = 'http://datacite.org/schema/kernel-4';

/** Every DataCite XML file of the corpus, with its root: kernel-4 ones are the round trip's. */
export function kernel4Files(): { name: string; root: XmlElement }[] {
  const out: { name: string; root: XmlElement }[] = [];
  for (const dir of ['datacite-bolognese', path.join('samples', 'datacite'), path.join('..', 'datacite-examples')]) {
    for (const f of fs.readdirSync(path.join(CORPUS, dir)).sort()) {
      if (!f.endsWith('.xml')) continue;
      const xml = fs.readFileSync(path.join(CORPUS, dir, f), 'utf8').replace(/^\uFEFF?<\?xml[^>]*\?>\s*/, '');
      const root = parseFragment(xml);
      if (root !== null && root.ns === KERNEL_4) out.push({ name: `${dir}/${f}`, root });
    }
  }
  return out;
}

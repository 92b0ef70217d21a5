/**
 * The benchmark's command line (bench/options.ts): the defaults, the large
 * runs' base load, the formats list, the combinations it refuses, and the
 * dry run's plan, case by case.
 */
import { expect } from 'chai';
import { ALL_FORMATS, describePlan, parseArgs, type BenchOptions } from '../../bench/options';

const ok: readonly { name: string; argv: string[]; expect: Partial<BenchOptions> }[] = [
  {
    name: 'defaults to 100,000 records in all six formats, every page harvested, no base load',
    argv: [],
    expect: { records: 100_000, formats: ALL_FORMATS, writtenFormats: 'stored', harvestPages: 0, baseRecords: 0, processes: 1 },
  },
  {
    name: 'compares a million records with a base load of 100,000 by default',
    argv: ['--records', '1000000'],
    expect: { records: 1_000_000, baseRecords: 100_000 },
  },
  {
    name: 'compares five million records with a base load of 100,000 by default',
    argv: ['--records', '5000000', '--harvest-pages', '2000'],
    expect: { baseRecords: 100_000, harvestPages: 2000 },
  },
  { name: 'takes --base-records 0 as no base load', argv: ['--records', '1000000', '--base-records', '0'], expect: { baseRecords: 0 } },
  { name: 'takes a smaller base load when asked', argv: ['--base-records', '20000'], expect: { baseRecords: 20_000 } },
  { name: 'takes a list of formats', argv: ['--formats', 'oai_dc,datacite'], expect: { formats: ['oai_dc', 'datacite'] } },
  { name: 'takes a bare --formats, its older form, as all six', argv: ['--formats', '--gzip'], expect: { formats: ALL_FORMATS, gzip: true } },
  {
    name: 'stores every format by default, and writes them on demand when asked',
    argv: ['--written-formats', 'on-demand'],
    expect: { writtenFormats: 'on-demand' },
  },
  { name: 'stores oai_dc of the formats written on demand by default', argv: ['--written-formats', 'on-demand'], expect: { storedFormats: ['oai_dc'] } },
  { name: 'stores none or a list of them when asked', argv: ['--written-formats', 'on-demand', '--stored-formats', 'none'], expect: { storedFormats: [] } },
  {
    name: 'takes a list of stored formats',
    argv: ['--written-formats', 'on-demand', '--stored-formats', 'oai_dc,marc21'],
    expect: { storedFormats: ['oai_dc', 'marc21'] },
  },
  {
    name: 'serves the store oai-steward load wrote when the direct load is skipped',
    argv: ['--skip-direct-load'],
    expect: { skipDirectLoad: true, skipCliLoad: false },
  },
];

const refused: readonly { name: string; argv: string[]; message: RegExp }[] = [
  { name: 'an unknown option', argv: ['--record', '5'], message: /unknown option "--record"/ },
  { name: 'a record count that is not a positive integer', argv: ['--records', '1e3x'], message: /--records needs an integer ≥ 1/ },
  { name: 'a format that is not built in', argv: ['--formats', 'oai_dc,didl'], message: /didl is not a built-in format/ },
  { name: 'a list of formats without oai_dc', argv: ['--formats', 'datacite'], message: /must include oai_dc/ },
  { name: 'a base load no smaller than the run', argv: ['--records', '1000', '--base-records', '1000'], message: /must be smaller than --records/ },
  { name: 'a base load with the CLI load skipped', argv: ['--base-records', '500', '--skip-cli-load'], message: /cannot go with --skip-cli-load/ },
  { name: 'skipping both loads', argv: ['--skip-cli-load', '--skip-direct-load'], message: /leave nothing to serve/ },
  { name: 'a sample of one page, which never reaches a page by token', argv: ['--harvest-pages', '1'], message: /--harvest-pages needs an integer ≥ 2/ },
  { name: 'a way of keeping formats that does not exist', argv: ['--written-formats', 'sometimes'], message: /--written-formats is stored or on-demand/ },
  { name: 'stored formats with every format stored', argv: ['--stored-formats', 'none'], message: /--stored-formats goes with --written-formats on-demand/ },
  {
    name: 'a stored format not offered',
    argv: ['--formats', 'oai_dc', '--written-formats', 'on-demand', '--stored-formats', 'marc21'],
    message: /--stored-formats: marc21 is not among the formats offered/,
  },
  { name: 'a label that cannot be part of a file name', argv: ['--label', 'a/b'], message: /--label takes letters/ },
  { name: 'a replica on SQLite, which has none', argv: ['--replica'], message: /--replica needs PostgreSQL/ },
];

describe('the benchmark options', () => {
  for (const c of ok) {
    it(c.name, () => {
      const o = parseArgs(c.argv, {});
      for (const [key, value] of Object.entries(c.expect)) expect(o[key as keyof BenchOptions], key).to.deep.equal(value);
    });
  }

  for (const c of refused) {
    it(`refuses ${c.name}, with the usage`, () => {
      const parse = (): unknown => parseArgs(c.argv, {});
      expect(parse).to.throw(c.message);
      expect(parse).to.throw(/usage: npm run bench/);
    });
  }

  it('measures a primary against a primary and a replica on PostgreSQL when asked', () => {
    expect(parseArgs(['--replica'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' }).replica).to.equal(true);
    expect(parseArgs([], {}).replica).to.equal(false);
  });

  it('returns a frozen value', () => {
    expect(Object.isFrozen(parseArgs([], {}))).to.equal(true);
  });

  it('plans a five-million-record PostgreSQL run step by step for --dry-run', () => {
    const plan = describePlan(parseArgs(['--records', '5000000', '--harvest-pages', '2000', '--skip-direct-load'], {}), 'postgresql');
    expect(plan).to.contain('records 5,000,000 on postgresql, offering all six formats');
    expect(plan).to.contain('direct load: skipped');
    expect(plan).to.contain('base: 100,000 records through oai-steward load');
    expect(plan).to.contain('harvests: the first 2,000 pages of each list; middle and last pages reached with tokens built from the store');
    expect(plan).to.contain('after VACUUM FULL');
  });
});

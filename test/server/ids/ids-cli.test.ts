import { expect } from 'chai';
import { PassThrough, Readable } from 'node:stream';
import { runIdCommand, type IdCommandDeps } from '../../../server/ids/cli';

interface Run {
  status: number;
  lines: unknown[];
  stderr: string;
}

async function run(argv: string[], stdinText = '', deps: IdCommandDeps = {}): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  stderr.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const status = await runIdCommand(argv, { stdin: Readable.from([stdinText]), stdout, stderr }, deps);
  return {
    status,
    lines: out
      .split('\n')
      .filter((l) => l.length > 0)
      .map((l) => JSON.parse(l) as unknown),
    stderr: err,
  };
}

describe('oai-steward id (command line contract)', () => {
  describe('inspect', () => {
    it('writes the contract keys for an oai-identifier, with its POI and request argument, and exits 0', async () => {
      const r = await run(['inspect', 'oai:an.oai.org:ab%3Ccd']);
      expect(r.status).to.equal(0);
      expect(r.lines).to.deep.equal([
        {
          input: 'oai:an.oai.org:ab%3Ccd',
          scheme: 'oai',
          valid: true,
          normalized: 'oai:an.oai.org:ab%3Ccd',
          errors: [],
          poi: 'http://purl.org/poi/an.oai.org/ab%3Ccd',
          requestArgument: 'oai%3Aan.oai.org%3Aab%253Ccd',
        },
      ]);
      expect(Object.keys(r.lines[0] as object)).to.deep.equal(['input', 'scheme', 'valid', 'normalized', 'errors', 'poi', 'requestArgument']);
      expect(r.stderr).to.equal('');
    });

    it('gives a POI its oai-identifier', async () => {
      const r = await run(['inspect', 'http://purl.org/poi/arXiv.org/hep-th/9901001']);
      expect(r.lines[0]).to.deep.equal({
        input: 'http://purl.org/poi/arXiv.org/hep-th/9901001',
        scheme: 'poi',
        valid: true,
        normalized: 'http://purl.org/poi/arXiv.org/hep-th/9901001',
        errors: [],
        oaiIdentifier: 'oai:arXiv.org:hep-th/9901001',
      });
    });

    const recognised: Array<[string, string, string | null]> = [
      ['demo%3a1', 'fedora-pid', 'demo:1'],
      ['info:fedora/demo:1/DC', 'info-fedora', 'info:fedora/demo:1/DC'],
      ['info:sid/OCLC.org:inspec', 'info-sid', 'info:sid/oclc.org:inspec'],
      ['PDI://A.US/2000/01/01/%41.TEXT.1', 'pdi', 'pdi://a.us/2000/01/01/A.text.1'],
      ['urn:pdi://a.us/2000/01/01/1', 'pdi', 'urn:pdi://a.us/2000/01/01/1'],
      ['OAI:foo.org:x', 'oai', null],
    ];
    for (const [input, scheme, normalized] of recognised) {
      it(`recognises ${input} as ${scheme} from its prefix`, async () => {
        const r = await run(['inspect', input]);
        expect(r.lines[0]).to.include({ input, scheme, normalized, valid: normalized !== null });
      });
    }

    it('reports an unrecognised scheme as invalid with scheme null and exits 1', async () => {
      const r = await run(['inspect', 'something:arXiv.org:hep-th/9901001']);
      expect(r.status).to.equal(1);
      expect(r.lines[0]).to.include({ scheme: null, valid: false, normalized: null });
      expect((r.lines[0] as { errors: string[] }).errors).to.have.length(1);
    });

    it('checks against the scheme given with --scheme instead of the prefix', async () => {
      const r = await run(['inspect', '--scheme', 'fedora-pid', 'oai:foo.org:x']);
      expect(r.lines[0]).to.include({ scheme: 'fedora-pid', valid: false });
      const r2 = await run(['inspect', '--scheme=oai', 'demo:1']);
      expect(r2.lines[0]).to.include({ scheme: 'oai', valid: false });
    });

    it('reads one identifier per line from stdin, writes one object per line, and a summary on stderr', async () => {
      const r = await run(['inspect'], 'oai:foo.org:a\r\noai:wibble:abc123\n\noai:wibble.org:ab%3ccd\noai:foo.org:b\n');
      expect(r.status).to.equal(1);
      expect(r.lines.map((l) => (l as { valid: boolean }).valid)).to.deep.equal([true, false, false, true]);
      expect(r.stderr).to.equal('4 identifiers: 2 valid, 2 invalid\n');
    });

    it('exits 0 for a file of valid identifiers', async () => {
      const r = await run(['inspect'], 'oai:foo.org:a\ndemo:1\n');
      expect(r.status).to.equal(0);
      expect(r.stderr).to.equal('2 identifiers: 2 valid, 0 invalid\n');
    });

    it('prints no summary when the identifiers are arguments', async () => {
      const r = await run(['inspect', 'oai:foo.org:a', 'x']);
      expect(r.lines).to.have.length(2);
      expect(r.stderr).to.equal('');
    });
  });

  describe('map and unmap', () => {
    it('maps internal ids with the contract keys (auto mode by default)', async () => {
      const r = await run(['map', '--namespace', 'example.org', 'demo:A-B.C_D%3AE', 'report 12']);
      expect(r.status).to.equal(0);
      expect(r.lines).to.deep.equal([
        {
          internalId: 'demo:A-B.C_D%3AE',
          oaiIdentifier: 'oai:example.org:demo:A-B.C_D%3AE',
          poi: 'http://purl.org/poi/example.org/demo:A-B.C_D%3AE',
          requestArgument: 'oai%3Aexample.org%3Ademo%3AA-B.C_D%253AE',
        },
        {
          internalId: 'report 12',
          oaiIdentifier: 'oai:example.org:report%2012',
          poi: 'http://purl.org/poi/example.org/report%2012',
          requestArgument: 'oai%3Aexample.org%3Areport%252012',
        },
      ]);
    });

    it('maps with --as opaque', async () => {
      const r = await run(['map', '--namespace', 'example.org', '--as', 'opaque', 'demo:A%3AE']);
      expect(r.lines[0]).to.include({ oaiIdentifier: 'oai:example.org:demo:A%253AE' });
    });

    it('reports ids --as fedora-pid refuses and exits 1', async () => {
      const r = await run(['map', '--namespace', 'example.org', '--as', 'fedora-pid'], 'demo:1\nnot a pid\n');
      expect(r.status).to.equal(1);
      expect(r.lines[0]).to.include({ internalId: 'demo:1' });
      expect(r.lines[1]).to.have.property('input', 'not a pid');
      expect(r.stderr).to.equal('2 identifiers: 1 mapped, 1 failed\n');
    });

    it('unmaps an oai-identifier and a POI back to the internal id', async () => {
      const r = await run(['unmap', 'oai:example.org:report%2012', 'http://purl.org/poi/example.org/demo:A-B.C_D%3AE']);
      expect(r.status).to.equal(0);
      expect(r.lines.map((l) => (l as { internalId: string }).internalId)).to.deep.equal(['report 12', 'demo:A-B.C_D%3AE']);
      expect(r.lines[0]).to.deep.equal({
        internalId: 'report 12',
        oaiIdentifier: 'oai:example.org:report%2012',
        poi: 'http://purl.org/poi/example.org/report%2012',
        requestArgument: 'oai%3Aexample.org%3Areport%252012',
      });
    });

    it('refuses to unmap an identifier of another namespace than --namespace', async () => {
      const r = await run(['unmap', '--namespace', 'example.org', 'oai:other.org:x']);
      expect(r.status).to.equal(1);
      expect(r.lines[0]).to.have.property('input', 'oai:other.org:x');
    });

    it('needs --namespace to map', async () => {
      const r = await run(['map', 'x']);
      expect(r.status).to.equal(2);
      expect(r.stderr).to.match(/--namespace/);
    });
  });

  describe('mint-pdi', () => {
    it('mints through the store with the given date', async () => {
      const calls: string[][] = [];
      const r = await run(['mint-pdi', '--series', 'pubs.example.us', '--format', 'html', '--date', '2024-03-01'], '', {
        mintPdi: async (series, format, date) => {
          calls.push([series, format, date]);
          return 'urn:pdi://pubs.example.us/2024/03/01/1.html.1';
        },
      });
      expect(r.status).to.equal(0);
      expect(calls).to.deep.equal([['pubs.example.us', 'html', '2024-03-01']]);
      expect(r.lines[0]).to.deep.equal({ pdi: 'urn:pdi://pubs.example.us/2024/03/01/1.html.1', series: 'pubs.example.us', format: 'html', date: '2024-03-01' });
    });

    it('uses the GMT date of the clock it is given when --date is omitted', async () => {
      const dates: string[] = [];
      await run(['mint-pdi', '--series', 'a.us', '--format', 'text'], '', {
        now: () => new Date('2024-03-01T23:30:00-05:00'),
        mintPdi: async (_s, _f, date) => {
          dates.push(date);
          return 'x';
        },
      });
      expect(dates).to.deep.equal(['2024-03-02']);
    });

    const bad: Array<[string[], RegExp]> = [
      [['mint-pdi', '--series', 'example', '--format', 'html', '--date', '2024-03-01'], /series/],
      [['mint-pdi', '--series', 'a.us', '--format', 'html', '--date', '2024-02-30'], /does not exist/],
      [['mint-pdi', '--series', 'a.us', '--format', '*', '--date', '2024-03-01'], /format/],
      [['mint-pdi', '--series', 'a.us', '--date', '2024-03-01'], /--format/],
      [['mint-pdi', '--series', 'a.us', '--format', 'html'], /--date/],
    ];
    for (const [argv, re] of bad) {
      it(`refuses ${argv.slice(1).join(' ')} as a usage error`, async () => {
        let called = false;
        const r = await run(argv, '', {
          mintPdi: async () => {
            called = true;
            return 'x';
          },
        });
        expect(r.status).to.equal(2);
        expect(r.stderr).to.match(re);
        expect(called).to.equal(false);
      });
    }

    it('exits 1 when no store is configured', async () => {
      const r = await run(['mint-pdi', '--series', 'a.us', '--format', 'html', '--date', '2024-03-01']);
      expect(r.status).to.equal(1);
      expect(r.stderr).to.match(/store/);
    });
  });

  it('answers an unknown command or option with usage and status 2', async () => {
    expect((await run(['frobnicate'])).status).to.equal(2);
    const r = await run(['inspect', '--bogus', 'x']);
    expect(r.status).to.equal(2);
    expect(r.stderr).to.match(/usage/);
    expect((await run(['inspect', '--scheme', 'nope', 'x'])).status).to.equal(2);
  });

  it('tolerates a leading "id" argument', async () => {
    expect((await run(['id', 'inspect', 'oai:foo.org:a'])).status).to.equal(0);
  });
});

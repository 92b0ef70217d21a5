/**
 * The long run of the hostile-request fuzzer (harness/hostile-requests.ts
 * holds the arbitraries and the judge; test/reliability/fuzz.test.ts runs a
 * bounded number of cases in the suite):
 *
 *   npm run build && node dist/bench/fuzz.js [--cases N | --minutes M] [--seed S] [--url http://host:port/oai]
 *
 * Without `--url` it serves the demo repository from a fresh SQLite file
 * (or DATABASE_URL's PostgreSQL, which must be empty) in this process, with
 * page size 7. It prints the answers by status and, on a failure, the
 * shrunk counterexample, and exits 1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { PROJECT_ROOT } from '../server/paths';
import { describeRequest, hostileRequest, judge, send } from '../harness/hostile-requests';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const minutes = arg('--minutes') !== undefined ? Number(arg('--minutes')) : undefined;
  const cases = Number(arg('--cases') ?? (minutes !== undefined ? 1e9 : 20_000));
  const seed = arg('--seed') !== undefined ? Number(arg('--seed')) : Date.now() % 2 ** 31;
  // libxml2 reads the catalog when libxmljs2 is first loaded (schemas/README.md): set it first.
  process.env.XML_CATALOG_FILES = path.join(PROJECT_ROOT, 'schemas', 'catalog.xml');
  const libxml = (await import('libxmljs2')) as typeof import('libxmljs2');
  const schemaFile = path.join(PROJECT_ROOT, 'schemas', 'oai-pmh-all.xsd');
  const schema = libxml.parseXml(fs.readFileSync(schemaFile, 'utf8'), { baseUrl: schemaFile, nonet: true });
  const xsdErrors = (xml: string): string[] => {
    try {
      const doc = libxml.parseXml(xml, { nonet: true });
      return doc.validate(schema) ? [] : doc.validationErrors.map((e) => e.message.trim());
    } catch (err) {
      return [`not well-formed: ${(err as Error).message}`];
    }
  };

  let port: number;
  let stop = async (): Promise<void> => undefined;
  const url = arg('--url');
  if (url !== undefined) {
    port = Number(new URL(url).port || 80);
  } else {
    const { loadConfig } = await import('../server/config');
    const { startServer } = await import('../server/serve');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-fuzz-'));
    const databaseUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : `sqlite:${path.join(dir, 'fuzz.sqlite')}`;
    const running = await startServer(
      loadConfig(
        { PORT: '0', HOST: '127.0.0.1', DATABASE_URL: databaseUrl, OAI_BASE_URL: 'http://localhost/oai', OAI_PAGE_SIZE: '7', LOG_LEVEL: 'silent' },
        dir,
      ),
    );
    port = running.port;
    stop = async () => {
      await running.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }

  const statuses = new Map<number, number>();
  const started = Date.now();
  let run = 0;
  let failure: string | null = null;
  const progress = setInterval(() => process.stderr.write(`  ${run} cases, ${((Date.now() - started) / 1000).toFixed(0)} s\n`), 30_000);
  try {
    await fc.assert(
      fc.asyncProperty(hostileRequest, async (r) => {
        if (minutes !== undefined && Date.now() - started > minutes * 60_000) return;
        run++;
        const a = await send(port, r);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
        const problem = judge(r, a, xsdErrors);
        if (problem !== null) throw new Error(`${describeRequest(r)}\n→ ${problem}`);
      }),
      { numRuns: cases, seed, ...(minutes !== undefined && { interruptAfterTimeLimit: minutes * 60_000 + 5000 }) },
    );
  } catch (err) {
    // fast-check 4 keeps the property's own error as the cause.
    const cause = (err as { cause?: unknown }).cause;
    failure = `${(err as Error).message}${cause instanceof Error ? `\n${cause.message}` : ''}`;
  } finally {
    clearInterval(progress);
    await stop();
  }
  const seconds = (Date.now() - started) / 1000;
  process.stdout.write(`${run} cases in ${seconds.toFixed(0)} s (seed ${seed}); answers by status: ${JSON.stringify(Object.fromEntries(statuses))}\n`);
  process.stdout.write(`${JSON.stringify({ cases: run, seconds: Math.round(seconds), seed, statuses: Object.fromEntries(statuses), failure })}\n`);
  if (failure !== null) {
    process.stdout.write(`FAILURE:\n${failure}\n`);
    process.exitCode = 1;
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`fuzz: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
}

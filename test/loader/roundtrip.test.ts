/**
 * Tried as a new user would: harvest the demo
 * repository with ListRecords and ListSets, save the responses, load them
 * with `oai-steward load` into a fresh store with the same namespace, and
 * compare the two repositories' answers: identical except responseDate and
 * resumption token strings.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { handleRequest } from '../../lib/oai';
import type { ProviderContext } from '../../lib/oai';
import { renderResponse } from '../../lib/oai/render';
import { loadConfig } from '../../server/config';
import { openProvider, seedIfEmpty, type Provider } from '../../server/provider';
import { DEMO_NAMESPACE } from '../helpers/demo-records';
import { cli, forEachCliDatabase, summaryOf } from './helpers';

const NOW = 1767225600; // 2026-01-01T00:00:00Z: after every demo datestamp

function open(url: string): Promise<Provider> {
  return openProvider(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', OAI_NAMESPACE: DEMO_NAMESPACE, OAI_TOKEN_SECRET: 'round-trip' }));
}

/** Every page of a list request, following resumption tokens to the end. */
async function pages(ctx: ProviderContext, args: [string, string][]): Promise<string[]> {
  const verb = args.find(([k]) => k === 'verb')?.[1] as string;
  const out: string[] = [];
  let pairs = args;
  for (;;) {
    const xml = renderResponse(await handleRequest(ctx, pairs, NOW));
    out.push(xml);
    const m = /<resumptionToken[^>]*>([^<]+)<\/resumptionToken>/.exec(xml);
    if (!m || out.length > 1000) return out;
    pairs = [
      ['verb', verb],
      ['resumptionToken', m[1] as string],
    ];
  }
}

/** A response with what legitimately differs between two stores blanked out. */
function normalize(xml: string): string {
  return xml
    .replace(/<responseDate>[^<]*<\/responseDate>/, '<responseDate/>')
    .replace(/(<resumptionToken[^>]*>)[^<]+(<\/resumptionToken>)/g, '$1TOKEN$2')
    .replace(/ resumptionToken="[^"]*"/g, ' resumptionToken="TOKEN"');
}

forEachCliDatabase((db) => {
  it('reproduces identical responses after exporting the demo repository and loading the export into a fresh store', async function () {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-source-'));
    const source = await open(`sqlite:${path.join(dir, 'source.sqlite')}`);
    let target: Provider | undefined;
    try {
      await seedIfEmpty(source);
      const sctx = await source.context();
      const records = await pages(sctx, [
        ['verb', 'ListRecords'],
        ['metadataPrefix', 'oai_dc'],
      ]);
      const sets = await pages(sctx, [['verb', 'ListSets']]);
      expect(records.length, 'the demo spans several pages').to.be.greaterThan(1);
      const files: string[] = [];
      // Records first on the command line: the loader reads ListSets responses first anyway.
      records.forEach((xml, i) => files.push(path.join(db().dir, `ListRecords-${i + 1}.xml`)));
      sets.forEach((xml, i) => files.push(path.join(db().dir, `ListSets-${i + 1}.xml`)));
      [...records, ...sets].forEach((xml, i) => fs.writeFileSync(files[i] as string, xml));

      // This repository's own export: a migration keeps its datestamps.
      const run = await cli(db(), ['load', '--json', '--keep-datestamps', ...files]);
      expect(run.code, run.stderr).to.equal(0);
      const count = await source.store.count({ metadataPrefix: 'oai_dc', until: NOW });
      expect(summaryOf(run)).to.include({ records: count, refused: 0, committed: true });
      const again = await cli(db(), ['load', '--json', '--keep-datestamps', ...files]);
      expect(summaryOf(again), 'loading the export twice changes nothing').to.include({ unchanged: count });

      target = await open(db().url);
      const tctx = await target.context();
      const requests: [string, string][][] = [
        [
          ['verb', 'ListRecords'],
          ['metadataPrefix', 'oai_dc'],
        ],
        [
          ['verb', 'ListIdentifiers'],
          ['metadataPrefix', 'oai_dc'],
        ],
        [['verb', 'ListSets']],
        [
          ['verb', 'ListRecords'],
          ['metadataPrefix', 'oai_dc'],
          ['set', 'physics'],
        ],
        [
          ['verb', 'ListIdentifiers'],
          ['metadataPrefix', 'oai_dc'],
          ['from', '2024-12-30'],
          ['until', '2024-12-31'],
        ],
        [['verb', 'ListMetadataFormats']],
      ];
      for (const r of requests) {
        const a = (await pages(sctx, r)).map(normalize);
        const b = (await pages(tctx, r)).map(normalize);
        expect(b, JSON.stringify(r)).to.deep.equal(a);
      }
      const identifiers = [...records.join('').matchAll(/<identifier>([^<]+)<\/identifier>/g)].map((m) => m[1] as string);
      expect(identifiers).to.have.length(count);
      for (const id of identifiers) {
        const unescaped = id
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&amp;/g, '&');
        const req: [string, string][] = [
          ['verb', 'GetRecord'],
          ['metadataPrefix', 'oai_dc'],
          ['identifier', unescaped],
        ];
        const a = normalize(renderResponse(await handleRequest(sctx, req, NOW)));
        const b = normalize(renderResponse(await handleRequest(tctx, req, NOW)));
        expect(a, id).to.contain('<GetRecord>');
        expect(b, id).to.equal(a);
      }
    } finally {
      await source.close();
      await target?.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

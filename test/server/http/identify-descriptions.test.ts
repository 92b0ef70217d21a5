/**
 * Identify's description containers from the configuration file: eprints,
 * friends, branding and rightsManifest, valid against their published XSDs
 * (through the endpoint), and a bad one stops start-up naming the key.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../../server/config';
import { startTestServer, texts, type TestServer } from '../../helpers/server';
import { databaseKinds, openThrowawayDatabase, type ThrowawayDatabase } from '../../helpers/db';
import { assertValid } from '../../helpers/xsd';

const FULL = `
identify:
  eprints:
    content: { text: Theses & articles of Example University, url: https://example.edu/about?lang=en&view=full }
    metadataPolicy: { text: "Metadata may be re-used under CC0; the text R&amp;D stays as written.", url: https://creativecommons.org/publicdomain/zero/1.0/ }
    dataPolicy: { url: [https://example.edu/data-policy, https://example.edu/data-policy/fr] }
    submissionPolicy: { text: Members of the university deposit their own work. }
    comment: [Contact the library for bulk access., 日本語のコメント]
  friends: [http://export.arxiv.org/oai2, https://zenodo.org/oai2d]
  branding:
    collectionIcon: { url: https://example.edu/icon.png, link: https://example.edu/, title: Example <Repository>, width: 88, height: 31 }
    metadataRendering:
      - { url: https://example.edu/dc.css, metadataNamespace: http://www.openarchives.org/OAI/2.0/oai_dc/, mimeType: text/css }
  rightsManifest: [https://creativecommons.org/publicdomain/zero/1.0/]
`;

describe('Identify descriptions from the configuration', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-identify-'));
    fs.writeFileSync(path.join(dir, 'full.yaml'), FULL);
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  for (const kind of databaseKinds()) {
    describe(`served from ${kind}`, () => {
      let db: ThrowawayDatabase;
      let server: TestServer;
      before(async () => {
        db = await openThrowawayDatabase(kind);
        server = await startTestServer({ OAI_CONFIG: path.join(dir, 'full.yaml'), DATABASE_URL: db.url });
      });
      after(async () => {
        await server?.stop();
        await db?.close();
      });

      it('serves every configured description after oai-identifier, valid against the published schemas', async () => {
        const xml = await (await fetch(`${server.baseUrl}?verb=Identify`)).text();
        assertValid(xml);
        const roots = [...xml.matchAll(/<description>\s*<([A-Za-z-]+)[ >]/g)].map((m) => m[1]);
        // The publication log's own description follows the configured ones (docs/identifiers.md).
        expect(roots).to.deep.equal(['oai-identifier', 'eprints', 'friends', 'branding', 'rightsManifest', 'publicationLog']);
      });

      it('keeps every value as written, markup and ampersands included', async () => {
        const xml = await (await fetch(`${server.baseUrl}?verb=Identify`)).text();
        expect(texts(xml, 'text')).to.include.members([
          'Theses & articles of Example University',
          'Metadata may be re-used under CC0; the text R&amp;D stays as written.',
        ]);
        expect(texts(xml, 'URL')).to.include('https://example.edu/about?lang=en&view=full');
        expect(texts(xml, 'comment')).to.deep.equal(['Contact the library for bulk access.', '日本語のコメント']);
        const friends = /<friends [^>]*>([\s\S]*)<\/friends>/.exec(xml)?.[1] ?? '';
        expect(texts(friends, 'baseURL')).to.deep.equal(['http://export.arxiv.org/oai2', 'https://zenodo.org/oai2d']);
        expect(texts(xml, 'title')).to.deep.equal(['Example <Repository>']);
        expect(xml).to.contain('<rightsReference ref="https://creativecommons.org/publicdomain/zero/1.0/"/>');
        expect(xml).to.contain('appliesTo="http://www.openarchives.org/OAI/2.0/entity#metadata"');
      });
    });
  }

  const refusals: { name: string; text: string; message: RegExp }[] = [
    {
      name: 'an eprints description without its required data policy',
      text: 'identify:\n  eprints:\n    metadataPolicy: { text: x }\n',
      message: /bad\.yaml:3: identify\.eprints needs "dataPolicy"/,
    },
    { name: 'an unknown description', text: 'identify:\n  frends: [http://x.org/oai]\n', message: /bad\.yaml:2: identify\.frends is not a key here/ },
    {
      name: 'a friend that is not a URL',
      text: 'identify:\n  friends:\n    - http://a.org/oai\n    - not a url\n',
      message: /bad\.yaml:4: identify\.friends\.1 "not a url" is not an absolute URI/,
    },
    {
      name: 'an icon width that is not a number',
      text: 'identify:\n  branding:\n    collectionIcon:\n      url: http://x.org/i.png\n      width: wide\n',
      message: /bad\.yaml:5: identify\.branding\.collectionIcon\.width must be a whole number/,
    },
    {
      name: 'a stylesheet media type the schema forbids',
      text: 'identify:\n  branding:\n    metadataRendering:\n      - { url: http://x.org/a.css, metadataNamespace: http://x.org/ns, mimeType: text/x-css }\n',
      message: /identify\.branding\.metadataRendering\.0\.mimeType "text\/x-css" is not a media type/,
    },
    {
      name: 'text XML cannot carry, caught by the schema check',
      text: 'identify:\n  eprints:\n    metadataPolicy: { text: "a\\x01b" }\n    dataPolicy: { text: y }\n',
      message: /bad\.yaml:3: identify\.eprints is not valid against http:\/\/www\.openarchives\.org\/OAI\/1\.1\/eprints\.xsd/,
    },
  ];
  for (const r of refusals) {
    it(`stops start-up for ${r.name}, naming the line and the key`, () => {
      const file = path.join(dir, 'bad.yaml');
      fs.writeFileSync(file, r.text);
      expect(() => loadConfig({ OAI_CONFIG: file }, dir))
        .to.throw(ConfigError)
        .with.property('message')
        .that.matches(r.message);
    });
  }
});

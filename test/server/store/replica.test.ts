/**
 * Harvest traffic on a read replica: a real PostgreSQL primary and hot
 * standby (harness/replicated-cluster.ts). A process reading the standby answers a
 * page only once the standby has replayed what the harvest has already seen
 * (the token's position, or for a first page everything the primary had
 * committed), else 503 with Retry-After; so a harvest whose requests
 * alternate between a process on the primary and one on the replica, while
 * a loader writes, sees every unchanged record exactly once. Nor does the
 * replica deny what the primary holds: GetRecord and ListMetadataFormats of
 * a record it has not replayed are 503 too; and /healthz, /metrics and the
 * start-up log say which replica it is, how far behind, and whether its
 * primary answers.
 */
import { expect } from 'chai';
import pino from 'pino';
import { startReplicatedCluster, type ReplicatedCluster } from '../../../harness/replicated-cluster';
import { checkOai, errorCodes, request, resumption, texts, startTestServer, type TestServer } from '../../helpers/server';
import type { ItemInput } from '../../../lib/store';
import { loadConfig } from '../../../server/config';
import { startServer } from '../../../server/serve';

const NAMESPACE = 'replica.example.org';

function item(n: number, title = `Record ${n}`): ItemInput {
  return { internalId: `r${String(n).padStart(4, '0')}`, metadata: {}, fields: { dc: { title: [title] } } };
}

/** The value of an unlabelled sample of a /metrics answer (NaN shown as NaN); undefined when absent. */
async function metric(port: number, name: string): Promise<number | undefined> {
  const text = (await request(port, { path: '/metrics' })).body;
  const m = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The JSON /healthz answers, with its status and Retry-After. */
async function health(port: number): Promise<{ status: number; retryAfter: string | undefined; body: Record<string, unknown> }> {
  const a = await request(port, { path: '/healthz' });
  expect(a.headers['content-type']).to.match(/^application\/json/);
  return { status: a.status, retryAfter: a.headers['retry-after'] as string | undefined, body: JSON.parse(a.body) as Record<string, unknown> };
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The position a token carries (its `w`), if any. */
function positionOf(token: string): string | undefined {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString('utf8')) as { w?: string };
  return payload.w;
}

describe('harvest traffic on a read replica', function () {
  this.timeout(240_000);
  let cluster: ReplicatedCluster | undefined;
  let primary: TestServer | undefined;
  let replica: TestServer | undefined;

  before(async () => {
    cluster = await startReplicatedCluster();
    const common = {
      DATABASE_URL: cluster.primaryUrl,
      OAI_SEED_DEMO: 'false',
      OAI_NAMESPACE: NAMESPACE,
      OAI_PAGE_SIZE: '20',
      OAI_TOKEN_SECRET: 'one secret for every process',
      OAI_RETRY_AFTER: '2',
    };
    primary = await startTestServer({ ...common, OAI_TOKEN_POSITIONS: 'true' });
    replica = await startTestServer({ ...common, OAI_READ_REPLICA: cluster.replicaUrl, OAI_REPLICA_MAX_LAG: '1' });
  });
  after(async () => {
    await replica?.stop();
    await primary?.stop();
    cluster?.stop();
  });

  it('gives every unchanged record exactly once to a harvest alternating between the primary and the replica while a loader writes', async () => {
    const store = (primary as TestServer).running.provider.store;
    await store.writeItems(Array.from({ length: 200 }, (_, i) => item(i)));
    // Records written in the second the harvest begins may fall either side of its bound; begin after it.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const ports = [(replica as TestServer).port, (primary as TestServer).port];
    const seen: string[] = [];
    const changed = new Set<string>();
    let query = 'verb=ListIdentifiers&metadataPrefix=oai_dc';
    let written = 200;
    const positions: (string | undefined)[] = [];
    for (let page = 0; page < 50; page++) {
      const xml = checkOai(await request(ports[page % 2] as number, { query }));
      seen.push(...texts(xml, 'identifier'));
      // The loader writes between pages: three records change, three are new.
      const changes = [0, 1, 2].map((k) => item((page * 7 + k * 13) % 200, `Changed on page ${page}`));
      for (const c of changes) changed.add(`oai:${NAMESPACE}:${c.internalId}`);
      await store.writeItems([...changes, item(written++), item(written++), item(written++)]);
      const next = resumption(xml);
      if (next === null || next.token === '') break;
      positions.push(positionOf(next.token));
      query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(next.token)}`;
    }
    expect(positions.length).to.be.greaterThan(4);
    for (const p of positions) expect(p).to.match(/^[0-9A-F]+\/[0-9A-F]+$/);
    const counts = new Map<string, number>();
    for (const id of seen) counts.set(id, (counts.get(id) ?? 0) + 1);
    // A record changed in the second the harvest began takes that second as its datestamp, the harvest's
    // upper bound, and may come again (OAI-PMH 2.0 section 3.5.1 promises unchanged records only).
    expect(
      [...counts].filter(([id, n]) => n > 1 && !changed.has(id)),
      'repeated',
    ).to.deep.equal([]);
    const unchanged = Array.from({ length: 200 }, (_, i) => `oai:${NAMESPACE}:${item(i).internalId}`).filter((id) => !changed.has(id));
    expect(unchanged.length).to.be.greaterThan(50);
    expect(
      unchanged.filter((id) => counts.get(id) !== 1),
      'unchanged records missing',
    ).to.deep.equal([]);
  });

  it('answers 503 with Retry-After while the replica has not replayed what the harvest saw, and the page once it has', async () => {
    const c = cluster as ReplicatedCluster;
    const store = (primary as TestServer).running.provider.store;
    await store.writeItems(Array.from({ length: 50 }, (_, i) => item(1000 + i)));
    c.pauseReplay();
    let resumed = false;
    try {
      await store.writeItems([item(2000, 'Written while the replica stands still')]);
      // A first page asked of the replica: the primary has committed a record the replica has not replayed.
      const first = await request((replica as TestServer).port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc' });
      expect(first.status).to.equal(503);
      expect(first.headers['retry-after']).to.equal('2');
      // A page read on the primary after that write: its token's position is ahead of the replica.
      const page1 = checkOai(await request((primary as TestServer).port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc' }));
      const token = resumption(page1)?.token as string;
      expect(positionOf(token)).to.match(/^[0-9A-F]+\/[0-9A-F]+$/);
      const query = `verb=ListIdentifiers&resumptionToken=${encodeURIComponent(token)}`;
      const behind = await request((replica as TestServer).port, { query });
      expect(behind.status).to.equal(503);
      c.resumeReplay();
      resumed = true;
      const caughtUp = checkOai(await request((replica as TestServer).port, { query }));
      expect(texts(caughtUp, 'identifier').length).to.be.greaterThan(0);
      expect(texts(page1, 'identifier').filter((id) => texts(caughtUp, 'identifier').includes(id))).to.deep.equal([]);
    } finally {
      if (!resumed) c.resumeReplay();
    }
  });

  it('answers ListSets with 503 while the replica has not replayed the sets its primary held, first page or continued, and the sets once it has', async () => {
    const c = cluster as ReplicatedCluster;
    const [p, r] = [primary as TestServer, replica as TestServer];
    // More sets than a page, so the list continues with a token.
    await p.running.provider.store.writeItems(Array.from({ length: 30 }, (_, i) => ({ ...item(5000 + i), sets: [`s${String(i).padStart(2, '0')}`] })));
    await c.caughtUp();
    c.pauseReplay();
    let resumed = false;
    try {
      // A set the primary declares while the replica stands still, after the first page's sets.
      await p.running.provider.store.writeItems([{ ...item(5100), sets: ['s99'] }]);
      const first = await request(r.port, { query: 'verb=ListSets' });
      expect(first.status).to.equal(503);
      expect(first.headers['retry-after']).to.equal('2');
      const page1 = checkOai(await request(p.port, { query: 'verb=ListSets' }));
      const token = resumption(page1)?.token as string;
      expect(positionOf(token)).to.match(/^[0-9A-F]+\/[0-9A-F]+$/);
      const query = `verb=ListSets&resumptionToken=${encodeURIComponent(token)}`;
      expect((await request(r.port, { query })).status).to.equal(503);
      c.resumeReplay();
      resumed = true;
      expect(texts(checkOai(await request(r.port, { query })), 'setSpec')).to.include('s99');
    } finally {
      if (!resumed) c.resumeReplay();
    }
  });

  it('answers GetRecord and ListMetadataFormats of a record the replica has not replayed with 503 and Retry-After, counted apart from load shedding, and the record once replayed', async () => {
    const c = cluster as ReplicatedCluster;
    const [p, r] = [primary as TestServer, replica as TestServer];
    await c.caughtUp();
    const behindBefore = await metric(r.port, 'oai_replica_behind_total');
    c.pauseReplay();
    let resumed = false;
    try {
      await p.running.provider.store.writeItems([item(3000, 'Published while the replica stands still')]);
      const id = encodeURIComponent(`oai:${NAMESPACE}:${item(3000).internalId}`);
      const queries = [`verb=GetRecord&metadataPrefix=oai_dc&identifier=${id}`, `verb=ListMetadataFormats&identifier=${id}`];
      // The primary holds it: the replica must not say it does not exist.
      expect(errorCodes(checkOai(await request(p.port, { query: queries[0] as string })))).to.deep.equal([]);
      for (const query of queries) {
        const a = await request(r.port, { query });
        expect(a.status, query).to.equal(503);
        expect(a.headers['retry-after'], query).to.equal('2');
      }
      expect(await metric(r.port, 'oai_replica_behind_total')).to.equal((behindBefore ?? 0) + 2);
      expect(await metric(r.port, 'oai_load_shed_total')).to.equal(0);
      c.resumeReplay();
      resumed = true;
      const got = checkOai(await request(r.port, { query: queries[0] as string }));
      expect(texts(got, 'dc:title')).to.deep.equal(['Published while the replica stands still']);
      expect(texts(checkOai(await request(r.port, { query: queries[1] as string })), 'metadataPrefix')).to.include('oai_dc');
    } finally {
      if (!resumed) c.resumeReplay();
    }
  });

  it('answers the ResourceSync document of a record the replica has not replayed with 503, and the record once replayed', async () => {
    const c = cluster as ReplicatedCluster;
    const [p, r] = [primary as TestServer, replica as TestServer];
    await c.caughtUp();
    c.pauseReplay();
    let resumed = false;
    try {
      await p.running.provider.store.writeItems([item(6000, 'Synchronized while the replica stands still')]);
      const identifier = `oai:${NAMESPACE}:${item(6000).internalId}`;
      const path = `/resourcesync/oai_dc/record/${encodeURIComponent(identifier)}`;
      // The primary holds it: the record's document is there.
      expect((await request(p.port, { path })).status).to.equal(200);
      const a = await request(r.port, { path });
      expect(a.status).to.equal(503);
      expect(a.headers['retry-after']).to.equal('2');
      c.resumeReplay();
      resumed = true;
      const record = await request(r.port, { path });
      expect(record.status).to.equal(200);
      expect(record.body).to.contain('Synchronized while the replica stands still');
      // What neither holds is still not found, once the replica has caught up.
      expect((await request(r.port, { path: `/resourcesync/oai_dc/record/${encodeURIComponent(`oai:${NAMESPACE}:nothing`)}` })).status).to.equal(404);
    } finally {
      if (!resumed) c.resumeReplay();
    }
  });

  it('answers idDoesNotExist for an identifier the primary does not hold either once the replica has caught up, and refuses a format the repository does not offer without asking the primary', async () => {
    const c = cluster as ReplicatedCluster;
    const r = replica as TestServer;
    await c.caughtUp();
    const held = encodeURIComponent(`oai:${NAMESPACE}:${item(3000).internalId}`);
    const nowhere = encodeURIComponent(`oai:${NAMESPACE}:nowhere`);
    c.pauseReplay();
    try {
      await (primary as TestServer).running.provider.store.writeItems([item(3001)]);
      // While the replica stands still: an unknown format of an item it holds rests on the configuration alone.
      const unknownFormat = checkOai(await request(r.port, { query: `verb=GetRecord&metadataPrefix=nope&identifier=${held}` }));
      expect(errorCodes(unknownFormat)).to.deep.equal(['cannotDisseminateFormat']);
      // An identifier it lacks may be one the primary holds.
      expect((await request(r.port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${nowhere}` })).status).to.equal(503);
    } finally {
      c.resumeReplay();
    }
    await c.caughtUp();
    expect(errorCodes(checkOai(await request(r.port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${nowhere}` })))).to.deep.equal([
      'idDoesNotExist',
    ]);
    expect(errorCodes(checkOai(await request(r.port, { query: `verb=ListMetadataFormats&identifier=${nowhere}` })))).to.deep.equal(['idDoesNotExist']);
  });

  it('reports the lag on /healthz and /metrics: 503 "lagging" while the replica stands still longer than replicaMaxLag, 200 once it has caught up', async () => {
    const c = cluster as ReplicatedCluster;
    const r = replica as TestServer;
    await c.caughtUp();
    const ok = await health(r.port);
    expect(ok.status).to.equal(200);
    expect(ok.body.status).to.equal('ok');
    expect(ok.body.replica).to.have.keys(['lagSeconds', 'lagBytes']);
    c.pauseReplay();
    let resumed = false;
    try {
      await (primary as TestServer).running.provider.store.writeItems([item(4000)]);
      // The lag counts from the commit of the last transaction replayed: past replicaMaxLag (1 s) within a few seconds.
      let h = await health(r.port);
      for (let tries = 0; h.status === 200 && tries < 50; tries++) {
        await sleep(200);
        h = await health(r.port);
      }
      expect(h.status).to.equal(503);
      expect(h.retryAfter).to.equal('2');
      expect(h.body.status).to.equal('lagging');
      expect(h.body.reason).to.match(/behind its primary, more than replicaMaxLag \(1 s\)/);
      const lag = h.body.replica as { lagSeconds: number; lagBytes: number };
      expect(lag.lagSeconds).to.be.greaterThan(1);
      expect(lag.lagBytes).to.be.greaterThan(0);
      expect(await metric(r.port, 'oai_replica_lag_seconds')).to.be.greaterThan(1);
      expect(await metric(r.port, 'oai_replica_lag_bytes')).to.be.greaterThan(0);
      expect(await metric(r.port, 'oai_replica_primary_up')).to.equal(1);
      c.resumeReplay();
      resumed = true;
    } finally {
      if (!resumed) c.resumeReplay();
    }
    await c.caughtUp();
    const back = await health(r.port);
    expect(back.status).to.equal(200);
    expect(back.body.status).to.equal('ok');
    expect((back.body.replica as { lagSeconds: number }).lagSeconds).to.be.below(1);
    expect(await metric(r.port, 'oai_replica_lag_seconds')).to.be.below(1);
    // A process on the primary reports no replica.
    expect((await health((primary as TestServer).port)).body).to.deep.equal({ status: 'ok' });
    expect(await metric((primary as TestServer).port, 'oai_replica_lag_seconds')).to.equal(undefined);
  });

  it('names the replica it reads in the start-up log by host, port and database, never its password', async () => {
    const c = cluster as ReplicatedCluster;
    const lines: Record<string, unknown>[] = [];
    const logger = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    const replicaUrl = new URL(c.replicaUrl);
    replicaUrl.password = 'never-logged';
    const running = await startServer(
      loadConfig({
        DATABASE_URL: c.primaryUrl,
        PORT: '0',
        OAI_READ_REPLICA: replicaUrl.href,
        OAI_SEED_DEMO: 'false',
        OAI_NAMESPACE: NAMESPACE,
        OAI_TOKEN_SECRET: 'one secret for every process',
      }),
      { logger },
    );
    try {
      const serving = lines.find((l) => l.msg === 'oai-steward serving');
      expect(serving?.readReplica).to.deep.equal({ host: '127.0.0.1', port: Number(replicaUrl.port), database: 'postgres' });
      expect(JSON.stringify(lines)).to.not.include('never-logged');
    } finally {
      await running.stop();
    }
  });

  it('keeps tokens without a position on a process that neither reads a replica nor is told to write them', async () => {
    const plain = await startTestServer({
      DATABASE_URL: (cluster as ReplicatedCluster).primaryUrl,
      OAI_SEED_DEMO: 'false',
      OAI_NAMESPACE: NAMESPACE,
      OAI_PAGE_SIZE: '20',
    });
    try {
      const xml = checkOai(await request(plain.port, { query: 'verb=ListIdentifiers&metadataPrefix=oai_dc' }));
      expect(positionOf(resumption(xml)?.token as string)).to.equal(undefined);
    } finally {
      await plain.stop();
    }
  });

  // Last: the primary does not come back.
  it('answers /healthz with 503 "primary-unreachable" once the primary is gone, shows it in /metrics, and still never denies an item', async () => {
    const c = cluster as ReplicatedCluster;
    const r = replica as TestServer;
    await c.caughtUp();
    c.stopPrimary();
    const h = await health(r.port);
    expect(h.status).to.equal(503);
    expect(h.retryAfter).to.equal('2');
    expect(h.body.status).to.equal('primary-unreachable');
    expect(h.body.reason).to.match(/^the read replica's primary does not answer: /);
    expect(await metric(r.port, 'oai_replica_primary_up')).to.equal(0);
    expect(await metric(r.port, 'oai_replica_lag_seconds')).to.be.NaN;
    const a = await request(r.port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${encodeURIComponent(`oai:${NAMESPACE}:nowhere`)}` });
    expect(a.status).to.equal(503);
    // What the replica holds is still served.
    const held = encodeURIComponent(`oai:${NAMESPACE}:${item(3000).internalId}`);
    expect(texts(checkOai(await request(r.port, { query: `verb=GetRecord&metadataPrefix=oai_dc&identifier=${held}` })), 'dc:title')).to.have.length(1);
  });
});

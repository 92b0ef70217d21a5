/**
 * A store whose reads may lag its primary never denies what the primary
 * holds: an answer that something is absent is given only once the store has
 * caught up, read again; a store that cannot catch up is `StoreBehindError`
 * (HTTP 503). Answers that find what they look for, and errors resting on
 * the request or the configuration alone, never ask the primary.
 */
import { expect } from 'chai';
import { handleRequest } from '../../lib/oai/handle';
import type { ProviderContext } from '../../lib/oai/context';
import { createFormatRegistry } from '../../lib/formats/registry';
import { StoreBehindError, type ItemRecord, type ReadStore } from '../../lib/store';

const ID = 'oai:example.org:new';

function record(identifier: string): ItemRecord {
  return {
    pk: 1,
    internalId: 'new',
    identifier,
    datestamp: 1000,
    deleted: false,
    sets: [],
    metadata: '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/"/>',
  };
}

/**
 * A replica's store: it holds what the primary held when it last caught up.
 * `catchUp` answers `reaches` and, when true, takes in what the primary holds;
 * absent altogether for a store that reads its primary.
 */
function replica(options: { holds: boolean; primaryHolds: boolean; reaches?: boolean; sets?: boolean }): { store: ReadStore; catchUps: () => number } {
  let holds = options.holds;
  let hasSets = options.sets ?? false;
  let catchUps = 0;
  const store = {
    getRecord: async (identifier: string, prefix: string) => (holds && identifier === ID && prefix === 'oai_dc' ? record(ID) : null),
    getHeader: async (identifier: string) => (holds && identifier === ID ? { ...record(ID), formats: ['oai_dc'] } : null),
    hasSets: async () => hasSets,
    ...(options.reaches !== undefined && {
      catchUp: async () => {
        catchUps++;
        if (options.reaches) {
          holds = options.primaryHolds;
          hasSets = true;
        }
        return options.reaches;
      },
    }),
  } as unknown as ReadStore;
  return { store, catchUps: () => catchUps };
}

function context(store: ReadStore): ProviderContext {
  return {
    store,
    formats: createFormatRegistry(),
    repository: { name: 'r', baseURL: 'http://example.org/oai', adminEmails: ['a@example.org'], namespace: 'example.org', compression: [] },
    pageSize: 10,
    tokenSecret: 's',
    tokenLifetime: 60,
  };
}

const GET = [
  ['verb', 'GetRecord'],
  ['identifier', ID],
  ['metadataPrefix', 'oai_dc'],
] as const;
const FORMATS = [
  ['verb', 'ListMetadataFormats'],
  ['identifier', ID],
] as const;

const cases: Array<{
  name: string;
  store: Parameters<typeof replica>[0];
  pairs: ReadonlyArray<readonly [string, string]>;
  answer: string | typeof StoreBehindError;
  catchUps: number;
}> = [
  {
    name: 'GetRecord of an item the replica holds is answered without asking the primary',
    store: { holds: true, primaryHolds: true, reaches: true },
    pairs: GET,
    answer: 'GetRecord',
    catchUps: 0,
  },
  {
    name: 'GetRecord of an item the replica lacks is read again once it has caught up',
    store: { holds: false, primaryHolds: true, reaches: true },
    pairs: GET,
    answer: 'GetRecord',
    catchUps: 1,
  },
  {
    name: 'GetRecord of an item the replica lacks is StoreBehindError while it cannot catch up',
    store: { holds: false, primaryHolds: true, reaches: false },
    pairs: GET,
    answer: StoreBehindError,
    catchUps: 1,
  },
  {
    name: 'GetRecord of an item neither holds is idDoesNotExist once the replica has caught up',
    store: { holds: false, primaryHolds: false, reaches: true },
    pairs: GET,
    answer: 'idDoesNotExist',
    catchUps: 1,
  },
  {
    name: 'GetRecord of an item a store reading its primary lacks is idDoesNotExist at once',
    store: { holds: false, primaryHolds: false },
    pairs: GET,
    answer: 'idDoesNotExist',
    catchUps: 0,
  },
  {
    name: 'GetRecord in a format the repository does not offer, of an item the replica holds, rests on the configuration alone',
    store: { holds: true, primaryHolds: true, reaches: false },
    pairs: [...GET.slice(0, 2), ['metadataPrefix', 'nope']],
    answer: 'cannotDisseminateFormat',
    catchUps: 0,
  },
  {
    name: 'ListMetadataFormats of an item the replica lacks is read again once it has caught up',
    store: { holds: false, primaryHolds: true, reaches: true },
    pairs: FORMATS,
    answer: 'ListMetadataFormats',
    catchUps: 1,
  },
  {
    name: 'ListMetadataFormats of an item the replica lacks is StoreBehindError while it cannot catch up',
    store: { holds: false, primaryHolds: true, reaches: false },
    pairs: FORMATS,
    answer: StoreBehindError,
    catchUps: 1,
  },
  {
    name: 'ListSets of a replica without sets yet is StoreBehindError while it cannot catch up',
    store: { holds: true, primaryHolds: true, reaches: false },
    pairs: [['verb', 'ListSets']],
    answer: StoreBehindError,
    catchUps: 1,
  },
  {
    name: 'ListIdentifiers of a set on a replica without sets yet is StoreBehindError while it cannot catch up',
    store: { holds: true, primaryHolds: true, reaches: false },
    pairs: [
      ['verb', 'ListIdentifiers'],
      ['metadataPrefix', 'oai_dc'],
      ['set', 'a'],
    ],
    answer: StoreBehindError,
    catchUps: 1,
  },
  {
    name: 'a bad argument never asks the primary',
    store: { holds: false, primaryHolds: true, reaches: false },
    pairs: [
      ['verb', 'GetRecord'],
      ['identifier', ID],
    ],
    answer: 'badArgument',
    catchUps: 0,
  },
];

describe('absence answers of a store that may lag its primary', () => {
  for (const c of cases) {
    it(c.name, async () => {
      const { store, catchUps } = replica(c.store);
      const answered = handleRequest(context(store), c.pairs, 2000);
      if (c.answer === StoreBehindError) {
        const err: unknown = await answered.then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(err).to.be.instanceOf(StoreBehindError);
      } else {
        const body = (await answered).body;
        expect(body.kind === 'errors' ? body.errors.map((e) => e.code).join(',') : body.kind).to.equal(c.answer);
      }
      expect(catchUps()).to.equal(c.catchUps);
    });
  }
});

/**
 * Id spaces in the governance decision, without a database: a source's
 * records are written by its harvests only, a harvest never takes over an
 * item of another origin, and this store writing an item it holds again (a
 * rebuild, `rewrite`) passes exactly when it keeps the item's origin.
 */
import { expect } from 'chai';
import { checkBatch, mapAll, type ExistingItem } from '../../lib/pipeline/governance';
import { createIdPolicy } from '../../lib/ids/policy';
import type { ItemInput } from '../../lib/store';
import { TEST_NAMESPACE } from '../helpers/db';

const policy = createIdPolicy({ namespace: TEST_NAMESPACE });
const HARVESTED = 'plain:oai:src.example.org:1';
const dc =
  '<oai_dc:dc xmlns:oai_dc="http://www.openarchives.org/OAI/2.0/oai_dc/" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></oai_dc:dc>';

interface Case {
  readonly name: string;
  readonly input: Partial<ItemInput> & { readonly internalId: string };
  /** The stored item's origin (null: a local item); absent: the store holds no item of this id. */
  readonly stored?: string | null;
  /** The reason refused, or null when the item passes. */
  readonly refused: RegExp | null;
}

const cases: readonly Case[] = [
  { name: "a harvest writes a new record into its source's space", input: { internalId: HARVESTED, harvestedFrom: 'plain' }, refused: null },
  { name: 'a harvest writes its own item again', input: { internalId: HARVESTED, harvestedFrom: 'plain' }, stored: 'plain', refused: null },
  { name: "a load into a source's space is refused", input: { internalId: HARVESTED }, refused: /id space of the harvested source "plain"/ },
  { name: 'a load over a harvested item is refused', input: { internalId: HARVESTED }, stored: 'plain', refused: /id space of the harvested source "plain"/ },
  {
    name: 'a harvest never takes over a local item',
    input: { internalId: HARVESTED, harvestedFrom: 'plain' },
    stored: null,
    refused: /a local item \(loaded, not harvested\); a harvest of "plain" never takes it over/,
  },
  {
    name: "a harvest never takes over another source's item",
    input: { internalId: HARVESTED, harvestedFrom: 'other' },
    stored: 'plain',
    refused: /an item harvested from "plain"; a harvest of "other" never takes it over/,
  },
  {
    name: 'a rewrite of a harvested item with its stored origin passes',
    input: { internalId: HARVESTED, rewrite: { origin: 'plain' } },
    stored: 'plain',
    refused: null,
  },
  { name: 'a rewrite of a local item passes', input: { internalId: 'local-1', rewrite: { origin: null } }, stored: null, refused: null },
  {
    name: "a rewrite of a local item loaded into what is now a source's space passes, and it stays local",
    input: { internalId: HARVESTED, rewrite: { origin: null } },
    stored: null,
    refused: null,
  },
  {
    name: 'a rewrite never makes a local item harvested',
    input: { internalId: 'local-1', rewrite: { origin: 'plain' } },
    stored: null,
    refused: /is a local item \(loaded, not harvested\), not an item harvested from "plain"; a rewrite never moves/,
  },
  {
    name: 'a rewrite never makes a harvested item local',
    input: { internalId: HARVESTED, rewrite: { origin: null } },
    stored: 'plain',
    refused: /is an item harvested from "plain", not a local item/,
  },
  {
    name: 'a rewrite never moves an item from one source to another',
    input: { internalId: HARVESTED, rewrite: { origin: 'other' } },
    stored: 'plain',
    refused: /is an item harvested from "plain", not an item harvested from "other"/,
  },
  {
    name: 'a rewrite never creates an item',
    input: { internalId: HARVESTED, rewrite: { origin: 'plain' } },
    refused: /the store holds no item of this id; a rewrite never creates one/,
  },
  {
    name: 'a rewrite that is a harvest too is refused',
    input: { internalId: HARVESTED, rewrite: { origin: 'plain' }, harvestedFrom: 'plain' },
    stored: 'plain',
    refused: /as a harvest of "plain" at once/,
  },
  {
    name: 'a rewrite that is a version from another repository too is refused, since it would set the source datestamp',
    input: { internalId: HARVESTED, rewrite: { origin: 'plain' }, versioned: true, datestamp: 100 },
    stored: 'plain',
    refused: /as a version from another repository at once/,
  },
];

describe('identifier governance: id spaces, without a database', () => {
  for (const c of cases) {
    it(c.name, () => {
      const item: ItemInput = { metadata: { oai_dc: dc }, ...c.input };
      const mappings = mapAll(policy, [item]);
      const identifier = policy.map(item.internalId).identifier;
      const existing: ExistingItem[] = c.stored === undefined ? [] : [{ internalId: item.internalId, identifier, origin: c.stored }];
      const refusals = checkBatch({
        items: [item],
        mappings,
        namespace: TEST_NAMESPACE,
        existingByInternalId: new Map(existing.map((e) => [e.internalId, e])),
        existingByIdentifier: new Map(existing.map((e) => [e.identifier, e])),
        registryByIdentifier: new Map(existing.map((e) => [e.identifier, e])),
        registryByInternalId: new Map(existing.map((e) => [e.internalId, [e]])),
        sources: new Set(['plain', 'other']),
      })[0];
      if (c.refused === null) {
        expect(refusals).to.deep.equal([]);
      } else {
        expect(refusals?.map((r) => r.field)).to.deep.equal(['id']);
        expect(refusals?.[0]?.reason).to.match(c.refused);
      }
    });
  }
});

/**
 * What readers make of a format's structured entries: agents (names, name
 * types, identifiers, affiliations), contributor types, funding references and
 * related identifiers, the same way whichever format gives them
 * (./reader-rules.ts has the rest of a draft's rules).
 */
import type { Affiliation, Agent, FundingReference, NameIdentifier, RelatedIdentifier } from '../model/record';
import { checkFunderIdentifier, checkOrcid, checkRelatedIdentifier, checkRor, checkUrl } from '../model/identifiers';
import {
  DATACITE_CONTRIBUTOR_TYPES,
  DATACITE_RELATED_IDENTIFIER_TYPES,
  DATACITE_RELATION_TYPES,
  DATACITE_RESOURCE_TYPES,
  FUNDER_IDENTIFIER_TYPES,
  type ContributorType,
} from '../model/vocabularies';
import { isXmlLang } from '../model/language';
import type { Draft } from './reader-rules';
import { addDc, byLowerCase, nonBlank } from './reader-rules';

/** A person or organisation as a format names it, before the model's checks. */
export interface AgentInput {
  readonly name?: string | undefined;
  /** DataCite nameType (Personal, Organizational), or `person`/`organization`. */
  readonly nameType?: string | undefined;
  readonly givenName?: string | undefined;
  readonly familyName?: string | undefined;
  /** Name identifiers with their scheme (ORCID is the one the model holds checked; every one with a scheme is kept as given). */
  readonly ids?: readonly { readonly value: string; readonly scheme?: string | undefined; readonly schemeUri?: string | undefined }[];
  readonly affiliations?: readonly {
    readonly name?: string | undefined;
    readonly id?: string | undefined;
    readonly scheme?: string | undefined;
    readonly schemeUri?: string | undefined;
  }[];
  /** The language of the name (xml:lang). */
  readonly lang?: string | undefined;
}

function nameTypeOf(t: string | undefined): Agent['nameType'] {
  const l = t?.trim().toLowerCase();
  if (l === 'personal' || l === 'person') return 'person';
  if (l === 'organizational' || l === 'organization' || l === 'organisation') return 'organization';
  return undefined;
}

/**
 * An agent of the model, or undefined without a name. Without a name but
 * with a family name, the name is "Family, Given", as DataCite writes
 * creatorName. An ORCID iD is taken from an identifier of scheme ORCID or an
 * orcid.org URL, when its check character holds; a ROR id of an affiliation
 * likewise. An organization keeps only its name, affiliations and name
 * identifiers. Every name identifier with a scheme, and every affiliation
 * identifier, is also kept as given (DataCite's nameIdentifier and
 * affiliationIdentifier, of any scheme: ROR, ISNI, Wikidata, GND…).
 *
 * @example toAgent({ name: 'Miller, E.', nameType: 'Personal', ids: [{ value: '0000-0001-5000-0007', scheme: 'ORCID' }] })
 * // → { name: 'Miller, E.', nameType: 'person', orcid: '0000-0001-5000-0007' }
 */
export function toAgent(p: AgentInput): Agent | undefined {
  const given = nonBlank(p.givenName);
  const family = nonBlank(p.familyName);
  const name = nonBlank(p.name) ?? (family !== undefined ? (given !== undefined ? `${family}, ${given}` : family) : undefined);
  if (name === undefined) return undefined;
  const nameType = nameTypeOf(p.nameType);
  const person = nameType !== 'organization';
  let orcid: string | undefined;
  for (const id of p.ids ?? []) {
    const v = nonBlank(id.value);
    if (v === undefined || orcid !== undefined) continue;
    if (id.scheme?.trim().toLowerCase() !== 'orcid' && !/orcid\.org\//i.test(v)) continue;
    const c = checkOrcid(v);
    if ('value' in c) orcid = c.value;
  }
  const affiliations: Affiliation[] = [];
  for (const a of p.affiliations ?? []) {
    const n = nonBlank(a.name);
    if (n === undefined) continue;
    const id = nonBlank(a.id);
    const ror = id !== undefined && (a.scheme?.trim().toLowerCase() === 'ror' || /ror\.org\//i.test(id)) ? checkRor(id) : undefined;
    const scheme = nonBlank(a.scheme);
    const schemeUri = nonBlank(a.schemeUri);
    const rorId = ror !== undefined && 'value' in ror ? ror.value : undefined;
    // A ROR id written the way the DataCite writer writes it says no more than `ror`.
    const plainRor = rorId !== undefined && id === rorId && scheme === 'ROR' && (schemeUri === undefined || schemeUri === 'https://ror.org');
    affiliations.push({
      name: n,
      ...(ror !== undefined && 'value' in ror && { ror: ror.value }),
      ...(id !== undefined && !plainRor && { identifier: id }),
      ...(id !== undefined && !plainRor && scheme !== undefined && { identifierScheme: scheme }),
      ...(id !== undefined && !plainRor && schemeUri !== undefined && { schemeUri }),
    });
  }
  const nameIdentifiers: NameIdentifier[] = [];
  for (const id of p.ids ?? []) {
    const value = nonBlank(id.value);
    const scheme = nonBlank(id.scheme);
    const schemeUri = nonBlank(id.schemeUri);
    if (value === undefined || scheme === undefined) continue;
    // The checked ORCID iD written the way every writer writes it says no more than `orcid`.
    const plainOrcid =
      orcid !== undefined &&
      scheme.toLowerCase() === 'orcid' &&
      value === `https://orcid.org/${orcid}` &&
      (schemeUri === undefined || schemeUri === 'https://orcid.org');
    if (!plainOrcid) nameIdentifiers.push({ value, scheme, ...(schemeUri !== undefined && { schemeUri }) });
  }
  const lang = nonBlank(p.lang);
  const xmlLang = lang !== undefined && isXmlLang(lang) ? lang : undefined;
  return {
    name,
    ...(person && given !== undefined && { givenName: given }),
    ...(person && family !== undefined && { familyName: family }),
    ...(nameType !== undefined && { nameType }),
    ...(person && orcid !== undefined && { orcid }),
    ...(affiliations.length > 0 && { affiliations }),
    ...(nameIdentifiers.length > 0 && { nameIdentifiers }),
    ...(xmlLang !== undefined && { lang: xmlLang }),
  };
}

/**
 * The DataCite contributor type a format names, ignoring case, spaces and
 * hyphens (a MARC relator term "contact person" is ContactPerson), or
 * undefined when it names none.
 *
 * @example contributorType('editor') // 'Editor'
 * @example contributorType('Data collector') // 'DataCollector'
 */
export function contributorType(label: string | undefined): ContributorType | undefined {
  const l = label?.toLowerCase().replace(/[\s-]+/g, '');
  return DATACITE_CONTRIBUTOR_TYPES.find((t) => t.toLowerCase() === l);
}

/** A funder as a format names it, before the model's checks. */
export interface FundingInput {
  readonly funderName?: string | undefined;
  readonly funderIdentifier?: string | undefined;
  readonly funderIdentifierType?: string | undefined;
  readonly awardNumber?: string | undefined;
  readonly awardUri?: string | undefined;
  readonly awardTitle?: string | undefined;
  readonly funderIdentifierSchemeUri?: string | undefined;
  readonly awardTitleLang?: string | undefined;
}

/**
 * A funding reference of the model, or undefined without a funder name. A
 * funder identifier of an unknown type, or refused by its scheme's check, is
 * left out (the model has no free-text place for it), as is an award URI
 * that is not an http(s) URL.
 *
 * @example toFunding({ funderName: 'NSF', funderIdentifier: 'https://doi.org/10.13039/100000001', funderIdentifierType: 'Crossref Funder ID' })
 */
export function toFunding(p: FundingInput): FundingReference | undefined {
  const funderName = nonBlank(p.funderName);
  if (funderName === undefined) return undefined;
  const idType = FUNDER_IDENTIFIER_TYPES.find((t) => t.toLowerCase() === p.funderIdentifierType?.trim().toLowerCase());
  const id = nonBlank(p.funderIdentifier);
  const checked = idType !== undefined && id !== undefined ? checkFunderIdentifier(idType, id) : undefined;
  const awardNumber = nonBlank(p.awardNumber);
  const uri = nonBlank(p.awardUri);
  const awardUri = uri === undefined ? undefined : checkUrl(uri);
  const awardTitle = nonBlank(p.awardTitle);
  const schemeUri = nonBlank(p.funderIdentifierSchemeUri);
  const titleLang = nonBlank(p.awardTitleLang);
  const awardTitleLang = titleLang !== undefined && isXmlLang(titleLang) ? titleLang : undefined;
  return {
    funderName,
    ...(idType !== undefined && checked !== undefined && 'value' in checked && { funderIdentifier: { type: idType, value: checked.value } }),
    ...(awardNumber !== undefined && { awardNumber }),
    ...(awardUri !== undefined && 'value' in awardUri && { awardUri: awardUri.value }),
    ...(awardTitle !== undefined && { awardTitle }),
    ...(schemeUri !== undefined && { funderIdentifierSchemeUri: schemeUri }),
    ...(awardTitle !== undefined && awardTitleLang !== undefined && { awardTitleLang }),
  };
}

/** A related resource as a format names it, before the model's checks. */
export interface RelatedInput {
  readonly identifier?: string | undefined;
  readonly type?: string | undefined;
  readonly relation?: string | undefined;
  readonly resourceTypeGeneral?: string | undefined;
  readonly relatedMetadataScheme?: string | undefined;
  readonly schemeUri?: string | undefined;
  readonly schemeType?: string | undefined;
  readonly relationTypeInformation?: string | undefined;
  /** The identifier of a related item, not a relatedIdentifier of its own (../model/record.ts `RelatedIdentifier`). */
  readonly inRelatedItem?: boolean | undefined;
}

/** What DataCite says of a related identifier besides its identifier, type, relation and general type. */
export const RELATED_DETAIL = ['relatedMetadataScheme', 'schemeUri', 'schemeType', 'relationTypeInformation'] as const;

/**
 * Adds a related identifier: its type and relation from DataCite's lists
 * (case-insensitively), its identifier checked as the NDJSON format checks
 * it; otherwise the identifier stays as `dc.relation` text. No repeats.
 *
 * @example addRelated(d, { identifier: '10.5438/0012', type: 'DOI', relation: 'References' })
 */
export function addRelated(d: Draft, p: RelatedInput): void {
  const id = nonBlank(p.identifier);
  if (id === undefined) return;
  const type = byLowerCase(DATACITE_RELATED_IDENTIFIER_TYPES, p.type);
  const relation = byLowerCase(DATACITE_RELATION_TYPES, p.relation);
  const checked = type === undefined ? undefined : checkRelatedIdentifier(type, id);
  if (type === undefined || relation === undefined || checked === undefined || 'error' in checked) {
    addDc(d, 'relation', id);
    return;
  }
  const general = byLowerCase(DATACITE_RESOURCE_TYPES, p.resourceTypeGeneral);
  const more: { -readonly [K in (typeof RELATED_DETAIL)[number]]?: string } = {};
  for (const k of RELATED_DETAIL) {
    const v = nonBlank(p[k]);
    if (v !== undefined) more[k] = v;
  }
  const r: RelatedIdentifier = {
    identifier: checked.value,
    type,
    relation,
    ...(general !== undefined && { resourceTypeGeneral: general }),
    ...more,
    ...(p.inRelatedItem === true && { inRelatedItem: true }),
  };
  // The same relation said twice is said once; one that says anything more about it is another statement.
  const key = (x: RelatedIdentifier): string => JSON.stringify([x.identifier, x.type, x.relation, x.resourceTypeGeneral, ...RELATED_DETAIL.map((k) => x[k])]);
  // A related item's identifier the record also gives as a relatedIdentifier is that one (read first), said once.
  const same = d.relatedIdentifiers.findIndex((x) => key(x) === key(r));
  if (same < 0) d.relatedIdentifiers.push(r);
  else if (r.inRelatedItem !== true && d.relatedIdentifiers[same]?.inRelatedItem === true) d.relatedIdentifiers[same] = r;
}

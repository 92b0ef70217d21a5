/**
 * The two tables between COAR Resource Types and DataCite resourceTypeGeneral
 * (lib/model/vocabularies.ts) held against what COAR Resource Types 3.2
 * publishes: the SKOS mapping properties (exactMatch, broadMatch, narrowMatch,
 * relatedMatch) from its concepts to DataCite's types, in the vocabulary's
 * N-Triples release (http://purl.org/coar/resource_type/, version 3.2, objects
 * `http://purl.org/datacite/v4.4/<type>`). The rows below are those facts,
 * copied as published; the tests fail when a table disagrees with them
 * without a reason written here.
 */
import { expect } from 'chai';
import {
  COAR_OF_DATACITE_GENERAL,
  COAR_RESOURCE_TYPE_PREFIX,
  COAR_TYPES,
  DATACITE_RESOURCE_TYPES,
  type DataCiteResourceType,
} from '../../lib/model/vocabularies';

type Match = 'exactMatch' | 'broadMatch' | 'narrowMatch' | 'relatedMatch';

/** COAR Resource Types 3.2: concept → DataCite 4.4 resourceTypeGeneral, as its SKOS release states them. */
const COAR_3_2: readonly (readonly [concept: string, match: Match, datacite: DataCiteResourceType])[] = [
  ['c_2f33', 'exactMatch', 'Book'],
  ['c_3248', 'exactMatch', 'BookChapter'],
  ['c_2f33', 'narrowMatch', 'BookChapter'],
  ['YC9F-HGCF', 'broadMatch', 'Collection'],
  ['H41Y-FW7B', 'narrowMatch', 'ComputationalNotebook'],
  ['c_5794', 'exactMatch', 'ConferencePaper'],
  ['c_f744', 'exactMatch', 'ConferenceProceeding'],
  ['c_18co', 'relatedMatch', 'ConferenceProceeding'],
  ['c_ddb1', 'exactMatch', 'Dataset'],
  ['2H0M-X761', 'broadMatch', 'Dataset'],
  ['63NG-B465', 'broadMatch', 'Dataset'],
  ['A8F1-NPV9', 'broadMatch', 'Dataset'],
  ['ACF7-8YT9', 'broadMatch', 'Dataset'],
  ['AM6W-6QAW', 'broadMatch', 'Dataset'],
  ['CQMR-7K63', 'broadMatch', 'Dataset'],
  ['FXF3-D3G7', 'broadMatch', 'Dataset'],
  ['NHD0-W6SY', 'broadMatch', 'Dataset'],
  ['W2XT-7017', 'broadMatch', 'Dataset'],
  ['c_cb28', 'broadMatch', 'Dataset'],
  ['c_c513', 'exactMatch', 'Image'],
  ['c_ecc8', 'broadMatch', 'Image'],
  ['c_e9a0', 'exactMatch', 'InteractiveResource'],
  ['c_e059', 'broadMatch', 'InteractiveResource'],
  ['c_0640', 'exactMatch', 'Journal'],
  ['c_beb9', 'exactMatch', 'JournalArticle'],
  ['c_7bab', 'broadMatch', 'JournalArticle'],
  ['c_1843', 'exactMatch', 'Other'],
  ['c_ab20', 'broadMatch', 'OutputManagementPlan'],
  ['H9BQ-739P', 'exactMatch', 'PeerReview'],
  ['c_efa0', 'narrowMatch', 'PeerReview'],
  ['S7R1-K5P0', 'broadMatch', 'PhysicalObject'],
  ['c_816b', 'exactMatch', 'Preprint'],
  ['c_93fc', 'exactMatch', 'Report'],
  ['c_186u', 'broadMatch', 'Report'],
  ['c_18op', 'broadMatch', 'Report'],
  ['c_18ws', 'broadMatch', 'Report'],
  ['c_5ce6', 'broadMatch', 'Software'],
  ['c_c950', 'broadMatch', 'Software'],
  ['MW8G-3CR8', 'broadMatch', 'Software'],
  ['c_18cf', 'exactMatch', 'Text'],
  ['6NC7-GK9S', 'broadMatch', 'Text'],
  ['c_393c', 'exactMatch', 'Workflow'],
];

/**
 * Where a table departs from COAR's matches, and why. OpenAIRE v4 accepts
 * only the concepts of its own list (openaire-4/oaire-resourceType-v4.xsd,
 * `COAR_TYPES`); a concept COAR added after it cannot be written there.
 */
const DEPARTURES: Readonly<Partial<Record<DataCiteResourceType, string>>> = {
  // COAR's exactMatch is its data paper (c_beb9); DataCite has DataPaper for that since 4.0, and its JournalArticle
  // is COAR's journal article by both definitions.
  JournalArticle: 'c_6501',
};

/** A DataCite type COAR matches to nothing OpenAIRE v4 accepts, mapped to the nearest concept of the list, which maps back to another type. */
const NEAREST: Readonly<Partial<Record<DataCiteResourceType, string>>> = {
  // DataCite: "a virtual notebook environment used for literate programming", software in COAR's terms (COAR's
  // laboratory notebook, H41Y-FW7B, is a record of experiments and not in the list).
  ComputationalNotebook: 'c_5ce6',
};

/** The concepts COAR 3.2 matches a DataCite type to that OpenAIRE v4 accepts, best match first. */
function accepted(general: DataCiteResourceType): { concept: string; match: Match }[] {
  const order: Match[] = ['exactMatch', 'narrowMatch', 'broadMatch', 'relatedMatch'];
  return COAR_3_2.filter(([concept, , d]) => d === general && COAR_TYPES.has(COAR_RESOURCE_TYPE_PREFIX + concept))
    .map(([concept, match]) => ({ concept, match }))
    .sort((a, b) => order.indexOf(a.match) - order.indexOf(b.match));
}

describe("COAR Resource Types 3.2 and DataCite's resourceTypeGeneral", () => {
  for (const general of DATACITE_RESOURCE_TYPES) {
    const ours = COAR_OF_DATACITE_GENERAL[general];
    const published = accepted(general);
    const departure = DEPARTURES[general];
    if (departure !== undefined) {
      it(`maps ${general} to ${departure}, departing from COAR's match for the reason written beside it`, () => {
        expect(ours).to.equal(departure);
        expect(published.map((p) => p.concept)).to.not.deep.equal([departure]);
      });
    } else if (published.some((p) => p.match === 'exactMatch')) {
      it(`maps ${general} to COAR's exact match among the concepts OpenAIRE v4 accepts`, () => {
        expect(ours).to.equal(published.find((p) => p.match === 'exactMatch')?.concept);
      });
    } else if (published.length > 0) {
      // PeerReview: COAR's exact match, peer review (H9BQ-739P), is newer than OpenAIRE v4's list; review narrows it.
      it(`maps ${general} to one of the concepts COAR matches it to that OpenAIRE v4 accepts`, () => {
        expect(published.map((p) => p.concept)).to.include(ours);
      });
    } else {
      it(`maps ${general}, which COAR matches to no concept OpenAIRE v4 accepts, to the concept of the list that is its own, else other`, () => {
        const concept = COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + ours);
        expect(concept, ours).to.not.equal(undefined);
        const own = concept?.datacite === general || ours === 'c_1843' || NEAREST[general] === ours;
        expect(own, `${general} → ${ours} (${String(concept?.label)})`).to.equal(true);
      });
    }
  }

  it('gives each concept of the OpenAIRE v4 list that COAR 3.2 matches exactly the DataCite type COAR names', () => {
    const disagreements = COAR_3_2.filter(([concept, match]) => match === 'exactMatch' && COAR_TYPES.has(COAR_RESOURCE_TYPE_PREFIX + concept))
      .filter(([concept, , datacite]) => COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + concept)?.datacite !== datacite)
      .map(([concept, , datacite]) => `${concept}: COAR ${datacite}, ours ${String(COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + concept)?.datacite)}`);
    // The one departure: COAR's data paper is DataCite's DataPaper, not JournalArticle (see DEPARTURES).
    expect(disagreements).to.deep.equal(['c_beb9: COAR JournalArticle, ours DataPaper']);
  });

  it('gives every concept COAR 3.2 matches broadly to a DataCite type that type, where OpenAIRE v4 accepts it', () => {
    const disagreements = COAR_3_2.filter(([concept, match]) => match === 'broadMatch' && COAR_TYPES.has(COAR_RESOURCE_TYPE_PREFIX + concept))
      .filter(([concept, , datacite]) => COAR_TYPES.get(COAR_RESOURCE_TYPE_PREFIX + concept)?.datacite !== datacite)
      .map(([concept]) => concept);
    expect(disagreements).to.deep.equal([]);
  });
});

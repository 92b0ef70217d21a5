/**
 * The record fields that hold DataCite as given (lib/model/record.ts, "What
 * DataCite kernel-4 says beyond"), read from a record's JSON: accepted as
 * the DataCite reader gives them, refused by field path and reason when a
 * value is outside DataCite's lists or bounds.
 */
import { expect } from 'chai';
import { parseRecordFields } from '../../lib/model/from-json';
import { eachRow } from '../helpers/table';

const parse = (rec: Record<string, unknown>) => parseRecordFields({ id: 'x', dc: { title: 'T' }, ...rec }, { internalId: 'x' });
const fieldsOf = (rec: Record<string, unknown>) => {
  const r = parse(rec);
  if (!('fields' in r)) throw new Error(JSON.stringify(r.refusals));
  return r.fields;
};

describe('the DataCite fields of a record in JSON', () => {
  it('reads every one of them as given', () => {
    const given = {
      titles: [
        { value: 'T', lang: 'en' },
        { value: 'Sous-titre', type: 'Subtitle', lang: 'fr' },
      ],
      publisherIdentifier: { value: 'https://ror.org/02nr0ka47', scheme: 'ROR', schemeUri: 'https://ror.org/' },
      publisherLang: 'en',
      subjects: [
        { value: 'Archaeology', scheme: 'DDC', schemeUri: 'https://www.oclc.org/dewey/', valueUri: 'https://x.org/930', classificationCode: '930', lang: 'en' },
      ],
      typedDates: [
        { value: '2024-08-01', type: 'Issued' },
        { value: '1890/1910', type: 'Coverage', information: 'the field seasons' },
      ],
      alternateIdentifiers: [{ value: 'DAI-2024-0017', type: 'SerialNumber' }],
      sizes: ['3.4 GB'],
      version: '2.1',
      rightsList: [{ text: 'CC BY 4.0', uri: 'https://creativecommons.org/licenses/by/4.0/', identifier: 'CC-BY-4.0', identifierScheme: 'SPDX', lang: 'en' }],
      descriptions: [{ value: 'CSV, UTF-8.', type: 'TechnicalInfo' }],
      geoLocations: [{ places: ['Olympia'], points: [{ latitude: 37.638, longitude: 21.63 }], boxes: [{ west: 21, east: 22, south: 37, north: 38 }] }],
      relatedItems: [
        {
          itemType: 'Journal',
          relation: 'IsPublishedIn',
          identifier: { value: '0341-8391', type: 'ISSN' },
          titles: [{ value: 'Archäologischer Anzeiger' }],
          publicationYear: '2024',
          publisher: 'Reichert',
          number: { value: '7', type: 'Article' },
          contributors: [{ name: 'Ed', type: 'Editor' }],
        },
      ],
      creators: [{ name: 'DAI', nameType: 'organization', lang: 'de', nameIdentifiers: [{ value: 'Q568144', scheme: 'Wikidata' }] }],
      relatedIdentifiers: [{ identifier: '10.5281/zenodo.7', type: 'DOI', relation: 'Other', relationTypeInformation: 'was presented at' }],
    };
    expect(fieldsOf(given)).to.deep.equal({ dc: { title: ['T'] }, ...given });
  });

  eachRow(
    [
      ['a title type DataCite does not list', { titles: [{ value: 'T', type: 'Main' }] }, 'titles[0].type'],
      ['a language xml:lang cannot take', { descriptions: [{ value: 'd', type: 'Abstract', lang: 'en_US' }] }, 'descriptions[0].lang'],
      ['a description without its type', { descriptions: [{ value: 'd' }] }, 'descriptions[0].type'],
      ['a date type DataCite does not list', { typedDates: [{ value: '2020', type: 'Published' }] }, 'typedDates[0].type'],
      ['a latitude beyond the pole', { geoLocations: [{ points: [{ latitude: 91, longitude: 0 }] }] }, 'geoLocations[0].points[0].latitude'],
      ['a rights statement that says nothing', { rightsList: [{}] }, 'rightsList[0]'],
      ['a related item of no DataCite type', { relatedItems: [{ itemType: 'Magazine', relation: 'IsPartOf' }] }, 'relatedItems[0].itemType'],
      ['a name identifier without its scheme', { creators: [{ name: 'A', nameIdentifiers: [{ value: 'Q1' }] }] }, 'creators[0].nameIdentifiers[0].scheme'],
      ['an unknown key of a subject', { subjects: [{ value: 's', authority: 'lcsh' }] }, 'subjects[0].authority'],
    ] as const,
    ([what]) => `refuses ${what}, naming the field`,
    ([, rec, field]) => {
      const r = parse(rec);
      expect('refusals' in r && r.refusals.map((x) => x.field)).to.include(field);
    },
  );
});

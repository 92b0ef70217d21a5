import { expect } from 'chai';
import { dublinCore, hostCitation } from '../../lib/model/facts';
import { bibliographicType, coarTypeOfRecord } from '../../lib/model/type-facts';
import { citationSource } from '../../lib/model/citation-facts';
import { typeOfWords } from '../../lib/model/type-crosswalks';
import { eachRow } from '../helpers/table';

describe('kinds of material in Dublin Core words', () => {
  eachRow(
    [
      [['StillImage'], 'k', 'still image', false],
      [['http://purl.org/dc/dcmitype/MovingImage'], 'g', 'moving image', false],
      [['Photograph', 'Image'], 'k', 'still image', false],
      [['mixed material'], 'p', 'mixed material', false],
      [['Text', 'manuscript'], 't', 'text', true],
      [['manuscript', 'cartographic'], 'f', 'cartographic', true],
      [['Software'], 'm', 'software, multimedia', false],
    ] as const,
    ([words, leader, tor]) => `reads ${words.join(' and ')} as Leader/06 ${leader}, typeOfResource ${tor}`,
    ([words, leader, tor, manuscript]) => {
      expect(typeOfWords(words)).to.deep.equal({ leader06: leader, typeOfResource: tor, ...(manuscript && { manuscript: true }) });
    },
  );

  it('names no kind for words that say none: a type is never invented', () => {
    expect(typeOfWords(['Inaugural Address'])).to.equal(undefined);
    expect(bibliographicType({ dc: { type: ['Inaugural Address'] } })).to.deep.equal({ leader06: 'a' });
  });

  it('takes the typed resource type before the words', () => {
    expect(bibliographicType({ dc: { type: ['StillImage'] }, resourceType: { general: 'Software', label: 'code' } }).leader06).to.equal('m');
  });
});

describe('the COAR type a Dublin Core record names', () => {
  eachRow(
    [
      ['info:eu-repo/semantics/article', 'journal article'],
      ['info:eu-repo/semantics/doctoralThesis', 'doctoral thesis'],
      ['Dataset', 'dataset'],
      ['http://purl.org/coar/resource_type/c_5ce6', 'software'],
      ['https://purl.org/coar/resource_type/c_5ce6', 'software'],
      ['conference poster', 'conference poster'],
    ] as const,
    ([word, label]) => `reads dc:type ${word} as the COAR type ${label}`,
    ([word, label]) => {
      expect(coarTypeOfRecord({ dc: { type: [word] } })?.label).to.equal(label);
    },
  );

  it('names none for other words, and takes a typed resource type over the words beside it', () => {
    expect(coarTypeOfRecord({ dc: { type: ['Inaugural Address'] } })).to.equal(undefined);
    // A DataCite type names its COAR concept (COAR Resource Types 3.2 to DataCite): the dc:type words are not asked.
    expect(coarTypeOfRecord({ dc: { type: ['Dataset'] }, resourceType: { general: 'Software', label: 'code' } })?.uri).to.equal(
      'http://purl.org/coar/resource_type/c_5ce6',
    );
  });
});

describe('a host as a citation, and a citation as a host', () => {
  eachRow(
    [
      ['Journal of Ecology, 12(3), 45-67', true],
      ['Nature, vol. 5', true],
      ['Proceedings, pp. 1-10', true],
      ['Sample Source', false],
      ['Digitised from the 1888 print', false],
    ] as const,
    ([source, cites]) => `takes dc:source "${source}" ${cites ? 'for' : 'not for'} a citation`,
    ([source, cites]) => {
      expect(citationSource({ dc: { source: [source] } })).to.equal(cites ? source : undefined);
    },
  );

  it('writes a host in the order of LC 773 $g after its title', () => {
    expect(hostCitation({ title: 'Chemistry', volume: '23', issue: '31', startPage: '7444', endPage: '7447' })).to.equal(
      'Chemistry, Vol. 23, no. 31, p. 7444-7447',
    );
    expect(hostCitation({ title: 'Chemistry' })).to.equal('Chemistry');
    expect(hostCitation({})).to.equal(undefined);
  });
});

describe('the Dublin Core of a lifted record joins its typed values', () => {
  it('keeps every language, the typed one first', () => {
    expect(dublinCore({ dc: { language: ['ang'] }, language: 'lat' }).language).to.deep.equal(['lat', 'ang']);
  });

  it('puts the publication date first, then accepted and available, then the record own dates, each once', () => {
    expect(dublinCore({ dc: { date: ['1888', '1889-04'] }, dates: { issued: '1889-04', accepted: '1889-01-02' } }).date).to.deep.equal([
      '1889-04',
      '1889-01-02',
      '1888',
    ]);
  });

  it('says where the work was published in dc:source', () => {
    expect(dublinCore({ dc: {}, host: { title: 'Chemistry', volume: '23' } }).source).to.deep.equal(['Chemistry, Vol. 23']);
  });
});

import { expect } from 'chai';
import { normalizeLanguageTag, primaryLanguage } from '../../lib/model/language';
import { eachRow } from '../helpers/table';

describe('BCP 47 language tags', () => {
  eachRow(
    [
      ['en', 'en'],
      ['EN', 'en'],
      ['en-US', 'en-US'],
      ['en_US', 'en-US'],
      ['en-us', 'en-US'],
      ['eng', 'eng'],
      ['zh-hant-tw', 'zh-Hant-TW'],
      ['sr-Latn', 'sr-Latn'],
      ['es-419', 'es-419'],
      ['de-CH-1996', 'de-CH-1996'],
      ['x-klingon', 'x-klingon'],
      ['en-US-x-twain', 'en-US-x-twain'],
    ] as const,
    ([tag, want]) => `normalizes ${JSON.stringify(tag)} to ${want}`,
    ([tag, want]) => {
      expect(normalizeLanguageTag(tag)).to.equal(want);
    },
  );
  eachRow(
    ['English', 'e', 'en--US', 'en-', '123', 'en-US-', 'fr CA', ''],
    (tag) => `refuses ${JSON.stringify(tag)}, which is not a language tag`,
    (tag) => {
      expect(normalizeLanguageTag(tag)).to.equal(null);
    },
  );
  it('names the primary language of a tag', () => {
    expect(primaryLanguage('en-US')).to.equal('en');
    expect(primaryLanguage('eng')).to.equal('eng');
  });
});

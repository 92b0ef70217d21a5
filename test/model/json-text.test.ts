import { expect } from 'chai';
import { fieldsFromJson, fieldsJson } from '../../lib/model/json-text';

describe('record fields as JSON text', () => {
  const cases = [
    { name: 'plain Dublin Core', fields: { dc: { title: ['T'], creator: ['A', 'B'] } } },
    { name: 'text that JSON escapes', fields: { dc: { title: ['"quoted" \\ back\u2028slash\n', '📚'] } } },
    {
      name: 'typed fields',
      fields: { dc: {}, identifiers: [{ type: 'DOI', value: '10.1/x' }], publicationYear: '2024', files: [{ url: 'https://x/f', size: 12 }] },
    },
  ] as const;
  for (const c of cases) {
    it(`serializes ${c.name} as JSON.stringify does`, () => {
      expect(fieldsJson(c.fields as never)).to.equal(JSON.stringify(c.fields));
    });
    it(`gives back the very text ${c.name} was parsed from, and the object JSON.parse makes`, () => {
      const text = JSON.stringify(c.fields);
      const parsed = fieldsFromJson(text);
      expect(parsed).to.deep.equal(JSON.parse(text));
      expect(fieldsJson(parsed)).to.equal(text);
    });
  }
});

/**
 * The HTML validator of the tests: html-validate with its recommended rules
 * (the HTML standard's content models and attributes, and the document rules
 * besides), all but `long-title`: a record page's title is the work's own
 * title, which may well be long.
 */
import { expect } from 'chai';
import { HtmlValidate } from 'html-validate';

const validator = new HtmlValidate({ extends: ['html-validate:recommended'], rules: { 'long-title': 'off' } });

/**
 * Asserts html-validate finds nothing to say about a page, naming each finding with its place and context.
 * Example: `await expectValidHtml(await res.text(), 'the home page')`.
 */
export async function expectValidHtml(html: string, name: string): Promise<void> {
  const report = await validator.validateString(html);
  const lines = html.split('\n');
  const messages = report.results.flatMap((r) =>
    r.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message} (${lines[m.line - 1]?.slice(Math.max(0, m.column - 40), m.column + 40)})`),
  );
  expect(messages, `html-validate on ${name}`).to.deep.equal([]);
}

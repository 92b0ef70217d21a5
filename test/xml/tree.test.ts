/** Reading stored fragments into trees (lib/xml/tree.ts): namespaces, entities, language, refusal of what is not well-formed. */
import { expect } from 'chai';
import { findAll, parseFragment, textOf, type XmlElement } from '../../lib/xml/tree';

describe('parseFragment', () => {
  it('reads a text of megabytes as one text, an entity across the pieces it is matched in decoded whole', () => {
    const text = `${'a'.repeat(65_534)}&amp;${'b'.repeat(4 * 1024 * 1024)}`;
    const root = parseFragment(`<x xmlns="urn:t">${text}</x>`);
    expect(root?.children).to.have.length(1);
    expect(textOf(root as XmlElement)).to.equal(`${'a'.repeat(65_534)}&${'b'.repeat(4 * 1024 * 1024)}`);
  });

  it('resolves default and prefixed namespaces, including ones declared lower down', () => {
    const t = parseFragment('<r xmlns="urn:a" xmlns:b="urn:b"><b:x>1</b:x><y xmlns="urn:c"><b:z/></y></r>');
    expect(t?.ns).to.equal('urn:a');
    expect(findAll(t!, 'urn:b', 'x').map(textOf)).to.deep.equal(['1']);
    expect(findAll(t!, 'urn:c', 'y')).to.have.length(1);
    expect(findAll(t!, 'urn:b', 'z')).to.have.length(1);
  });

  it('replaces the predefined entities and character references in text and attributes', () => {
    const t = parseFragment('<r a="&quot;x&#x9;&amp;">&lt;b&gt; &#233;&#x4E2D;</r>');
    expect(t?.attrs.get('a')).to.equal('"x\t&');
    expect(textOf(t!)).to.equal('<b> é中');
  });

  it('keeps CDATA as text and skips comments and processing instructions', () => {
    const t = parseFragment('<r><!-- c --><?pi x?><![CDATA[<a>&amp;]]></r>');
    expect(textOf(t!)).to.equal('<a>&amp;');
  });

  it('inherits xml:lang', () => {
    const t = parseFragment('<r xml:lang="ja"><t>日本語</t><u xml:lang="en">x</u></r>');
    expect(t!.children.map((c) => (c.kind === 'element' ? c.lang : null))).to.deep.equal(['ja', 'en']);
  });

  const bad = ['<a><b></a>', '<a>&foo;</a>', '<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 'text', '<a/><b/>'];
  for (const xml of bad) {
    it(`refuses ${JSON.stringify(xml)}, which is not one well-formed element`, () => {
      expect(parseFragment(xml)).to.equal(null);
    });
  }
});

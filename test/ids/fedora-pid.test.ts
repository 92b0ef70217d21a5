import { expect } from 'chai';
import { eachRow, rejectsEach } from '../helpers/table';
import { isNcName, NORMALIZED_PID_RE, parseFedoraPid, parseInfoFedora } from '../../lib/ids/fedora-pid';

describe('Fedora PIDs', () => {
  const valid: Array<[string, string]> = [
    ['demo:1', 'demo:1'],
    ['demo:A-B.C_D%3AE', 'demo:A-B.C_D%3AE'],
    ['demo:MyFedoraDigitalObject', 'demo:MyFedoraDigitalObject'],
    ['demo%3A1', 'demo:1'],
    ['demo%3a1', 'demo:1'],
    ['demo:A-B.C_D%3ae', 'demo:A-B.C_D%3Ae'],
    ['demo%3aA-B.C_D%3aE', 'demo:A-B.C_D%3AE'],
    ['a.b-c:~x', 'a.b-c:~x'],
    ['n:' + 'x'.repeat(62), 'n:' + 'x'.repeat(62)],
    // 64 characters once "%3A" becomes ":" (66 as written).
    ['n%3A' + 'x'.repeat(62), 'n:' + 'x'.repeat(62)],
  ];
  eachRow(
    valid,
    ([pid, normalized]) => `accepts ${pid} and normalizes it to ${normalized}`,
    ([pid, normalized]) => {
      const r = parseFedoraPid(pid);
      expect(r.ok && r.normalized).to.equal(normalized);
      expect(r.ok && r.isNormalized).to.equal(pid === normalized);
      expect(NORMALIZED_PID_RE.test(normalized), 'Fedora regex on the normalized form').to.equal(true);
    },
  );

  const invalid: Array<[string, string]> = [
    ['demo', 'no separator'],
    [':1', 'empty namespace-id'],
    ['demo:', 'empty object-id'],
    ['de_mo:1', 'underscore in namespace-id'],
    ['demo:1:2', 'second colon'],
    ['demo:a b', 'space'],
    ['demo:a/b', 'slash'],
    ['demo:a%G0', 'bad escape'],
    ['demo:a%2', 'truncated escape'],
    ['demo:é', 'non-ASCII'],
    ['n:' + 'x'.repeat(63), '65 characters'],
  ];
  rejectsEach(invalid, parseFedoraPid);
});

describe('info:fedora URIs', () => {
  const valid: Array<[string, string, string]> = [
    ['info:fedora/demo:1', 'info:fedora/demo:1', 'object'],
    ['info:fedora/demo:A-B.C_D%3AE', 'info:fedora/demo:A-B.C_D%3AE', 'object'],
    ['info:fedora/demo:MyFedoraDigitalObject', 'info:fedora/demo:MyFedoraDigitalObject', 'object'],
    ['info:fedora/demo%3aA-B.C_D%3aE', 'info:fedora/demo:A-B.C_D%3AE', 'object'],
    ['info:fedora/demo:1/demo:MySDef/method', 'info:fedora/demo:1/demo:MySDef/method', 'method'],
    ['info:fedora/demo:1/demo:MySDef/method?param1=value1', 'info:fedora/demo:1/demo:MySDef/method?param1=value1', 'method'],
    ['info:fedora/demo:1/title.jpg', 'info:fedora/demo:1/title.jpg', 'datastream'],
    ['info:fedora/demo:1/DC', 'info:fedora/demo:1/DC', 'datastream'],
    // Normalization steps 1-4.
    ['info:fedora/demo%3A1/%44C', 'info:fedora/demo:1/DC', 'datastream'],
    ['info:fedora/demo:1/caf%c3%a9', 'info:fedora/demo:1/caf%C3%A9', 'datastream'],
    ['info:fedora/demo:1/demo%3amysdef/m?b=2&a=2&a=1', 'info:fedora/demo:1/demo:mysdef/m?a=1&a=2&b=2', 'method'],
    ['info:fedora/demo:1/s:d/m?x=%7e%26%2f&%41=%3d', 'info:fedora/demo:1/s:d/m?A=%3D&x=~%26/', 'method'],
    ['info:fedora/demo:1/s:d/m?p=%C3%A9&p=z', 'info:fedora/demo:1/s:d/m?p=z&p=%C3%A9', 'method'],
  ];
  eachRow(
    valid,
    ([uri, normalized, kind]) => `parses ${uri} as a ${kind} URI normalized to ${normalized}`,
    ([uri, normalized, kind]) => {
      const r = parseInfoFedora(uri);
      expect(r.ok && r.kind).to.equal(kind);
      expect(r.ok && r.normalized).to.equal(normalized);
    },
  );

  const invalid: Array<[string, string]> = [
    ['info:fedora/', 'no PID'],
    ['info:fedora/demo', 'not a PID'],
    ['info:fedora/demo:1/1abc', 'datastream id is not an NCName'],
    ['info:fedora/demo:1/a:b', 'datastream id with a colon parses as no PID'],
    ['info:fedora/demo:1/' + 'D'.repeat(65), 'datastream id over 64 characters'],
    ['info:fedora/demo:1/notapid/method', 'sDef is not a PID'],
    ['info:fedora/demo:1/demo:S/1method', 'method name is not an NCName'],
    ['info:fedora/demo:1/DC?x=1', 'parameters on a datastream'],
    ['info:fedora/demo:1/demo:S/m?novalue', 'parameter without "="'],
    ['info:fedora/demo:1/a/b/c', 'too many segments'],
    ['info:fedora/demo:1/a b', 'space'],
    ['info:Fedora/demo:1', 'prefix case'],
  ];
  rejectsEach(invalid, parseInfoFedora);

  it('recognises XML NCNames', () => {
    expect(['DC', 'title.jpg', '_x', 'é-1', 'RELS-EXT'].map(isNcName)).to.deep.equal([true, true, true, true, true]);
    expect(['1a', '-a', 'a:b', '', 'a b'].map(isNcName)).to.deep.equal([false, false, false, false, false]);
  });
});

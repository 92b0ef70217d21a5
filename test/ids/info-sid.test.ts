import { expect } from 'chai';
import { eachRow, rejectsEach } from '../helpers/table';
import { parseInfoSid } from '../../lib/ids/info-sid';

describe('info:sid', () => {
  const valid: Array<[string, string]> = [
    ['info:sid/cnn.com', 'info:sid/cnn.com'],
    ['info:sid/ads.harvard.edu', 'info:sid/ads.harvard.edu'],
    ['info:sid/oclc.org', 'info:sid/oclc.org'],
    ['info:sid/amazon.co.uk', 'info:sid/amazon.co.uk'],
    ['info:sid/oclc.org:inspec', 'info:sid/oclc.org:inspec'],
    ['info:sid/amazon.co.uk:books', 'info:sid/amazon.co.uk:books'],
    ['info:sid/OCLC.Org:Inspec', 'info:sid/oclc.org:Inspec'],
    ['INFO:SID/CNN.com', 'info:sid/cnn.com'],
    ['info:sid/localhost', 'info:sid/localhost'],
    ['info:sid/a', 'info:sid/a'],
    ['info:sid/cnn.com.', 'info:sid/cnn.com.'],
    ['info:sid/123.example.com', 'info:sid/123.example.com'],
    ['info:sid/x.org:a:b/c?d=e%2f', 'info:sid/x.org:a:b/c?d=e%2f'],
  ];
  eachRow(
    valid,
    ([sid, canonical]) => `accepts ${sid} with canonical form ${canonical}`,
    ([sid, canonical]) => {
      const r = parseInfoSid(sid);
      expect(r.ok && r.canonical).to.equal(canonical);
    },
  );
  const invalid: Array<[string, string]> = [
    ['info:sid/', 'empty DNS-identifier'],
    ['info:sid/1.2.3.4', 'numeric top label'],
    ['info:sid/-cnn.com', 'label starting with a hyphen'],
    ['info:sid/cnn-.com', 'label ending with a hyphen'],
    ['info:sid/cnn..com', 'empty label'],
    ['info:sid/cnn.com:', 'empty collection-string'],
    ['info:sid/cnn.com:a b', 'space in collection-string'],
    ['info:sid/cnn.com:a#b', '# in collection-string'],
    ['info:sid/cnn_x.com', 'underscore'],
    ['info:sid/cnn.com/x', 'slash in DNS-identifier'],
    ['info:sidcnn.com', 'no slash'],
  ];
  rejectsEach(invalid, parseInfoSid);
});

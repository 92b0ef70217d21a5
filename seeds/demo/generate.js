#!/usr/bin/env node
// Regenerates the demo repository: `node seeds/demo/generate.js` writes
// sets.json and records.ndjson beside this file. Deterministic (seeded PRNG,
// no clock), so the output only changes when this script does.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

// mulberry32: tiny, seedable, good enough for test data.
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(20241227);
const int = (n) => Math.floor(rand() * n);
const pick = (a) => a[int(a.length)];
const some = (a, lo, hi) => {
  const n = lo + int(hi - lo + 1);
  const pool = [...a];
  const out = [];
  while (out.length < n && pool.length) out.push(pool.splice(int(pool.length), 1)[0]);
  return out;
};

// setSpec: unreserved URI characters, ':' separating levels (OAI-PMH 4.6).
const SETS = [
  ['physics', 'Physics', 'Research output of the physics departments.'],
  ['physics:hep', 'High-energy physics', 'Experimental and theoretical particle physics.'],
  ['physics:hep:theory', 'High-energy physics — theory', 'Phenomenology, lattice QCD & beyond-the-Standard-Model work.'],
  ['physics:cond-mat', 'Condensed matter', 'Solid-state and soft-matter physics.'],
  ['math', 'Mathematics', 'Pure and applied mathematics.'],
  ['math:logic', 'Logic & foundations <set theory, proof theory>', 'Mathematical logic, including "Łukasiewicz logics".'],
  ['history', 'History', 'Historical studies.'],
  ['history:medieval', 'Mittelalterliche Handschriften', 'Digitalisate und Studien zu Handschriften des 9.–15. Jahrhunderts.'],
  ['theses', 'Theses', 'Doctoral and master theses.'],
  ['datasets', 'Research data', 'Datasets underlying published work.'],
  ['collections', 'Special collections', 'Digitized holdings of the library’s special collections.'],
  ['collections:rare_books.v2', 'Rare books (2nd digitization)', 'Spec using the less common unreserved characters _ and .'],
].map(([spec, name, description]) => ({ spec, name, description }));

const CREATORS = [
  'Smith, Jane',
  'García Márquez, Lucía',
  'Müller, Jürgen',
  'Dupré, Hélène',
  'Łukasiewicz, Zofia',
  'Wójcik, Paweł',
  'Παπαδόπουλος, Γιώργος',
  'Οικονόμου, Ελένη',
  '山田, 太郎',
  '佐藤, 花子',
  "O'Brien, Siobhán",
  'Nguyễn, Thị Minh',
  'Andersson, Björn',
  'Okafor, Chinedu',
  'Kowalski, Jan',
  'Lefèvre, François',
  'Schröder, Anne-Kathrin',
  'Chen, Wei',
  'Ivanova, Darya',
  'Brown, Michael',
];
const PUBLISHERS = ['Example University Press', 'Universität Beispielstadt', 'Éditions de l’Exemple', 'Demo Research Institute'];
const RIGHTS = ['https://creativecommons.org/licenses/by/4.0/', 'https://creativecommons.org/publicdomain/zero/1.0/', 'All rights reserved'];

// Per subject: the set it goes in, subjects, and titles by language (ISO 639-1).
const TOPICS = [
  {
    sets: ['physics:hep:theory'],
    subject: ['Lattice QCD', 'Quantum chromodynamics'],
    titles: {
      en: ['Lattice estimates of the %s form factor', 'Two-loop corrections to %s production'],
      de: ['Gitterrechnungen zum %s-Formfaktor'],
    },
    words: ['pion', 'kaon', 'Higgs', 'top-quark'],
  },
  {
    sets: ['physics:hep'],
    subject: ['Particle detectors', 'Calorimetry'],
    titles: {
      en: ['Calibration of the %s calorimeter', 'Test-beam results for a %s tracker'],
      fr: ['Étalonnage du calorimètre %s'],
    },
    words: ['forward', 'electromagnetic', 'silicon', 'hadronic'],
  },
  {
    sets: ['physics:cond-mat'],
    subject: ['Superconductivity', 'Thin films'],
    titles: {
      en: ['Strain-tuned %s in layered oxides', 'Anomalous transport in %s thin films'],
      ja: ['層状酸化物における%sの研究'],
    },
    words: ['superconductivity', 'magnetism', 'graphene'],
  },
  {
    sets: ['math:logic'],
    subject: ['Proof theory', 'Many-valued logic'],
    titles: {
      en: ['A cut-elimination theorem for %s', 'Decidability of %s fragments'],
      pl: ['O logice %s i jej zastosowaniach'],
    },
    words: ['modal', 'intuitionistic', 'trójwartościowej', 'linear'],
  },
  {
    sets: ['math'],
    subject: ['Number theory', 'Combinatorics'],
    titles: {
      en: ['Bounds for %s partitions', 'On the distribution of %s primes'],
      el: ['Σχετικά με τους %s αριθμούς'],
    },
    words: ['twin', 'Sophie Germain', 'πρώτους', 'restricted'],
  },
  {
    sets: ['history:medieval'],
    subject: ['Manuscripts', 'Palaeography'],
    titles: {
      de: ['Die Handschrift %s und ihre Überlieferung', 'Schreiberhände im Kodex %s'],
      fr: ['Le manuscrit %s et ses enluminures'],
      en: ['Marginalia in codex %s'],
    },
    words: ['Cod. Sang. 904', 'Clm 14000', 'BnF lat. 8878'],
  },
  {
    sets: ['history'],
    subject: ['Urban history', 'Oral history'],
    titles: {
      en: ['Everyday life in %s, 1890–1914', 'Interviews on post-war %s'],
      pl: ['Życie codzienne w %s'],
      el: ['Η καθημερινή ζωή στη %s'],
    },
    words: ['Łódź', 'Kraków', 'Θεσσαλονίκη', 'Lyon'],
  },
];
const TYPES = {
  article: ['Text', 'application/pdf'],
  thesis: ['Text', 'application/pdf'],
  data: ['Dataset', 'text/csv'],
  image: ['StillImage', 'image/tiff'],
  sound: ['Sound', 'audio/flac'],
  software: ['Software', 'application/zip'],
};
const ABSTRACT = {
  en: 'This work (“%s”) presents new results and compares them with earlier studies.',
  de: 'Die Arbeit „%s“ stellt neue Ergebnisse vor und vergleicht sie mit älteren Studien.',
  fr: 'Ce travail, « %s », présente de nouveaux résultats et les compare aux études antérieures.',
  pl: 'Praca „%s” przedstawia nowe wyniki i porównuje je z wcześniejszymi badaniami.',
  el: 'Η εργασία «%s» παρουσιάζει νέα αποτελέσματα και τα συγκρίνει με προηγούμενες μελέτες.',
  ja: '本研究「%s」では新たな結果を示し、先行研究と比較する。',
};

// Internal ids that must be escaped somewhere (URI, XML, SQL LIKE): one or more of each.
const ODD_IDS = [
  'report 12',
  'annual report  2024',
  '100% pure',
  'stats%20raw',
  'item#3',
  'a<b',
  'x>y',
  '<script>',
  'Tom & Jerry',
  'say "hello"',
  'what?',
  'q?a=1&b=2',
  'C++ notes',
  'café-é',
  'Müller-Studie',
  '日本語資料',
  'Ελληνικά/κείμενα',
  "O'Reilly\\path",
  '📚 collection',
  'demo:A-B.C_D%3AE',
  'demo:1',
  'demo:MyFedoraDigitalObject',
  'info:fedora/demo:2',
  'under_score%_like',
];

const TOTAL = 285;
const T0 = Date.UTC(2024, 11, 27, 0, 0, 0) / 1000; // 2024-12-27, ten days across New Year
// Two stamps on a day boundary, to test from/until inclusiveness by day.
const DAY_END = T0 + 3 * 86400 - 1; // 2024-12-29T23:59:59Z
const stamps = [DAY_END, DAY_END + 1];
while (stamps.length < TOTAL) stamps.push(T0 + int(10 * 86400));
stamps.sort((a, b) => a - b);
// Ties on the same second, including groups straddling page boundaries at the
// default page size (100): keyset paging must not lose or repeat them.
for (const [at, n] of [
  [97, 5],
  [197, 6],
  [20, 3],
  [150, 4],
  [240, 3],
  [270, 3],
]) {
  for (let k = 1; k < n; k++) stamps[at + k] = stamps[at];
}
if (!stamps.includes(DAY_END) || !stamps.includes(DAY_END + 1)) throw new Error('day boundary lost');

const iso = (s) => new Date(s * 1000).toISOString().replace('.000Z', 'Z');
const oddAt = new Map(ODD_IDS.map((id, k) => [Math.floor(((k + 0.5) * TOTAL) / ODD_IDS.length), id]));
// 'a+b', 'a b' and 'a%2Bb' decode into each other by mistake; keep them in one tie group.
oddAt.set(97, 'a+b');
oddAt.set(98, 'a%2Bb');
oddAt.set(99, 'a b');
const deletedAt = new Set([5, 41, 99, 133, 170, 199, 222, 243, 251, 284]);
const counters = {};
const kinds = [];

const records = stamps.map((ds, i) => {
  const kind = pick(['article', 'article', 'article', 'article', 'thesis', 'data', 'image', 'sound', 'software']);
  const topic = pick(TOPICS);
  const lang = pick(Object.keys(topic.titles));
  const year = iso(ds).slice(0, 4);
  const prefix = { thesis: 'thesis', data: 'data' }[kind] ?? 'rep';
  const n = (counters[prefix + year] = (counters[prefix + year] ?? 0) + 1);
  const id = oddAt.get(i) ?? `${prefix}-${year}-${String(n).padStart(4, '0')}`;
  const word = pick(topic.words);
  const title = (kind === 'data' ? 'Data for: ' : '') + pick(topic.titles[lang]).replace('%s', word);
  let sets = [...topic.sets];
  if (kind === 'thesis') sets.push('theses');
  if (kind === 'data') sets.push('datasets');
  if (topic.sets[0] === 'history:medieval' && kind === 'image') sets.push('collections:rare_books.v2');
  if (topic.sets[0] === 'physics:hep:theory' && rand() < 0.2) sets.push('physics:hep'); // ancestor listed too
  if (rand() < 0.12) sets = []; // not in any set
  const [type, format] = TYPES[kind];
  const issued = `${2010 + int(15)}-${String(1 + int(12)).padStart(2, '0')}-${String(1 + int(28)).padStart(2, '0')}`;
  const doi = `10.5555/demo.${year}.${String(i + 1).padStart(4, '0')}`;
  const dc = {
    title: [title],
    creator: some(CREATORS, 1, 4),
    subject: some(topic.subject, 1, 2),
    description: [ABSTRACT[lang].replace('%s', title)],
    publisher: kind === 'thesis' ? ['Universität Beispielstadt'] : [pick(PUBLISHERS)],
    contributor: rand() < 0.3 ? [pick(CREATORS)] : [],
    date: kind === 'thesis' ? [issued.slice(0, 4)] : [issued],
    type: [type],
    format: [format],
    identifier: [`https://doi.org/${doi}`, `https://repo.example.org/items/${encodeURIComponent(id)}`],
    source: kind === 'image' ? [`${word}, fol. ${1 + int(200)}${pick(['r', 'v'])}`] : [],
    language: [lang],
    relation: kind === 'data' && i > 0 ? [`https://doi.org/10.5555/demo.${year}.${String(1 + int(i)).padStart(4, '0')}`] : [],
    coverage: topic.sets[0] === 'history' ? [`${word}`, '1890/1914'] : [],
    rights: [pick(RIGHTS)],
  };
  for (const k of Object.keys(dc)) if (dc[k].length === 0) delete dc[k];
  kinds.push({ kind, doi, issued, lang });
  return { id, datestamp: iso(ds), sets: [...new Set(sets)].sort(), deleted: deletedAt.has(i), dc };
});

// One record whose text looks like markup, to test escaping.
const tricky = records[123];
tricky.dc.title = ['Escaping test: ]]> and <b>not markup</b> and &amp; are text'];
tricky.dc.description = ['Contains <![CDATA[ ... ]]>, & < > " \' and an astral character 𝔸.'];

// The structured record fields (README "Record fields") for the richer formats,
// drawn from a PRNG of their own after the Dublin Core, so adding them left
// every earlier value (titles, datestamps, sets) as it was. One item in five
// stays plain Dublin Core (oai_dc, marc21 and mods only); one in four of the
// rest has no DOI (no datacite or oai_datacite).
const rand2 = mulberry32(20261123);
// ORCID iD check character: ISO 7064 MOD 11-2 over the first 15 digits.
function orcid(n) {
  const digits = String(n).padStart(15, '0');
  let total = 0;
  for (const d of digits) total = (total + Number(d)) * 2;
  const r = (12 - (total % 11)) % 11;
  return `${digits.slice(0, 4)}-${digits.slice(4, 8)}-${digits.slice(8, 12)}-${digits.slice(12)}${r === 10 ? 'X' : r}`;
}
const COAR = { article: 'c_6501', thesis: 'c_db06', data: 'c_ddb1', image: 'c_ecc8', sound: 'c_18cc', software: 'c_5ce6' };
const ACCESS = ['open', 'open', 'open', 'open', 'restricted', 'metadataOnly'];
const embargoedAt = 17; // one embargoed item (a live article)
const fileListAt = 8; // and one with several files
records.forEach((r, i) => {
  const { kind, doi, issued, lang } = kinds[i];
  const plain = rand2() < 0.2;
  const withDoi = rand2() >= 0.25;
  const access = ACCESS[Math.floor(rand2() * ACCESS.length)];
  const withOrcid = rand2() < 0.5;
  const funded = rand2() < 0.3;
  if (r.deleted || (plain && i !== embargoedAt && i !== fileListAt)) return;
  r.identifiers = [...(withDoi ? [{ type: 'DOI', value: doi }] : []), { type: 'URL', value: `https://repo.example.org/items/${encodeURIComponent(r.id)}` }];
  r.creators = r.dc.creator.map((name, k) => {
    const [family, given] = name.split(', ');
    return {
      name,
      givenName: given,
      familyName: family,
      nameType: 'person',
      ...(withOrcid && k === 0 && { orcid: orcid(1000000 + i * 7919), affiliations: [{ name: 'University of Gothenburg', ror: '01tm6cn81' }] }),
    };
  });
  if (kind === 'thesis') r.contributors = [{ name: 'Brown, Michael', givenName: 'Michael', familyName: 'Brown', nameType: 'person', type: 'Supervisor' }];
  r.resourceType = { coar: `http://purl.org/coar/resource_type/${COAR[kind]}` };
  r.accessRights = i === embargoedAt ? 'embargoed' : access;
  if (/^https:/.test(r.dc.rights[0])) r.license = r.dc.rights[0];
  r.publisher = r.dc.publisher[0];
  r.publicationYear = issued.slice(0, 4);
  r.dates = { issued, ...(i === embargoedAt && { embargoEnd: '2027-06-30' }) };
  r.language = lang;
  if (funded)
    r.fundingReferences = [
      { funderName: 'European Commission', funderIdentifier: { type: 'Crossref Funder ID', value: '10.13039/501100000780' }, awardNumber: String(600000 + i) },
    ];
  if (kind === 'data' && r.dc.relation)
    r.relatedIdentifiers = [{ identifier: r.dc.relation[0].replace('https://doi.org/', ''), type: 'DOI', relation: 'IsSupplementTo' }];
  const [, mediaType] = TYPES[kind];
  const fileAccess = r.accessRights === 'metadataOnly' ? 'restricted' : r.accessRights;
  if (r.accessRights !== 'metadataOnly') {
    r.files = [
      { url: `https://repo.example.org/files/${encodeURIComponent(r.id)}/main`, mediaType, size: 10000 + Math.floor(rand2() * 5000000), access: fileAccess },
    ];
    if (i === fileListAt) {
      r.files.push(
        { url: `https://repo.example.org/files/${encodeURIComponent(r.id)}/data.csv`, mediaType: 'text/csv', size: 52311, access: 'open' },
        { url: `https://repo.example.org/files/${encodeURIComponent(r.id)}/README.txt`, mediaType: 'text/plain', size: 1200, access: 'open' },
      );
    }
  }
});
if (records[embargoedAt].deleted || records[fileListAt].deleted) throw new Error('the embargoed item and the file list must be live');

// What the loader refuses must never be generated: duplicates, C0 controls, lone surrogates.
const strings = (v) => (typeof v === 'string' ? [v] : v && typeof v === 'object' ? Object.values(v).flatMap(strings) : []);
if (new Set(records.map((r) => r.id)).size !== TOTAL) throw new Error('duplicate ids');
if (oddAt.size !== ODD_IDS.length + 3) throw new Error('odd ids collide');
if (records.flatMap(strings).some((s) => /[\u0000-\u001f\u007f]/.test(s) || !s.isWellFormed())) throw new Error('bad character');
const perStamp = new Map();
for (const r of records) perStamp.set(r.datestamp, (perStamp.get(r.datestamp) ?? 0) + 1);
const ties = [...perStamp.values()].filter((n) => n >= 3).length;

const dir = __dirname;
fs.writeFileSync(path.join(dir, 'sets.json'), JSON.stringify(SETS, null, 2) + '\n');
fs.writeFileSync(path.join(dir, 'records.ndjson'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.log(`${records.length} records, ${records.filter((r) => r.deleted).length} deleted, ${SETS.length} sets, ${ties} tie groups of 3+`);

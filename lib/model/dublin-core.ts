/**
 * Dublin Core (DCMES 1.1): the fifteen elements every record of the model
 * carries, each optional and repeatable. The richer fields of the model
 * (./record.ts) sit beside them; oai_dc (lib/formats/oai-dc.ts) writes and
 * reads exactly these.
 */

/** The fifteen Dublin Core element names, in DCMES order. */
export const DC_ELEMENTS = [
  'title',
  'creator',
  'subject',
  'description',
  'publisher',
  'contributor',
  'date',
  'type',
  'format',
  'identifier',
  'source',
  'language',
  'relation',
  'coverage',
  'rights',
] as const;
export type DcElement = (typeof DC_ELEMENTS)[number];

/** Dublin Core fields of a record: element name → values. */
export type DublinCore = Partial<Record<DcElement, readonly string[]>>;

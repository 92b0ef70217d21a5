/** FAIR Signposting: an item's facts from its metadata, and its typed links as headers and linksets. */
export { itemFacts, schemaOrgType, type ItemFacts, type FileLink } from './facts';
export { normalizeDoi, isHttpUrl } from '../model/identifiers';
export {
  signpostingLinks, linkHeader, linksetJson, linksetText,
  type SignpostLink, type SignpostInput, type DescribedBy, type LinksetJson,
} from './links';

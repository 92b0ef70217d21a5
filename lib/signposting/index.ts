/** FAIR Signposting: an item's facts from its metadata, and its typed links as headers and linksets. */
export { itemFacts, normalizeDoi, schemaOrgType, isHttpUrl, type ItemFacts, type FileLink } from './facts';
export {
  signpostingLinks, linkHeader, linksetJson, linksetText,
  type SignpostLink, type SignpostInput, type DescribedBy, type LinksetJson,
} from './links';

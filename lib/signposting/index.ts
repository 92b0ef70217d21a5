/** FAIR Signposting: an item's facts from its record model, and its typed links as headers and linksets. */
export { itemFacts, type ItemFacts, type FileLink } from './facts';
export { schemaOrgType } from '../model/type-crosswalks';
export { normalizeDoi, isHttpUrl } from '../model/identifiers';
export { signpostingLinks, linkHeader, linksetJson, linksetText, type SignpostLink, type SignpostInput, type DescribedBy, type LinksetJson } from './links';

/** Server-rendered pages for people: the public API of lib/html. */
export { renderPage } from './pages';
export type { PageInput, HomeView, ItemView, ItemFormatView, SourceFailureView } from './views';
export { PAGE_CSS, type PagePaths } from './layout';
export { requestFromForm } from './form';
export { esc, langTag } from './escape';
export { ERROR_EXPLANATIONS, type Explanation } from './errors';
export { citationMeta, metaHtml, scholarDate, type MetaTag } from './citation-meta';
export { recordJsonLd, jsonLdScript, type Json, type JsonObject, type RecordPlace } from './json-ld';

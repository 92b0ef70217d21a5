/** Server-rendered pages for people: the public API of lib/html. */
export { renderPage, type PageInput, type HomeView, type ItemView, type ItemFormatView } from './pages';
export { PAGE_CSS, type PagePaths } from './layout';
export { requestFromForm } from './form';
export { esc, langTag } from './escape';
export { ERROR_EXPLANATIONS, type Explanation } from './errors';

/** The protocol core's public API. */
export { handleRequest } from './handle';
export { decodeForm } from './form';
export { parseRequest, VERBS, ARGUMENT_RULES } from './request';
export { METADATA_PREFIX, SET_SPEC } from '../model/header';
export type { OaiRequest, ListRequest, ListSelection, ListVerb, RequestArgs, Verb, ArgName } from './request';
export { oaiError, hidesRequestArguments } from './errors';
export type { OaiError, OaiErrorCode } from './errors';
export { parseUtcDatetime, formatDatestamp } from './dates';
export { encodeToken, decodeToken, badToken } from './token';
export type { TokenState, ListTokenState, SetsTokenState, TokenProblem, TokenVerb, StateOf } from './token';
export type { ProviderContext, RepositoryInfo } from './context';
export type { OaiResponse, ResponseBody, ResumptionInfo } from './response';
export { itemCount } from './response';

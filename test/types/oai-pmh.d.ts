/**
 * Types for the parts of the npm `oai-pmh` harvester (2.0.x, which ships
 * none) that test/interop uses. Results are xml2js objects (explicitArray:
 * false), typed `unknown` here and narrowed by the tests.
 */
declare module 'oai-pmh' {
  export interface OaiPmhOptions {
    userAgent?: string;
    /** Retry on 503 after Retry-After (default true). */
    retry?: boolean;
    retryMin?: number;
    retryMax?: number;
  }
  export interface ListOptions {
    metadataPrefix: string;
    from?: string;
    until?: string;
    set?: string;
  }
  export class OaiPmh {
    constructor(baseUrl: string, options?: OaiPmhOptions);
    identify(): Promise<unknown>;
    getRecord(identifier: string, metadataPrefix: string): Promise<unknown>;
    listIdentifiers(options: ListOptions): AsyncIterable<unknown>;
    listRecords(options: ListOptions): AsyncIterable<unknown>;
    listSets(): AsyncIterable<unknown>;
    listMetadataFormats(options?: { identifier?: string }): Promise<unknown>;
  }
  export class OaiPmhError extends Error {
    code?: string;
  }
}

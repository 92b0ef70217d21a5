import { oaiError } from '../errors';
import type { ProviderContext } from '../context';
import type { ResponseBody } from '../response';

/**
 * ListMetadataFormats (OAI-PMH 4.4): the formats of one item, or of the
 * repository when no identifier is given. Both errors say the store lacks
 * something, and are marked `absent` (../response.ts).
 */
export async function listMetadataFormats(ctx: ProviderContext, identifier: string | undefined): Promise<ResponseBody> {
  if (identifier === undefined) return { kind: 'ListMetadataFormats', formats: ctx.formats.all() };
  const header = await ctx.store.getHeader(identifier);
  if (!header) return { kind: 'errors', errors: [oaiError('idDoesNotExist', `No item has the identifier ${JSON.stringify(identifier)}.`)], absent: true };
  const formats = ctx.formats.all().filter((f) => header.formats.includes(f.prefix));
  if (formats.length === 0) {
    return { kind: 'errors', errors: [oaiError('noMetadataFormats', 'No metadata format is available for this item.')], absent: true };
  }
  return { kind: 'ListMetadataFormats', formats };
}

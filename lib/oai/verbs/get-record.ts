import { oaiError } from '../errors';
import type { OaiError } from '../errors';
import type { ProviderContext } from '../context';
import type { ResponseBody } from '../response';

/**
 * GetRecord (OAI-PMH 4.1): one record, or idDoesNotExist and/or
 * cannotDisseminateFormat. A deleted item answers with its deleted header.
 * An error that says the store lacks the item or its record is marked
 * `absent` (../response.ts).
 */
export async function getRecord(ctx: ProviderContext, identifier: string, metadataPrefix: string): Promise<ResponseBody> {
  const known = ctx.formats.get(metadataPrefix) !== undefined;
  const record = known ? await ctx.store.getRecord(identifier, metadataPrefix) : null;
  if (record) return { kind: 'GetRecord', record };
  const header = await ctx.store.getHeader(identifier);
  const errors: OaiError[] = [];
  if (!header) errors.push(oaiError('idDoesNotExist', `No item has the identifier ${JSON.stringify(identifier)}.`));
  if (!known || header) {
    errors.push(
      oaiError(
        'cannotDisseminateFormat',
        `The metadata format ${JSON.stringify(metadataPrefix)} is not available for ${header ? 'this item' : 'this repository'}.`,
      ),
    );
  }
  // Only a format this repository does not offer, asked of an item it holds, is refused on the configuration alone.
  return { kind: 'errors', errors, ...((known || !header) && { absent: true as const }) };
}

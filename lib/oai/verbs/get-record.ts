import { oaiError } from '../errors';
import type { OaiError } from '../errors';
import type { ProviderContext } from '../context';
import type { ResponseBody } from '../response';

/**
 * GetRecord (OAI-PMH 4.1): one record, or idDoesNotExist and/or
 * cannotDisseminateFormat. A deleted item answers with its deleted header.
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
  return { kind: 'errors', errors };
}

import { create } from 'xmlbuilder2';
import { text } from '../../xml/builder-text';
import { OAI_IDENTIFIER_NS, OAI_IDENTIFIER_SCHEMA, XMLNS_NS, XSI_NS } from '../../xml/namespaces';
import type { ProviderContext } from '../context';
import type { ResponseBody } from '../response';

/**
 * The `oai-identifier` description container (OAI identifier format,
 * section 3): repositoryIdentifier is the namespace-identifier, and the
 * sample is a real item's identifier. Example output starts
 * `<oai-identifier xmlns="http://www.openarchives.org/OAI/2.0/oai-identifier" …>`.
 */
export function oaiIdentifierDescription(namespace: string, sampleIdentifier: string): string {
  const root = create()
    .ele(OAI_IDENTIFIER_NS, 'oai-identifier')
    .att(XMLNS_NS, 'xmlns:xsi', XSI_NS)
    .att(XSI_NS, 'xsi:schemaLocation', `${OAI_IDENTIFIER_NS} ${OAI_IDENTIFIER_SCHEMA}`);
  root.ele(OAI_IDENTIFIER_NS, 'scheme').txt('oai');
  root.ele(OAI_IDENTIFIER_NS, 'repositoryIdentifier').txt(namespace);
  root.ele(OAI_IDENTIFIER_NS, 'delimiter').txt(':');
  // A local-identifier may hold `&` and `;` (OAI identifier format 2.1), so `&amp;` can be part of one.
  text(root.ele(OAI_IDENTIFIER_NS, 'sampleIdentifier'), sampleIdentifier);
  return root.end({ headless: true });
}

/**
 * Identify (OAI-PMH 4.2). earliestDatestamp is the oldest record's; for an empty repository, the
 * store's creation time (the epoch when the context does not know it): OAI-PMH 4.2 asks for a
 * datestamp guaranteed to be no later than any in the repository, and 1970 says nothing true.
 */
export async function identify(ctx: ProviderContext): Promise<ResponseBody> {
  const [earliest, sample] = await Promise.all([ctx.store.earliestDatestamp(), ctx.store.sampleIdentifier()]);
  const { repository: r } = ctx;
  return {
    kind: 'Identify',
    identify: {
      repositoryName: r.name,
      baseURL: r.baseURL,
      adminEmails: r.adminEmails,
      earliestDatestamp: earliest ?? r.createdAt ?? 0,
      deletedRecord: 'persistent',
      compression: r.compression,
      // An empty repository has no real item to show; the container still needs a syntactically valid sample.
      descriptions: [oaiIdentifierDescription(r.namespace, sample ?? `oai:${r.namespace}:sample`), ...(r.descriptions ?? [])],
    },
  };
}

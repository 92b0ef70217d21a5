/**
 * The resumption tokens one run of a list has followed, so that a source
 * whose tokens run in a circle (A, B, A, B …) ends the run instead of
 * keeping it busy for ever (OAI-PMH 2.0 section 3.5: a token names the
 * rest of a list, so a token seen before is a list going round). Tokens are
 * kept as digests: a provider's tokens can be long, and a run can follow
 * many. Pure: the trail is a value the harvester keeps for the length of
 * a list.
 */
import crypto from 'node:crypto';

/** The tokens a list has followed: digest → the page that answered it. */
export interface TokenTrail {
  readonly pages: Map<string, number>;
}

/**
 * A new, empty trail.
 *
 * @example const trail = tokenTrail();
 */
export function tokenTrail(): TokenTrail {
  return { pages: new Map() };
}

/**
 * Records that `page` answered `token`; returns the page that answered the
 * same token before (the list is going round), or null.
 *
 * @example const trail = tokenTrail(); followed(trail, 'A', 1); followed(trail, 'B', 2); followed(trail, 'A', 3) // 1
 */
export function followed(trail: TokenTrail, token: string, page: number): number | null {
  const digest = crypto.hash('sha256', token, 'base64url');
  const before = trail.pages.get(digest);
  if (before !== undefined) return before;
  trail.pages.set(digest, page);
  return null;
}

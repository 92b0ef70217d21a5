/**
 * How /healthz judges a process that reads a replica: healthy while its
 * primary answers and its lag is within the bound; a lag not known in
 * seconds is not held against it.
 */
import { expect } from 'chai';
import { replicaHealth, type Health } from '../../../server/http/health';
import type { ReplicaLag } from '../../../lib/store';

const cases: Array<{ name: string; lag: ReplicaLag; health: Health }> = [
  {
    name: 'a replica that has replayed all its primary wrote is healthy',
    lag: { primary: 'reachable', bytes: 0, seconds: 0 },
    health: { healthy: true, body: { status: 'ok', replica: { lagSeconds: 0, lagBytes: 0 } } },
  },
  {
    name: 'a replica behind by no more than the bound is healthy',
    lag: { primary: 'reachable', bytes: 4096, seconds: 10 },
    health: { healthy: true, body: { status: 'ok', replica: { lagSeconds: 10, lagBytes: 4096 } } },
  },
  {
    name: 'a replica behind by more than the bound is lagging',
    lag: { primary: 'reachable', bytes: 4096, seconds: 12.34 },
    health: {
      healthy: false,
      body: {
        status: 'lagging',
        reason: 'the read replica is 12.3 s behind its primary, more than replicaMaxLag (10 s)',
        replica: { lagSeconds: 12.34, lagBytes: 4096 },
      },
    },
  },
  {
    name: 'a replica whose lag is not known in seconds is not held to the bound',
    lag: { primary: 'reachable', bytes: 4096, seconds: null },
    health: { healthy: true, body: { status: 'ok', replica: { lagSeconds: null, lagBytes: 4096 } } },
  },
  {
    name: 'a replica whose primary does not answer is not healthy',
    lag: { primary: 'unreachable', reason: 'connect ECONNREFUSED 127.0.0.1:5432' },
    health: {
      healthy: false,
      body: { status: 'primary-unreachable', reason: "the read replica's primary does not answer: connect ECONNREFUSED 127.0.0.1:5432" },
    },
  },
];

describe('the health of a process reading a replica', () => {
  for (const c of cases) it(c.name, () => expect(replicaHealth(c.lag, 10)).to.deep.equal(c.health));
});

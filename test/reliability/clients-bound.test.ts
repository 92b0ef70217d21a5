/**
 * The per-client limiter remembers a bounded number of clients: a flood of
 * distinct addresses, each leaving a bucket still refilling, neither grows
 * its memory past the bound nor makes every request scan all it remembers;
 * the clients seen last keep their buckets.
 */
import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { NextFunction, Request, Response } from 'express';
import { createClientFairness } from '../../server/http/clients';

/** One request through the middleware: its status (200 when passed on), and a way to end it. */
function ask(limit: ReturnType<typeof createClientFairness>['limit'], ip: string): { status: number; close: () => void } {
  const res = Object.assign(new EventEmitter(), {
    statusCode: 200,
    locals: {} as Record<string, unknown>,
    status(code: number) {
      this.statusCode = code;
      return this;
    },
    set() {
      return this;
    },
    type() {
      return this;
    },
    send() {
      return this;
    },
  });
  limit({ ip, socket: {} } as unknown as Request, res as unknown as Response, (() => undefined) as NextFunction);
  return { status: res.statusCode, close: () => res.emit('close') };
}

describe('the per-client limiter under a flood of addresses', () => {
  it('remembers at most its bound, forgetting the longest known first', () => {
    const fairness = createClientFairness({ maxInFlight: 4, ratePerMinute: 60, burst: 2 }, { now: () => 1_000, maxTracked: 10 });
    let most = 0;
    for (let i = 0; i < 25; i++) {
      const r = ask(fairness.limit, `2001:db8::${i.toString(16)}`);
      expect(r.status).to.equal(200);
      r.close();
      most = Math.max(most, fairness.tracked());
    }
    expect(most).to.be.at.most(10);
    expect(fairness.tracked()).to.be.at.least(9);
    // The last client's bucket was kept: one token left of its burst of two, and the clock stands still.
    const last = '2001:db8::18';
    expect(ask(fairness.limit, last).status).to.equal(200);
    expect(ask(fairness.limit, last).status).to.equal(429);
    // The first was forgotten, so it starts again with a full bucket.
    expect(ask(fairness.limit, '2001:db8::0').status).to.equal(200);
    expect(ask(fairness.limit, '2001:db8::0').status).to.equal(200);
  });
});

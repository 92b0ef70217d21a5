/**
 * `GET /healthz`: whether this process can answer harvests right now. The
 * store must answer; a process reading a replica must also reach the
 * replica's primary (without it, the replica cannot vouch for what it lacks,
 * lib/oai/handle.ts) and lag it by no more than the configured bound.
 * Answered as JSON, 200 when healthy, else 503 with Retry-After and the reason.
 */
import type { RequestHandler } from 'express';
import type { ReadStore, ReplicaLag } from '../../lib/store';

/** Seconds a read replica may lag by default before /healthz says so: ten times the second a list page waits for it. */
export const REPLICA_MAX_LAG = 10;

/** What the health check asks of the process. */
export interface HealthOptions {
  /** The store requests are read from: `ping`, and `replicaLag` when its reads follow a primary. */
  readonly store: Pick<ReadStore, 'ping' | 'replicaLag'>;
  /** Seconds a replica may lag its primary and still be healthy (`replicaMaxLag`). */
  readonly maxLagSeconds: number;
  /** Seconds in Retry-After of a 503. */
  readonly retryAfter: number;
}

/** The body /healthz answers, and whether it is healthy. */
export interface Health {
  readonly healthy: boolean;
  readonly body: {
    readonly status: 'ok' | 'unavailable' | 'lagging' | 'primary-unreachable';
    /** Why it is not healthy, for a person. */
    readonly reason?: string;
    /** Where the replica stands behind its primary, when the process reads one and the primary answered. */
    readonly replica?: { readonly lagSeconds: number | null; readonly lagBytes: number | null };
  };
}

/**
 * The health of a process reading a replica, from how far the replica lags:
 * unhealthy when the primary did not answer, or when the lag in seconds is
 * known and above `maxLagSeconds`. A lag not known in seconds (the replica
 * has replayed no transaction yet) is not held against it: the requests that
 * need what it lacks are 503 on their own.
 *
 * @example replicaHealth({ primary: 'reachable', bytes: 0, seconds: 0 }, 10) // { healthy: true, body: { status: 'ok', replica: { lagSeconds: 0, lagBytes: 0 } } }
 */
export function replicaHealth(lag: ReplicaLag, maxLagSeconds: number): Health {
  if (lag.primary === 'unreachable') {
    return { healthy: false, body: { status: 'primary-unreachable', reason: `the read replica's primary does not answer: ${lag.reason}` } };
  }
  const replica = { lagSeconds: lag.seconds, lagBytes: lag.bytes };
  if (lag.seconds !== null && lag.seconds > maxLagSeconds) {
    const reason = `the read replica is ${lag.seconds.toFixed(1)} s behind its primary, more than replicaMaxLag (${maxLagSeconds} s)`;
    return { healthy: false, body: { status: 'lagging', reason, replica } };
  }
  return { healthy: true, body: { status: 'ok', replica } };
}

/**
 * The `/healthz` handler.
 *
 * @example app.get('/healthz', healthRoute({ store: ctx.store, maxLagSeconds: 10, retryAfter: 10 }));
 */
export function healthRoute(options: HealthOptions): RequestHandler {
  const { store } = options;
  return async (_req, res) => {
    let health: Health;
    try {
      await store.ping();
      health = store.replicaLag ? replicaHealth(await store.replicaLag(), options.maxLagSeconds) : { healthy: true, body: { status: 'ok' } };
    } catch {
      health = { healthy: false, body: { status: 'unavailable' } };
    }
    if (!health.healthy) res.status(503).set('Retry-After', String(options.retryAfter));
    res.type('application/json').send(`${JSON.stringify(health.body)}\n`);
  };
}

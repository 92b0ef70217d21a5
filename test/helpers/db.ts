/**
 * Runs a block of tests once per database: SQLite always, PostgreSQL when
 * TEST_DATABASE_URL is set (issue 2, "Tests"). Each test gets a fresh,
 * migrated database: a temporary SQLite file, or a throwaway PostgreSQL
 * schema reached through the search path and dropped afterwards. When
 * TEST_DATABASE_URL is set but PostgreSQL cannot be reached, the block fails
 * loudly; it never skips.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { createKnex } from '../../server/db/connection';
import { migrate } from '../../server/db/migrations';
import { KnexStore, type KnexStoreOptions } from '../../server/store/knex-store';
import { createIdPolicy } from '../../lib/ids/policy';

/** The namespace-identifier the test stores publish under. */
export const TEST_NAMESPACE = 'test.example.org';

/** What a test inside {@link forEachDatabase} can reach. */
export interface TestDatabase {
  /** `sqlite` or `postgres`. */
  readonly name: string;
  /** The fresh database of the running test. */
  knex(): Knex;
  /**
   * A store on it with the real id policy (`auto` mode, {@link TEST_NAMESPACE});
   * override any option, e.g. the clock.
   */
  store(options?: Partial<Omit<KnexStoreOptions, 'knex'>>): KnexStore;
}

interface Target {
  readonly name: string;
  open(): Promise<{ knex: Knex; close(): Promise<void> }>;
}

function sqliteTarget(): Target {
  return {
    name: 'sqlite',
    async open() {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai-steward-test-'));
      const knex = createKnex(`sqlite:${path.join(dir, 'test.db')}`);
      return {
        knex,
        async close() {
          await knex.destroy();
          fs.rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  };
}

function postgresTarget(url: string): Target {
  return {
    name: 'postgres',
    async open() {
      const schema = `oai_test_${crypto.randomBytes(6).toString('hex')}`;
      const admin = createKnex(url, { pool: { min: 0, max: 1 } });
      await admin.raw('CREATE SCHEMA ??', [schema]);
      const knex = createKnex(url, { searchPath: schema, pool: { min: 0, max: 4 } });
      return {
        knex,
        async close() {
          await knex.destroy();
          await admin.raw('DROP SCHEMA ?? CASCADE', [schema]);
          await admin.destroy();
        },
      };
    },
  };
}

/** The databases the suite runs against in this environment. */
export function testTargets(): readonly Target[] {
  const url = process.env.TEST_DATABASE_URL;
  return url ? [sqliteTarget(), postgresTarget(url)] : [sqliteTarget()];
}

/**
 * Defines `describe('on <database>')` for each database and calls `body`
 * inside it; `beforeEach` opens and migrates a fresh database, `afterEach`
 * throws it away.
 *
 * @example
 * forEachDatabase((db) => {
 *   it('stores an item', async () => { await db.store().writeItems([...]); });
 * });
 */
export function forEachDatabase(body: (db: TestDatabase) => void): void {
  for (const target of testTargets()) {
    describe(`on ${target.name}`, function () {
      let current: { knex: Knex; close(): Promise<void> } | undefined;

      if (target.name === 'postgres') {
        before(async function () {
          // Fail, never skip: an unreachable database must break the run.
          const url = process.env.TEST_DATABASE_URL as string;
          const probe = createKnex(url, { pool: { min: 0, max: 1 } });
          try {
            await probe.raw('select 1');
          } catch (err) {
            throw new Error(`TEST_DATABASE_URL is set but PostgreSQL is unreachable (${url}): ${(err as Error).message}`);
          } finally {
            await probe.destroy();
          }
        });
      }

      beforeEach(async function () {
        current = await target.open();
        await migrate(current.knex);
      });

      afterEach(async function () {
        if (current) await current.close();
        current = undefined;
      });

      const db: TestDatabase = {
        name: target.name,
        knex() {
          if (!current) throw new Error('no database outside a test');
          return current.knex;
        },
        store(options = {}) {
          return new KnexStore({
            knex: this.knex(),
            policy: createIdPolicy({ namespace: TEST_NAMESPACE, mode: 'auto' }),
            ...options,
          });
        },
      };
      body(db);
    });
  }
}

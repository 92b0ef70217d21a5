/**
 * `oai-steward log verify URL [--key VKEY] [--state FILE]`: verifies the
 * publication log of the OAI-PMH repository at URL from the outside
 * (./log-verify.ts). `--key` pins the verifier key instead of trusting the
 * one Identify names; `--state FILE` keeps the last checkpoint verified, and
 * the next run checks the log still extends it. Exit status 0 when
 * everything agrees, 1 naming the first disagreement, 2 on a usage error.
 */
import fs from 'node:fs';
import { checkpointText, parseCheckpoint, type Checkpoint } from '../../lib/tlog/note';
import { verifyLog } from './log-verify';

const USAGE = 'usage: oai-steward log verify URL [--key NAME+ID+KEY] [--state FILE] [--no-harvest]\n';

/** Runs `log …`; returns the exit status. */
export async function runLogCommand(args: readonly string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream }): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'verify') {
    io.stderr.write(USAGE);
    return 2;
  }
  let url: string | undefined;
  let key: string | undefined;
  let state: string | undefined;
  let harvest = true;
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--key' || a === '--state') {
      const v = rest[++i];
      if (v === undefined) {
        io.stderr.write(`oai-steward log verify: ${a} needs a value\n${USAGE}`);
        return 2;
      }
      if (a === '--key') key = v;
      else state = v;
    } else if (a === '--no-harvest') harvest = false;
    else if (url === undefined && !a.startsWith('-')) url = a;
    else {
      io.stderr.write(`oai-steward log verify: unexpected ${JSON.stringify(a)}\n${USAGE}`);
      return 2;
    }
  }
  if (url === undefined) {
    io.stderr.write(USAGE);
    return 2;
  }
  let previous: Checkpoint | undefined;
  if (state !== undefined && fs.existsSync(state)) {
    try {
      previous = parseCheckpoint(fs.readFileSync(state, 'utf8'));
    } catch (err) {
      io.stderr.write(`oai-steward log verify: ${state}: ${(err as Error).message}\n`);
      return 2;
    }
  }
  let v;
  try {
    v = await verifyLog(url, { ...(key !== undefined && { key }), ...(previous && { previous }), harvest });
  } catch (err) {
    io.stderr.write(`oai-steward log verify: ${url}: ${(err as Error).message}\n`);
    return 1;
  }
  if (v.problem !== null) {
    io.stdout.write(`PROBLEM  ${v.problem}\n`);
    return 1;
  }
  const c = v.checkpoint as Checkpoint;
  if (state !== undefined) fs.writeFileSync(state, checkpointText(c));
  const since = previous ? `, extending the checkpoint of ${previous.size} kept in ${state}` : '';
  io.stdout.write(
    `OK       ${c.origin}: ${c.size} entries agree with their tiles and the signed checkpoint${since}; ${v.records} records served match their latest entries\n`,
  );
  return 0;
}

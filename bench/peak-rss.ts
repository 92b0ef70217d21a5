/**
 * Preloaded (`node --require`) into a process the benchmark measures, such
 * as `oai-steward load`: when the process exits, writes its peak resident
 * set size in bytes (getrusage's ru_maxrss, which counts every thread,
 * the loader's reading thread included) to the file OAI_BENCH_PEAK_RSS names.
 * Reading /proc from outside instead would miss whatever the process
 * reached after the last sample.
 */
import fs from 'node:fs';
import { isMainThread } from 'node:worker_threads';

const file = process.env.OAI_BENCH_PEAK_RSS;
// Worker threads load preloads too; only the process's own exit has the last word.
if (file && isMainThread) {
  process.once('exit', () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
}

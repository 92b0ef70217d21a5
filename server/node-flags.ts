/**
 * The V8 flags the server runs with: in `npm start`, in the `oai-steward`
 * bin's shebang, and wherever the scripts start a server (keep the three in
 * step). V8 grows its young generation with the allocation rate of a long
 * harvest, so without a cap the server's RSS depended on how long it had been
 * harvesting rather than on anything it holds: measured peak RSS 142.8 MB
 * after a 100,000-record benchmark and 162.6 MB after a 1,000,000-record one;
 * with 8 MB semi-spaces 138.1 MB and 137.4 MB, at the same throughput.
 *
 * TurboFan's escape analysis is off: the crosswalks are long functions that
 * the varying shapes of records deoptimize a few times each early in a load,
 * and each recompilation spent most of its time in escape analysis on the
 * compiler's threads (`v8::internal::compiler::VariableTracker` led a profile
 * of them). Measured over a 10,000-record load, alternating: CPU of the whole
 * process 6.76 and 6.90 s with it, 5.73 and 5.73 s without; the load's own
 * thread 3.2 s either way, and a ListRecords harvest's server CPU unchanged
 * (oai_dc and marc21, 10,000 records).
 *
 * V8's pool of background threads (parallel and concurrent garbage
 * collection, compilation) is sized by Node to the machine's parallelism
 * (`--v8-pool-size=0`) rather than its fixed default of four: on a machine of
 * two cores, four threads compete with the thread that does the work. A
 * 10,000-record load, alternating: 5.33 and 5.33 s of CPU against 6.19 and
 * 5.76, wall 6.26 and 6.19 s against 7.10 and 6.65; a harvest's server CPU
 * unchanged.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8', '--no-turbo-escape', '--v8-pool-size=0'];

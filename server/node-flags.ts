/**
 * The V8 flags the server runs with: in `npm start`, in the `oai-steward`
 * bin's shebang, and wherever the scripts start a server (keep the three in
 * step). V8 grows its young generation with the allocation rate of a long
 * harvest, so without a cap the server's RSS depended on how long it had been
 * harvesting rather than on anything it holds: measured peak RSS 142.8 MB
 * after a 100,000-record benchmark and 162.6 MB after a 1,000,000-record one;
 * with 8 MB semi-spaces 138.1 MB and 137.4 MB, at the same throughput.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=8'];

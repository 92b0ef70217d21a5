/**
 * How much K server processes can give over one on this machine, from where
 * the cores went while one process served N harvesters at once.
 *
 * Per record harvested, the one-process run spent `servers / rate` core
 * seconds in the server and `client / rate` in the harvesters. With K
 * processes the rate R can grow until either
 * - the machine is full: R × (server + client cost per record) reaches the
 *   cores the rest of the machine left free (`cpus − other`), or
 * - every process is full: R × server cost per record reaches K cores,
 * whichever comes first. The bound, as a ratio to the one-process rate, is
 * therefore min((cpus − other) / (servers + client), K / servers), with the
 * core counts of the one-process run. A measured ratio near the bound means
 * the machine, not the server, stops it; far below it, the server does.
 *
 * @example processesRatioBound(2, { client: 0.4, servers: 0.95, other: 0.1 }, 2) // 1.41
 */
export function processesRatioBound(
  cpus: number,
  oneProcess: { readonly client: number; readonly servers: number; readonly other: number },
  processes: number,
): number | null {
  const { client, servers, other } = oneProcess;
  if (!(servers > 0) || !(client >= 0) || !(cpus > 0)) return null;
  const machine = Math.max(0, cpus - Math.max(0, other)) / (servers + client);
  const perProcess = processes / servers;
  return Math.round(Math.min(machine, perProcess) * 100) / 100;
}

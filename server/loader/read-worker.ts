/**
 * Reading a file of JSON records on a thread of its own: the worker opens
 * the file, splits it into records, parses each and reads it into the
 * record model (lib/pipeline/json-record.ts `jsonToItem`), and
 * hands the loader the same events ./read-inputs.ts `readInput` yields, a
 * batch at a time. The loader's thread keeps the store: planning, the write
 * pipeline and the database's own work. On SQLite, whose writes run on the
 * loader's thread, the two then use two cores instead of one.
 *
 * The worker is one batch ahead at most: it prepares the next batch while
 * the loader writes the one before, and waits to be asked for it, so memory
 * holds two batches whatever the size of the file; the loader ends it. Events keep the file's
 * order. A failure to read the file ends the load as it would on one thread,
 * with the same message.
 *
 * The worker builds the format registry and id policy from the configuration
 * (../conversion.ts), so only a provider whose format registry comes from its
 * configuration offers it (`Provider.readerConfig`).
 */
import path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { formatsOf, policyOf, type ReaderConfig } from '../conversion';
import { fieldsFromJson } from '../../lib/model/json-text';
import type { ItemInput } from '../../lib/store';
import { fileChunks, type ByteCounter, type Input } from './input';
import { readInput, type LoadEvent } from './read-inputs';
import { MAX_BATCH_INPUT_BYTES } from './limits';

/** What the worker is started with. */
interface ReaderData {
  readonly role: 'oai-steward-reader';
  readonly config: ReaderConfig;
  /** The file (never standard input: the worker opens it by name), and what it holds. */
  readonly file: string;
  readonly kind: 'ndjson' | 'json-array';
  /** Records per batch. */
  readonly batch: number;
}

/**
 * An event as it crosses between the threads: a converted item carries its
 * record fields as their JSON text (lib/model/json-text.ts), which the
 * writing thread turns back into the object without serializing it again.
 */
type WireEvent =
  LoadEvent | { readonly kind: 'item'; readonly item: Omit<ItemInput, 'fields'>; readonly fieldsJson: string | undefined; readonly id: string | null };

/** A message from the worker: the next batch (the last has `done`), or why reading failed. */
type ReaderMessage =
  | { readonly type: 'batch'; readonly events: WireEvent[]; readonly bytesRead: number; readonly done: boolean }
  | { readonly type: 'error'; readonly message: string };

/** An event ready to cross to the writing thread. */
function toWire(ev: LoadEvent): WireEvent {
  if (ev.kind !== 'record' || !('item' in ev.result)) return ev;
  const { fields, ...item } = ev.result.item;
  return { kind: 'item', item, fieldsJson: fields === undefined ? undefined : JSON.stringify(fields), id: ev.id };
}

/** An event as the reading thread made it. */
function fromWire(ev: WireEvent): LoadEvent {
  if (ev.kind !== 'item') return ev;
  const item: ItemInput = ev.fieldsJson === undefined ? ev.item : { ...ev.item, fields: fieldsFromJson(ev.fieldsJson) };
  return { kind: 'record', result: { item }, id: ev.id };
}

/** Whether an input can be read on the reading thread: a file of JSON records. */
export function readableInWorker(input: Input): boolean {
  return (input.kind === 'ndjson' || input.kind === 'json-array') && input.name !== '-';
}

/**
 * The events of a JSON-records file, read and converted on a worker thread
 * (see the file's comment); the worker ends when the generator does.
 * `counter` gets the bytes the worker has read.
 *
 * @example for await (const ev of readInWorker(input, provider.readerConfig, counter, 1000)) …
 */
export async function* readInWorker(input: Input, config: ReaderConfig, counter: ByteCounter, batch: number): AsyncGenerator<LoadEvent> {
  if (input.kind !== 'ndjson' && input.kind !== 'json-array') throw new Error(`${input.name} is not a file of JSON records`);
  const data: ReaderData = { role: 'oai-steward-reader', config, file: path.resolve(input.name), kind: input.kind, batch };
  // From the TypeScript sources (tests run through tsx) the worker needs tsx's loader too.
  const fromSource = __filename.endsWith('.ts');
  const worker = new Worker(__filename, { workerData: data, ...(fromSource && { execArgv: ['--require', 'tsx/cjs'] }) });
  // A failure or an exit while the worker is not being asked (this thread is writing) is reported at
  // the next ask: an 'error' event with no listener would end the process, and an ask of a worker that
  // has already exited would wait for ever.
  let failure: Error | undefined;
  worker.on('error', (err: Error) => (failure ??= err));
  worker.on('exit', (code: number) => (failure ??= new Error(`the thread reading the input stopped (exit status ${code})`)));
  const before = counter.bytesRead;
  try {
    for (;;) {
      if (failure) throw failure;
      const message = await ask(worker);
      if (message.type === 'error') throw new Error(message.message);
      counter.bytesRead = before + message.bytesRead;
      for (const ev of message.events) yield fromWire(ev);
      if (message.done) return;
    }
  } finally {
    await worker.terminate();
  }
}

/** Asks the worker for its next batch and waits for the answer (or for the worker's failure). */
function ask(worker: Worker): Promise<ReaderMessage> {
  return new Promise((resolve, reject) => {
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (m: ReaderMessage): void => {
      done();
      resolve(m);
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    const onExit = (code: number): void => {
      done();
      reject(new Error(`the thread reading the input stopped (exit status ${code})`));
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage('next');
  });
}

/** The worker's side: prepares a batch, sends it when asked, prepares the next. */
function serveBatches(data: ReaderData): void {
  const port = parentPort;
  if (!port) return;
  const counter: ByteCounter = { bytesRead: 0 };
  const formats = formatsOf(data.config);
  const policy = policyOf(data.config);
  const input: Input = { name: data.file, kind: data.kind, size: null, isListSets: false, chunks: () => fileChunks(data.file, counter) };
  const events = readInput(input, { policy, formats, counter, limits: { maxRecordBytes: data.config.maxRecordBytes } });
  const fill = async (): Promise<{ events: WireEvent[]; done: boolean }> => {
    const out: WireEvent[] = [];
    let records = 0;
    const start = counter.bytesRead;
    while (records < data.batch && counter.bytesRead - start < MAX_BATCH_INPUT_BYTES) {
      const r = await events.next();
      if (r.done) return { events: out, done: true };
      out.push(toWire(r.value));
      if (r.value.kind !== 'sets') records++;
    }
    return { events: out, done: false };
  };
  let next = fill();
  // Failures are reported when the batch is asked for, not as an unhandled rejection before.
  next.catch(() => undefined);
  port.on('message', () => {
    void next.then(
      (b) => {
        port.postMessage({ type: 'batch', events: b.events, bytesRead: counter.bytesRead, done: b.done } satisfies ReaderMessage);
        if (!b.done) {
          next = fill();
          next.catch(() => undefined);
        }
      },
      (err: unknown) => {
        port.postMessage({ type: 'error', message: err instanceof Error ? err.message : String(err) } satisfies ReaderMessage);
      },
    );
  });
}

if (!isMainThread && (workerData as Partial<ReaderData> | null)?.role === 'oai-steward-reader') serveBatches(workerData as ReaderData);

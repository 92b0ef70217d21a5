/**
 * One HTTP exchange with a server the scripts or tests started: the whole
 * body read, gzip or deflate undone. The benchmark, the soak, the fuzz run
 * and the test helpers all talk to the provider through it.
 */
import http from 'node:http';
import zlib from 'node:zlib';

/** An answer as received, the body decoded. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  /** Bytes on the wire (compressed, when the answer was). */
  readonly wireBytes: number;
}

export interface HttpRequestOptions {
  readonly port: number;
  readonly host?: string;
  readonly method?: string;
  /** Path and query, e.g. `/oai?verb=Identify`. */
  readonly path: string;
  readonly headers?: http.OutgoingHttpHeaders;
  readonly body?: string | Buffer;
  /** A keep-alive agent, or false for a fresh connection. */
  readonly agent?: http.Agent | false;
  /** Give up (and fail) after this many milliseconds without progress. */
  readonly timeoutMs?: number;
}

/**
 * Sends one request and reads the whole answer. Example:
 * `const a = await httpRequest({ port, path: '/oai?verb=Identify' }); a.status // 200`.
 */
export function httpRequest(o: HttpRequestOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: o.host ?? '127.0.0.1',
        port: o.port,
        method: o.method ?? 'GET',
        path: o.path,
        headers: o.headers,
        ...(o.agent !== undefined && { agent: o.agent }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let wireBytes = 0;
        res.on('data', (c: Buffer) => {
          wireBytes += c.length;
          chunks.push(c);
        });
        res.on('end', () => {
          try {
            let buf = Buffer.concat(chunks);
            const coding = res.headers['content-encoding'];
            if (coding === 'gzip') buf = zlib.gunzipSync(buf);
            else if (coding === 'deflate') buf = zlib.inflateSync(buf);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buf.toString('utf8'), wireBytes });
          } catch (err) {
            reject(err as Error);
          }
        });
        res.on('error', reject);
      },
    );
    if (o.timeoutMs !== undefined) {
      req.setTimeout(o.timeoutMs, () => req.destroy(new Error(`timeout after ${o.timeoutMs} ms`)));
    }
    req.on('error', reject);
    if (o.body !== undefined) req.write(o.body);
    req.end();
  });
}

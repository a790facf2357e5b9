/** The part of autocannon's API the benchmarks use (the package ships no type declarations). */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      body?: string | Buffer;
      headers?: Record<string, string>;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request;
    }
    interface Options {
      url: string;
      duration?: number;
      amount?: number;
      connections?: number;
      pipelining?: number;
      method?: string;
      body?: string;
      headers?: Record<string, string>;
      requests?: Request[];
      initialContext?: Record<string, unknown>;
    }
    interface Histogram {
      average: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      '2xx': number;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}

/** autocannon's per-connection queue of requests in flight, which gathers each response's body. */
declare module 'autocannon/lib/pipelinedRequestsQueue' {
  class PipelinedRequestsQueue {
    addBody(data: Buffer): void;
  }
  export = PipelinedRequestsQueue;
}

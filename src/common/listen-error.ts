/** The two knobs that choose a listener's address, as the operator sets them. */
export interface ListenKnobs {
  readonly port: string;
  readonly host: string;
}

/** What to do about the usual ways a listen fails, by Node's error code. */
const REMEDY: Record<string, (knobs: ListenKnobs) => string> = {
  EADDRINUSE: (k) => `the address is already in use: stop the process holding it, or set another ${k.port}`,
  EACCES: (k) => `permission denied (ports below 1024 need privileges): set ${k.port} to 1024 or more`,
  EADDRNOTAVAIL: (k) =>
    `no interface of this machine has that address: set ${k.host} to one it has (0.0.0.0: all)`,
  ENOTFOUND: (k) => `the host name does not resolve: set ${k.host} to an address of this machine`,
};

/**
 * A listener could not open its address (a port clash, a privileged port, an address the machine does
 * not have): one line naming the knobs and the address, where Node says only `listen EADDRINUSE`.
 */
export class ListenError extends Error {
  constructor(
    readonly knobs: ListenKnobs,
    readonly host: string,
    readonly port: number,
    readonly code: string | undefined,
    causeMessage: string,
  ) {
    const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
    const remedy = code === undefined ? undefined : REMEDY[code];
    super(
      `cannot listen on ${address} (${knobs.port}=${port}, ${knobs.host}=${host}): ` +
        (remedy === undefined ? causeMessage : remedy(knobs)),
    );
    this.name = new.target.name;
  }
}

/** Runs `listen`, turning its failure into a ListenError that names the knobs. */
export async function listenNamingKnobs<T>(
  knobs: ListenKnobs,
  address: { readonly host: string; readonly port: number },
  listen: () => Promise<T>,
): Promise<T> {
  try {
    return await listen();
  } catch (error) {
    const failure = error as NodeJS.ErrnoException;
    throw new ListenError(knobs, address.host, address.port, failure.code, failure.message);
  }
}

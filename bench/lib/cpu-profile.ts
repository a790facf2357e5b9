/** A node of a V8 `.cpuprofile` (what `node --cpu-prof` writes). */
export interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string };
  readonly children?: readonly number[];
}

export interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface ProfileTimes {
  /** µs of samples that were not `(idle)`. */
  readonly busy: number;
  /**
   * µs of samples with any of `frames` on the stack (each sample counted once): a function name
   * counts it with everything the function called; `caller>callee` only the callee's calls made
   * directly from a function named caller.
   */
  within(...frames: string[]): number;
}

/** Time per function from a sampling profile: each sample's interval (timeDeltas) goes to its stack. */
export function profileTimes(profile: CpuProfile): ProfileTimes {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const perNode = new Map<number, number>();
  profile.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const name = (id: number) => byId.get(id)!.callFrame.functionName;
  /** Every frame key on the stack of a sampled node. */
  const keys = new Map<number, Set<string>>();
  let busy = 0;
  for (const [id, micros] of perNode) {
    if (name(id) === '(idle)') continue;
    busy += micros;
    const stack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const up = parent.get(at);
      stack.add(name(at));
      if (up !== undefined) stack.add(`${name(up)}>${name(at)}`);
    }
    keys.set(id, stack);
  }
  return {
    busy,
    within: (...frames) => {
      let micros = 0;
      for (const [id, stack] of keys)
        if (frames.some((frame) => stack.has(frame))) micros += perNode.get(id)!;
      return micros;
    },
  };
}

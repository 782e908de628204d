/** Who holds an open stream: its account and the client address it came from. */
export interface StreamOwner {
  userId: string;
  address: string;
}

/** How many streams one account and one address may hold open on this process. */
export interface StreamCaps {
  perAccount: number;
  perAddress: number;
}

/** An open stream as the caps see it: something that can be ended. */
export interface Endable {
  end(): void;
}

/** Open streams grouped by owner (an account or an address), each group oldest first. */
class StreamGroups<S> {
  private readonly groups = new Map<string, Set<S>>();

  constructor(private readonly cap: number) {}

  /** Adds the stream; answers the owner's oldest streams that put it over the cap. */
  add(owner: string, stream: S): S[] {
    let group = this.groups.get(owner);
    if (!group) this.groups.set(owner, (group = new Set()));
    group.add(stream);
    // A Set iterates in insertion order, so its first entries are the oldest streams.
    return [...group].slice(0, Math.max(0, group.size - this.cap));
  }

  remove(owner: string, stream: S): void {
    const group = this.groups.get(owner);
    if (!group?.delete(stream)) return;
    if (group.size === 0) this.groups.delete(owner);
  }
}

/**
 * The open streams of one kind on this process and who holds them. An open connection belongs to
 * the process that accepted it, so these caps are per process and kept in memory: unlike a rate
 * limit there is nothing another process could count or would need to see.
 */
export class OpenStreams<S extends Endable> {
  private readonly streams = new Map<S, StreamOwner>();
  private readonly byAccount: StreamGroups<S>;
  private readonly byAddress: StreamGroups<S>;

  constructor(caps: StreamCaps) {
    this.byAccount = new StreamGroups(caps.perAccount);
    this.byAddress = new StreamGroups(caps.perAddress);
  }

  /**
   * Keeps an open stream so closing the app can end it (an open stream would hold the server).
   * Past its owner's caps it ends the owner's oldest streams: each stream costs a wake-up and a
   * read per change it listens to, so thousands of them on one token would turn a handful of
   * comments into tens of thousands of reads. The newest is kept, since that is the tab or app the
   * user is looking at; a closed one's stream may linger until its socket times out.
   */
  track(stream: S, owner: StreamOwner): () => void {
    this.streams.set(stream, owner);
    const over = new Set([...this.byAccount.add(owner.userId, stream), ...this.byAddress.add(owner.address, stream)]);
    for (const oldest of over) {
      this.untrack(oldest);
      oldest.end();
    }
    return () => this.untrack(stream);
  }

  private untrack(stream: S): void {
    const owner = this.streams.get(stream);
    if (!owner) return;
    this.streams.delete(stream);
    this.byAccount.remove(owner.userId, stream);
    this.byAddress.remove(owner.address, stream);
  }

  /** How many streams this process holds open. */
  get size(): number {
    return this.streams.size;
  }

  /** Ends every stream (the server is closing). */
  endAll(): void {
    for (const stream of this.streams.keys()) stream.end();
    this.streams.clear();
  }
}

/**
 * A bound on how many of one kind of long task this process runs at once. It guards the process's
 * own memory and time, so it is counted here rather than in the database: another process has its
 * own share.
 */
export class InFlight {
  private running = 0;

  constructor(private readonly limit: number) {}

  /** Takes a place: answers the function that gives it back (once, however often called), or null when none is free. */
  enter(): (() => void) | null {
    if (this.running >= this.limit) return null;
    this.running += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.running -= 1;
    };
  }
}

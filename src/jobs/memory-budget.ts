/**
 * Admission by memory: a task takes its share of a fixed budget before it runs and gives
 * it back after, so that tasks running at once never need more than the budget together.
 * Tasks wait first come, first served: a large one is not overtaken forever by small ones.
 */
export class MemoryBudget {
  private available: number;
  private readonly waiting: { bytes: number; admit: () => void }[] = [];

  constructor(readonly totalBytes: number) {
    this.available = totalBytes;
  }

  /** Bytes taken by the tasks admitted now. */
  get inUse(): number {
    return this.totalBytes - this.available;
  }

  /**
   * Waits until `bytes` are free and takes them; resolves to the function that gives them
   * back. A task larger than the whole budget takes all of it: it runs alone.
   */
  async acquire(bytes: number): Promise<() => void> {
    const share = Math.min(Math.max(0, Math.ceil(bytes)), this.totalBytes);
    if (this.waiting.length > 0 || share > this.available) await new Promise<void>((admit) => this.waiting.push({ bytes: share, admit }));
    else this.available -= share;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.available += share;
      this.admitWaiting();
    };
  }

  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.waiting[0]!.bytes <= this.available) {
      const next = this.waiting.shift()!;
      this.available -= next.bytes;
      next.admit();
    }
  }
}

/** One part of the core as it was built: its name and the parts it was handed. */
export interface AssemblyStep {
  part: string;
  uses: readonly string[];
}

/**
 * Records the order the composition root builds its parts in, and refuses a
 * part whose inputs are not built yet: "no late binding" is checked at every
 * start, not only promised in a comment.
 */
export class Assembly {
  readonly #order: AssemblyStep[] = [];

  add<T>(part: string, uses: readonly string[], make: () => T): T {
    const missing = uses.filter((use) => !this.#order.some((step) => step.part === use));
    if (missing.length > 0) throw new Error(`createCore builds "${part}" before ${missing.map((m) => `"${m}"`).join(', ')}, which it is handed`);
    if (this.#order.some((step) => step.part === part)) throw new Error(`createCore builds "${part}" twice`);
    const made = make();
    this.#order.push({ part, uses });
    return made;
  }

  get order(): readonly AssemblyStep[] {
    return [...this.#order];
  }
}

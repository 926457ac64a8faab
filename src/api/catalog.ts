/**
 * The session catalog: temporary views and tables (memory-sink tables, saved tables) by name,
 * case-insensitively.
 */

import { AnalysisException } from "../common/errors.js";
import type { LogicalPlan } from "../plan/logical.js";
import type { Catalog } from "../runtime/query-execution.js";

export class SessionCatalog implements Catalog {
  private readonly views = new Map<string, LogicalPlan>();
  private readonly resolvers: ((name: string) => LogicalPlan | undefined)[] = [];
  private readonly tempSources: TempViewSource[] = [];

  registerTempView(name: string, plan: LogicalPlan, replace: boolean): void {
    const key = name.toLowerCase();
    if (!replace && this.views.has(key)) {
      throw new AnalysisException(
        "TEMP_TABLE_OR_VIEW_ALREADY_EXISTS",
        `[TEMP_TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create the temporary view \`${name}\` because it already exists.`,
      );
    }
    this.views.set(key, plan);
  }
  dropTempView(name: string): boolean {
    const key = name.toLowerCase();
    // not short-circuited: a view and a memory-sink table of one name both go, as Spark's one view would
    const dropped = this.tempSources.map((s) => s.drop(key)).some(Boolean);
    return this.views.delete(key) || dropped;
  }
  /**
   * Temporary views that live elsewhere (a memory sink's table, which Spark registers as a temp
   * view named after the query): listed and dropped with the others, resolved after them.
   */
  addTempViewSource(source: TempViewSource): void {
    this.tempSources.push(source);
    this.resolvers.push((name) => source.lookup(name.toLowerCase()));
  }
  /** Extra name sources (memory-sink tables, on-disk tables), consulted after temp views. */
  addResolver(r: (name: string) => LogicalPlan | undefined): void {
    this.resolvers.push(r);
  }
  lookupRelation(name: string): LogicalPlan | undefined {
    const v = this.views.get(name.toLowerCase());
    if (v) return v;
    for (const r of this.resolvers) {
      const p = r(name);
      if (p) return p;
    }
    return undefined;
  }
  listTempViews(): string[] {
    return [...new Set([...this.views.keys(), ...this.tempSources.flatMap((s) => s.names())])];
  }
}

/** A set of temp views kept outside the catalog, by lower-case name. */
export interface TempViewSource {
  names(): string[];
  lookup(name: string): LogicalPlan | undefined;
  drop(name: string): boolean;
}

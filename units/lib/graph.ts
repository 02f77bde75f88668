// Deploy order from the dependency graph (producers first); destroy runs it backwards.
import { UnitTreeError } from './errors';

export function deployOrder(edges: ReadonlyMap<string, readonly string[]>): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (unit: string, trail: string[]): void => {
    const seen = state.get(unit);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      throw new UnitTreeError(
        unit,
        'dependencies',
        `form a cycle (${[...trail, unit].join(' → ')})`,
        'remove one of the dependency blocks',
      );
    }
    state.set(unit, 'visiting');
    for (const dep of [...(edges.get(unit) ?? [])].sort()) visit(dep, [...trail, unit]);
    state.set(unit, 'done');
    order.push(unit);
  };
  for (const unit of [...edges.keys()].sort()) visit(unit, []);
  return order;
}

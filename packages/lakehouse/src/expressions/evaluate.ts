// Pruning: may a manifest or a data file contain rows matching a bound expression? Answers "false" only
// when the partition values (projected through the spec's transforms) or the column bounds prove it.
import type { SchemaField } from '../contract';
import type { DataFile, FieldSummary } from '../manifests/data-file';
import type { PartitionSpec } from '../metadata/partition-spec';
import { applyTransform, parseTransform, preservesOrder, type ParsedTransform } from '../metadata/transforms';
import { compareLiterals, decodeBound, type Literal } from '../metadata/values';
import type { BoundExpression, BoundLeaf } from './bind';

function mightMatch(expression: BoundExpression, leaf: (l: BoundLeaf) => boolean): boolean {
  switch (expression.op) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'and':
      return expression.args.every((a) => mightMatch(a, leaf));
    case 'or':
      return expression.args.some((a) => mightMatch(a, leaf));
    default:
      return leaf(expression);
  }
}

/** A range [lower, upper] of non-null values (undefined = unknown) and what is known about nulls. */
interface ValueRange {
  lower: Literal | undefined;
  upper: Literal | undefined;
  /** No non-null value at all. */
  allNull: boolean;
  /** Some value may be null. */
  mayHaveNull: boolean;
}

/** Can a value in `range` satisfy a comparison with these (projected) literals? `exact` = identity-like. */
function rangeMightMatch(
  leaf: BoundLeaf,
  range: ValueRange,
  project: (v: Literal) => Literal | null,
  exact: boolean,
): boolean {
  const { lower, upper } = range;
  const below = (v: Literal) => lower !== undefined && compareLiterals(v, lower) < 0;
  const above = (v: Literal) => upper !== undefined && compareLiterals(v, upper) > 0;
  switch (leaf.op) {
    case 'is-null':
      return range.mayHaveNull;
    case 'not-null':
      return !range.allNull;
    case 'eq': {
      if (leaf.value === null || range.allNull) return false;
      const p = project(leaf.value);
      return p === null || !(below(p) || above(p));
    }
    case 'in': {
      if (range.allNull) return false;
      return leaf.values.some((v) => {
        if (v === null) return false;
        const p = project(v);
        return p === null || !(below(p) || above(p));
      });
    }
    case 'lt':
    case 'lte': {
      if (leaf.value === null || range.allNull) return false;
      const p = project(leaf.value);
      if (p === null || lower === undefined) return true;
      const c = compareLiterals(lower, p);
      // Strictness only survives an exact (identity) projection: t(x) < t(v) is not implied by x < v.
      return leaf.op === 'lt' && exact ? c < 0 : c <= 0;
    }
    case 'gt':
    case 'gte': {
      if (leaf.value === null || range.allNull) return false;
      const p = project(leaf.value);
      if (p === null || upper === undefined) return true;
      const c = compareLiterals(upper, p);
      return leaf.op === 'gt' && exact ? c > 0 : c >= 0;
    }
    case 'neq':
      return leaf.value !== null && !range.allNull;
    case 'not-in':
      // SQL: x NOT IN (..., NULL) is never true.
      return !leaf.values.includes(null) && !range.allNull;
  }
}

interface ProjectedField {
  index: number;
  transform: ParsedTransform;
  resultType: string;
}

function partitionFieldsFor(field: SchemaField, spec: PartitionSpec, types: string[]): ProjectedField[] {
  const result: ProjectedField[] = [];
  spec.fields.forEach((pf, index) => {
    if (pf['source-id'] !== field.id) return;
    const transform = parseTransform(pf.transform);
    if (transform.kind === 'void') return;
    result.push({ index, transform, resultType: types[index] ?? 'int' });
  });
  return result;
}

function projectionFor(leaf: BoundLeaf, pf: ProjectedField): ((v: Literal) => Literal | null) | null {
  const t = pf.transform;
  if (t.kind === 'identity') return (v) => v;
  if (leaf.op === 'is-null' || leaf.op === 'not-null') return (v) => v;
  if (t.kind === 'bucket')
    return leaf.op === 'eq' || leaf.op === 'in' ? (v) => applyTransform(t, leaf.field.type, v) : null;
  if (preservesOrder(t)) return (v) => applyTransform(t, leaf.field.type, v);
  return null;
}

/** Manifest-level pruning from the manifest list's partition field summaries. */
export function manifestMightMatch(
  expression: BoundExpression,
  spec: PartitionSpec,
  partitionTypes: string[],
  summaries: FieldSummary[],
): boolean {
  return mightMatch(expression, (leaf) => {
    for (const pf of partitionFieldsFor(leaf.field, spec, partitionTypes)) {
      const summary = summaries[pf.index];
      const project = projectionFor(leaf, pf);
      if (!summary || !project || leaf.op === 'neq' || leaf.op === 'not-in') continue;
      const range: ValueRange = {
        lower: summary.lowerBound ? decodeBound(pf.resultType, summary.lowerBound) : undefined,
        upper: summary.upperBound ? decodeBound(pf.resultType, summary.upperBound) : undefined,
        allNull: summary.lowerBound === null && summary.upperBound === null && summary.containsNull,
        mayHaveNull: summary.containsNull,
      };
      if (!rangeMightMatch(leaf, range, project, pf.transform.kind === 'identity')) return false;
    }
    return true;
  });
}

/** File-level pruning from the file's partition values and its column bounds / null counts. */
export function fileMightMatch(
  expression: BoundExpression,
  spec: PartitionSpec,
  partitionTypes: string[],
  file: DataFile,
): boolean {
  return mightMatch(expression, (leaf) => {
    for (const pf of partitionFieldsFor(leaf.field, spec, partitionTypes)) {
      const project = projectionFor(leaf, pf);
      if (!project || leaf.op === 'neq' || leaf.op === 'not-in') continue;
      const value = file.partition[pf.index] ?? null;
      const range: ValueRange = {
        lower: value ?? undefined,
        upper: value ?? undefined,
        allNull: value === null,
        mayHaveNull: value === null,
      };
      if (!rangeMightMatch(leaf, range, project, pf.transform.kind === 'identity')) return false;
    }
    return columnMightMatch(leaf, file);
  });
}

function columnMightMatch(leaf: BoundLeaf, file: DataFile): boolean {
  const id = leaf.field.id;
  // A count or bound the file does not record is unknown (Iceberg's InclusiveMetricsEvaluator: a missing key
  // is ROWS_MIGHT_MATCH), whether the writer kept no metrics or the column came after the file: only counts that
  // say every value is null prune as all-null.
  const nulls = file.nullValueCounts?.get(id);
  const values = file.valueCounts?.get(id);
  const lowerBytes = file.lowerBounds?.get(id);
  const upperBytes = file.upperBounds?.get(id);
  const kind = leaf.field.type;
  const isFloat = kind === 'float' || kind === 'double';
  const range: ValueRange = {
    lower: lowerBytes ? decodeBound(leaf.field.type, lowerBytes) : undefined,
    upper: upperBytes ? decodeBound(leaf.field.type, upperBytes) : undefined,
    allNull: nulls !== undefined && values !== undefined && nulls === values && values === file.recordCount,
    mayHaveNull: nulls === undefined || nulls > 0,
  };
  // NaN is outside the bounds' order: never prune floats by range when NaNs may be present.
  if (isFloat && (file.nanValueCounts?.get(id) ?? 0) > 0 && leaf.op !== 'is-null' && leaf.op !== 'not-null') {
    range.lower = undefined;
    range.upper = undefined;
  }
  return rangeMightMatch(leaf, range, (v) => v, true);
}

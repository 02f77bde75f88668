// Merge of level configs root → env → region → lab → unit: scalars and lists are replaced by the later level,
// plain objects (tags, inputs, remoteState) merge key by key.
export type Plain = Record<string, unknown>;

function isPlain(value: unknown): value is Plain {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function deepMerge(...layers: ReadonlyArray<Plain | undefined>): Plain {
  const out: Plain = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (value === undefined) continue;
      const prev = out[key];
      out[key] = isPlain(prev) && isPlain(value) ? deepMerge(prev, value) : value;
    }
  }
  return out;
}

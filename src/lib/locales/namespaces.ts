/** { common: {...}, error: {...} } from the catalogues of one language, keyed by their file path. */
export function byNamespace(files: Record<string, Record<string, unknown>>): Record<string, Record<string, unknown>> {
  const catalogues: Record<string, Record<string, unknown>> = {};
  for (const [path, catalogue] of Object.entries(files)) {
    const ns = /\/([^/]+)\.json$/.exec(path)?.[1];
    if (ns) catalogues[ns] = catalogue;
  }
  return catalogues;
}

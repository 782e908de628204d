/**
 * The value of `key` in `kept`, made by `make` the first time and kept after; the whole map is
 * emptied once it holds `max` values. For what the server works out again and again from the same
 * input (a time's text, a text's hashtags, a token's digest): forgetting everything now and then
 * costs a few values made again, where keeping the most recent ones would cost every lookup.
 */
export function keptValue<K, V>(kept: Map<K, V>, key: K, max: number, make: () => V): V {
  let value = kept.get(key);
  if (value === undefined) {
    value = make();
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
  }
  return value;
}

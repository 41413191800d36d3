/** A list's filters as the query string carries them: only the ones set, trimmed. */
export function setFilters<Filters extends Partial<Record<Key, string>>, Key extends keyof Filters & string>(filters: Filters, keys: readonly Key[]): Filters {
  const query: Partial<Record<Key, string>> = {};
  for (const key of keys) {
    const value = filters[key]?.trim();
    if (value) query[key] = value;
  }
  return query as Filters;
}

/** Every text of a catalogue (or a part of one) by its dotted path, for the catalogue tests. */
export function catalogueTexts(value: unknown, prefix = ''): Map<string, string> {
  const found = new Map<string, string>();
  if (typeof value === 'string') found.set(prefix, value);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) for (const [path, text] of catalogueTexts(child, prefix ? `${prefix}.${key}` : key)) found.set(path, text);
  }
  return found;
}

/**
 * Drops the custom properties nobody reads from the `<style data-mantine-styles>` blocks of
 * a server-rendered first screen. Mantine writes every theme variable there (every colour's
 * ten shades, every size: ~25 KB); the sign-in screen reads a few dozen. Whatever the page's
 * stylesheets, its markup or a kept variable's value names with `var(--x)` stays, so the
 * screen looks the same; the live page brings Mantine's full set when it takes over.
 */
const DECLARATION = /(--[\w-]+)\s*:\s*([^;{}]*);?/g;
const MANTINE_STYLE = /(<style\b[^>]*data-mantine-styles[^>]*>)([\s\S]*?)(<\/style>)/g;
const VAR_USE = /var\(\s*(--[\w-]+)/g;

function namesUsedIn(text: string): string[] {
  return [...text.matchAll(VAR_USE)].map((match) => match[1]!);
}

/** `body` with Mantine's variable blocks cut to the variables that `readers`, `body`'s other text or the kept variables use. */
export function pruneUnusedCssVariables(body: string, readers: string): string {
  const declared = new Map<string, string[]>();
  for (const [, , block] of body.matchAll(MANTINE_STYLE)) {
    for (const [, name, value] of block!.matchAll(DECLARATION)) declared.set(name!, [...(declared.get(name!) ?? []), value!]);
  }
  if (declared.size === 0) return body;
  const outside = body.replace(MANTINE_STYLE, '');
  const used = new Set<string>();
  const pending = [...namesUsedIn(readers), ...namesUsedIn(outside)];
  for (let name = pending.pop(); name; name = pending.pop()) {
    if (used.has(name)) continue;
    used.add(name);
    for (const value of declared.get(name) ?? []) pending.push(...namesUsedIn(value));
  }
  return body.replace(MANTINE_STYLE, (_, open: string, block: string, close: string) => {
    const kept = block.replace(DECLARATION, (declaration: string, name: string) => (used.has(name) ? declaration : ''));
    return `${open}${kept}${close}`;
  });
}

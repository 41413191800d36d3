import { describe, expect, it } from 'vitest';
import { pruneUnusedCssVariables } from './css-variables';

describe('pruneUnusedCssVariables', () => {
  const body = [
    '<style data-fs="1">[data-fs-style="0"]{--button-bg:var(--mantine-color-blue-filled) !important}</style>',
    '<style data-mantine-styles="true">:root{--mantine-color-blue-filled: var(--mantine-color-blue-8);--mantine-color-blue-8: #1971c2;--mantine-color-red-8: #e03131;--mantine-radius-md: 8px;--mantine-font-family: -apple-system, "Segoe UI", sans-serif;}',
    ':root[data-mantine-color-scheme="dark"]{--mantine-color-red-8: #c92a2a;--mantine-radius-md: 8px;}</style>',
    '<div data-fs-style="0">Sign in</div>',
  ].join('');

  it('keeps what the markup, the stylesheets and kept values read, and drops the rest', () => {
    const pruned = pruneUnusedCssVariables(body, '.card{border-radius:var(--mantine-radius-md);font-family:var( --mantine-font-family)}');
    expect(pruned).toContain('--mantine-color-blue-filled: var(--mantine-color-blue-8);');
    expect(pruned).toContain('--mantine-color-blue-8: #1971c2;'); // read through a kept variable's value
    expect(pruned).toContain('--mantine-radius-md: 8px;');
    expect(pruned).toContain('--mantine-font-family: -apple-system, "Segoe UI", sans-serif;');
    expect(pruned).not.toContain('--mantine-color-red-8');
    // Rules, selectors and the rest of the page stay as they were.
    expect(pruned).toContain(':root[data-mantine-color-scheme="dark"]{--mantine-radius-md: 8px;}</style>');
    expect(pruned).toContain('<div data-fs-style="0">Sign in</div>');
    expect(pruned.startsWith('<style data-fs="1">[data-fs-style="0"]{--button-bg:var(--mantine-color-blue-filled) !important}</style>')).toBe(true);
  });

  it('leaves a page without Mantine variable blocks alone', () => {
    expect(pruneUnusedCssVariables('<div>x</div>', '')).toBe('<div>x</div>');
  });
});

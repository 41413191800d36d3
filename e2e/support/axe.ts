import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Serious and critical WCAG 2.2 AA violations (contrast included) on the page as it stands, or
 * within `include` (a selector), as `rule: first element` lines. One run in the page (legacy
 * mode: no blank page opened per audit to merge frame results), violations only.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  // Colours are read at one instant: with reduced motion a slide of the brand panel is not
  // caught mid-fade (a fading caption once failed contrast under CI load). Restored after.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  let builder = new AxeBuilder({ page });
  if (include) builder = builder.include(include);
  const result = await builder.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).options({ resultTypes: ['violations'] }).setLegacyMode(true).analyze();
  await page.emulateMedia({ reducedMotion: null });
  return result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => `${violation.id}: ${violation.nodes[0]?.target.join(' ')}`);
}

/** No serious or critical violation on the page as it stands. */
export async function expectNoSeriousViolations(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/**
 * The same once the page has settled: the pointer moved off what it clicked (a hovered link is
 * not what is measured), no busy region, and Mantine's entrance transitions over.
 */
export async function settledViolations(page: Page): Promise<string[]> {
  await page.mouse.move(1, 790);
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0);
  await page.waitForTimeout(400);
  return seriousViolations(page);
}

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page } from '@playwright/test';
import type { Result, RunOptions } from 'axe-core';

/** axe-core's own build, put into a page once per document (axeViolations). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** WCAG 2.0, 2.1 and 2.2, levels A and AA (contrast included). */
const RUN_OPTIONS: RunOptions = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
  // Only the violations' details: a third of the time of a full report.
  resultTypes: ['violations'],
  // The portal's pages have no frames; a third party's frame would not be ours to audit.
  iframes: false,
};

/**
 * axe-core's WCAG 2.2 AA violations on the page as it stands, or within `include` (a
 * selector). axe is put into the page only when the document does not have it yet: an
 * app's screens opened one after another (history navigation) share one. @axe-core/playwright
 * sent the 580 KB source twice per audit and ran it again each time: half of each audit (the
 * accessibility sweep's 34 audits took 10.7 s through it, 5.2 s so).
 */
export async function axeViolations(page: Page, include?: string): Promise<Result[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    async ({ include, options }) => {
      const { axe } = window as unknown as { axe: typeof import('axe-core') };
      return (await axe.run(include ?? document, options)).violations;
    },
    { include, options: RUN_OPTIONS },
  );
}

/** Whether a violation is one the issue counts: serious or critical. */
export const isSerious = (violation: Result) => violation.impact === 'serious' || violation.impact === 'critical';

/**
 * Serious and critical WCAG 2.2 AA violations (contrast included) on the page as it stands, or
 * within `include` (a selector), as `rule: first element` lines.
 */
export async function seriousViolations(page: Page, include?: string): Promise<string[]> {
  // Colours are read at one instant: with reduced motion a slide of the brand panel is not
  // caught mid-fade (a fading caption once failed contrast under CI load). Restored after.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // A transition already running goes on under reduced motion (a toast fading in once failed
  // contrast at half opacity): wait for those that end, spinners aside, 2 s at most.
  await page.evaluate(async () => {
    const ending = document.getAnimations().filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity));
    await Promise.race([Promise.all(ending.map((animation) => animation.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 2000))]);
  });
  const violations = await axeViolations(page, include);
  await page.emulateMedia({ reducedMotion: null });
  return violations.filter(isSerious).map((violation) => `${violation.id}: ${violation.nodes[0]?.target.join(' ')}`);
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

import { createTheme, darken, defaultVariantColorsResolver, type CSSVariablesResolver, type MantineColorsTuple, type MantineThemeOverride, type VariantColorsResolver } from '@mantine/core';
import type { BrandId } from '@portal/contracts';

const systemFonts =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";

/**
 * Text colours that pass WCAG 2.2 AA (4.5:1) on white and on Mantine's lightest greys, in
 * both brands:
 * - primary blue: shade 8, #1971c2 (5.0:1 on white; Mantine's default shade 7, #1c7ed6, is 4.2:1),
 *   for filled buttons (white on blue), links and every `c="blue"`;
 * - the password-manager brand's green in its place: shade 8, #21772f (5.6:1 on white, 5.0:1
 *   on gray.1; the logo's own #268334 is 4.3:1 on gray.1, so it is shade 7);
 * - dimmed text: #5f666d (5.8:1 on white, 5.2:1 on gray.1; Mantine's gray.6, #868e96, is 3.3:1);
 * - errors (a field's message and the text in a refused field): red.9, #c92a2a (5.5:1 on white,
 *   4.9:1 on gray.1; Mantine's red.6, #fa5252, is 3.3:1);
 * - light variants (badges, alerts, light buttons): their text colour darkened by 35 %
 *   (orange's #d9480f on its tint was 3.6:1, now 6.5:1), and links on a light alert blue.9.
 * e2e/accessibility.spec.ts checks every screen with axe-core.
 */
export const DIMMED_TEXT = '#5f666d';

const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant === 'light' || input.variant === 'subtle' || input.variant === 'outline') {
    return { ...colors, color: darken(colors.color, 0.35) };
  }
  return colors;
};

export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': DIMMED_TEXT, '--mantine-color-error': 'var(--mantine-color-red-9)' },
  dark: {},
});

/** Locker's green, from Mantine's green tints to the logo's #268334 (7) and a darker 8 for text. */
const lockerGreen: MantineColorsTuple = ['#ebfbee', '#d3f9d8', '#b2f2bb', '#8ce99a', '#69db7c', '#51cf66', '#37b24d', '#268334', '#21772f', '#1a5e25'];

/**
 * The primary colour is the platform's blue (the spec's product description); on the password-manager brand's
 * host it is Locker's green, so its signed-in pages (buttons, links, the active menu entry)
 * are Locker's as its sign-in page is. The product accent (locker green, safechain violet...)
 * is the `--portal-accent` variable set per service by the layouts. System fonts: no
 * web-font request on the sign-in page, nothing for the CSP to allow.
 */
const base: MantineThemeOverride = {
  primaryColor: 'blue',
  primaryShade: 8,
  fontFamily: systemFonts,
  headings: { fontFamily: systemFonts },
  defaultRadius: 'md',
  variantColorResolver,
  // People who ask their system for less motion get Mantine's transitions (menus, dialogs,
  // toasts, a switch's colour) at once; e2e/accessibility.spec.ts relies on it to read final colours.
  respectReducedMotion: true,
  components: {
    // Links on a light alert's tint (the default variant): the primary blue (blue.8) is 4.1:1
    // there, under AA's 4.5:1; blue.9 is 4.9:1 (Locker's green.9 more). A plain object, not
    // `Alert.extend(...)`: that import put the Alert component (and its close button) in the
    // entry chunk of every page, the sign-in page's first load included.
    Alert: {
      styles: (_theme: unknown, props: { variant?: string }) => (props.variant === undefined || props.variant === 'light' ? { root: { '--mantine-color-anchor': 'var(--mantine-primary-color-9)' } } : {}),
    },
  },
};

const themes: Record<BrandId, ReturnType<typeof createTheme>> = {
  platform: createTheme(base),
  locker: createTheme({ ...base, colors: { locker: lockerGreen }, primaryColor: 'locker' }),
};

/** The Mantine theme of a brand (RuntimeConfig.brand). */
export function themeFor(brand: BrandId) {
  return themes[brand];
}

/** The platform brand's theme (tests and pages rendered outside a brand). */
export const theme = themes.platform;

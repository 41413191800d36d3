import { createTheme } from '@mantine/core';

const systemFonts =
  "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif, 'Apple Color Emoji', 'Segoe UI Emoji'";

/**
 * The primary colour is a blue for every product (spec section 1); the product accent
 * (locker green, safechain violet...) is the `--portal-accent` variable set per service by
 * the layouts. System fonts: no web-font request on the sign-in page, nothing for the CSP
 * to allow.
 */
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: 7,
  fontFamily: systemFonts,
  headings: { fontFamily: systemFonts },
  defaultRadius: 'md',
});

/**
 * Mantine's stylesheet split per component, so the sign-in page loads only what it shows
 * (the full @mantine/core/styles.css is ~290 KB raw, ~40 KB gzipped). Here: the base and the
 * components the layouts and error pages render (their loaders are components/Spinner). Any
 * other module that renders a Mantine component imports that component's stylesheet itself
 * (see ShellLayout, Section, ToastHost), so it arrives with the lazy chunk that needs it. A
 * component whose stylesheet nobody imports renders unstyled.
 *
 * No default-css-variables.css (~4 KB gzipped): MantineProvider writes every theme
 * variable itself (AppProviders: deduplicateCssVariables off), from code the entry has anyway.
 */
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/global.css';
import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Group.css';

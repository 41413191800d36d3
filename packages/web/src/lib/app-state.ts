import { DEFAULT_LANGUAGE, type Language } from '@portal/contracts';
import { createStore, useStore } from './store';

/** App state of the spec's entities: busy flag with options, side bar, current path, dev flag, language. */
export interface AppState {
  busy: boolean;
  busyOptions: BusyOptions;
  asideOpen: boolean;
  currentPath: string;
  dev: boolean;
  language: Language;
}

export interface BusyOptions {
  /** A link that opens the desktop app; the busy loader offers it while the app takes over. */
  pendingDesktopApp?: string;
}

/** Mantine's `sm` breakpoint: from it up the side bar sits beside the page, below it covers it. */
const DESKTOP_QUERY = '(min-width: 48em)';

export function isDesktopWidth(): boolean {
  return typeof window !== 'undefined' && window.matchMedia?.(DESKTOP_QUERY).matches === true;
}

export const appState = createStore<AppState>({
  busy: false,
  busyOptions: {},
  // Open beside the page on wide screens, closed over it on phones, from the first paint.
  asideOpen: isDesktopWidth(),
  currentPath: '/',
  dev: false,
  language: DEFAULT_LANGUAGE,
});

// Crossing the breakpoint (a window resized, a tablet turned) gives the side bar that width's
// default too: one left open beside a wide page would stay open as a drawer over a narrow one.
if (typeof window !== 'undefined') window.matchMedia?.(DESKTOP_QUERY).addEventListener?.('change', (change) => setAsideOpen(change.matches));

export function setBusy(busy: boolean, options: BusyOptions = {}): void {
  appState.set({ busy, busyOptions: busy ? options : {} });
}

export function setAsideOpen(open: boolean): void {
  appState.set({ asideOpen: open });
}

export function toggleAside(): void {
  appState.set((state) => ({ asideOpen: !state.asideOpen }));
}

export function useAppState<Selected>(select: (state: AppState) => Selected): Selected {
  return useStore(appState, select);
}

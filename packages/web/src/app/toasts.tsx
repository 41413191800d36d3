import { lazy, Suspense } from 'react';
import type { ToastKind } from '../lib/api';
import { i18n } from '../lib/i18n';
import { createStore, useStore } from '../lib/store';

/**
 * Toasts without their weight on the first paint: Mantine's notifications (with its
 * transition and scroll-lock dependencies, ~15 KB gzipped) load on the visitor's first
 * interaction, or on the first toast if that comes sooner.
 */

const loadNotifications = () => import('./ToastHost');
const ToastHost = lazy(async () => ({ default: (await loadNotifications()).ToastHost }));

const toastArea = createStore({ mounted: false });
const colors: Record<ToastKind, string> = { success: 'green', warning: 'yellow', error: 'red' };

export function showToast(kind: ToastKind, message: string): void {
  toastArea.set({ mounted: true });
  loadNotifications()
    .then(({ notifications }) => notifications.show({ color: colors[kind], message, withBorder: true, closeButtonProps: { 'aria-label': i18n.t('toasts.close') } }))
    .catch((error: unknown) => console.error('Could not show a toast:', message, error));
}

/**
 * Fetch the toast code ahead of need, so an error while offline can still be shown: on the
 * visitor's first interaction with the page (a key, a click, a touch), which comes before
 * any form is sent. A page nobody touches never downloads it. `alongside`: other code to
 * fetch at the same moment (the busy loader).
 */
export function prefetchToasts(...alongside: Array<() => void>): void {
  const events = ['pointerdown', 'keydown', 'touchstart'] as const;
  const load = () => {
    for (const name of events) window.removeEventListener(name, load, true);
    void loadNotifications().catch(() => undefined);
    for (const prefetch of alongside) prefetch();
  };
  for (const name of events) window.addEventListener(name, load, { capture: true, passive: true });
}

/** Where toasts appear; mounted by the first toast (the store keeps any shown before). */
export function Toasts() {
  const mounted = useStore(toastArea, (state) => state.mounted);
  return mounted ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}

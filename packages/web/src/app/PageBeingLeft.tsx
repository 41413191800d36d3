import { useLayoutEffect, useRef, type ReactNode } from 'react';

interface PageBeingLeftProps {
  /** A navigation is resolving: the address is already the next page's, the screen still the last one's. */
  pending: boolean;
  children: ReactNode;
}

/**
 * Holds the page on view. While a navigation resolves (guards, then the next page's code and
 * text) the address has moved on but the page being left stays on screen: it is made inert
 * (no click, typing, focus or submit reaches it, so nothing is done on the old page under the
 * new address) and busy for assistive technology. The element is always there, so the page
 * under it is never remounted by a navigation starting or ending. Focus that inertness took from
 * an element the next page keeps (a link of the shell's menu) goes back to it.
 */
export function PageBeingLeft({ pending, children }: PageBeingLeftProps) {
  const focused = useRef<Element | null>(null);
  useLayoutEffect(() => {
    if (pending) {
      focused.current = document.activeElement;
      return;
    }
    const element = focused.current;
    focused.current = null;
    if (element instanceof HTMLElement && element.isConnected && (document.activeElement === null || document.activeElement === document.body)) {
      element.focus({ preventScroll: true });
    }
  }, [pending]);
  return (
    <div inert={pending} aria-busy={pending || undefined}>
      {children}
    </div>
  );
}

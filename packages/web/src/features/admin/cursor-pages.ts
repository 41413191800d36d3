import { useState } from 'react';

/**
 * Keyset paging of a console list: the cursors of the pages walked through (the first page's
 * is none), so "previous" goes back without the server keeping anything.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  return {
    /** The cursor of the page shown now. */
    cursor: cursors.at(-1),
    hasPrevious: cursors.length > 1,
    /** Back to the first page (a new search or filter). */
    first: () => setCursors([undefined]),
    previous: () => setCursors((current) => (current.length > 1 ? current.slice(0, -1) : current)),
    next: (cursor: string) => setCursors((current) => [...current, cursor]),
  };
}

export type CursorPages = ReturnType<typeof useCursorPages>;

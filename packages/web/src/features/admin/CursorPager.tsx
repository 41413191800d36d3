import '@mantine/core/styles/Button.css';
import { Button, Group, type MantineSize } from '@mantine/core';
import type { CursorPages } from './cursor-pages';

/** The previous and next buttons under a paged console list; nothing while the list is one page. */
export function CursorPager({
  pages,
  nextCursor,
  previousLabel,
  nextLabel,
  size,
  nextTestId,
}: {
  pages: CursorPages;
  /** The server's cursor of the next page; null or undefined on the last one. */
  nextCursor: string | null | undefined;
  previousLabel: string;
  nextLabel: string;
  size?: MantineSize;
  nextTestId?: string;
}) {
  if (!pages.hasPrevious && !nextCursor) return null;
  return (
    <Group gap="sm">
      <Button variant="default" size={size} disabled={!pages.hasPrevious} onClick={pages.previous}>
        {previousLabel}
      </Button>
      <Button variant="default" size={size} disabled={!nextCursor} onClick={() => nextCursor && pages.next(nextCursor)} data-testid={nextTestId}>
        {nextLabel}
      </Button>
    </Group>
  );
}

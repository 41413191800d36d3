import { screen, waitFor } from '@testing-library/react';
import { Outlet, type RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '../lib/session';
import { ada, locationOf, renderAt } from '../test/render';
import { lazyPage } from './lazy-page';

/**
 * The window of a navigation: the address has moved on while the guards answer and the next
 * page's code loads, and the page being left is still on screen.
 */

function deferred<Value>() {
  let resolve!: (value: Value) => void;
  const promise = new Promise<Value>((settle) => (resolve = settle));
  return { promise, resolve };
}

function NoteForm({ onSubmit }: { onSubmit(): void }) {
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      <label>
        Note
        <input name="note" />
      </label>
      <button type="submit">Send</button>
    </form>
  );
}

const guarded = (children: RouteObject[]): RouteObject[] => [{ handle: { middleware: ['maintenance', 'auth'] }, children }];

/** A visitor whose every session check waits until the test answers it. */
function sessionOnHold() {
  const asked: Array<(user: SessionUser | null) => void> = [];
  const currentUser = vi.fn(() => {
    const { promise, resolve } = deferred<SessionUser | null>();
    asked.push(resolve);
    return promise;
  });
  return {
    currentUser,
    /** Answers the `nth` check (from 1) once it has been asked. */
    async answer(nth: number, user: SessionUser | null) {
      await waitFor(() => expect(currentUser.mock.calls.length).toBeGreaterThanOrEqual(nth));
      asked[nth - 1]!(user);
    },
  };
}

describe('a navigation on its way', () => {
  it('keeps the page being left inert and busy until the next page has loaded, then shows the next page, usable', async () => {
    const nextCode = deferred<{ NextPage(): React.JSX.Element }>();
    const submitted = vi.fn();
    const routes = guarded([
      { path: '/form', element: <NoteForm onSubmit={submitted} /> },
      { path: '/next', ...lazyPage(() => nextCode.promise, 'NextPage') },
    ]);
    const { router } = renderAt('/form', { routes, currentUser: async () => null });
    const note = await screen.findByLabelText('Note');
    expect(note.closest('[inert]')).toBeNull();

    router.navigate('/next');
    await waitFor(() => expect(locationOf(router)).toBe('/next'));
    // The form is still on screen under /next: nothing may be typed into it or sent from it.
    const frame = note.closest('[inert]');
    expect(frame).not.toBeNull();
    expect(frame?.getAttribute('aria-busy')).toBe('true');

    nextCode.resolve({ NextPage: () => <button type="button">Next page</button> });
    const next = await screen.findByRole('button', { name: 'Next page' });
    expect(screen.queryByLabelText('Note')).toBeNull();
    expect(next.closest('[inert]')).toBeNull();
    expect(next.closest('[aria-busy]')).toBeNull();
    expect(submitted).not.toHaveBeenCalled();
  });

  it('gives focus back to what the next page keeps (a menu link) once it has shown', async () => {
    const nextCode = deferred<{ NextPage(): React.JSX.Element }>();
    const routes = guarded([
      {
        element: (
          <>
            <button type="button">Menu link</button>
            <Outlet />
          </>
        ),
        children: [
          { path: '/one', element: <p>Page one</p> },
          { path: '/two', ...lazyPage(() => nextCode.promise, 'NextPage') },
        ],
      },
    ]);
    const { router } = renderAt('/one', { routes, currentUser: async () => null });
    const link = await screen.findByRole('button', { name: 'Menu link' });
    link.focus();
    router.navigate('/two');
    await waitFor(() => expect(link.closest('[inert]')).not.toBeNull());
    // What the browser does to a focused element that turns inert (jsdom does not).
    link.blur();
    nextCode.resolve({ NextPage: () => <p>Page two</p> });
    expect(await screen.findByText('Page two')).toBeTruthy();
    expect(document.activeElement).toBe(link);
  });
});

describe('a signed-out visitor on the way to a signed-in page', () => {
  /** The app at `path` with a sign-in form (/login) and a signed-in page (/vault, lazy), its session checks on hold. */
  function visit(path: string) {
    const rendered = vi.fn();
    const fetched = vi.fn();
    function Secret() {
      rendered();
      return <p>Account secrets</p>;
    }
    const routes = guarded([
      { path: '/login', handle: { preventToUser: true }, element: <NoteForm onSubmit={() => undefined} /> },
      {
        path: '/vault',
        ...lazyPage(
          async () => {
            fetched();
            return { Secret };
          },
          'Secret',
          { meta: { requiresUser: true } },
        ),
      },
    ]);
    const session = sessionOnHold();
    const { router } = renderAt(path, { routes, currentUser: session.currentUser });
    return { router, session, rendered, fetched };
  }

  it('never sees the page, nor fetches its code, while the guard has not answered, following a link', async () => {
    const { router, session, rendered, fetched } = visit('/login');
    await session.answer(1, null);
    await screen.findByLabelText('Note');

    router.navigate('/vault');
    await waitFor(() => expect(locationOf(router)).toBe('/vault'));
    await waitFor(() => expect(session.currentUser).toHaveBeenCalledTimes(2));
    // The address says /vault; the screen is still the sign-in form, inert.
    expect(screen.getByLabelText('Note').closest('[inert]')).not.toBeNull();
    expect(screen.queryByText('Account secrets')).toBeNull();

    await session.answer(2, null);
    await waitFor(() => expect(locationOf(router)).toBe('/login?next=%2Fvault'));
    await session.answer(3, null);
    await waitFor(() => expect(screen.getByLabelText('Note').closest('[inert]')).toBeNull());
    expect(rendered).not.toHaveBeenCalled();
    expect(fetched).not.toHaveBeenCalled();
  });

  it('never sees the page when it is the address the app starts at', async () => {
    const { router, session, rendered, fetched } = visit('/vault');
    await waitFor(() => expect(session.currentUser).toHaveBeenCalled());
    expect(screen.queryByText('Account secrets')).toBeNull();
    await session.answer(1, null);
    await waitFor(() => expect(locationOf(router)).toBe('/login?next=%2Fvault'));
    await session.answer(2, null);
    expect(await screen.findByLabelText('Note')).toBeTruthy();
    expect(rendered).not.toHaveBeenCalled();
    expect(fetched).not.toHaveBeenCalled();
  });

  it('does not see it when a slower answer, "signed in", comes after the visitor has moved on', async () => {
    const { router, session, rendered } = visit('/login');
    await session.answer(1, null);
    await screen.findByLabelText('Note');
    router.navigate('/vault');
    await waitFor(() => expect(session.currentUser).toHaveBeenCalledTimes(2));
    router.navigate('/login');
    // /login's check answers first; the one for /vault late, with a session that has since ended.
    await session.answer(3, null);
    await session.answer(2, ada);
    await waitFor(() => expect(screen.getByLabelText('Note').closest('[inert]')).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(locationOf(router)).toBe('/login');
    expect(screen.queryByText('Account secrets')).toBeNull();
    expect(rendered).not.toHaveBeenCalled();
  });
});

import { CHUNK_RELOAD_THROTTLE_MS } from '@portal/contracts';

/**
 * After a deploy, an open tab may ask for script chunks that no longer exist. Reloading
 * fetches the new index.html and its chunks; the throttle (remembered across that reload)
 * keeps a chunk that is really broken from reloading the page in a loop.
 *
 * The reload is started by the route error page, not by Vite's `vite:preloadError` event:
 * by then the router has moved to the page the user asked for, so the reload lands there
 * instead of back where they clicked.
 */
const STORAGE_KEY = 'portal:chunk-reload-at';

const CHUNK_ERROR_PATTERNS = [
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Unable to preload CSS/i,
  /Loading (CSS )?chunk .* failed/i,
];

export function isChunkLoadError(error: unknown): boolean {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  return CHUNK_ERROR_PATTERNS.some((pattern) => pattern.test(message));
}

export interface ReloadDeps {
  /** null: no storage available. */
  storage?: Pick<Storage, 'getItem' | 'setItem'> | null;
  now?: () => number;
  reload?: () => void;
}

function sessionStore(): Pick<Storage, 'getItem' | 'setItem'> | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage blocked by privacy settings
  }
}

/** Reload unless one happened within the throttle window; true when a reload was started. */
export function reloadAfterChunkError({ storage = sessionStore(), now = Date.now, reload = () => location.reload() }: ReloadDeps = {}): boolean {
  // Without storage there is no way to know about a previous reload: do not risk a loop.
  if (!storage) return false;
  const last = Number(storage.getItem(STORAGE_KEY));
  const time = now();
  if (Number.isFinite(last) && last > 0 && time - last < CHUNK_RELOAD_THROTTLE_MS) return false;
  try {
    storage.setItem(STORAGE_KEY, String(time));
  } catch {
    return false; // could not remember it: same loop risk as no storage
  }
  reload();
  return true;
}

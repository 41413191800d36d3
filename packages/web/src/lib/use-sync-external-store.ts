/** React's own useSyncExternalStore, for libraries that import the pre-React-18 shim (vite.config.ts aliases it here). */
export { useSyncExternalStore } from 'react';

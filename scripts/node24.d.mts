/** The pinned Node.js 24 release the project runs on. */
export const NODE_VERSION: string;
/** The path of a Node 24 binary (this process's, or the pinned one from the npm registry); null when unavailable. */
export function node24(): string | null;
/** Runs the calling script again on Node 24 when the current Node is older (never resolving then); resolves at once on Node 24. */
export function ensureNode24(): Promise<never> | undefined;

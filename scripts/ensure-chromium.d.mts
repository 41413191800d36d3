export declare const CHROMIUM: string;
/** Installs /usr/bin/chromium from Debian's packages when missing (as root); resolves with 0 when it is there, else an exit code. */
export declare function ensureChromium(): Promise<number>;

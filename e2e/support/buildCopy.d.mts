export function copyBuildAs(options: { root: string; remote: string; version: string; copy: string; without?: string }): void;
export function rewriteServerPages(options: { copy: string; onRender?: string; atImport?: string; prelude?: string }): void;

export function copyBuildAs(options: { root: string; remote: string; version: string; copy: string; without?: string }): void;
export function rewriteServerPages(options: { copy: string; name?: string; onRender?: string | undefined; atImport?: string | undefined; strikeAfter?: number | undefined }): void;

export function copyBuildAs(options: { root: string; remote: string; version: string; copy: string; without?: string }): void;

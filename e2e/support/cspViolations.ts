import type { BrowserContext } from '@playwright/test';

// Every Content-Security-Policy violation in any page or frame of a context, as the browser
// reports it (the securitypolicyviolation event), plus the console's own "Refused to…" lines.

export async function collectCspViolations(context: BrowserContext): Promise<string[]> {
  const violations: string[] = [];
  await context.exposeBinding('__reportCspViolation', (_source, violation: string) => {
    violations.push(violation);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
      report?.(`${event.effectiveDirective} refused ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber}`);
    });
  });
  const watchConsole = (page: import('@playwright/test').Page) =>
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
    });
  context.pages().forEach(watchConsole);
  context.on('page', watchConsole);
  return violations;
}

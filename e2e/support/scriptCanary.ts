import type { BrowserContext } from '@playwright/test';

// Proof that no input ever runs as script: every payload calls a canary that reports to the test,
// and any alert/confirm/prompt is recorded. A test that bypasses the CSP (bypassCSP) checks the
// app's own escaping; with the CSP on, a payload that got through would be blocked instead.

const CANARY = '__netnetCanary';

/** Markup and script-ish text an attacker might type, paste, link or store. */
export const scriptPayloads = [
  `<script>${CANARY}()</script>`,
  `<img src=x onerror=${CANARY}()>`,
  `"><svg onload=${CANARY}()>`,
  `javascript:${CANARY}()`,
  `<iframe srcdoc="<script>parent.${CANARY}()</script>">`,
  `<img src=x onerror=alert(1)>`,
  `{{constructor.constructor('${CANARY}()')()}}`,
] as const;

export interface ScriptWatch {
  /** Times a payload ran. */
  readonly fired: number;
  /** Dialogs (alert, confirm, prompt) the pages opened. */
  readonly dialogs: string[];
}

export async function watchForInjectedScripts(context: BrowserContext): Promise<ScriptWatch> {
  const watch = { fired: 0, dialogs: [] as string[] };
  await context.exposeBinding(CANARY, () => {
    watch.fired++;
  });
  context.on('page', (page) => {
    page.on('dialog', (dialog) => {
      watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });
  for (const page of context.pages()) {
    page.on('dialog', (dialog) => {
      watch.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.dismiss();
    });
  }
  return watch;
}

import { test as base, expect } from '@playwright/test';

// Every test fails on an uncaught error in the page: "never an uncaught error" is checked everywhere.
// A fault test that injects a failing script declares the one error it causes (expectedPageErrors);
// anything else still fails it.
export const test = base.extend<{ pageErrors: string[]; expectedPageErrors: RegExp[] }>({
  expectedPageErrors: [[], { option: true }],
  pageErrors: [
    async ({ page, expectedPageErrors }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => {
        if (!expectedPageErrors.some((expected) => expected.test(error.message))) errors.push(error.message);
      });
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

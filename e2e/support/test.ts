import { test as base, expect } from '@playwright/test';

// Every test fails on an uncaught error in the page: "never an uncaught error" is checked everywhere.
export const test = base.extend<{ pageErrors: string[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** The origins of the composed site (scripts/site.cjs). */
export const origins = {
  'remote-auth': 'http://localhost:3001',
  'remote-browse': 'http://localhost:3002',
  'remote-title': 'http://localhost:3003',
  'remote-search': 'http://localhost:3004',
} as const;

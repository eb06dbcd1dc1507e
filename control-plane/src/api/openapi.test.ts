// control-plane/openapi.yaml is written from the API's routes and schemas (./openapi.ts): this
// fails when the checked-in file no longer says what the code does, and names the command that
// writes it again. No store is reached: the API is built, never started.
// Run: node --import tsx --test control-plane/src/api/openapi.test.ts
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { publishUpload } from '../releases/upload.ts';
import { describeApi, NO_DATABASE, OPENAPI_FILE } from './openapi.ts';
import { createApi } from './server.ts';
import { readApiConfig } from '../config.ts';

describe('control-plane/openapi.yaml', () => {
  it('is what the routes and their schemas say (npm run openapi -w @netnet/control-plane writes it)', async () => {
    const app = await createApi({ database: NO_DATABASE, publish: publishUpload, env: {}, config: readApiConfig({ NETNET_LOG_LEVEL: 'silent' }) });
    try {
      await app.ready();
      const written = describeApi(app);
      const checkedIn = readFileSync(OPENAPI_FILE, 'utf8');
      assert.equal(checkedIn, written, 'control-plane/openapi.yaml drifted from the code: run `npm run openapi -w @netnet/control-plane` and commit it');
      // A document a client generator reads: every call of the API, each refusing in the one error shape.
      const document = parse(written) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
      const calls = Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
      assert.deepEqual(calls.sort(), [
        'GET /openapi.yaml',
        'GET /v1/environments/{environment}/status',
        'POST /v1/environments/{environment}/remotes/{remote}/promote',
        'POST /v1/environments/{environment}/remotes/{remote}/rollback',
        'POST /v1/remotes/{remote}/releases/{version}',
        'PUT /v1/environments/{environment}/pin-policy',
        'PUT /v1/environments/{environment}/remotes/{remote}/canary',
        'PUT /v1/environments/{environment}/remotes/{remote}/stable',
      ]);
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, { responses }] of Object.entries(methods)) if (path !== '/openapi.yaml') assert.deepEqual(responses['401'], { $ref: '#/components/responses/Error' }, `${method} ${path}`);
      }
    } finally {
      await app.close();
    }
  });
});

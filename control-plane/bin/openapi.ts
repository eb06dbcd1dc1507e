// `npm run openapi -w @netnet/control-plane`: writes control-plane/openapi.yaml from the API's
// routes and schemas (control-plane/src/api/v1.ts, schemas.ts). Run it after changing a call;
// control-plane/src/api/openapi.test.ts fails until the file says what the code does. It reads no
// variable (OPENAPI_VARIABLES, ../src/config.ts): the API it describes has every setting at its
// default, so the file is the same whatever the environment holds.
import { writeFileSync } from 'node:fs';
import { describeApi, NO_DATABASE, OPENAPI_FILE } from '../src/api/openapi.ts';
import { createApi } from '../src/api/server.ts';
import { readApiConfig } from '../src/config.ts';
import { publishUpload } from '../src/releases/upload.ts';

const app = await createApi({ database: NO_DATABASE, publish: publishUpload, env: {}, config: readApiConfig({ NETNET_LOG_LEVEL: 'silent' }) });
await app.ready();
writeFileSync(OPENAPI_FILE, describeApi(app));
await app.close();
console.log(`wrote ${OPENAPI_FILE}`);

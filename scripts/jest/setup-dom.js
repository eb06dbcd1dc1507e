// jsdom lacks a few browser globals the product uses.
require('@testing-library/jest-dom');
require('fake-indexeddb/auto');
const util = require('node:util');

if (!global.TextEncoder) global.TextEncoder = util.TextEncoder;
if (!global.TextDecoder) global.TextDecoder = util.TextDecoder;
if (!global.structuredClone) {
  const v8 = require('node:v8');
  global.structuredClone = (value) => v8.deserialize(v8.serialize(value));
}

// Jest runs one worker per core: on a two-core machine under full load, a fake-IndexedDB round
// trip can outlast Testing Library's default 1 s wait for what the member should see.
require('@testing-library/react').configure({ asyncUtilTimeout: 3000 });

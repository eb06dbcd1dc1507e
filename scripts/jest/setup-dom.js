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

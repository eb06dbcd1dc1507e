// jsdom lacks a few browser globals the product uses (DESIGN §7).
require('@testing-library/jest-dom');
require('fake-indexeddb/auto');
const { TextEncoder, TextDecoder } = require('node:util');

if (!global.TextEncoder) global.TextEncoder = TextEncoder;
if (!global.TextDecoder) global.TextDecoder = TextDecoder;
if (!global.structuredClone) {
  const v8 = require('node:v8');
  global.structuredClone = (value) => v8.deserialize(v8.serialize(value));
}

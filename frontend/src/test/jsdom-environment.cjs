// jsdom environment plus Node's fetch primitives (Request, Response, Headers, AbortController …),
// which react-router's data router needs for navigation and jsdom does not provide.
const { TestEnvironment } = require('jest-environment-jsdom');

const FROM_NODE = [
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'AbortController',
  'AbortSignal',
  'ReadableStream',
  'TextEncoder',
  'TextDecoder',
  'structuredClone',
];

class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of FROM_NODE) {
      if (name === 'FormData' || name === 'AbortController' || name === 'AbortSignal') {
        if (this.global[name] === undefined) this.global[name] = globalThis[name];
        continue;
      }
      this.global[name] = globalThis[name];
    }
  }
}

module.exports = JsdomWithFetchEnvironment;

// For checking the pages' use of the wire contract (state and actions), not their DOM
// code: elements found by a selector are taken to be form fields, so that plain JavaScript
// needs no casts to read `value`, `checked`, `dataset` or `hidden`.
interface ParentNode {
  querySelector(selectors: string): HTMLInputElement | null;
  querySelectorAll(selectors: string): NodeListOf<HTMLInputElement>;
}
interface Document {
  getElementById(elementId: string): HTMLInputElement | null;
}
interface Window {
  /** The demo's client, for the browser console and tests. */
  storehost: unknown;
}

// Types of json-patch.js: RFC 6902 patches applied to plain JSON values.

export declare class PatchError extends Error {}

/** The reference tokens of an RFC 6901 JSON Pointer. */
export declare function parsePointer(pointer: string): string[];

/** The document with `operations` applied. */
export declare function applyPatch<Document>(document: Document, operations: unknown[]): Document;

/** Whether two JSON values are equal. */
export declare function jsonEqual(a: unknown, b: unknown): boolean;

// Types of storehost.js (served at /storehost/v1/storehost.d.ts), for TypeScript and
// checked JavaScript pages. `StoreHostClient` is generic over a feature's state and
// actions: declare them with `storehost schema --typescript` (or your server's equivalent)
// and write
//   new StoreHostClient<State, Action>()   (TypeScript)
//   /** @type {StoreHostClient<State, Action>} */   (JSDoc)
// so that `send` takes only the actions the server accepts and `subscribe` gets typed state.

export { applyPatch, jsonEqual, parsePointer, PatchError } from "./json-patch.js";

export declare const Status: Readonly<{
  connecting: "connecting";
  open: "open";
  reconnecting: "reconnecting";
  ended: "ended";
  closed: "closed";
}>;
export type Status = (typeof Status)[keyof typeof Status];

export declare class StoreHostError extends Error {
  constructor(
    message: string,
    details?: { status?: number; code?: string; retryAfter?: number | null; cause?: unknown },
  );
  /** The HTTP status, or 0 when the server could not be reached. */
  status: number;
  /** The server's error code (such as `invalid_action`), or `network_error`. */
  code: string;
  /** Seconds the server asked to wait before trying again (`Retry-After`), or `null`. */
  retryAfter: number | null;
}

export interface ClientOptions {
  baseURL?: string;
  patches?: boolean;
  log?: boolean;
  presence?: boolean;
  storageKey?: string | null;
  urlParameter?: string | null;
  initialDelay?: number;
  maxDelay?: number;
  stableAfter?: number;
}

export interface Presence {
  session: number;
  everyone: number;
}

export interface ClientEvent {
  type: "session" | "state" | "patch" | "action";
  receivedAt: Date;
  [detail: string]: unknown;
}

export declare class StoreHostClient<State = any, Action = any> {
  constructor(options?: ClientOptions);
  readonly sessionId: string | null;
  readonly state: State | undefined;
  readonly version: number | null;
  readonly status: Status;
  readonly pendingCount: number;
  readonly presence: Presence | null;
  connect(): Promise<{ id: string; version: number; state: State }>;
  /** Sends one action, or several applied in order. */
  send(action: Action | Action[]): Promise<number>;
  subscribe(listener: (state: State, version: number) => void): () => void;
  onStatus(listener: (status: Status) => void): () => void;
  onPending(listener: (count: number) => void): () => void;
  onPresence(listener: (presence: Presence | null) => void): () => void;
  onEvent(listener: (event: ClientEvent) => void): () => void;
  waitForVersion(version: number): Promise<State>;
  /** Leaves the session for a new one; the old one ends unless another tab of this browser shows it. */
  startNewSession(): Promise<void>;
  close(): void;
}

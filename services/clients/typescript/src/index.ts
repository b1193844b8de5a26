// The bridge club's TypeScript client: connect-es v2 over grpc-web.
//
// The services and messages are generated from the contract (proto/) into src/gen by
// `npm run build`; import them from "@bridgeclub/client/gen/<path>_pb.js", for example
// "@bridgeclub/client/gen/bridgeclub/membership/v1/membership_service_pb.js". This module adds
// what every app needs around them: a grpc-web transport that presents the caller's token, the
// google.rpc details of an error (docs/errors.md), and watch streams that resume after a break.

import { Code, ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";

import {
  type BadRequest_FieldViolation,
  BadRequestSchema,
  type ErrorInfo,
  ErrorInfoSchema,
  RetryInfoSchema,
} from "./gen/google/rpc/error_details_pb.js";

// Re-exported so that an app needs no import of connect-es of its own for the common case.
export { Code, ConnectError, createClient } from "@connectrpc/connect";
export type { Client, Interceptor, Transport } from "@connectrpc/connect";

/** Where a token comes from: called before every call, so it may refresh one that expired. */
export type TokenSource = () => string | Promise<string>;

/** An interceptor that sends `authorization: Bearer <token>` with every call. */
export function bearer(token: TokenSource): Interceptor {
  return (next) => async (request) => {
    request.header.set("authorization", `Bearer ${await token()}`);
    return next(request);
  };
}

/** How to reach the club. */
export interface ClubTransportOptions {
  /** The server or gateway, e.g. `http://127.0.0.1:50051` (bridge-club's default). */
  baseUrl: string;
  /** The caller's token; none for the calls that need none (health). */
  token?: TokenSource;
  /** More interceptors, run after the token's. */
  interceptors?: Interceptor[];
  /** A fetch of your own (tests, React Native polyfills); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

/**
 * The grpc-web transport every generated client takes (`createClient(MembershipService,
 * transport)`): binary protobuf, as bridge-club and the gateway speak it, with the caller's token
 * on every call.
 */
export function clubTransport(options: ClubTransportOptions): Transport {
  const interceptors: Interceptor[] = [];
  if (options.token) interceptors.push(bearer(options.token));
  interceptors.push(...(options.interceptors ?? []));
  return createGrpcWebTransport({
    baseUrl: options.baseUrl,
    useBinaryFormat: true,
    interceptors,
    fetch: options.fetch,
  });
}

/** The domain of every ErrorInfo the platform sends. */
export const ERROR_DOMAIN = "bridgeclub.org";

/** The stable reasons of docs/errors.md. The list only grows: act on the code for one you do not know. */
export type Reason =
  | "FIELD_INVALID"
  | "REQUEST_INVALID"
  | "LAW_FORBIDS"
  | "NOT_NOW"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "PERMISSION_DENIED"
  | "STALE_VERSION"
  | "DEPENDENCY_UNAVAILABLE"
  | "UNAUTHENTICATED"
  | "RATE_LIMITED";

/** What a failed call says, for a program to act on (docs/errors.md). */
export interface ClubErrorDetails {
  /** Whose move it is. */
  code: Code;
  /** For people; may be reworded. */
  message: string;
  /** The stable reason; absent for INTERNAL and for what tonic answers itself (DEADLINE_EXCEEDED, ...). */
  reason?: Reason | string;
  /** ErrorInfo's metadata: `law`, `law_code`, `law_number`, `law_section` for LAW_FORBIDS; `current_version` ... */
  metadata: Record<string, string>;
  /** The Law cited by a refusal under the Laws, as people read it ("Law 17 of the Laws of Rubber Bridge"). */
  law?: string;
  /** The request fields at fault (INVALID_ARGUMENT). */
  fieldViolations: BadRequest_FieldViolation[];
  /** How long to wait before trying again, where retrying helps (UNAVAILABLE, ABORTED, RESOURCE_EXHAUSTED). */
  retryDelayMs?: number;
}

/**
 * Reads the google.rpc details the server sent in `grpc-status-details-bin` with an error: its
 * ErrorInfo (reason and metadata, the Law among them), BadRequest and RetryInfo.
 */
export function errorDetails(error: unknown): ClubErrorDetails {
  const connectError = ConnectError.from(error);
  const info: ErrorInfo | undefined = connectError
    .findDetails(ErrorInfoSchema)
    .find((detail) => detail.domain === ERROR_DOMAIN);
  const badRequest = connectError.findDetails(BadRequestSchema)[0];
  const retry = connectError.findDetails(RetryInfoSchema)[0];
  const delay = retry?.retryDelay;
  return {
    code: connectError.code,
    message: connectError.rawMessage,
    reason: info?.reason,
    metadata: { ...(info?.metadata ?? {}) },
    law: info?.metadata["law"],
    fieldViolations: badRequest?.fieldViolations ?? [],
    retryDelayMs: delay === undefined ? undefined : Number(delay.seconds) * 1000 + Math.floor(delay.nanos / 1e6),
  };
}

/** One response of a watch stream: an event with its sequence, or a heartbeat. */
export interface WatchResponse {
  event?: { sequence: bigint };
  heartbeat?: { lastSequence: bigint };
}

/** How a resumable watch goes on after a break. */
export interface ResumeOptions {
  /** The last sequence already seen; absent to start with the stream's snapshot. */
  after?: bigint;
  /** Stops the watch. */
  signal?: AbortSignal;
  /** Whether a break is worth opening the stream again for; by default UNAVAILABLE only. */
  retryable?: (error: ConnectError) => boolean;
  /** Milliseconds to wait before opening again (the error's RetryInfo wins when it has one). */
  retryDelayMs?: number;
  /** At most this many breaks in a row without an event between them; then the last error is thrown. */
  maxRetries?: number;
}

/**
 * A watch stream (WatchRoom, WatchTable, WatchScorepad, ...) that survives breaks: `open` starts it
 * after the given sequence (pass it as the request's `afterSequence`), and when it breaks with a
 * retryable error, it is opened again after the last sequence seen, events' and heartbeats' alike,
 * so no event is missed or repeated (docs/architecture.md, "Watch streams"). Yields every event;
 * heartbeats only move the sequence on.
 */
export async function* resumable<R extends WatchResponse>(
  open: (after: bigint | undefined, signal: AbortSignal) => AsyncIterable<R>,
  options: ResumeOptions = {},
): AsyncGenerator<R, void, undefined> {
  const retryable = options.retryable ?? ((error: ConnectError) => error.code === Code.Unavailable);
  const maxRetries = options.maxRetries ?? 10;
  let after = options.after;
  let failures = 0;
  for (;;) {
    const controller = new AbortController();
    const stop = () => controller.abort();
    options.signal?.addEventListener("abort", stop);
    try {
      for await (const response of open(after, controller.signal)) {
        if (response.event) {
          after = response.event.sequence;
          failures = 0;
          yield response;
        } else if (response.heartbeat) {
          after = response.heartbeat.lastSequence;
        }
      }
      return;
    } catch (error) {
      const connectError = ConnectError.from(error);
      if (options.signal?.aborted || !retryable(connectError) || ++failures > maxRetries) throw connectError;
      const delay = errorDetails(connectError).retryDelayMs ?? options.retryDelayMs ?? 1000;
      await new Promise((resolve) => setTimeout(resolve, delay));
    } finally {
      options.signal?.removeEventListener("abort", stop);
      controller.abort();
    }
  }
}

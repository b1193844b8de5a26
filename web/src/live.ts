// Live screens: a watch stream that resumes after a drop from the last sequence it saw
// (docs/clients.md, "Watch streams"), as a Preact hook. The screens treat each event as "this
// changed" and read the state again with the viewer's own token, so what they show is always the
// server's view for that viewer and nothing more.

import { ConnectError, resumable, type WatchResponse } from "@bridgeclub/client";
import { useEffect, useRef, useState } from "preact/hooks";

export type LiveState = "connecting" | "live" | "reconnecting" | "stopped";

/**
 * Opens `open` while the component is shown (and again when `key` changes), calling `onEvent` for
 * every event; a broken stream is opened again after the last sequence seen, without end, waiting
 * a little longer after each failure in a row.
 */
export function useLive<R extends WatchResponse>(
  key: string | undefined,
  open: (after: bigint | undefined, signal: AbortSignal) => AsyncIterable<R>,
  onEvent: (response: R) => void,
): LiveState {
  const [state, setState] = useState<LiveState>("connecting");
  useEffect(() => {
    if (key === undefined) return;
    const controller = new AbortController();
    let stopped = false;
    (async () => {
      let after: bigint | undefined;
      let delay = 500;
      while (!stopped) {
        try {
          setState(after === undefined ? "connecting" : "reconnecting");
          // Any response, a heartbeat too, shows the stream is open again.
          const opened = (from: bigint | undefined, signal: AbortSignal) =>
            (async function* () {
              for await (const response of open(from, signal)) {
                setState("live");
                yield response;
              }
            })();
          for await (const response of resumable(opened, {
            after,
            signal: controller.signal,
            retryable: () => true,
            maxRetries: 3,
            retryDelayMs: delay,
          })) {
            delay = 500;
            if (response.event) after = response.event.sequence;
            onEvent(response);
          }
        } catch (error) {
          if (stopped) return;
          console.warn("watch ended", ConnectError.from(error).message);
        }
        if (stopped) return;
        setState("reconnecting");
        await new Promise((resolve) => setTimeout(resolve, delay));
        delay = Math.min(delay * 2, 10_000);
      }
    })();
    return () => {
      stopped = true;
      controller.abort();
      setState("stopped");
    };
  }, [key]);
  return state;
}

/**
 * Orders a screen's reads: several may be in flight at once (one after the viewer's action, one
 * for a stream's event), and an older answer arriving last would leave the screen stale with no
 * event to follow. `begin` numbers a read; `latest` says whether it is still the newest one begun,
 * so only the newest answer is shown.
 */
export function useReadOrder() {
  const begun = useRef(0);
  return {
    begin: () => ++begun.current,
    latest: (read: number) => read === begun.current,
  };
}

// The calls for the arbiter as they arrive, for the arbiter's screen and the desk's room. The list is
// the game service's (ListArbiterCalls); it is read again whenever a table shown on the page changes
// its open calls, which each table's own stream brings at once (a call is a table's event, not the
// room's).

import type { TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import type { ArbiterCall } from "@bridgeclub/client/gen/bridgeclub/game/v1/irregularity_pb.js";
import { useCallback, useEffect, useRef, useState } from "preact/hooks";

import { explain, game } from "./api.js";
import { SEAT_NAME } from "./cards.js";
import { useReadOrder } from "./live.js";

/**
 * The open calls, read at first and again after `generation` changes or a table's open calls
 * change (`noteView`, which each table's screen calls with its view).
 */
export function useArbiterCalls(generation: number) {
  const [calls, setCalls] = useState<ArbiterCall[]>([]);
  const [error, setError] = useState<string>();
  // Each table's open call ids as its stream last showed them.
  const seen = useRef(new Map<string, string>());
  const order = useReadOrder();
  const read = useCallback(async () => {
    const mine = order.begin();
    try {
      const open = (await game().listArbiterCalls({})).arbiterCalls;
      if (!order.latest(mine)) return;
      setCalls(open);
      setError(undefined);
    } catch (e) {
      setError(explain(e));
    }
  }, []);
  useEffect(() => void read(), [read, generation]);
  const noteView = useCallback(
    (view: TableView) => {
      const open = view.openArbiterCalls
        .map((c) => c.arbiterCallId)
        .sort()
        .join(",");
      const before = seen.current.get(view.tableId);
      seen.current.set(view.tableId, open);
      if (before !== undefined && before !== open) void read();
    },
    [read],
  );
  return { calls, error, read, noteView };
}

/** The calls, oldest first: the table (a link to it on the page), when, who called and why. */
export function ArbiterCallList({ calls, names, anchor }: { calls: ArbiterCall[]; names: Map<string, string>; anchor: (tableId: string) => string }) {
  return (
    <section class="card" aria-labelledby="calls-title" data-testid="arbiter-calls">
      <h2 id="calls-title">Calls for the arbiter</h2>
      {calls.length === 0 ? (
        <p>No table is calling.</p>
      ) : (
        <ol class="calls">
          {calls.map((call) => (
            <li key={call.arbiterCallId} data-call-id={call.arbiterCallId}>
              <a href={`#${anchor(call.tableId)}`}>{names.get(call.tableId) ?? call.tableId}</a>{" "}
              {call.calledAt && <time>{new Date(Number(call.calledAt.seconds) * 1000).toLocaleTimeString()}</time>}:{" "}
              {call.calledBySeat ? `${SEAT_NAME[call.calledBySeat]} calls` : "called"}
              {call.reason ? `: ${call.reason}` : ""}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

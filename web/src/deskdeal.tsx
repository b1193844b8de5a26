// The desk deals a rubber's next deal from the table's card: the deal its scorepad calls for next
// (Law 9's rotation and the pad's vulnerability are the server's), with the server's cards or with
// physical ones recorded here, the hands as dealt entered when the play is to be recorded. It is
// offered while the table has no deal under way: before the first deal (a first deal whose start
// failed, say for hands that did not parse, is dealt again here) and after each deal, so that a
// table playing with real cards, whose players have no phones, goes on from the desk.

import { PlayMode, DealPhase, type TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import { TableKind } from "@bridgeclub/client/gen/bridgeclub/common/v1/table_pb.js";
import { ScorepadStatus } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/scorepad_pb.js";
import { useEffect, useState } from "preact/hooks";

import { game, idempotencyKey, scoring } from "./api.js";
import { SEAT_NAME } from "./cards.js";
import type { TableAct } from "./table.js";

/** The rubber whose deals the desk starts: membership's rubber, its pad, and the table's Club Laws option. */
export interface DeskDeal {
  rubberId: string;
  scorepadId: string;
  clubLaws: boolean;
}

/** Whether a deal is played with physical cards recorded here, and then the hands as dealt (PBN), if known. */
export function PhysicalCardsChoice({
  name,
  physical,
  onPhysical,
  hands,
  onHands,
}: {
  name: string;
  physical: boolean;
  onPhysical: (physical: boolean) => void;
  hands: string;
  onHands: (hands: string) => void;
}) {
  return (
    <>
      <label class="check">
        <input type="checkbox" name={`${name}-physical`} checked={physical} onChange={() => onPhysical(!physical)} />
        Physical cards, recorded here
      </label>
      {physical && (
        <label>
          The hands as dealt, to record the play (PBN; empty: enter only the result)
          <input name={`${name}-pbn`} value={hands} onInput={(e) => onHands(e.currentTarget.value)} spellcheck={false} autocapitalize="characters" />
        </label>
      )}
    </>
  );
}

export function DeskNextDeal({ view, deal, act }: { view: TableView; deal: DeskDeal; act: TableAct }) {
  const idle = view.phase === DealPhase.NO_DEAL || view.phase === DealPhase.FINISHED;
  const [next, setNext] = useState<{ number: number; dealer: number }>();
  const [physical, setPhysical] = useState(view.setup ? view.setup.mode === PlayMode.RECORDED : true);
  const [hands, setHands] = useState("");
  // Asked again whenever the table changes: a deal's result reaches the pad, and the next one follows.
  useEffect(() => {
    if (!idle) return;
    let current = true;
    scoring()
      .getNextDeal({ scorepadId: deal.scorepadId })
      .then((answer) => {
        if (!current) return;
        const n = answer.nextDeal;
        setNext(answer.status === ScorepadStatus.IN_PROGRESS && n ? { number: n.dealNumber, dealer: n.dealer } : undefined);
      })
      .catch((e: unknown) => {
        console.warn("the pad's next deal could not be read:", e);
        if (current) setNext(undefined);
      });
    return () => {
      current = false;
    };
  }, [deal.scorepadId, idle, view.version]);
  if (!idle || !next) return null;
  return (
    <form
      class="card desk-deal"
      aria-labelledby={`desk-deal-${view.tableId}`}
      onSubmit={(e) => {
        e.preventDefault();
        void act(async (v) => {
          const answer = await game().startDeal({
            tableId: v.tableId,
            expectedVersion: v.version,
            idempotencyKey: idempotencyKey(),
            setup: {
              source: { case: "rubber", value: { rubberId: deal.rubberId, scorepadId: deal.scorepadId, dealNumber: next.number, clubLaws: deal.clubLaws } },
              kind: TableKind.RUBBER,
              mode: physical ? PlayMode.RECORDED : PlayMode.DIGITAL,
            },
            hands: physical && hands.trim() ? { case: "dealPbn", value: hands.trim() } : { case: undefined },
          });
          setHands("");
          return answer.view;
        });
      }}
    >
      <h4 id={`desk-deal-${view.tableId}`}>
        Deal {next.number}, dealt by {SEAT_NAME[next.dealer] ?? "?"}
      </h4>
      <PhysicalCardsChoice name="next-deal" physical={physical} onPhysical={setPhysical} hands={hands} onHands={setHands} />
      <button type="submit">Deal {next.number}</button>
    </form>
  );
}

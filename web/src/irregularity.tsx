// An irregularity the official records at a table as a fact (RecordIrregularity): the ones a table
// cannot show by its calls and cards alone. Unauthorised information from partner (Law 16),
// misinformation about an agreement (Law 21: when it is too late for the misinformed player to change
// his call, the adjustment is reserved for the end of play), a revoke found later (Laws 61 to 64:
// the trick it was made to; the Laws then say whether it is established, and the tricks transferred
// after play), dummy exceeding his rights (Laws 42 and 43), or anything else in words. The game
// service judges it with the Laws of the code in force, cites the Law and opens the decisions that
// follow, which the arbiter's panel then shows.

import { IrregularityKind } from "@bridgeclub/client/gen/bridgeclub/game/v1/irregularity_pb.js";
import type { TableView } from "@bridgeclub/client/gen/bridgeclub/game/v1/deal_pb.js";
import { useState } from "preact/hooks";

import { game, idempotencyKey } from "./api.js";
import { lawText } from "./arbiter.js";
import { SEAT_NAME, Seat } from "./cards.js";
import type { TableAct } from "./table.js";

const KINDS: { kind: IrregularityKind; label: string }[] = [
  { kind: IrregularityKind.UNAUTHORIZED_INFORMATION, label: "Unauthorised information from partner (Law 16)" },
  { kind: IrregularityKind.MISINFORMATION, label: "Misinformation about an agreement (Law 21)" },
  { kind: IrregularityKind.REVOKE, label: "A revoke (Laws 61 to 64)" },
  { kind: IrregularityKind.DUMMY_IRREGULARITY, label: "Dummy exceeding his rights (Laws 42 and 43)" },
  { kind: IrregularityKind.OTHER, label: "Something else" },
];

const SEATS = [Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST];

function SeatSelect({ label, name, value, onChange, none }: { label: string; name: string; value: Seat; onChange: (seat: Seat) => void; none?: string }) {
  return (
    <label>
      {label}
      <select name={name} value={value} onChange={(e) => onChange(Number(e.currentTarget.value) as Seat)}>
        {none && <option value={Seat.UNSPECIFIED}>{none}</option>}
        {SEATS.map((seat) => (
          <option key={seat} value={seat}>
            {SEAT_NAME[seat]}
          </option>
        ))}
      </select>
    </label>
  );
}

export function IrregularityForm({ view, act }: { view: TableView; act: TableAct }) {
  const [kind, setKind] = useState(IrregularityKind.UNAUTHORIZED_INFORMATION);
  const [offender, setOffender] = useState<Seat>(Seat.NORTH);
  const [pointedOutBy, setPointedOutBy] = useState<Seat>(Seat.UNSPECIFIED);
  const [misinformed, setMisinformed] = useState<Seat>(Seat.UNSPECIFIED);
  const [trick, setTrick] = useState("");
  const [description, setDescription] = useState("");
  const [said, setSaid] = useState<string>();
  const revoke = kind === IrregularityKind.REVOKE;
  return (
    <details class="card irregularity-form">
      <summary>Record an irregularity</summary>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setSaid(undefined);
          void act(async (v) => {
            const answer = await game().recordIrregularity({
              tableId: v.tableId,
              expectedVersion: v.version,
              idempotencyKey: idempotencyKey(),
              fact: {
                kind,
                offender,
                trickNumber: revoke ? Number(trick) : 0,
                description: description.trim(),
                misinformed: kind === IrregularityKind.MISINFORMATION ? misinformed : Seat.UNSPECIFIED,
              },
              pointedOutBy,
            });
            const law = lawText(answer.irregularity?.law);
            setSaid(`Recorded${law ? ` under ${law}` : ""}.${answer.decision ? " The Laws give a choice: it is shown above." : ""}`);
            setDescription("");
            setTrick("");
            return answer.view;
          });
        }}
      >
        {said && (
          <p role="status" class="notice">
            {said}
          </p>
        )}
        <label>
          What happened
          <select name="irregularity-kind" value={kind} onChange={(e) => setKind(Number(e.currentTarget.value) as IrregularityKind)}>
            {KINDS.map((k) => (
              <option key={k.kind} value={k.kind}>
                {k.label}
              </option>
            ))}
          </select>
        </label>
        <SeatSelect label="The offender" name="irregularity-offender" value={offender} onChange={setOffender} />
        {revoke && (
          <label>
            The trick revoked on (1 to 13)
            <input name="irregularity-trick" type="number" min={1} max={Math.max(1, view.tricks.length)} value={trick} onInput={(e) => setTrick(e.currentTarget.value)} required />
          </label>
        )}
        {kind === IrregularityKind.MISINFORMATION && (
          <SeatSelect label="The player misinformed, when it is too late to change his call" name="irregularity-misinformed" value={misinformed} onChange={setMisinformed} none="Not yet too late" />
        )}
        <SeatSelect label="Attention drawn by" name="irregularity-pointed-out-by" value={pointedOutBy} onChange={setPointedOutBy} none="Not a player" />
        <label>
          In words
          <input name="irregularity-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} required={kind === IrregularityKind.OTHER} />
        </label>
        <button type="submit">Record the irregularity</button>
      </form>
    </details>
  );
}

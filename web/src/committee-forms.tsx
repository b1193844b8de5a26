// The committee's two forms. The hearing: the members who sit (the member signed in among them, as
// many as the club's policy says), the statements heard, each with its speaker and in what capacity,
// and notes. The decision: upheld, overruled or varied; when not upheld, what is in force for the
// deal now (the table result, or an assigned score: contract, declarer and tricks); each member's
// vote; the committee's reasons and the dissenters'. The server checks every rule (who may sit, a
// majority, what a committee may change) and says why it refuses.

import { type Appeal, AppealOutcome, type HearingSchema, SpeakerRole } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeal_pb.js";
import type { DecideAppealRequestSchema } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeals_service_pb.js";
import type { Ruling } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/ruling_pb.js";
import { Doubling } from "@bridgeclub/client/gen/bridgeclub/common/v1/contract_pb.js";
import type { DealResult } from "@bridgeclub/client/gen/bridgeclub/common/v1/result_pb.js";
import type { DealRecord } from "@bridgeclub/client/gen/bridgeclub/game/v1/record_pb.js";
import type { DescMessage, MessageInitShape } from "@bufbuild/protobuf";
import { useEffect, useState } from "preact/hooks";

import { appeals } from "./api.js";
import { SPEAKER_ROLE, who } from "./appeals.js";
import { DENOMINATION_SYMBOL, DENOMINATIONS, Denomination, SEAT_NAME, Seat } from "./cards.js";

/** A message as the client takes it in a request: plain fields, not a message made already. */
type Init<S extends DescMessage> = Exclude<MessageInitShape<S>, { $typeName: string }>;
export type HearingInit = Init<typeof HearingSchema>;
export type DecisionInit = Omit<Init<typeof DecideAppealRequestSchema>, "appealId" | "idempotencyKey">;

interface Said {
  speaker: string;
  role: SpeakerRole;
  text: string;
}

export function HearingForm({
  ruling,
  memberId,
  size,
  onHear,
}: {
  ruling: Ruling;
  memberId: string;
  size: number;
  onHear: (hearing: HearingInit) => void;
}) {
  const [others, setOthers] = useState<string[]>(() => Array(Math.max(0, size - 1)).fill(""));
  const [statements, setStatements] = useState<Said[]>([]);
  const [speaker, setSpeaker] = useState("");
  const [role, setRole] = useState(SpeakerRole.APPELLANT_SIDE);
  const [text, setText] = useState("");
  const [notes, setNotes] = useState("");
  // The roster as it stands now, offered for the other seats (the server still checks each member:
  // on the roster, not conflicted, not a party).
  const [roster, setRoster] = useState<string[]>([]);
  useEffect(() => {
    const now = BigInt(Math.floor(Date.now() / 1000));
    appeals()
      .listRosterEntries({ covering: { seconds: now, nanos: 0 }, page: { pageSize: 100, pageToken: "" } })
      .then((answer) => setRoster([...new Set(answer.entries.map((e) => e.memberId))].filter((m) => m !== memberId)))
      .catch((e: unknown) => {
        // The members are still typed by hand; the hearing is not held up.
        console.warn("the roster could not be read:", e);
        setRoster([]);
      });
  }, [memberId]);
  // The policy may be read after the form is first drawn.
  if (others.length !== Math.max(0, size - 1)) setOthers(Array(Math.max(0, size - 1)).fill(""));
  const pending = speaker.trim() && text.trim() ? { speaker: speaker.trim(), role, text: text.trim() } : undefined;
  const add = () => {
    if (!pending) return;
    setStatements((all) => [...all, pending]);
    setSpeaker("");
    setText("");
  };
  const speakers = [...(ruling.deal?.players.map((p) => p.playerId) ?? []), who(ruling.ruledBy)];
  return (
    <form
      class="committee-form"
      aria-labelledby="hearing-title"
      onSubmit={(e) => {
        e.preventDefault();
        // A statement typed but not yet added is heard too.
        const heard = pending ? [...statements, pending] : statements;
        onHear({ committeeMemberIds: [memberId, ...others.map((m) => m.trim())], statements: heard, notes: notes.trim() });
      }}
    >
      <datalist id="roster-members">
        {roster.map((m) => (
          <option key={m} value={m}>
            {who(m)}
          </option>
        ))}
      </datalist>
      <fieldset>
        <legend>Members sitting ({size})</legend>
        <p>1. {who(memberId)} (you)</p>
        {others.map((value, i) => (
          <label key={i}>
            Member {i + 2} (from the roster)
            <input
              name={`member-${i + 2}`}
              list="roster-members"
              value={value}
              onInput={(e) => {
                const next = e.currentTarget.value;
                setOthers((all) => all.map((m, j) => (j === i ? next : m)));
              }}
              autocapitalize="none"
              spellcheck={false}
              required
            />
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Statements heard</legend>
        {statements.length > 0 && (
          <ol class="statements">
            {statements.map((s, i) => (
              <li key={i}>
                <strong>{s.speaker}</strong> ({SPEAKER_ROLE[s.role]}): “{s.text}”{" "}
                <button
                  type="button"
                  class="quiet small"
                  aria-label={`Remove ${s.speaker}'s statement`}
                  onClick={() => setStatements((all) => all.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </li>
            ))}
          </ol>
        )}
        <label>
          Who spoke
          <input name="speaker" list="hearing-speakers" value={speaker} onInput={(e) => setSpeaker(e.currentTarget.value)} autocapitalize="none" />
        </label>
        <datalist id="hearing-speakers">
          {speakers.map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
        <div class="field">
          <label for="f-speaker-role">Speaking as</label>
          <select id="f-speaker-role" name="speaker-role" value={role} onChange={(e) => setRole(Number(e.currentTarget.value) as SpeakerRole)}>
            {[SpeakerRole.APPELLANT_SIDE, SpeakerRole.OTHER_SIDE, SpeakerRole.ARBITER, SpeakerRole.WITNESS].map((r) => (
              <option key={r} value={r}>
                {SPEAKER_ROLE[r]}
              </option>
            ))}
          </select>
        </div>
        <label>
          What was said
          <textarea name="statement" rows={2} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        </label>
        <button type="button" class="quiet" onClick={add} disabled={!pending}>
          Add the statement
        </button>
      </fieldset>
      <label>
        Notes
        <textarea name="notes" rows={2} value={notes} onInput={(e) => setNotes(e.currentTarget.value)} />
      </label>
      <button type="submit">Record the hearing</button>
    </form>
  );
}

const CHOICE: [AppealOutcome, string][] = [
  [AppealOutcome.UPHELD, "Uphold the ruling"],
  [AppealOutcome.OVERRULED, "Overrule it"],
  [AppealOutcome.VARIED, "Vary it"],
];

const DENOMINATION_WORD: Record<number, string> = {
  [Denomination.CLUBS]: "clubs",
  [Denomination.DIAMONDS]: "diamonds",
  [Denomination.HEARTS]: "hearts",
  [Denomination.SPADES]: "spades",
  [Denomination.NO_TRUMP]: "(no trump)",
};

const DOUBLING: [Doubling, string][] = [
  [Doubling.UNDOUBLED, "undoubled"],
  [Doubling.DOUBLED, "doubled"],
  [Doubling.REDOUBLED, "redoubled"],
];

/** The contract and tricks to start from: the ruling's assigned score, else the table result. */
function startingResult(ruling: Ruling, record?: DealRecord) {
  const decided = ruling.decision?.decision;
  const assigned = decided?.case === "adjustedScore" && decided.value.kind.case === "assigned" ? decided.value.kind.value.result : undefined;
  const result: DealResult | undefined = assigned ?? record?.outcome?.result;
  const played = result?.outcome.case === "played" ? result.outcome.value : undefined;
  return {
    declarer: played?.contract?.declarer || Seat.NORTH,
    level: played?.contract?.contract?.bid?.level || 1,
    denomination: played?.contract?.contract?.bid?.denomination || Denomination.NO_TRUMP,
    doubling: played?.contract?.contract?.doubling || Doubling.UNDOUBLED,
    tricks: played?.tricks ?? 7,
  };
}

export function DecisionForm({
  appeal,
  ruling,
  record,
  memberId,
  onDecide,
}: {
  appeal: Appeal;
  ruling: Ruling;
  record?: DealRecord;
  memberId: string;
  onDecide: (decision: DecisionInit) => void;
}) {
  const sat = appeal.hearing?.committeeMemberIds ?? [];
  const [outcome, setOutcome] = useState(AppealOutcome.UPHELD);
  const [kind, setKind] = useState<"assigned" | "stands">("assigned");
  const [result, setResult] = useState(() => startingResult(ruling, record));
  const [against, setAgainst] = useState<string[]>([]);
  const [reasons, setReasons] = useState("");
  const [dissent, setDissent] = useState("");
  const [lackedMerit, setLackedMerit] = useState(false);
  const change = (field: keyof typeof result) => (e: Event) => {
    const value = Number((e.currentTarget as HTMLSelectElement | HTMLInputElement).value);
    setResult((r) => ({ ...r, [field]: value }));
  };
  const vote = (member: string, forIt: boolean) => setAgainst((all) => (forIt ? all.filter((m) => m !== member) : [...new Set([...all, member])]));
  const submit = (e: Event) => {
    e.preventDefault();
    const newDecision: DecisionInit["newDecision"] =
      outcome === AppealOutcome.UPHELD
        ? undefined
        : kind === "stands"
          ? { decision: { case: "resultStands" as const, value: {} } }
          : {
              decision: {
                case: "adjustedScore" as const,
                value: {
                  kind: {
                    case: "assigned" as const,
                    value: {
                      result: {
                        outcome: {
                          case: "played" as const,
                          value: {
                            contract: {
                              contract: { bid: { level: result.level, denomination: result.denomination }, doubling: result.doubling },
                              declarer: result.declarer,
                            },
                            tricks: result.tricks,
                          },
                        },
                      },
                    },
                  },
                },
              },
            };
    onDecide({
      outcome,
      newDecision,
      reasons: reasons.trim(),
      committeeMemberIds: sat,
      dissentingMemberIds: against,
      dissent: against.length > 0 ? dissent.trim() : "",
      lackedMerit,
    });
  };
  return (
    <form class="committee-form" aria-labelledby="decision-title" onSubmit={submit}>
      <fieldset>
        <legend>Outcome</legend>
        {CHOICE.map(([value, text]) => (
          <label class="check" key={value}>
            <input type="radio" name="outcome" value={value} checked={outcome === value} onChange={() => setOutcome(value)} />
            {text}
          </label>
        ))}
      </fieldset>
      {outcome !== AppealOutcome.UPHELD && (
        <fieldset>
          <legend>In force for the deal from now</legend>
          <label class="check">
            <input type="radio" name="new-decision" value="assigned" checked={kind === "assigned"} onChange={() => setKind("assigned")} />
            An assigned score
          </label>
          <label class="check">
            <input type="radio" name="new-decision" value="stands" checked={kind === "stands"} onChange={() => setKind("stands")} />
            The table result stands
          </label>
          {kind === "assigned" && (
            <div class="contract-fields">
              <div class="field">
                <label for="f-declarer">Declarer</label>
                <select id="f-declarer" name="declarer" value={result.declarer} onChange={change("declarer")}>
                  {[Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST].map((seat) => (
                    <option key={seat} value={seat}>
                      {SEAT_NAME[seat]}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="f-level">Level</label>
                <select id="f-level" name="level" value={result.level} onChange={change("level")}>
                  {[1, 2, 3, 4, 5, 6, 7].map((level) => (
                    <option key={level} value={level}>
                      {level}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="f-denomination">Denomination</label>
                <select id="f-denomination" name="denomination" value={result.denomination} onChange={change("denomination")}>
                  {[...DENOMINATIONS].reverse().map((d) => (
                    <option key={d} value={d}>
                      {DENOMINATION_SYMBOL[d]} {DENOMINATION_WORD[d]}
                    </option>
                  ))}
                </select>
              </div>
              <div class="field">
                <label for="f-doubling">Doubled</label>
                <select id="f-doubling" name="doubling" value={result.doubling} onChange={change("doubling")}>
                  {DOUBLING.map(([value, text]) => (
                    <option key={value} value={value}>
                      {text}
                    </option>
                  ))}
                </select>
              </div>
              <label>
                Tricks won by declarer's side
                <input name="tricks" type="number" min={0} max={13} value={result.tricks} onInput={change("tricks")} required />
              </label>
            </div>
          )}
        </fieldset>
      )}
      <fieldset>
        <legend>Votes of the members who sat</legend>
        {sat.map((member) => (
          <div class="vote" role="radiogroup" aria-label={`${who(member)}'s vote`} key={member} data-member={member}>
            <span class="member">
              {who(member)}
              {member === memberId ? " (you)" : ""}
            </span>
            <label class="check">
              <input type="radio" name={`vote-${member}`} checked={!against.includes(member)} onChange={() => vote(member, true)} />
              For
            </label>
            <label class="check">
              <input type="radio" name={`vote-${member}`} checked={against.includes(member)} onChange={() => vote(member, false)} />
              Against
            </label>
          </div>
        ))}
      </fieldset>
      <label>
        The committee's reasons
        <textarea name="reasons" rows={3} value={reasons} onInput={(e) => setReasons(e.currentTarget.value)} required />
      </label>
      {against.length > 0 && (
        <label>
          The dissent: why {against.map(who).join(" and ")} voted against
          <textarea name="dissent" rows={2} value={dissent} onInput={(e) => setDissent(e.currentTarget.value)} required />
        </label>
      )}
      {appeal.deposit?.amount && (
        <label class="check">
          <input type="checkbox" name="lacked-merit" checked={lackedMerit} onChange={(e) => setLackedMerit(e.currentTarget.checked)} />
          The appeal lacked merit (the deposit is retained)
        </label>
      )}
      <button type="submit">Record the decision</button>
    </form>
  );
}

// The administrator's appeals screen: the club's appeal policy (whether appeals are allowed, the
// time limits, how many members hear an appeal, the director's review, a further appeal, a
// deposit), the Club Appeals Committee's roster (members and their terms, one chair at a time),
// and the conflicts the club declares (a member who may not hear appeals a player, a partnership, a
// table or one appeal bears on). The appeals service keeps every rule: a member must be active on
// the register (or a committee staff account), a second chair for the same term is refused, and a
// refusal is shown in its words.

import type { AppealPolicy } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeal_pb.js";
import type { DeclaredConflict, RosterEntry } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/committee_pb.js";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { useCallback, useEffect, useState } from "preact/hooks";

import { accounts, allPages, appeals, explain, idempotencyKey, membership, Role } from "./api.js";
import { moneyText, when, who } from "./appeals.js";
import { useReadOrder } from "./live.js";
import { type Act, Notices, useAct } from "./notices.js";

import "./appeals.css";

/** A date typed in a date field, as the instant its day begins here; undefined when empty. */
function dayStart(text: string): Timestamp | undefined {
  if (!text) return undefined;
  const ms = new Date(`${text}T00:00:00`).getTime();
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos: 0 } as Timestamp;
}

const minutes = (seconds: bigint | undefined) => (seconds === undefined ? "" : String(Number(seconds) / 60));
const duration = (text: string) => ({ seconds: BigInt(Math.round(Number(text) * 60)), nanos: 0 });

export function AppealsAdmin() {
  const [policy, setPolicy] = useState<AppealPolicy>();
  const [roster, setRoster] = useState<RosterEntry[]>([]);
  const [conflicts, setConflicts] = useState<DeclaredConflict[]>([]);
  // Who may sit: active players on the register, and staff accounts with the committee role.
  const [candidates, setCandidates] = useState<string[]>([]);
  const [loadError, setLoadError] = useState<string>();
  const order = useReadOrder();
  const read = useCallback(async () => {
    const mine = order.begin();
    try {
      const [got, entries, declared, players, staff] = await Promise.all([
        appeals().getAppealPolicy({}),
        allPages(async (pageToken) => {
          const answer = await appeals().listRosterEntries({ page: { pageSize: 100, pageToken } });
          return { items: answer.entries, next: answer.page?.nextPageToken ?? "" };
        }),
        allPages(async (pageToken) => {
          const answer = await appeals().listConflicts({ page: { pageSize: 100, pageToken } });
          return { items: answer.conflicts, next: answer.page?.nextPageToken ?? "" };
        }),
        membership().listPlayers({}),
        accounts().listAccounts({}),
      ]);
      if (!order.latest(mine)) return;
      setPolicy(got.policy);
      setRoster(entries);
      setConflicts(declared);
      setCandidates([
        ...players.players.filter((p) => p.active).map((p) => p.playerId),
        ...staff.accounts.filter((a) => a.roles.includes(Role.COMMITTEE)).map((a) => `staff:${a.name}`),
      ]);
      setLoadError(undefined);
    } catch (e) {
      setLoadError(explain(e));
    }
  }, []);
  useEffect(() => void read(), [read]);
  const { error, notice, act } = useAct(read);
  return (
    <div class="appeals-admin">
      <h1>Appeals administration</h1>
      <Notices error={error ?? loadError} notice={notice} />
      <datalist id="committee-candidates">
        {candidates.map((id) => (
          <option key={id} value={id} />
        ))}
      </datalist>
      {policy && <PolicyForm key={String(policy.version)} policy={policy} act={act} />}
      <Roster roster={roster} act={act} />
      <Conflicts conflicts={conflicts} roster={roster} act={act} />
    </div>
  );
}

function PolicyForm({ policy, act }: { policy: AppealPolicy; act: Act }) {
  const [allowed, setAllowed] = useState(policy.appealsAllowed);
  const [rubberLimit, setRubberLimit] = useState(minutes(policy.rubberTimeLimit?.seconds));
  const [duplicateLimit, setDuplicateLimit] = useState(minutes(policy.duplicateTimeLimit?.seconds));
  const [size, setSize] = useState(String(policy.committeeSize || 1));
  const [review, setReview] = useState(policy.procedure?.directorReview ?? false);
  const [further, setFurther] = useState(policy.procedure?.furtherAppealTo ?? "");
  const [deposit, setDeposit] = useState(policy.procedure?.deposit ? String(Number(policy.procedure.deposit.amountMinorUnits) / 100) : "");
  const [currency, setCurrency] = useState(policy.procedure?.deposit?.currency || "GBP");
  return (
    <section class="card" aria-labelledby="policy-title">
      <h2 id="policy-title">The appeal policy</h2>
      <p class="summary" data-testid="policy-summary">
        {policy.version > 0n
          ? `Version ${policy.version}, published ${when(policy.publishedAt)}: ${policy.appealsAllowed ? "appeals allowed" : "no appeals"}; ${policy.committeeSize} ${policy.committeeSize === 1 ? "member hears" : "members hear"} an appeal${policy.procedure?.deposit ? `; deposit ${moneyText(policy.procedure.deposit)}` : ""}.`
          : "No policy is published yet."}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const amount = Math.round(Number(deposit || "0") * 100);
          void act(async () => {
            const answer = await appeals().updateAppealPolicy({
              expectedVersion: policy.version,
              policy: {
                appealsAllowed: allowed,
                rubberTimeLimit: rubberLimit ? duration(rubberLimit) : undefined,
                duplicateTimeLimit: duplicateLimit ? duration(duplicateLimit) : undefined,
                committeeSize: Number(size),
                procedure: {
                  directorReview: review,
                  furtherAppealTo: further.trim(),
                  deposit: amount > 0 ? { amountMinorUnits: BigInt(amount), currency: currency.trim().toUpperCase() } : undefined,
                },
              },
            });
            return `The appeal policy is published (version ${answer.policy?.version ?? ""}); it applies to rulings made from now on.`;
          });
        }}
      >
        <label class="check">
          <input type="checkbox" name="policy-allowed" checked={allowed} onChange={() => setAllowed(!allowed)} />
          Appeals are allowed
        </label>
        <label>
          Rubber and Chicago: minutes after the ruling to appeal
          <input name="policy-rubber-limit" type="number" min={1} value={rubberLimit} onInput={(e) => setRubberLimit(e.currentTarget.value)} />
        </label>
        <label>
          Duplicate: minutes after the official score (Law 92B: 30 unless the club says otherwise)
          <input name="policy-duplicate-limit" type="number" min={1} value={duplicateLimit} onInput={(e) => setDuplicateLimit(e.currentTarget.value)} />
        </label>
        <label>
          Members who hear an appeal
          <input name="policy-size" type="number" min={1} max={9} value={size} onInput={(e) => setSize(e.currentTarget.value)} required />
        </label>
        <label class="check">
          <input type="checkbox" name="policy-review" checked={review} onChange={() => setReview(!review)} />
          Duplicate: a point of law goes first to the Director in charge (Law 93B1)
        </label>
        <label>
          A further appeal goes to (empty: none, Law 93C1)
          <input name="policy-further" value={further} onInput={(e) => setFurther(e.currentTarget.value)} />
        </label>
        <div class="inline-form">
          <label>
            Deposit (empty: none)
            <input name="policy-deposit" type="number" min={0} step="0.01" value={deposit} onInput={(e) => setDeposit(e.currentTarget.value)} />
          </label>
          <label>
            Currency
            <input name="policy-currency" value={currency} onInput={(e) => setCurrency(e.currentTarget.value)} maxLength={3} pattern="[A-Za-z]{3}" />
          </label>
        </div>
        <button type="submit">Publish the policy</button>
      </form>
    </section>
  );
}

function Roster({ roster, act }: { roster: RosterEntry[]; act: Act }) {
  const [member, setMember] = useState("");
  const [chair, setChair] = useState(false);
  const [from, setFrom] = useState("");
  const [until, setUntil] = useState("");
  return (
    <section class="card" aria-labelledby="roster-title">
      <h2 id="roster-title">The committee's roster</h2>
      {roster.length === 0 ? (
        <p>Nobody is on the roster.</p>
      ) : (
        <ul class="people">
          {roster.map((entry) => (
            <li key={entry.entryId} data-roster={entry.memberId}>
              <span class="person">
                {who(entry.memberId)}
                {entry.chair ? " (chair)" : ""}
              </span>
              <span class="state">
                from {when(entry.termFrom)}
                {entry.termUntil ? ` until ${when(entry.termUntil)}` : ", no end"}; by {who(entry.updatedBy)}
              </span>
              <button
                type="button"
                class="quiet small"
                onClick={() =>
                  void act(async () => {
                    await appeals().updateRosterEntry({ entryId: entry.entryId, expectedVersion: entry.version, chair: !entry.chair, termFrom: entry.termFrom, termUntil: entry.termUntil });
                    return `${who(entry.memberId)} ${entry.chair ? "no longer chairs" : "chairs"} the committee.`;
                  })
                }
              >
                {entry.chair ? `${who(entry.memberId)} steps down as chair` : `Make ${who(entry.memberId)} chair`}
              </button>
              <button
                type="button"
                class="quiet small"
                onClick={() =>
                  void act(async () => {
                    await appeals().removeRosterEntry({ entryId: entry.entryId });
                    return `${who(entry.memberId)} is off the roster.`;
                  })
                }
              >
                Remove {who(entry.memberId)}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            await appeals().addRosterEntry({ memberId: member.trim(), chair, termFrom: dayStart(from), termUntil: dayStart(until), idempotencyKey: idempotencyKey() });
            setMember("");
            setChair(false);
            return `${who(member.trim())} is on the roster.`;
          });
        }}
      >
        <label>
          Member (player id, or staff:account for a committee account)
          <input name="roster-member" list="committee-candidates" value={member} onInput={(e) => setMember(e.currentTarget.value)} required autocapitalize="none" spellcheck={false} />
        </label>
        <label class="check">
          <input type="checkbox" name="roster-chair" checked={chair} onChange={() => setChair(!chair)} />
          Chairs the committee
        </label>
        <div class="inline-form">
          <label>
            Term from (empty: now)
            <input name="roster-from" type="date" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
          </label>
          <label>
            Until (empty: no end)
            <input name="roster-until" type="date" value={until} onInput={(e) => setUntil(e.currentTarget.value)} />
          </label>
        </div>
        <button type="submit">Add to the roster</button>
      </form>
    </section>
  );
}

type SubjectKind = "playerId" | "partnership" | "tableId" | "appealId";

const SUBJECTS: { kind: SubjectKind; label: string }[] = [
  { kind: "playerId", label: "A player: every appeal he is a party to" },
  { kind: "partnership", label: "A partnership: every appeal both are parties to" },
  { kind: "tableId", label: "A table: every appeal on a deal played there" },
  { kind: "appealId", label: "One appeal" },
];

function subjectText(conflict: DeclaredConflict): string {
  const s = conflict.subject;
  switch (s.case) {
    case "playerId":
      return `appeals ${s.value} is a party to`;
    case "partnership":
      return `appeals of ${s.value.firstPlayerId} and ${s.value.secondPlayerId}`;
    case "tableId":
      return `appeals on deals at table ${s.value}`;
    case "appealId":
      return `appeal ${s.value}`;
    default:
      return "?";
  }
}

function Conflicts({ conflicts, roster, act }: { conflicts: DeclaredConflict[]; roster: RosterEntry[]; act: Act }) {
  const members = [...new Set(roster.map((r) => r.memberId))];
  const [member, setMember] = useState("");
  const [kind, setKind] = useState<SubjectKind>("playerId");
  const [first, setFirst] = useState("");
  const [second, setSecond] = useState("");
  const [reason, setReason] = useState("");
  const chosen = member || members[0] || "";
  const subject =
    kind === "partnership"
      ? { case: "partnership" as const, value: { firstPlayerId: first.trim(), secondPlayerId: second.trim() } }
      : { case: kind, value: first.trim() };
  return (
    <section class="card" aria-labelledby="conflicts-title">
      <h2 id="conflicts-title">Conflicts</h2>
      {conflicts.length === 0 ? (
        <p>No conflict is declared.</p>
      ) : (
        <ul class="people">
          {conflicts.map((c) => (
            <li key={c.conflictId} data-conflict={c.memberId}>
              <span class="person">
                {who(c.memberId)} does not hear {subjectText(c)}
              </span>
              <span class="state">
                {c.reason}; declared by {who(c.declaredBy)}, {when(c.declaredAt)}
              </span>
              <button
                type="button"
                class="quiet small"
                onClick={() =>
                  void act(async () => {
                    await appeals().withdrawConflict({ conflictId: c.conflictId });
                    return `${who(c.memberId)}'s conflict is withdrawn.`;
                  })
                }
              >
                Withdraw {who(c.memberId)}'s conflict
              </button>
            </li>
          ))}
        </ul>
      )}
      {members.length > 0 && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(async () => {
              await appeals().declareConflict({ conflict: { memberId: chosen, subject, reason: reason.trim() }, idempotencyKey: idempotencyKey() });
              setFirst("");
              setSecond("");
              setReason("");
              return `${who(chosen)} will not be named to a hearing of ${kind === "partnership" ? "that partnership's" : "those"} appeals.`;
            });
          }}
        >
          <label>
            The member
            <select name="conflict-member" value={chosen} onChange={(e) => setMember(e.currentTarget.value)}>
              {members.map((m) => (
                <option key={m} value={m}>
                  {who(m)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Conflicted for
            <select name="conflict-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as SubjectKind)}>
              {SUBJECTS.map((s) => (
                <option key={s.kind} value={s.kind}>
                  {s.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            {kind === "partnership" ? "One player" : kind === "tableId" ? "The table id" : kind === "appealId" ? "The appeal id" : "The player"}
            <input name="conflict-subject" value={first} onInput={(e) => setFirst(e.currentTarget.value)} required autocapitalize="none" spellcheck={false} />
          </label>
          {kind === "partnership" && (
            <label>
              The other
              <input name="conflict-second" value={second} onInput={(e) => setSecond(e.currentTarget.value)} required autocapitalize="none" spellcheck={false} />
            </label>
          )}
          <label>
            Why (a relative, a team-mate, a business partner)
            <input name="conflict-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} required />
          </label>
          <button type="submit">Declare the conflict</button>
        </form>
      )}
    </section>
  );
}

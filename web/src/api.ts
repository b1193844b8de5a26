// The club's services as the screens reach them: grpc-web at the page's own origin (bridge-club
// serves the screens and the services on one port), with the signed-in person's token, refreshed
// before it expires (docs/clients.md).

import { type Client, clubTransport, createClient, errorDetails } from "@bridgeclub/client";
import { AppealsService } from "@bridgeclub/client/gen/bridgeclub/appeals/v1/appeals_service_pb.js";
import { Role } from "@bridgeclub/client/gen/bridgeclub/common/v1/auth_pb.js";
import { GameService } from "@bridgeclub/client/gen/bridgeclub/game/v1/game_service_pb.js";
import { MembershipService } from "@bridgeclub/client/gen/bridgeclub/membership/v1/membership_service_pb.js";
import { type SignedIn, SignInService } from "@bridgeclub/client/gen/bridgeclub/membership/v1/signin_pb.js";
import { ScoringService } from "@bridgeclub/client/gen/bridgeclub/scoring/v1/scoring_service_pb.js";
import type { DescService } from "@bufbuild/protobuf";

export { Role };

/** What the screens keep of a sign-in: enough to call, refresh, and say who is signed in. */
export interface Session {
  accessToken: string;
  refreshToken: string;
  /** When the access token expires, in ms since the epoch. */
  expiresAt: number;
  /** A member's player id, or `staff:<account>`. */
  subject: string;
  roles: Role[];
}

// Per tab (sessionStorage), so that one browser can hold the desk in one tab and a member in another.
const KEY = "bridgeclub.session";

export function loadSession(): Session | undefined {
  const text = sessionStorage.getItem(KEY);
  return text ? (JSON.parse(text) as Session) : undefined;
}

function saveSession(session: Session | undefined) {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}

function toSession(signedIn: SignedIn | undefined): Session {
  if (!signedIn) throw new Error("the server answered without tokens");
  const expires = signedIn.accessExpiresAt;
  return {
    accessToken: signedIn.accessToken,
    refreshToken: signedIn.refreshToken,
    expiresAt: expires ? Number(expires.seconds) * 1000 : Date.now() + 10 * 60_000,
    subject: signedIn.subject,
    roles: signedIn.roles,
  };
}

const open = clubTransport({ baseUrl: location.origin });
const signIn = createClient(SignInService, open);

/** Staff: account name and password. */
export async function signInStaff(name: string, password: string): Promise<Session> {
  const session = toSession((await signIn.signIn({ name, password })).signedIn);
  saveSession(session);
  return session;
}

/** A member: the one-time code the desk gave him. */
export async function redeemCode(code: string): Promise<Session> {
  const session = toSession((await signIn.redeemCode({ code: code.trim() })).signedIn);
  saveSession(session);
  return session;
}

export function signOut() {
  saveSession(undefined);
}

// One refresh at a time: a refresh token works once, so two calls racing to refresh would end the
// session (docs/clients.md).
let refreshing: Promise<Session> | undefined;

/** The current access token, refreshed first if it expires within a minute. */
async function token(): Promise<string> {
  const session = loadSession();
  if (!session) throw new Error("not signed in");
  if (session.expiresAt - Date.now() > 60_000) return session.accessToken;
  refreshing ??= signIn
    .refresh({ refreshToken: session.refreshToken })
    .then((answer) => {
      const next = toSession(answer.signedIn);
      saveSession(next);
      return next;
    })
    .finally(() => {
      refreshing = undefined;
    });
  return (await refreshing).accessToken;
}

const transport = clubTransport({ baseUrl: location.origin, token });
const clients = new Map<DescService, unknown>();
function client<S extends DescService>(service: S): Client<S> {
  if (!clients.has(service)) clients.set(service, createClient(service, transport));
  return clients.get(service) as Client<S>;
}

export const membership = () => client(MembershipService);
export const game = () => client(GameService);
export const scoring = () => client(ScoringService);
export const accounts = () => client(SignInService);
export const appeals = () => client(AppealsService);

/** A refusal as people read it: the server's message, and the Law it cites. */
export function explain(error: unknown): string {
  const details = errorDetails(error);
  return details.law ? `${details.message} (${details.law})` : details.message;
}

/** A key for a command, so that a repeat (a double tap, a retry) is answered, not done twice. */
export function idempotencyKey(): string {
  // crypto.randomUUID needs a secure context; a phone on the club's Wi-Fi may reach the server over
  // plain http at a LAN address, where getRandomValues still works.
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Every page of a listing, in order: `page` reads one from its token and names the next. */
export async function allPages<T>(page: (token: string) => Promise<{ items: T[]; next: string }>): Promise<T[]> {
  const items: T[] = [];
  let token = "";
  do {
    const answer = await page(token);
    items.push(...answer.items);
    token = answer.next;
  } while (token);
  return items;
}

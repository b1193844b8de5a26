// A real bridge-club for the tests: started in a temporary directory of its own on a free port,
// with the embedded default (SQLite, in-process live state, a local signing key), and stopped and
// removed afterwards.
//
// On its first start it makes the administrator `admin` and prints his password once; `Club`
// reads it from that output, and the tests sign in with it: every token they use comes from the
// server's SignInService, none is minted.
//
// The binary comes from BRIDGE_BIN_DIR (a directory holding bridge-club); without it, from the
// cargo target directory ($CARGO_TARGET_DIR, or target/ at the repository's root), the release
// build if it has one, else the debug build `cargo test --workspace` leaves.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root: this file runs from services/clients/typescript/dist/test. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../..");

/** The directory holding bridge-club. */
export function binDir(): string {
  const has = (dir: string) => existsSync(join(dir, "bridge-club"));
  const configured = process.env.BRIDGE_BIN_DIR;
  if (configured) {
    const dir = resolve(root, configured);
    if (!has(dir)) throw new Error(`BRIDGE_BIN_DIR=${configured}: no bridge-club in ${dir}`);
    return dir;
  }
  const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
  for (const profile of ["release", "debug"]) {
    if (has(join(target, profile))) return join(target, profile);
  }
  throw new Error(
    `no bridge-club in ${target}/release or ${target}/debug: build it ` +
      "(cargo build --release --bin bridge-club) or set BRIDGE_BIN_DIR",
  );
}

/** A staff account's name and password. */
export interface Credentials {
  name: string;
  password: string;
}

/**
 * The administrator a first start makes, as bridge-club prints him once (services/club/src/lib.rs,
 * `first_start_notice`): `created the administrator account "admin" with the password`, the
 * password on a line of its own, then `(shown this once)`.
 */
const FIRST_ADMINISTRATOR = /created the administrator account "([^"]+)" with the password\s+(\S+)\s+\(shown this once\)/;

/** The environment the binaries run with: this one, less anything that would point them elsewhere. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith("BRIDGE_") || key.startsWith("OTEL_")) continue;
    if (key === "DATABASE_URL" || key === "REDIS_URL") continue;
    env[key] = value;
  }
  return env;
}

/** Servers still running, stopped if the test process exits without stopping them. */
const running = new Set<{ process: ChildProcess; dir: string }>();
process.on("exit", () => {
  for (const { process: child, dir } of running) {
    child.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A running bridge-club. */
export class Club {
  private constructor(
    /** Where it serves grpc-web, e.g. `http://127.0.0.1:40123`. */
    readonly baseUrl: string,
    /** Its working directory: its database and key file. */
    readonly dir: string,
    /** The administrator it made on this, its first start, with the password it printed. */
    readonly administrator: Credentials,
    private readonly process: ChildProcess,
    private readonly output: () => string,
  ) {}

  /**
   * Starts bridge-club on a free port in a new temporary directory, and reads from what it prints
   * where it serves and the first administrator's password.
   */
  static async start(): Promise<Club> {
    const bin = binDir();
    const dir = mkdtempSync(join(tmpdir(), "bridge-club-ts-"));
    const env = { ...cleanEnv(), BRIDGE_LISTEN: "127.0.0.1:0", RUST_LOG: "warn" };
    const child = spawn(join(bin, "bridge-club"), [], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    const entry = { process: child, dir };
    running.add(entry);
    let output = "";
    const started = await new Promise<{ address: string; administrator: Credentials }>((resolveStart, reject) => {
      const timer = setTimeout(
        () => fail(new Error("bridge-club did not say where it serves and who its administrator is within 60 s")),
        60_000,
      );
      const fail = (error: Error) => {
        clearTimeout(timer);
        child.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
        running.delete(entry);
        reject(new Error(`${error.message}\n${output}`));
      };
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const serving = /serving every service on (\S+)/.exec(output);
        const administrator = FIRST_ADMINISTRATOR.exec(output);
        if (serving && administrator) {
          clearTimeout(timer);
          resolveStart({ address: serving[1], administrator: { name: administrator[1], password: administrator[2] } });
        }
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.on("error", fail);
      child.on("exit", (code, signal) => fail(new Error(`bridge-club exited (${code ?? signal}) before serving`)));
    });
    child.removeAllListeners("exit");
    child.once("exit", () => running.delete(entry));
    // bridge-club names itself by its URL (http://, or https:// with TLS); older builds by address.
    const baseUrl = /^https?:\/\//.test(started.address) ? started.address : `http://${started.address}`;
    return new Club(baseUrl, dir, started.administrator, child, () => output);
  }

  /** What the server printed so far (for a failing test's message). */
  log(): string {
    return this.output();
  }

  /** Stops the server (SIGTERM, then SIGKILL after 5 s) and removes its directory. */
  async stop(): Promise<void> {
    const child = this.process;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child.once("exit", () => done()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

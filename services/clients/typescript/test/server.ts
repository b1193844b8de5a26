// A real bridge-club for the tests: started in a temporary directory of its own on a free port,
// with the embedded default (SQLite, in-process live state, a local signing key), and stopped and
// removed afterwards.
//
// The binaries come from BRIDGE_BIN_DIR (a directory holding bridge-club and bridgectl); without
// it, from the cargo target directory ($CARGO_TARGET_DIR, or target/ at the repository's root),
// the release build if it has both, else the debug build `cargo test --workspace` leaves.

import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository's root: this file runs from services/clients/typescript/dist/test. */
const root = resolve(dirname(fileURLToPath(import.meta.url)), "../../../../..");

/** The directory holding bridge-club and bridgectl. */
export function binDir(): string {
  const has = (dir: string) => existsSync(join(dir, "bridge-club")) && existsSync(join(dir, "bridgectl"));
  const configured = process.env.BRIDGE_BIN_DIR;
  if (configured) {
    const dir = resolve(root, configured);
    if (!has(dir)) throw new Error(`BRIDGE_BIN_DIR=${configured}: no bridge-club and bridgectl in ${dir}`);
    return dir;
  }
  const target = resolve(root, process.env.CARGO_TARGET_DIR ?? "target");
  for (const profile of ["release", "debug"]) {
    if (has(join(target, profile))) return join(target, profile);
  }
  throw new Error(
    `no bridge-club and bridgectl in ${target}/release or ${target}/debug: build them ` +
      "(cargo build --release --bin bridge-club --bin bridgectl) or set BRIDGE_BIN_DIR",
  );
}

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

/** A running bridge-club. */
export class Club {
  private constructor(
    /** Where it serves grpc-web, e.g. `http://127.0.0.1:40123`. */
    readonly baseUrl: string,
    /** Its working directory: its database and key file. */
    readonly dir: string,
    private readonly bin: string,
    private readonly process: ChildProcess,
    private readonly output: () => string,
  ) {}

  /** Starts bridge-club on a free port in a new temporary directory. */
  static async start(): Promise<Club> {
    const bin = binDir();
    const dir = mkdtempSync(join(tmpdir(), "bridge-club-ts-"));
    const env = { ...cleanEnv(), BRIDGE_LISTEN: "127.0.0.1:0", RUST_LOG: "warn" };
    const child = spawn(join(bin, "bridge-club"), [], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const address = await new Promise<string>((resolveAddress, reject) => {
      const timer = setTimeout(() => fail(new Error("bridge-club did not say where it serves within 60 s")), 60_000);
      const fail = (error: Error) => {
        clearTimeout(timer);
        child.kill("SIGKILL");
        rmSync(dir, { recursive: true, force: true });
        reject(new Error(`${error.message}\n${output}`));
      };
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const serving = /serving every service on (\S+)/.exec(output);
        if (serving) {
          clearTimeout(timer);
          resolveAddress(serving[1]);
        }
      };
      child.stdout.on("data", read);
      child.stderr.on("data", read);
      child.on("error", fail);
      child.on("exit", (code, signal) => fail(new Error(`bridge-club exited (${code ?? signal}) before serving`)));
    });
    child.removeAllListeners("exit");
    return new Club(`http://${address}`, dir, bin, child, () => output);
  }

  /**
   * A token for `subject` with `roles`, minted with the server's own key by `bridgectl token`.
   * This is the one place the tests get a token: when sign-in lands, it signs in instead.
   */
  async token(subject: string, ...roles: string[]): Promise<string> {
    const args = ["token", "--subject", subject, ...roles.flatMap((role) => ["--role", role])];
    const { stdout } = await run(join(this.bin, "bridgectl"), args, { cwd: this.dir, env: cleanEnv() });
    const token = stdout.trim();
    if (token.split(".").length !== 3) throw new Error(`bridgectl token printed no JWT: ${stdout}`);
    return token;
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

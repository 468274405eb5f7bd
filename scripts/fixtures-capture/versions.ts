// Bridge versions as they appear in fixture folder names (`bridge-<version>`). Pure.
import { CaptureError } from "./errors.js";

/** The package whose elicitation builders the fixtures record. */
export const BRIDGE_PACKAGE = "@agentclientprotocol/claude-agent-acp";

const VERSION = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;
const FOLDER = /^bridge-(.*)$/;

/** True for an exact version such as `0.101.0` or `1.0.0-beta.2` (no range, no tag). */
export function isExactVersion(text: string): boolean {
  return VERSION.test(text);
}

/** Semver precedence of two exact versions (build metadata is not allowed in folder names). */
export function compareVersions(a: string, b: string): number {
  const pa = VERSION.exec(a);
  const pb = VERSION.exec(b);
  if (!pa || !pb) throw new Error(`not an exact version: ${pa ? b : a}`);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return Math.sign(d);
  }
  const [ra, rb] = [pa[4], pb[4]];
  if (ra === undefined || rb === undefined) return ra === rb ? 0 : ra === undefined ? 1 : -1;
  const [xa, xb] = [ra.split("."), rb.split(".")];
  for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
    const [ia, ib] = [xa[i], xb[i]];
    if (ia === undefined) return -1;
    if (ib === undefined) return 1;
    const [na, nb] = [/^\d+$/.test(ia), /^\d+$/.test(ib)];
    if (na && nb && Number(ia) !== Number(ib)) return Math.sign(Number(ia) - Number(ib));
    if (na !== nb) return na ? -1 : 1;
    if (!na && ia !== ib) return ia < ib ? -1 : 1;
  }
  return 0;
}

/** The folder a version's fixtures live in. */
export function folderOf(version: string): string {
  return `bridge-${version}`;
}

/**
 * The versions of the `bridge-*` folders among `names` (a directory listing), oldest first. A
 * `bridge-*` name that is not `bridge-<exact version>` is an error, not silently skipped: the
 * conformance tests would run against it too.
 */
export function bridgeVersions(names: readonly string[]): string[] {
  const versions: string[] = [];
  for (const name of names) {
    const m = FOLDER.exec(name);
    if (!m) continue;
    const version = m[1] ?? "";
    if (!isExactVersion(version)) throw new CaptureError(`fixture folder "${name}" is not named bridge-<exact version>`);
    versions.push(version);
  }
  return versions.sort(compareVersions);
}

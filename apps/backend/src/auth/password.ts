// Password hashing with scrypt from node:crypto: memory-hard (N=2^15, r=8 -> 32 MiB per hash), no
// native dependency to build or pin (the board already compiles better-sqlite3 from source; an
// argon2 binding would be a second one), and comparisons in constant time.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

const KEY_LENGTH = 32;
const SALT_BYTES = 16;
/** Cost parameters of new hashes; stored in each hash, so raising them later keeps old ones valid. */
export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

function derive(password: string, salt: Buffer, params: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: 128 * params.N * params.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFC"), salt, KEY_LENGTH, options, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

/** `scrypt$N$r$p$<salt b64>$<hash b64>`. */
export async function hashPassword(password: string, params: { N: number; r: number; p: number } = SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64"), key.toString("base64")].join("$");
}

/** True when `password` matches `stored` (a {@link hashPassword} result); false for any malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (![N, r, p].every((n) => Number.isInteger(n) && n > 0)) return false;
  const salt = Buffer.from(parts[4]!, "base64");
  const expected = Buffer.from(parts[5]!, "base64");
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, salt, { N, r, p });
  return timingSafeEqual(actual, expected);
}

let dummy: Promise<string> | null = null;
/**
 * Spends the same work as a real check, for a login naming no account: a wrong name and a wrong
 * password then take the same time, so timing does not tell which names exist.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummy ??= hashPassword("kandev-no-such-user-password");
  await verifyPassword(password, await dummy);
  return false;
}

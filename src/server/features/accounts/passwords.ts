import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { inPasswordWorkTurn } from '../../throttle/password-work.ts';

// Algorithm is an ambient const enum, which isolated modules cannot read: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm.Argon2id;

// OWASP's argon2id baseline (19 MiB, 2 passes, 1 lane): ~20-30 ms on our 2 cores.
const HASH_OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Every hash and check takes its turn (decision 040): a burst of them leaves a core free.
export function hashPassword(password: string): Promise<string> {
  return inPasswordWorkTurn(() => hash(password, HASH_OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await inPasswordWorkTurn(() => verify(passwordHash, password));
  } catch {
    return false; // a malformed stored hash is a failed login, not a crash
  }
}

/**
 * Verifying against this when the account does not exist makes a failed login
 * take as long as a wrong password, so timing does not reveal who has an account.
 */
let decoyHash: Promise<string> | undefined;
export async function spendPasswordCheckTime(password: string): Promise<void> {
  decoyHash ??= hashPassword('decoy password that matches no account');
  await verifyPassword(await decoyHash, password);
}

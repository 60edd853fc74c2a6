import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { RosterImportCredential } from '#shared/roster-import';

/**
 * Generated passwords wait in the database between the import's end and their one read
 * (decision 034). Sealed with a key derived from the server's secret (AES-256-GCM), so a
 * backup or a dump taken meanwhile holds no usable password; every instance shares the secret.
 */
export function credentialSeal(secret: string) {
  const key = Buffer.from(hkdfSync('sha256', secret, 'studyhall', 'roster-import credentials', 32));
  return {
    seal(credentials: RosterImportCredential[]): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const sealed = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64');
    },
    open(sealed: string): RosterImportCredential[] {
      const bytes = Buffer.from(sealed, 'base64');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, 12));
      decipher.setAuthTag(bytes.subarray(12, 28));
      const plain = Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as RosterImportCredential[];
    },
  };
}

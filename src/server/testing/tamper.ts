/**
 * Tests only: a signed token (a JWT) with its signature changed for certain. Replacing the last
 * characters with fixed ones ("…AA") leaves it valid when the signature already ended so, about
 * one run in a thousand; a character flipped to another in the signature's middle never does
 * (and stays canonical base64url, so it is refused for its signature, not its format).
 */
export function withForgedSignature(token: string): string {
  const signatureStart = token.lastIndexOf('.') + 1;
  const at = signatureStart + Math.floor((token.length - signatureStart) / 2);
  const flipped = token[at] === 'A' ? 'B' : 'A';
  return `${token.slice(0, at)}${flipped}${token.slice(at + 1)}`;
}

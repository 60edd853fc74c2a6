/** The cookies of a `Cookie` header (or `document.cookie`), by name, their values as sent. */
export function cookiesOf(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const pair of (header ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
  }
  return cookies;
}

/** The value of the cookie `name`, decoded, if set and readable. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  const value = cookiesOf(header).get(name);
  if (value === undefined) return undefined;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined; // a malformed escape (`%zz`) is no choice, not a failed page
  }
}

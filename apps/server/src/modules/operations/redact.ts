/**
 * The redaction pass every line of script output (and its result) goes through before it is stored or
 * sent: known secret values of this process (settings named like a password, token, secret or key, at
 * least 6 characters) and patterns (the password of a connection string, bearer tokens, name=value
 * pairs of secret-looking names, PEM private keys, 64-hex private keys) become ***.
 */
const SECRET_NAME = /(PASSWORD|PASSWD|SECRET|TOKEN|PRIVATE|KEY|CREDENTIAL)/i;

export function knownSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const out = new Set<string>();
  for (const [k, v] of Object.entries(env)) {
    if (!v || v.length < 6) continue;
    if (SECRET_NAME.test(k)) out.add(v);
    // The password inside a connection string setting (DATABASE_URL and the like).
    const m = /^[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:([^@\s]+)@/i.exec(v);
    if (m?.[1] && m[1].length >= 4) out.add(m[1]);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

const PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, '***'],
  [/\b([a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s]+@/gi, '$1***@'],
  [/\b(bearer\s+)[A-Za-z0-9._~+/=-]{8,}/gi, '$1***'],
  [/\b([A-Za-z0-9_.-]*(?:password|passwd|secret|token|private[_-]?key|api[_-]?key|access[_-]?key)[A-Za-z0-9_.-]*\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)/gi, '$1***'],
  [/\b[0-9a-fA-F]{64}\b/g, '***'],
];

export function redactText(line: string, secrets: readonly string[] = knownSecrets()): string {
  let s = line;
  for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join('***');
  for (const [re, to] of PATTERNS) s = s.replace(re, to);
  return s;
}

/** Redacts every string inside a JSON value (a run's result). */
export function redactValue<T>(v: T, secrets: readonly string[] = knownSecrets()): T {
  if (typeof v === 'string') return redactText(v, secrets) as T;
  if (Array.isArray(v)) return v.map((x) => redactValue(x, secrets)) as T;
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, redactValue(x, secrets)])) as T;
  return v;
}

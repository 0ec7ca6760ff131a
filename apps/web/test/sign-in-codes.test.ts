import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@dau/domain';
import { SIGN_IN_CODES } from '../src/kit/signInCodes';

/**
 * The sign-in page downloads only the messages of SIGN_IN_CODES (the rest come with the shell): every
 * message code a file of the public pages' path names (the sign-in, register, maintenance and password
 * pages, the kit they stand on, the app's start files, the domain's validators they call) must be among them,
 * or that page would show the bare code.
 */
const WEB = path.resolve(import.meta.dirname, '../src');
const DOMAIN = path.resolve(import.meta.dirname, '../../../packages/domain/src');

const filesOf = (dir: string, keep: (name: string) => boolean) =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && keep(e.name))
    .map((e) => path.join(dir, e.name));

const SIGN_IN_PATH = [
  ...filesOf(path.join(WEB, 'pages/auth'), () => true),
  ...filesOf(path.join(WEB, 'kit'), () => true),
  ...filesOf(path.join(WEB, 'app'), () => true),
  ...filesOf(WEB, (n) => n === 'main.tsx' || n === 'App.tsx'),
  path.join(DOMAIN, 'validation.ts'),
];

describe('the messages of the sign-in page', () => {
  it('are codes of the catalogue', () => {
    expect(SIGN_IN_CODES.filter((c) => !(c in MESSAGES))).toEqual([]);
  });

  it('hold every code a file of the public pages names', () => {
    const listed = new Set<string>(SIGN_IN_CODES);
    const missing: string[] = [];
    for (const file of SIGN_IN_PATH) {
      for (const [, code] of fs.readFileSync(file, 'utf8').matchAll(/['"`]([A-Z][A-Z0-9_]{2,})['"`]/g)) {
        if (code in MESSAGES && !listed.has(code)) missing.push(`${path.relative(WEB, file)}: ${code}`);
      }
    }
    expect(missing).toEqual([]);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SRC, tsFiles } from './support/imports.js';

/**
 * One posting path (issue 26): bills, house entries and the bettors' balances are written by the money
 * module alone (modules/money: `post`, `postBatch`, `houseTransfer`, `insertHouseEntries`, and
 * `cashMovementCtes` for a hot path that must move money inside its own statement). Any other file of the
 * server that writes them fails here. (The casino's group commit still has the movement in its SQL
 * function, migration 0027: migrations are not read here.)
 */
const WRITES = [
  /\binsert\(\s*(bills|houseEntries)\s*\)/,
  /\bINSERT\s+INTO\s+(bills|house_entries)\b/i,
  /\b(cash|credit)_balance\s*=\s*(?!=)/,
  /\bupdate\(\s*bettors\s*\)\s*\.set\(\s*\{[^}]*\b(cashBalance|creditBalance)\b/s,
];
const MONEY = path.join(SRC, 'modules', 'money');

function writers(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    for (const re of WRITES) {
      for (const m of text.matchAll(new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g'))) {
        found.push(`${path.relative(SRC, file)}:${text.slice(0, m.index).split('\n').length}: ${m[0].replace(/\s+/g, ' ').slice(0, 60)}`);
      }
    }
  }
  return found.sort();
}

describe('ledger writers', () => {
  it('finds the ledger\'s own writes (the patterns match what the ledger does)', () => {
    const own = writers(tsFiles(MONEY));
    expect(own.some((w) => w.includes('INSERT INTO bills'))).toBe(true);
    expect(own.some((w) => /house_entries|houseEntries/.test(w))).toBe(true);
    expect(own.some((w) => w.includes('cash_balance ='))).toBe(true);
  });

  it('no file outside modules/money writes bills, house entries or balances', () => {
    const outside = tsFiles(SRC).filter((f) => !f.startsWith(MONEY + path.sep));
    expect(writers(outside), 'move the movement to the ledger API of modules/money (money/index.ts)').toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { TronWeb } from 'tronweb';
import { isTronAddress, toBase58, toHexAddress } from '../src/modules/tron/chain-reader.js';

/**
 * The watcher's address coder (Base58Check with @scure/base, not TronWeb) gives TronWeb's answers: fresh
 * accounts both ways, and a changed character, a wrong prefix or a wrong length is not an address.
 */
describe('TRON addresses without TronWeb', () => {
  it('converts as TronWeb does, both ways', async () => {
    for (let i = 0; i < 20; i++) {
      const { address } = await TronWeb.createAccount();
      expect(toHexAddress(address.base58)).toBe(address.hex.toLowerCase());
      expect(toBase58(address.hex.toLowerCase())).toBe(address.base58);
      expect(isTronAddress(address.base58)).toBe(true);
    }
    expect(toHexAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(TronWeb.address.toHex('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t').toLowerCase());
  });

  it('refuses what is not an address', () => {
    const good = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
    const typo = good.slice(0, -1) + (good.endsWith('t') ? 'u' : 't');
    expect(TronWeb.isAddress(typo)).toBe(false);
    expect(isTronAddress(typo)).toBe(false);
    expect(() => toHexAddress(typo)).toThrow(/Not a TRON address/);
    // A valid Base58Check of bytes that are not a TRON address (Bitcoin's genesis address: prefix 0x00).
    expect(isTronAddress('1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa')).toBe(false);
    expect(isTronAddress('')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { appUpdateFor, compareAppVersions, parseAppVersion } from '../src';

describe('app versions', () => {
  it('parses dotted numbers only', () => {
    expect(parseAppVersion('1.4.2')).toEqual([1, 4, 2]);
    expect(parseAppVersion('v2')).toEqual([2]);
    for (const bad of ['', '1..2', '1.2.3.4.5', 'a.b', '1.2-beta', null]) expect(parseAppVersion(bad)).toBeNull();
  });

  it('compares part by part, missing parts being 0', () => {
    expect(compareAppVersions('1.10.0', '1.9.9')).toBe(1);
    expect(compareAppVersions('1.2', '1.2.0')).toBe(0);
    expect(compareAppVersions('1.2.0', '1.2.1')).toBe(-1);
  });

  it('forced when any newer version forces, optional when only optional ones are newer', () => {
    const v = (version: string, forceUpdate = false, versionCode = 0) => ({ version, versionCode, forceUpdate });
    const published = [v('1.0.0'), v('1.1.0', true), v('1.2.0')];
    expect(appUpdateFor('1.0.0', published)).toEqual({ latest: published[2], update: 'forced' });
    expect(appUpdateFor('1.1.0', published).update).toBe('optional');
    expect(appUpdateFor('1.2.0', published).update).toBe('none');
    expect(appUpdateFor('9.0', published).update).toBe('none');
    expect(appUpdateFor('1.0.0', []).latest).toBeNull();
  });
});

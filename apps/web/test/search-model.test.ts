import { describe, expect, it } from 'vitest';
import { moved, routeOf, shown, type SearchAnswer } from '../src/app/shell/search/model';

/** Search everywhere's dialog model (issue 29): display order, the arrows' highlight, the route a result opens. */
describe('search everywhere model', () => {
  const item = (kind: 'bettor' | 'order', id: number) => ({ kind, id, title: `${kind} ${id}`, subtitle: '', amount: null, time: null, page: kind === 'bettor' ? 'user' : 'order_detailed', params: { id: String(id) } });
  const answer: SearchAnswer = { q: 'x', groups: [{ kind: 'bettor', items: [item('bettor', 1), item('bettor', 2)] }, { kind: 'withdrawal', items: [] }, { kind: 'order', items: [item('order', 9)] }] };

  it('shows the groups that found something, results in group order', () => {
    const s = shown(answer);
    expect(s.groups.map((g) => g.kind)).toEqual(['bettor', 'order']);
    expect(s.items.map((i) => i.id)).toEqual([1, 2, 9]);
    expect(shown(undefined)).toEqual({ groups: [], items: [] });
  });

  it('the arrows wrap around the results and stay put with none', () => {
    expect(moved(0, 3, 1)).toBe(1);
    expect(moved(2, 3, 1)).toBe(0);
    expect(moved(0, 3, -1)).toBe(2);
    expect(moved(0, 0, 1)).toBe(0);
  });

  it('a result opens its page with the query the page reads', () => {
    expect(routeOf({ page: 'user', params: { id: '7', open: '7' } })).toBe('/customer/user?id=7&open=7');
    expect(routeOf({ page: 'withdraw_list', params: { serial_number: 'W1 2&3' } })).toBe('/customer/withdraw_list?serial_number=W1+2%263');
    expect(routeOf({ page: 'update_password', params: {} })).toBe('/customer/update_password');
  });
});

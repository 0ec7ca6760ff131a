/**
 * Statistics over a range of Dar es Salaam days (the history, racing and visitor statistics pages): the
 * range in the URL, its query and the page around it. Apart from ./shared.tsx so that the landing page
 * (today's statistics) does not load the range picker.
 */
import type { ReactNode } from 'react';
import { Alert, DatePicker, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import dayjs, { type Dayjs } from '../../kit/dayjs';
import { LoadError, PageHeader } from '../../resources';
import { darDay } from './shared';

/**
 * A range of Dar es Salaam days kept in the URL (`date_from`, `date_to`; the last `days` days by default), and
 * the range picker's change handler (a cleared picker goes back to the default).
 */
export function useDayRange(days = 7) {
  const [params, setParams] = useSearchParams();
  const today = darDay();
  const from = params.get('date_from') ?? darDay(Date.now() - (days - 1) * 86_400_000);
  const to = params.get('date_to') ?? today;
  const onRange = (range: [Dayjs | null, Dayjs | null] | null) => {
    const next = new URLSearchParams(params);
    if (range?.[0] && range[1]) {
      next.set('date_from', range[0].format('YYYY-MM-DD'));
      next.set('date_to', range[1].format('YYYY-MM-DD'));
    } else {
      next.delete('date_from');
      next.delete('date_to');
    }
    setParams(next, { replace: true });
  };
  return { from, to, today, onRange };
}

/**
 * A statistics answer over the range of days in the URL (useDayRange): fetched by `fetch(from, to)` under
 * the query key `[key, from, to]`, not at all while the range is empty or longer than `maxDays` (`tooLong`).
 */
export function useDayRangeQuery<T>(key: string, fetch: (from: string, to: string) => Promise<T>, opts: { maxDays?: number; refetchInterval?: number } = {}) {
  const range = useDayRange();
  const { from, to } = range;
  const days = dayjs(to).diff(dayjs(from), 'day') + 1;
  const tooLong = opts.maxDays !== undefined && days > opts.maxDays;
  const q = useQuery({
    queryKey: [key, from, to],
    queryFn: () => fetch(from, to),
    enabled: !tooLong && days >= 1,
    refetchInterval: opts.refetchInterval,
  });
  return { ...range, q, tooLong };
}

/**
 * The page of a statistics answer over a range of days: the title and description, the range picker (no
 * day after today) with the page's `actions` beside it, then a warning when the range is too long
 * (`tooLongText`), the load error with a retry, or the page's figures (`children`); `after` always follows.
 */
export function DayRangePage({ range, testId, rangeTestId, title, description, actions, tooLongText, after, children }: {
  range: ReturnType<typeof useDayRange> & { tooLong: boolean; q: { isError: boolean; error: unknown; refetch: () => unknown } };
  testId: string;
  rangeTestId: string;
  title: ReactNode;
  description: ReactNode;
  actions?: ReactNode;
  tooLongText?: ReactNode;
  after?: ReactNode;
  children: ReactNode;
}) {
  const { from, to, today, onRange, q, tooLong } = range;
  const picker = (
    <DatePicker.RangePicker
      allowClear={false}
      value={[dayjs(from), dayjs(to)]}
      onChange={(v) => onRange(v as [Dayjs | null, Dayjs | null] | null)}
      disabledDate={(day) => day.format('YYYY-MM-DD') > today}
      data-testid={rangeTestId}
    />
  );
  return (
    <div data-testid={testId}>
      <PageHeader
        title={title}
        description={description}
        extra={
          actions ? (
            <Space wrap>
              {picker}
              {actions}
            </Space>
          ) : (
            picker
          )
        }
      />
      {tooLong ? (
        <Alert type="warning" showIcon message={tooLongText} />
      ) : q.isError ? (
        <LoadError error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        children
      )}
      {after}
    </div>
  );
}

import { useMemo, useState } from 'react';
import { Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { useFeedback } from '../../resources/feedback';
import { DEFAULT_TIME_ZONE, setTimeZone, timeZone, utcOffset } from '../../kit/timeZone';

/** The zones a browser knows (IANA names), the operator's default first, and UTC (which browsers leave out of their list). */
export function zoneNames(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  // The admin's own zone is offered even when this browser lists it under another name (Asia/Calcutta).
  return [...new Set([DEFAULT_TIME_ZONE, timeZone(), 'UTC', ...all])];
}

const words = (s: string) => s.toLowerCase().replace(/[_/]+/g, ' ').replace(/\s+/g, ' ').trim();

/**
 * How well a zone answers what the operator typed, best first: 0 its name, 1 a word of it begins so, 2
 * somewhere in it, 3 its offset ("UTC+03", "+3", "-05:00"); -1 not at all. The offset is searched only
 * when the query has a sign or a digit, so "UTC" finds UTC, not every zone whose offset is written UTC±….
 */
export function zoneRank(zone: string, query: string, at: number = Date.now()): number {
  const q = words(query);
  if (!q) return 2;
  const name = words(zone);
  if (name === q || words(zone.split('/').pop()!) === q) return 0;
  if ((' ' + name).includes(' ' + q)) return 1;
  if (name.includes(q)) return 2;
  const offset = /[+\-−]?\s*\d/.exec(q);
  if (offset) {
    const [, sign = '', hours = '', minutes = ''] = /^([+\-−]?)\s*(\d{1,2})?:?(\d{2})?$/.exec(q.slice(offset.index).replace('−', '-')) ?? [];
    const own = utcOffset(zone, at); // "+03:00"
    if (hours && (!sign || own[0] === sign) && own.slice(1, 3) === hours.padStart(2, '0') && (!minutes || own.slice(4) === minutes)) return 3;
  }
  return -1;
}

/** The zones that answer a query, best first. */
export function zoneSearch(zones: readonly string[], query: string, at: number = Date.now()): string[] {
  return zones
    .map((z, i) => ({ z, i, rank: zoneRank(z, query, at) }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .map((x) => x.z);
}

/** One's own time zone (PUT /auth/preferences): every screen redraws its times in it at once. */
export function TimeZoneDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const width = useDialogWidth(520);
  const { ok, fail } = useFeedback();
  const [value, setValue] = useState(timeZone);
  const [busy, setBusy] = useState(false);
  const options = useMemo(() => zoneNames().map((z) => ({ value: z, label: `${z} (UTC${utcOffset(z)})` })), []);
  const [query, setQuery] = useState('');

  const save = async () => {
    setBusy(true);
    try {
      const answer = await api.put<{ time_zone: string }>('/auth/preferences', { time_zone: value });
      setTimeZone(answer.time_zone);
      ok();
      onClose();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('timeZone.title')}
      width={width}
      onCancel={onClose}
      onOk={() => void save()}
      okButtonProps={{ loading: busy, 'data-testid': 'time-zone-save' } as never}
      afterOpenChange={(visible) => visible && setValue(timeZone())}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('timeZone.hint')}</Typography.Paragraph>
      <Select
        showSearch={{
          filterOption: (input, option) => !!option && zoneRank(option.value, input) >= 0,
          filterSort: (a, b) => zoneRank(a.value, query) - zoneRank(b.value, query),
          onSearch: setQuery,
        }}
        style={{ width: '100%' }}
        value={value}
        onChange={setValue}
        options={options}
        aria-label={t('timeZone.field')}
        data-testid="time-zone-select"
      />
    </Modal>
  );
}

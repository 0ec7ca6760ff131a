import { useMemo, useState } from 'react';
import { Modal, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../kit/api';
import { useDialogWidth } from '../../kit/dialog';
import { useFeedback } from '../../resources/feedback';
import { DEFAULT_TIME_ZONE, setTimeZone, timeZone, utcOffset } from '../../kit/timeZone';

/** The zones a browser knows (IANA names), the operator's default first. */
function zoneNames(): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [DEFAULT_TIME_ZONE, 'UTC'];
  // The admin's own zone is offered even when this browser lists it under another name (Asia/Calcutta).
  return [...new Set([DEFAULT_TIME_ZONE, timeZone(), ...all])];
}

/** One's own time zone (PUT /auth/preferences): every screen redraws its times in it at once. */
export function TimeZoneDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const width = useDialogWidth(520);
  const { ok, fail } = useFeedback();
  const [value, setValue] = useState(timeZone);
  const [busy, setBusy] = useState(false);
  const options = useMemo(() => zoneNames().map((z) => ({ value: z, label: `${z} (UTC${utcOffset(z)})` })), []);

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
        showSearch={{ optionFilterProp: 'label' }}
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

import { useEffect, useMemo } from 'react';
import { SIGNIFICANT_EVENT_KINDS, significantEventResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { dayStartIso, zonedToday } from '../../../kit/timeZone';
import { ResourcePage, type FieldView, type ResourceView } from '../../../resources';
import { EventSummary, KindTag, TargetLink } from './shared';

/** The period the log opens on when the address names none: the last 30 days (the operator's days). */
const DEFAULT_DAYS = 30;

/**
 * Reports › Significant events (issue 30): the auditors' log of the whole book, newest first: each event's
 * kind as a tag, what happened, its money effect, who did it, and a link to its order, bettor, match,
 * withdrawal or setting. Filtered by period (the last 30 days unless another is chosen: the log reads every
 * source of the period, so an unbounded one costs what the whole history costs), kind, admin, match and
 * bettor; exported as CSV or XLSX.
 */
export default function SignificantEventsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const open = !params.get('time_from') && !params.get('time_to');
  useEffect(() => {
    if (!open) return;
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('time_from', dayStartIso(zonedToday().subtract(DEFAULT_DAYS - 1, 'day')));
        return next;
      },
      { replace: true },
    );
  }, [open, setParams]);
  const view = useMemo<ResourceView>(() => {
    const fields: FieldView[] = [];
    for (const f of significantEventResource.fields) {
      if (f.key === 'kind') {
        fields.push({ ...f, options: SIGNIFICANT_EVENT_KINDS.map((k) => ({ value: k, label: t(`audit.kind.${k}`) })), render: (v) => <KindTag kind={v} /> });
        fields.push({ key: 'summary', type: 'text', label: 'audit.field.summary', width: 360, keep: true, render: (_v, row) => <EventSummary row={row} /> });
      } else fields.push(f);
    }
    return { ...significantEventResource, fields };
  }, [t]);
  // Nothing is asked for until the period is in the address (one request, not two).
  if (open) return null;
  return <ResourcePage def={view} rowActions={(row) => <TargetLink row={row} />} detailActions={(row) => <TargetLink row={row} />} detailColumns={2} />;
}

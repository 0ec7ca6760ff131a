import { Card, Skeleton, Space, Typography } from 'antd';
import { csUserResource } from '@dau/contract/ui';
import { useTranslation } from 'react-i18next';
import { useMsg } from '../../kit/messages';
import {
  ExportButton,
  FieldValue,
  LoadError,
  NoData,
  PageHeader,
  QueryHint,
  RecordView,
  SearchForm,
  resourceTexts,
  unmetRequirement,
  useListState,
  useResourceList,
  type FieldView,
  type Row,
} from '../../resources';
import { BettorLinks } from './BettorBills';

const def = csUserResource;
const TAGS = ['disabled', 'online_status', 'risk_level', 'bet_status'];
const tagFields = def.fields.filter((f) => TAGS.includes(f.key)) as FieldView[];

/**
 * Customer service › User (spec §2): the agent types the caller's phone number ("Please enter the mobile
 * phone number of the user you want to query") and reads the user's card. Read-only.
 */
export default function CsUserPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const list = useListState(def.fields, def.defaultSort);
  const missing = unmetRequirement(def, list.filters);
  const result = useResourceList(def, list.query, { enabled: !missing });
  const texts = resourceTexts(def);
  const items = result.data?.items ?? [];

  let body;
  if (missing) body = <QueryHint>{msg(missing)}</QueryHint>;
  else if (result.isError && !result.data) body = <LoadError error={result.error} onRetry={() => void result.refetch()} />;
  else if (!result.data) body = <Skeleton active />;
  else if (!items.length) body = <NoData />;
  else
    body = (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        {result.data.total > items.length && <Typography.Text type="secondary">{t('money.csUser.more', { shown: items.length, total: result.data.total })}</Typography.Text>}
        {items.map((row) => (
          <UserCard key={String(row.id)} row={row} />
        ))}
      </Space>
    );

  return (
    <>
      <PageHeader
        title={t(texts.title)}
        description={t(texts.description)}
        extra={<ExportButton page={def.page} api={def.api} name={def.name} query={list.exportQuery} exportType={def.exportType} disabled={!!missing} />}
      />
      <SearchForm fields={def.fields} list={list} />
      <div data-testid="cs-user-result">{body}</div>
    </>
  );
}

function UserCard({ row }: { row: Row }) {
  return (
    <Card
      size="small"
      data-testid={`cs-user-${String(row.id)}`}
      title={
        <Space size={8} wrap>
          <Typography.Text strong>{String(row.phone ?? '')}</Typography.Text>
          {!!row.name && <Typography.Text type="secondary">{String(row.name)}</Typography.Text>}
          <Typography.Text type="secondary">ID {String(row.id)}</Typography.Text>
        </Space>
      }
      extra={
        <Space size={4} wrap>
          {tagFields.map((f) => (
            <FieldValue key={f.key} field={f} value={row[f.key]} row={row} />
          ))}
        </Space>
      }
    >
      <RecordView fields={def.fields} record={row} column={{ xs: 1, md: 2, xl: 3 }} />
      <div style={{ marginTop: 12 }}>
        <BettorLinks
          bettorId={row.id}
          pages={[
            { page: 'cs_bill', param: 'phone', value: row.phone },
            { page: 'cs_recharge', param: 'phone', value: row.phone },
            { page: 'cs_withdraw', param: 'phone', value: row.phone },
            { page: 'cs_activity_qualification', param: 'phone', value: row.phone },
          ]}
        />
      </div>
    </Card>
  );
}

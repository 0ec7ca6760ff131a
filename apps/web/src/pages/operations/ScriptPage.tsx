import { useEffect, useMemo, useRef, useState } from 'react';
import { CheckOutlined, FileTextOutlined, PlayCircleOutlined, RollbackOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Drawer, Empty, Flex, Form, Input, InputNumber, Modal, Select, Space, Table, Tag, Typography, type ButtonProps, type TableColumnsType } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ScriptDefRow, ScriptListAnswer, ScriptOutputAnswer, ScriptOutputLine, ScriptRunListAnswer, ScriptRunRow, ScriptTarget } from '@dau/contract/ui';
import { api, ApiFailure } from '../../kit/api';
import { useDialogWidth, useIsMobile } from '../../kit/dialog';
import { useMe } from '../../kit/auth';
import { ActionButton, formatDateTime, LoadError, useFeedback } from '../../resources';
import { OpsHeader, StateTag } from './shared';

const FINAL = new Set(['succeeded', 'failed', 'interrupted', 'withdrawn']);
const RUNS = ['operations', 'script-runs'];

/** Back-off of the output's reads after a failure: 1 s, 2 s, 4 s … at most 30 s, forever while the drawer is open. */
export const retryDelay = (failures: number) => Math.min(30_000, 1000 * 2 ** Math.max(0, failures - 1));
/** A failure that retrying cannot mend (signed out, no longer allowed, the run is gone): following stops. */
const permanent = (err: unknown) => err instanceof ApiFailure && [401, 403, 404].includes(err.status);

/**
 * A run's output, followed while it runs: asks for the lines after the last seen one every second. A
 * failed read (network, a restarting server) is retried with back-off and shown as a warning the
 * operator can cut short; only a permanent refusal stops following.
 */
function useRunOutput(id: number | null) {
  const [lines, setLines] = useState<ScriptOutputLine[]>([]);
  const [run, setRun] = useState<ScriptRunRow | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [retrying, setRetrying] = useState<{ failures: number; seconds: number; error: unknown } | null>(null);
  const retryNow = useRef<() => void>(() => {});
  useEffect(() => {
    setLines([]);
    setRun(null);
    setError(null);
    setRetrying(null);
    if (id == null) return;
    let after = 0;
    let stopped = false;
    let failures = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => void tick(), ms);
    };
    const tick = async () => {
      try {
        const a = await api.get<ScriptOutputAnswer>(`/operations/script-runs/${id}/output`, { after });
        if (stopped) return;
        failures = 0;
        setRetrying(null);
        if (a.lines.length) {
          after = a.lines[a.lines.length - 1]!.seq;
          setLines((old) => [...old, ...a.lines]);
        }
        setRun(a.run);
        // Keep reading until the run is over and a read brought nothing new.
        if (!FINAL.has(a.run.status) || a.lines.length) schedule(a.lines.length ? 200 : 1000);
      } catch (err) {
        if (stopped) return;
        if (permanent(err)) {
          setRetrying(null);
          setError(err);
          return;
        }
        failures++;
        const ms = retryDelay(failures);
        setRetrying({ failures, seconds: Math.round(ms / 1000), error: err });
        schedule(ms);
      }
    };
    retryNow.current = () => schedule(0);
    void tick();
    return () => {
      stopped = true;
      clearTimeout(timer);
      retryNow.current = () => {};
    };
  }, [id]);
  return { lines, run, error, retrying, retryNow: () => retryNow.current() };
}

function OutputDrawer({ id, name, onClose }: { id: number | null; name: string; onClose: () => void }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const { lines, run, error, retrying, retryNow } = useRunOutput(id);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    end.current?.scrollIntoView({ block: 'end' });
  }, [lines.length]);
  return (
    <Drawer open={id != null} onClose={onClose} size={mobile ? '100%' : 'large'} destroyOnHidden title={t('operations.script.outputOf', { id, name: run?.script ?? name })} data-testid="script-output-drawer">
      {error != null && <LoadError error={error} onRetry={onClose} />}
      {retrying && (
        <Alert
          data-testid="script-output-retrying"
          type="warning"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('operations.script.followLost', { seconds: retrying.seconds })}
          description={retrying.error instanceof Error ? retrying.error.message : undefined}
          action={<Button size="small" onClick={retryNow}>{t('operations.script.followRetry')}</Button>}
        />
      )}
      {run && (
        <Space wrap style={{ marginBottom: 12 }}>
          <StateTag state={run.status} text={t(`operations.script.states.${run.status}`)} testId="script-output-status" />
          {run.dry_run && <Tag>{t('operations.script.dryRun').split(' (')[0]}</Tag>}
          <Typography.Text type="secondary">{run.target_host ?? run.target}</Typography.Text>
        </Space>
      )}
      <pre
        data-testid="script-output"
        aria-live="polite"
        style={{ margin: 0, padding: 12, minHeight: 160, maxHeight: '60vh', overflow: 'auto', fontSize: 12, lineHeight: 1.5, whiteSpace: 'pre-wrap', wordBreak: 'break-word', borderRadius: 6, background: 'var(--ant-color-fill-quaternary, rgba(127,127,127,0.08))' }}
      >
        {lines.length ? lines.map((l) => `${l.line}\n`).join('') : t('operations.script.noOutput')}
        <div ref={end} />
      </pre>
      {run && !FINAL.has(run.status) && <Typography.Text type="secondary">{t('operations.script.following')}</Typography.Text>}
      {run?.result && (
        <Alert style={{ marginTop: 12 }} type="success" showIcon title={t('operations.script.result')} description={<code>{JSON.stringify(run.result)}</code>} />
      )}
      {run?.error && <Alert style={{ marginTop: 12 }} type="error" showIcon title={t('operations.script.error')} description={run.error} />}
    </Drawer>
  );
}

function RunDialog({ script, servers, onClose, onStarted }: { script: ScriptDefRow | null; servers: ScriptTarget[]; onClose: () => void; onStarted: (run: ScriptRunRow) => void }) {
  const { t } = useTranslation();
  const { fail } = useFeedback();
  const [form] = Form.useForm();
  const width = useDialogWidth(560);
  const [busy, setBusy] = useState(false);
  const dryRun = Form.useWatch('dry_run', form) as boolean | undefined;
  const up = servers;
  useEffect(() => {
    if (!script) return;
    form.resetFields();
    const defaults: Record<string, unknown> = {};
    for (const f of script.fields) if (f.default !== undefined) defaults[f.name] = f.default;
    form.setFieldsValue({ args: defaults, target: (up.find((s) => s.current) ?? up[0])?.id, dry_run: script.changes_data });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [script]);
  if (!script) return null;
  const submit = async () => {
    const v = await form.validateFields();
    const args: Record<string, unknown> = {};
    for (const [k, x] of Object.entries((v.args ?? {}) as Record<string, unknown>)) if (x !== undefined && x !== null && x !== '') args[k] = x;
    setBusy(true);
    try {
      const run = await api.post<ScriptRunRow>('/operations/script-runs', { script: script.name, args, dry_run: !!v.dry_run, target: v.target });
      onStarted(run);
    } catch (err) {
      // An argument the server refused is shown under its input; the message says the rest.
      const details = err instanceof ApiFailure && Array.isArray(err.details) ? (err.details as { field?: string; message?: string }[]) : [];
      form.setFields(details.filter((d) => d.field?.startsWith('args.')).map((d) => ({ name: ['args', d.field!.slice(5)], errors: [d.message ?? ''] })));
      fail(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={t('operations.script.runTitle', { name: script.name })} width={width} onCancel={onClose} onOk={() => void submit()} okText={t('button.run')} confirmLoading={busy} destroyOnHidden okButtonProps={{ 'data-testid': 'script-run-ok', danger: script.dangerous } as ButtonProps}>
      <Typography.Paragraph type="secondary">{t(`operations.script.about.${script.name}`, { defaultValue: '' })}</Typography.Paragraph>
      {script.dangerous && (
        // A dry run changes nothing: it starts at once, without a second administrator.
        <Alert type={dryRun ? 'info' : 'warning'} showIcon title={t(dryRun ? 'operations.script.dryNoApproval' : 'operations.script.needsApproval')} style={{ marginBottom: 12 }} data-testid="script-approval-note" />
      )}
      {!up.length && <Alert type="error" showIcon title={t('operations.script.noServer')} style={{ marginBottom: 12 }} />}
      <Form form={form} layout="vertical" data-testid="script-run-form">
        <Form.Item name="target" label={t('operations.script.target')} rules={[{ required: true }]}>
          <Select data-testid="script-target" options={up.map((s) => ({ value: s.id, label: `${s.host} · pid ${s.pid}${s.current ? ` (${t('operations.server.current')})` : ''}` }))} />
        </Form.Item>
        {!script.fields.length && <Typography.Paragraph type="secondary">{t('operations.script.noArgs')}</Typography.Paragraph>}
        {script.fields.map((f) => (
          <Form.Item
            key={f.name}
            name={['args', f.name]}
            label={t(`operations.script.arg.${f.name}`, { defaultValue: f.name })}
            rules={[{ required: f.required }, ...(f.type === 'day' ? [{ pattern: /^\d{4}-\d{2}-\d{2}$/, message: 'YYYY-MM-DD' }] : [])]}
          >
            {f.type === 'int' ? (
              <InputNumber min={f.min} max={f.max} precision={0} style={{ width: '100%' }} data-testid={`script-arg-${f.name}`} />
            ) : f.type === 'choice' ? (
              <Select options={(f.options ?? []).map((o) => ({ value: o, label: o }))} allowClear={!f.required} />
            ) : (
              <Input placeholder={f.type === 'day' ? 'YYYY-MM-DD' : undefined} maxLength={64} data-testid={`script-arg-${f.name}`} />
            )}
          </Form.Item>
        ))}
        {script.changes_data && (
          <Form.Item name="dry_run" valuePropName="checked">
            <Checkbox data-testid="script-dry-run">{t('operations.script.dryRun')}</Checkbox>
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}

/**
 * System › Scripts (`script`): the allow-listed operations (what each does, dangerous or not, whether it
 * changes data), a run dialog (target server, arguments, dry run), the runs with their state and the
 * output of a run followed live. A dangerous run waits for another admin's approval (`script:approve`).
 */
export default function ScriptPage() {
  const { t } = useTranslation();
  const { ok, fail } = useFeedback();
  const client = useQueryClient();
  const me = useMe().user_info.id;
  const [runScript, setRunScript] = useState<ScriptDefRow | null>(null);
  const [shown, setShown] = useState<{ id: number; name: string } | null>(null);
  // The scripts and the servers up to run them (read again when the run dialog opens).
  const scripts = useQuery({ queryKey: ['operations', 'scripts'], queryFn: () => api.get<ScriptListAnswer>('/operations/scripts') });
  const runs = useQuery({
    queryKey: RUNS,
    queryFn: () => api.get<ScriptRunListAnswer>('/operations/script-runs', { size: 50 }),
    refetchInterval: (query) => (query.state.data?.rows.some((r) => !FINAL.has(r.status)) ? 2_000 : 15_000),
  });

  const scriptColumns = useMemo<TableColumnsType<ScriptDefRow>>(
    () => [
      {
        key: 'name',
        title: t('operations.script.name'),
        render: (_, s) => (
          <div>
            <Space size={4} wrap>
              <Typography.Text strong code>{s.name}</Typography.Text>
              <Tag>v{s.version}</Tag>
              {s.dangerous && <Tag color="red">{t('operations.script.dangerous')}</Tag>}
              <Tag color={s.changes_data ? 'orange' : 'default'}>{t(s.changes_data ? 'operations.script.changesData' : 'operations.script.readOnly')}</Tag>
            </Space>
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {t(`operations.script.about.${s.name}`, { defaultValue: '' })}
            </Typography.Text>
          </div>
        ),
      },
      {
        key: 'run',
        title: '',
        align: 'right',
        render: (_, s) => (
          <ActionButton
            action="run"
            size="small"
            icon={<PlayCircleOutlined />}
            testId={`script-run-${s.name}`}
            onClick={() => {
              void scripts.refetch();
              setRunScript(s);
            }}
          />
        ),
      },
    ],
    [t, scripts],
  );

  const runColumns = useMemo<TableColumnsType<ScriptRunRow>>(
    () => [
      { key: 'id', title: '#', dataIndex: 'id', align: 'right' },
      { key: 'script', title: t('operations.script.name'), render: (_, r) => <Typography.Text code>{r.script} v{r.version}</Typography.Text> },
      {
        key: 'status',
        title: t('operations.script.status'),
        render: (_, r) => (
          <Space size={2}>
            <StateTag state={r.status} text={t(`operations.script.states.${r.status}`)} testId={`run-status-${r.id}`} />
            {r.dry_run && <Tag>{t('operations.script.dryRun').split(' (')[0]}</Tag>}
          </Space>
        ),
      },
      { key: 'args', title: t('operations.script.args'), render: (_, r) => <Typography.Text code style={{ fontSize: 12 }}>{JSON.stringify(r.args)}</Typography.Text> },
      { key: 'target', title: t('operations.script.target'), render: (_, r) => r.target_host ?? r.target.slice(0, 8) },
      { key: 'requested', title: t('operations.script.requested'), render: (_, r) => r.requested_by_account ?? r.requested_by },
      { key: 'approved', title: t('operations.script.approved'), render: (_, r) => r.approved_by_account ?? (r.dangerous ? '—' : '') },
      { key: 'created', title: t('operations.script.created'), render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.created_at)}</span> },
      { key: 'finished', title: t('operations.script.finished'), render: (_, r) => <span style={{ whiteSpace: 'nowrap' }}>{r.finished_at ? formatDateTime(r.finished_at) : ''}</span> },
      {
        key: 'actions',
        title: '',
        fixed: 'right',
        render: (_, r) => (
          <Space size={4}>
            <Button size="small" icon={<FileTextOutlined />} data-testid={`run-output-${r.id}`} onClick={() => setShown({ id: r.id, name: r.script })}>
              {t('operations.script.output')}
            </Button>
            {r.status === 'awaiting_approval' && r.requested_by === me && (
              <ActionButton
                action="run"
                size="small"
                icon={<RollbackOutlined />}
                testId={`run-withdraw-${r.id}`}
                confirm={t('operations.script.withdrawConfirm')}
                onClick={async () => {
                  try {
                    await api.post(`/operations/script-runs/${r.id}/withdraw`);
                    ok();
                    await client.invalidateQueries({ queryKey: RUNS });
                  } catch (err) {
                    fail(err);
                    throw err;
                  }
                }}
              >
                {t('operations.script.withdraw')}
              </ActionButton>
            )}
            {r.status === 'awaiting_approval' && r.requested_by !== me && (
              <ActionButton
                action="approve"
                size="small"
                type="primary"
                icon={<CheckOutlined />}
                testId={`run-approve-${r.id}`}
                confirm={t('operations.script.approveConfirm')}
                onClick={async () => {
                  try {
                    await api.post(`/operations/script-runs/${r.id}/approve`);
                    ok();
                    await client.invalidateQueries({ queryKey: RUNS });
                  } catch (err) {
                    fail(err);
                    throw err;
                  }
                }}
              />
            )}
          </Space>
        ),
      },
    ],
    [t, ok, fail, client, me],
  );

  return (
    <div data-testid="script-page">
      <OpsHeader page="script" onRefresh={() => void Promise.all([runs.refetch(), scripts.refetch()])} busy={runs.isFetching} />
      <Flex vertical gap={16}>
        <Card size="small" title={t('operations.script.scripts')}>
          {scripts.isError ? (
            <LoadError error={scripts.error} onRetry={() => void scripts.refetch()} />
          ) : (
            <Table<ScriptDefRow> size="small" rowKey="name" showHeader={false} columns={scriptColumns} dataSource={scripts.data?.rows ?? []} loading={scripts.isLoading} pagination={false} data-testid="script-table" />
          )}
        </Card>
        <Card size="small" title={t('operations.script.runs')}>
          <Table<ScriptRunRow>
            size="small"
            rowKey="id"
            columns={runColumns}
            dataSource={runs.data?.rows ?? []}
            loading={runs.isLoading}
            pagination={false}
            scroll={{ x: 'max-content' }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} /> }}
            data-testid="script-runs"
          />
        </Card>
      </Flex>
      <RunDialog
        script={runScript}
        servers={scripts.data?.targets ?? []}
        onClose={() => setRunScript(null)}
        onStarted={(run) => {
          setRunScript(null);
          ok();
          void client.invalidateQueries({ queryKey: RUNS });
          setShown({ id: run.id, name: run.script });
        }}
      />
      <OutputDrawer id={shown?.id ?? null} name={shown?.name ?? ''} onClose={() => setShown(null)} />
    </div>
  );
}

import { useMemo } from 'react';
import { Alert, Divider, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { casinoProviderResource, casinoSettingsResource } from '@dau/contract/ui';
import { ResourceList, SettingsCard, type FieldView } from '../../resources';
import { IpList, percentField, SecretState } from './fields';
import { usePercent } from './shared';

/**
 * Casino › Settings (`casino_config`): the casino settings card (casino on/off, limits per wallet call, the
 * RTP watch's confidence) and the game providers (name, signature kind, public key, write-only HMAC
 * secret, allowed IPs, launch URL, currency, enabled). A provider's secret is never shown: its input
 * starts empty and is sent only when something is typed ("leave empty to keep").
 */
export default function ConfigPage() {
  const { t } = useTranslation();
  const percent = usePercent();

  const settings = useMemo(() => {
    const confidence = casinoSettingsResource.fields.find((f) => f.key === 'rtp_alert_confidence')!;
    const hints: Record<string, Partial<FieldView>> = {
      casino_enabled: { help: 'casino.help.casino_enabled' },
      max_bet: { help: 'casino.help.settings_max_bet' },
      max_win: { help: 'casino.help.max_win' },
      rtp_alert_confidence: percentField(confidence, t, percent, 'casino.help.rtp_alert_confidence'),
    };
    return {
      ...casinoSettingsResource,
      title: 'casino.config.settings',
      description: 'casino.describe.casino_settings',
      fields: casinoSettingsResource.fields.map((f) => ({ ...f, label: `casino.field.${f.key}`, ...hints[f.key] })),
    };
  }, [t, percent]);

  const providers = useMemo(() => {
    const hints: Record<string, Partial<FieldView>> = {
      code: { keep: true, help: 'casino.help.code' },
      name: { keep: true },
      auth_kind: { options: [{ value: 'rsa', label: t('casino.auth_kind.rsa') }, { value: 'hmac', label: t('casino.auth_kind.hmac') }], help: 'casino.help.auth_kind' },
      public_key: { help: 'casino.help.public_key', placeholder: '-----BEGIN PUBLIC KEY-----' },
      secret: { help: 'casino.help.secret' },
      allowed_ips: { help: 'casino.help.allowed_ips', render: (v) => <IpList value={v} />, placeholder: '203.0.113.7, 198.51.100.0/24' },
      launch_url: { help: 'casino.help.launch_url', placeholder: 'https://' },
      currency: { help: 'casino.help.currency' },
    };
    const fields: FieldView[] = casinoProviderResource.fields.map((f) => ({ ...f, label: `casino.field.${f.key}`, ...hints[f.key] }));
    // Whether a secret is stored (the secret itself never leaves the server), after the signature kind.
    const at = fields.findIndex((f) => f.key === 'auth_kind') + 1;
    fields.splice(at, 0, { key: 'secret_state', type: 'text', label: 'casino.field.secret_state', table: false, render: (_v, row) => <SecretState row={row} /> });
    return { ...casinoProviderResource, title: 'casino.config.providers', description: 'casino.describe.casino_provider', fields };
  }, [t]);

  return (
    <div data-testid="casino-config">
      <SettingsCard def={settings} />
      <Divider />
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('casino.config.providers')}
      </Typography.Title>
      <Typography.Text type="secondary" style={{ display: 'block', margin: '4px 0 12px' }}>
        {t('casino.describe.casino_provider')}
      </Typography.Text>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('casino.provider.walletHint')} />
      <ResourceList def={providers} showHeader={false} detailColumns={2} detailTitle={(row) => t('casino.provider.title', { name: String(row.name ?? row.code ?? '') })} />
    </div>
  );
}

import { useMemo, useState, type ComponentType } from 'react';
import { FileSearchOutlined, FireFilled, LineChartOutlined, StarFilled } from '@ant-design/icons';
import { Button, Drawer, Image, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { casinoCategoryResource, casinoGameResource, casinoRoundResource } from '@dau/contract/ui';
import { useAccess } from '../../kit/access';
import { useIsMobile } from '../../kit/dialog';
import { ResourcePage, type FieldView, type Row } from '../../resources';
import { asChoice, asPlainChoice, categoryName, gameReportResource, kindOptions, percentField, roundFields, useCategoryChoices, useGameChoices, useProviderChoices, useReportView, userReportResource } from './fields';
import { ReportTotals } from './ReportTotals';
import { RtpChart } from './RtpChart';
import { casinoView, usePercent } from './shared';

/** Casino › Categories: names in three languages (the one in the operator's language first), icon, sort, shown. */
function CategoryScreen() {
  const { t, i18n } = useTranslation();
  const def = useMemo(
    () =>
      casinoView(casinoCategoryResource, {
        name_en: { keep: true, help: 'casino.help.name_en' },
        icon: { render: (v) => (v ? <Image src={String(v)} width={32} height={32} alt="" style={{ objectFit: 'contain' }} /> : '-'), help: 'casino.help.icon' },
        sort: { help: 'casino.help.sort' },
        shown: { keep: true },
      }),
    [],
  );
  return <ResourcePage def={def} detailTitle={(row) => t('casino.category.title', { name: categoryName(row, i18n.language) })} />;
}

/** A game's image as a small thumbnail with the hot / new flags on it. */
function GameName({ row }: { row: Row }) {
  const { t } = useTranslation();
  return (
    <Space size={8}>
      {row.image ? (
        <Image src={String(row.image)} width={36} height={36} alt="" style={{ objectFit: 'cover', borderRadius: 6 }} preview={false} />
      ) : (
        <span style={{ display: 'inline-block', width: 36, height: 36, borderRadius: 6, background: 'rgba(127,127,127,.15)' }} />
      )}
      <span>
        <Typography.Text strong>{String(row.name ?? '')}</Typography.Text>
        <span style={{ display: 'block' }}>
          {row.hot ? (
            <Tag color="volcano" icon={<FireFilled />} style={{ marginInlineEnd: 4 }} data-testid={`game-hot-${String(row.id)}`}>
              {t('casino.game.hot')}
            </Tag>
          ) : null}
          {row.is_new ? (
            <Tag color="gold" icon={<StarFilled />} data-testid={`game-new-${String(row.id)}`}>
              {t('casino.game.new')}
            </Tag>
          ) : null}
        </span>
      </span>
    </Space>
  );
}

/** Casino › Games: provider and category as choices, the kind, the theoretical RTP in %, volatility, bet limits, flags. */
function GameScreen() {
  const { t } = useTranslation();
  const percent = usePercent();
  const providers = useProviderChoices();
  const categories = useCategoryChoices();
  const [rtpOf, setRtpOf] = useState<Row | null>(null);
  const mobile = useIsMobile();
  const { can } = useAccess();
  const def = useMemo(() => {
    const rtp = casinoGameResource.fields.find((f) => f.key === 'rtp_bps')!;
    const hints: Record<string, Partial<FieldView>> = {
      provider_id: { ...asPlainChoice(providers), help: 'casino.help.provider_id' },
      game_code: { help: 'casino.help.game_code' },
      name: { keep: true, render: (_v, row) => <GameName row={row} /> },
      category_id: asChoice(categories),
      image: { help: 'casino.help.image' },
      kind: { options: kindOptions(t) },
      rtp_bps: { ...percentField(rtp, t, percent, 'casino.help.rtp_bps'), keep: true },
      volatility: { help: 'casino.help.volatility' },
      min_bet: { help: 'casino.help.min_bet' },
      max_bet: { help: 'casino.help.max_bet' },
      enabled: { keep: true },
      hot: { help: 'casino.help.hot' },
      is_new: { help: 'casino.help.is_new' },
    };
    return casinoView(casinoGameResource, hints);
  }, [t, percent, providers, categories]);
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      detailTitle={(row) => t('casino.game.title', { name: String(row.name ?? row.game_code ?? '') })}
      rowActions={
        can('casino_game')
          ? (row) => (
              <Tooltip title={t('casino.rtp.open')}>
                <Button type="text" size="small" icon={<LineChartOutlined />} aria-label={t('casino.rtp.open')} data-testid={`game-rtp-${String(row.id)}`} onClick={() => setRtpOf(row)} />
              </Tooltip>
            )
          : undefined
      }
    >
      <RtpDrawer row={rtpOf} mobile={mobile} onClose={() => setRtpOf(null)} />
    </ResourcePage>
  );
}

/** A game's RTP chart in a side drawer. */
function RtpDrawer({ row, mobile, onClose, range }: { row: Row | null; mobile: boolean; onClose(): void; range?: { from?: string; to?: string } }) {
  const { t } = useTranslation();
  const id = row ? Number(row.game_id ?? row.id) : undefined;
  return (
    <Drawer
      open={!!row}
      onClose={onClose}
      size={mobile ? '100%' : 'large'}
      destroyOnHidden
      title={row ? t('casino.rtp.drawerTitle', { game: String(row.game_name ?? row.name ?? row.game_code ?? '') }) : ''}
      data-testid="rtp-drawer"
    >
      {id ? <RtpChart gameId={id} range={range} /> : null}
    </Drawer>
  );
}

/** Opens a round on the round details screen. */
function RoundLink({ id }: { id: unknown }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { can, hasScreen } = useAccess();
  // The list's detail button, and the round details page whose route the drawer's data comes from.
  if (!hasScreen('casino_order_details') || !can('casino_order', 'detail') || !can('casino_order_details')) return null;
  return (
    <Tooltip title={t('casino.round.open')}>
      <Button
        type="text"
        size="small"
        icon={<FileSearchOutlined />}
        aria-label={t('casino.round.open')}
        data-testid={`round-open-${String(id)}`}
        onClick={() => navigate(`/customer/casino_order_details?id=${encodeURIComponent(String(id))}`, { state: { from: 'casino_order' } })}
      />
    </Tooltip>
  );
}

/** Casino › Orders: rounds with their filters (provider, game, phone, status, period) and a link to each round's wallet calls. */
function RoundScreen() {
  const providers = useProviderChoices();
  const games = useGameChoices();
  const def = useMemo(() => {
    const base = casinoView(casinoRoundResource, {}, { fetchDetail: false });
    const byKey = new Map(roundFields().map((f) => [f.key, f]));
    return {
      ...base,
      fields: base.fields.map((f) => ({
        ...byKey.get(f.key)!,
        ...(f.key === 'provider_id' ? asChoice(providers) : f.key === 'game_id' ? asChoice(games) : {}),
      })),
    };
  }, [providers, games]);
  const { t } = useTranslation();
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      detailTitle={(row) => t('casino.round.title', { ref: String(row.round_ref ?? row.id) })}
      detailActions={(row) => <RoundLink id={row.id} />}
      rowActions={(row) => <RoundLink id={row.id} />}
      pollInterval={() => 15_000}
    />
  );
}

/** A report screen (casino_game / casino_user): the declaration's list with the totals over the same filters above it. */
function ReportScreen({ kind }: { kind: 'games' | 'bettors' }) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const def = useReportView(kind === 'games' ? gameReportResource : userReportResource);
  const [rtpOf, setRtpOf] = useState<Row | null>(null);
  return (
    <ResourcePage
      def={def}
      detailColumns={2}
      intro={<ReportTotals api={def.api} kind={kind} />}
      rowActions={
        kind === 'games'
          ? (row) => (
              <Tooltip title={t('casino.rtp.open')}>
                <Button type="text" size="small" icon={<LineChartOutlined />} aria-label={t('casino.rtp.open')} data-testid={`rtp-open-${String(row.game_id)}`} onClick={() => setRtpOf(row)} />
              </Tooltip>
            )
          : undefined
      }
      detailExtra={kind === 'games' ? (row) => <div style={{ marginTop: 16 }}><RtpChart gameId={Number(row.game_id)} /></div> : undefined}
    >
      <RtpDrawer row={rtpOf} mobile={mobile} onClose={() => setRtpOf(null)} />
    </ResourcePage>
  );
}

/** The casino screens built from declarations (packages/contract/src/casino-resources.ts, ./fields.tsx). */
export const screens: Record<string, ComponentType> = {
  casino_classification: CategoryScreen,
  casino_list: GameScreen,
  casino_order: RoundScreen,
  casino_game: () => <ReportScreen kind="games" />,
  casino_user: () => <ReportScreen kind="bettors" />,
};

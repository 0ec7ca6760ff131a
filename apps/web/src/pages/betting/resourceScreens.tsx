import { useState, type ComponentType } from 'react';
import { ThunderboltOutlined } from '@ant-design/icons';
import {
  betConfigResource,
  betRemindResource,
  csOrderArchiveResource,
  csOrderResource,
  orderArchiveResource,
  orderListResource,
  stringRewardsResource,
} from '@dau/contract/ui';
import { ActionButton, ResourcePage, type ResourceView, type Row } from '../../resources';
import { OrderDetailButton } from './shared';
import { RandomBetDialog } from './RandomBetDialog';

/** The menu's title and the betting texts' description. */
const titled = (def: ResourceView): ResourceView => ({ ...def, title: `menu.${def.name}`, description: `betting.describe.${def.name}` });

/** GET /betting/orders/:id (and the cs one) answers `{ order, lines, history, bills, cashout }`: the drawer shows `order`. */
const orderOf = (answer: unknown): Row | undefined => (answer as { order?: Row } | null)?.order;

/**
 * An order list's declaration for the console: the drawer reloads the order where the list has a detail
 * route (orders, cs orders); the archives and the alerts have none, so their drawer shows the list's row.
 */
const orderScreen = (def: ResourceView, detailRoute: boolean): ResourceView => ({ ...titled(def), fetchDetail: detailRoute, detailOf: detailRoute ? orderOf : undefined });

/** An order list: the declaration, with a row action opening the order's detail screen. */
const orders = (def: ResourceView, detailRoute = false): ComponentType =>
  function OrderListScreen() {
    return <ResourcePage def={orderScreen(def, detailRoute)} rowActions={(row) => <OrderDetailButton row={row} listPage={def.name} />} />;
  };

/** Betting › Orders: the list, the details action and the random bets tool. */
function OrderListScreen() {
  const [open, setOpen] = useState(false);
  return (
    <ResourcePage
      def={orderScreen(orderListResource, true)}
      rowActions={(row) => <OrderDetailButton row={row} listPage="order_list" />}
      toolbar={() => (
        <ActionButton action="random_bet" page="order_list" icon={<ThunderboltOutlined />} testId="random-bet-open" onClick={() => setOpen(true)} />
      )}
    >
      <RandomBetDialog open={open} onClose={() => setOpen(false)} />
    </ResourcePage>
  );
}

/** The betting screens that are one declaration each (packages/contract/src/betting-resources.ts). */
export const screens: Record<string, ComponentType> = {
  bet_config: () => <ResourcePage def={titled(betConfigResource)} />,
  string_rewards: () => <ResourcePage def={titled(stringRewardsResource)} />,
  order_list: OrderListScreen,
  cs_order: orders(csOrderResource, true),
  order_archive: orders(orderArchiveResource),
  cs_order_archive: orders(csOrderArchiveResource),
  bet_remind: orders(betRemindResource),
};

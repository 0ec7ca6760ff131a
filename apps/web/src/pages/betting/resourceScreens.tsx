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
import { ActionButton, ResourcePage, type ResourceView } from '../../resources';
import { OrderDetailButton } from './shared';
import { RandomBetDialog } from './RandomBetDialog';

/** The menu's title and the betting texts' description. */
const titled = (def: ResourceView): ResourceView => ({ ...def, title: `menu.${def.name}`, description: `betting.describe.${def.name}` });

/** An order list: the declaration, with a row action opening the order's detail screen. */
const orders = (def: ResourceView): ComponentType =>
  function OrderListScreen() {
    return <ResourcePage def={titled(def)} rowActions={(row) => <OrderDetailButton row={row} listPage={def.name} />} />;
  };

/** Betting › Orders: the list, the details action and the random bets tool. */
function OrderListScreen() {
  const [open, setOpen] = useState(false);
  return (
    <ResourcePage
      def={titled(orderListResource)}
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
  cs_order: orders(csOrderResource),
  order_archive: orders(orderArchiveResource),
  cs_order_archive: orders(csOrderArchiveResource),
  bet_remind: orders(betRemindResource),
};

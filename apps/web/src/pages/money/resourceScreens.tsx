import type { ComponentType } from 'react';
import {
  billArchiveResource,
  billCreditArchiveResource,
  billCreditResource,
  billResource,
  csActivityQualificationResource,
  csBillResource,
  csRechargeResource,
  csWithdrawalResource,
  payConfigResource,
  rechargeArchiveResource,
  userListResource,
  withdrawalArchiveResource,
} from '@dau/contract/ui';
import { ResourcePage, type ResourceView } from '../../resources';
import { useAdminPickers } from './shared';

/** A list screen that is its declaration, with agent / administrator filters as choices. */
const list = (def: ResourceView): ComponentType =>
  function ListScreen() {
    return <ResourcePage def={useAdminPickers(def)} />;
  };

/** The money screens that are one declaration each (packages/contract/src/money-resources.ts). */
export const screens: Record<string, ComponentType> = {
  user_list: list(userListResource),
  bill: list(billResource),
  bill_credit: list(billCreditResource),
  cs_bill: list(csBillResource),
  bill_archive: list(billArchiveResource),
  bill_credit_archive: list(billCreditArchiveResource),
  cs_activity_qualification: () => <ResourcePage def={csActivityQualificationResource} />,
  cs_recharge: () => <ResourcePage def={csRechargeResource} />,
  cs_withdraw: () => <ResourcePage def={csWithdrawalResource} />,
  recharge_archive: () => <ResourcePage def={rechargeArchiveResource} />,
  withdrawal_archive: () => <ResourcePage def={withdrawalArchiveResource} />,
  // The settings record is declared by the payments module; its title is the menu's.
  pay_config: () => <ResourcePage def={{ ...payConfigResource, title: 'menu.pay_config', description: 'money.describe.pay_config' }} />,
};

import type { ReactNode } from 'react';
import {
  AppstoreOutlined,
  CrownOutlined,
  CustomerServiceOutlined,
  FireOutlined,
  FlagOutlined,
  HddOutlined,
  FileTextOutlined,
  MessageOutlined,
  SettingOutlined,
  TeamOutlined,
  TrophyOutlined,
} from '@ant-design/icons';

/** The icon names the permission catalogue uses (packages/contract/src/menu.ts), by name. */
const ICONS: Record<string, ReactNode> = {
  TrophyOutlined: <TrophyOutlined />,
  CrownOutlined: <CrownOutlined />,
  FireOutlined: <FireOutlined />,
  FlagOutlined: <FlagOutlined />,
  TeamOutlined: <TeamOutlined />,
  MessageOutlined: <MessageOutlined />,
  HddOutlined: <HddOutlined />,
  FileTextOutlined: <FileTextOutlined />,
  CustomerServiceOutlined: <CustomerServiceOutlined />,
  SettingOutlined: <SettingOutlined />,
  AppstoreOutlined: <AppstoreOutlined />,
};

export function menuIcon(name: string | null | undefined, fallback = false): ReactNode {
  if (name && ICONS[name]) return ICONS[name];
  return fallback ? ICONS.AppstoreOutlined : undefined;
}

import type { CSSProperties, ReactNode } from 'react';
import { theme } from 'antd';

/**
 * A bordered box with an optional title row, drawn like antd's small Card from the theme's tokens. antd's
 * Card imports Tabs (for its tab list) and its styles, about 14 KB gzip that the landing page does not need
 * (docs/architecture.md "What the console downloads"); the statistics screens and the bet ticker use this.
 */
export function Panel({
  title,
  children,
  bodyStyle,
  style,
  testId,
}: {
  title?: ReactNode;
  children?: ReactNode;
  bodyStyle?: CSSProperties;
  style?: CSSProperties;
  testId?: string;
}) {
  const { token } = theme.useToken();
  return (
    <div
      data-testid={testId}
      style={{
        background: token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        color: token.colorText,
        ...style,
      }}
    >
      {title && (
        <div
          style={{
            display: 'flex',
            alignItems: 'center',
            minHeight: 38,
            padding: `0 ${token.paddingSM}px`,
            borderBottom: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
            fontWeight: token.fontWeightStrong,
            fontSize: token.fontSize,
          }}
        >
          {title}
        </div>
      )}
      <div style={{ padding: token.paddingSM, ...bodyStyle }}>{children}</div>
    </div>
  );
}

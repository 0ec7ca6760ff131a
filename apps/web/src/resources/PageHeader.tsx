import type { ReactNode } from 'react';
import { Flex, Typography } from 'antd';

/** A screen's title, its one-sentence description and optional buttons on the right. */
export function PageHeader({ title, description, extra }: { title: ReactNode; description?: ReactNode; extra?: ReactNode }) {
  return (
    <Flex justify="space-between" align="flex-start" gap={12} wrap style={{ marginBottom: 16 }}>
      <div>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {description && (
          <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }}>
            {description}
          </Typography.Text>
        )}
      </div>
      {extra}
    </Flex>
  );
}

/** The declaration's title and description (default `resource.<name>.title` and `resource.<name>.description`). */
export const resourceTexts = (def: { name: string; title?: string; description?: string }) => ({
  title: def.title ?? `resource.${def.name}.title`,
  description: def.description ?? `resource.${def.name}.description`,
});

import { useRef, useState } from 'react';
import { App, Button, Flex, Input, Typography, Upload, theme } from 'antd';
import { PictureOutlined } from '@ant-design/icons';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useTranslation } from 'react-i18next';
import { api, ApiFailure } from '../../kit/api';
import type { UploadAnswer } from '../../resources';

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * An article's HTML shown as the bettor site would: in a sandboxed frame (no scripts, no forms, not of
 * this origin), so markup typed in the editor can never run in the console. The server cleans the body
 * to an allow-list on save; what the drawer shows is that cleaned body.
 */
export function ArticlePreview({ html, height = 260, title }: { html: string; height?: number; title: string }) {
  const { token } = theme.useToken();
  const style =
    `body{margin:12px;font:14px/1.6 ${token.fontFamily};color:${token.colorText};background:${token.colorBgContainer}}` +
    `img{max-width:100%;height:auto}a{color:${token.colorPrimary}}table{border-collapse:collapse}td,th{border:1px solid ${token.colorBorder};padding:4px 8px}`;
  const doc = `<!doctype html><html><head><meta charset="utf-8"><style>${style}</style></head><body>${html}</body></html>`;
  return (
    <iframe
      sandbox=""
      referrerPolicy="no-referrer"
      srcDoc={doc}
      title={title}
      data-testid="article-preview"
      style={{ width: '100%', height, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: token.borderRadius, background: token.colorBgContainer }}
    />
  );
}

interface Props {
  value?: string;
  onChange?: (v: string) => void;
  disabled?: boolean;
  maxLength?: number;
}

/**
 * The article body editor: HTML in a text area, a button that uploads a picture and inserts it where the
 * cursor is, and a live preview. (A rich-text editor was not added: the maintained small ones pull in a
 * large chunk for one screen, and the server's allow-list decides what is kept anyway.)
 */
export function ArticleBodyInput({ value = '', onChange, disabled, maxLength }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const area = useRef<TextAreaRef>(null);
  const [busy, setBusy] = useState(false);

  const insert = (snippet: string) => {
    const el = area.current?.resizableTextArea?.textArea;
    const at = el ? el.selectionStart : value.length;
    const end = el ? el.selectionEnd : value.length;
    onChange?.(value.slice(0, at) + snippet + value.slice(end));
  };

  return (
    <Flex vertical gap={8}>
      <Flex gap={8} wrap>
        <Upload
          accept="image/png,image/jpeg,image/gif,image/webp"
          showUploadList={false}
          disabled={disabled || busy}
          beforeUpload={(file) => {
            const form = new FormData();
            form.append('file', file, file.name);
            setBusy(true);
            api
              .upload<UploadAnswer>('/file/add', form)
              .then((a) => insert(`<img src="${escapeAttr(a.url)}" alt="" />`))
              .catch((e: unknown) => message.error(e instanceof ApiFailure ? e.message : t('upload.failed')))
              .finally(() => setBusy(false));
            return false;
          }}
        >
          <Button icon={<PictureOutlined />} loading={busy} disabled={disabled} data-testid="article-insert-picture">
            {t('content.body.insertPicture')}
          </Button>
        </Upload>
      </Flex>
      <Input.TextArea
        ref={area}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        disabled={disabled}
        maxLength={maxLength}
        autoSize={{ minRows: 6, maxRows: 18 }}
        style={{ fontFamily: 'monospace' }}
        aria-label={t('content.field.body')}
      />
      <Typography.Text type="secondary">{t('content.body.preview')}</Typography.Text>
      {value.trim() ? <ArticlePreview html={value} title={t('content.body.preview')} /> : <Typography.Text type="secondary">{t('content.body.empty')}</Typography.Text>}
    </Flex>
  );
}

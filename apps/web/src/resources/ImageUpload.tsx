import { useState } from 'react';
import { App, Button, Image, Space, Tooltip, Upload, theme } from 'antd';
import { ArrowLeftOutlined, DeleteOutlined, LoadingOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { IMAGES_MAX } from '@dau/contract/ui';
import { api, ApiFailure } from '../kit/api';

/** What POST /api/v1/file/add answers. */
export interface UploadAnswer {
  url: string;
  name: string;
  size: number;
  content_type: string;
}

/** The picture types the server keeps (it checks the content, this only filters the file chooser). */
const ACCEPT = 'image/png,image/jpeg,image/gif,image/webp';
const TILE = 96;

interface Props {
  /** One address (`image`) or an ordered list (`images`). */
  value?: string | readonly string[] | null;
  onChange?: (value: string | string[]) => void;
  /** An `images` field: a list of up to `max` pictures, in order. */
  multiple?: boolean;
  max?: number;
  disabled?: boolean;
  /** Accessible name of the chooser (the field's label). */
  label?: string;
}

/**
 * The input of picture fields: thumbnails with a preview, an upload tile (POST /api/v1/file/add) and, for a
 * list, moving a picture earlier and removing it. The value is the address the server answers
 * (`/uploads/<sha256>.<ext>`); a stored https address is shown the same way.
 */
export function ImageUpload({ value, onChange, multiple, max = IMAGES_MAX, disabled, label }: Props) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [busy, setBusy] = useState(0);
  const list: string[] = Array.isArray(value) ? [...(value as string[])] : typeof value === 'string' && value ? [value] : [];
  const room = multiple ? max - list.length : 1;
  const emit = (next: string[]) => onChange?.(multiple ? next : (next[next.length - 1] ?? ''));

  const send = async (file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    setBusy((n) => n + 1);
    try {
      const a = await api.upload<UploadAnswer>('/file/add', form);
      return a.url;
    } catch (e) {
      message.error(e instanceof ApiFailure ? e.message : t('upload.failed'));
      return undefined;
    } finally {
      setBusy((n) => n - 1);
    }
  };

  const tile = { width: TILE, height: TILE, borderRadius: token.borderRadius, border: `1px solid ${token.colorBorder}`, overflow: 'hidden' } as const;
  return (
    <Space wrap size={8} align="start" data-testid="image-upload">
      <Image.PreviewGroup>
        {list.map((src, i) => (
          <div key={`${src}-${i}`} style={{ ...tile, position: 'relative', background: token.colorFillQuaternary }}>
            <Image src={src} width={TILE} height={TILE} style={{ objectFit: 'cover' }} alt={`${label ?? ''} ${i + 1}`} />
            {!disabled && (
              <Space size={2} style={{ position: 'absolute', right: 2, bottom: 2 }}>
                {multiple && i > 0 && (
                  <Tooltip title={t('upload.earlier')}>
                    <Button size="small" aria-label={t('upload.earlier')} icon={<ArrowLeftOutlined />} onClick={() => emit([...list.slice(0, i - 1), src, list[i - 1]!, ...list.slice(i + 1)])} />
                  </Tooltip>
                )}
                <Tooltip title={t('upload.remove')}>
                  <Button size="small" danger aria-label={t('upload.remove')} icon={<DeleteOutlined />} onClick={() => emit(list.filter((_, j) => j !== i))} />
                </Tooltip>
              </Space>
            )}
          </div>
        ))}
      </Image.PreviewGroup>
      {!disabled && room > 0 && (
        <Upload
          accept={ACCEPT}
          multiple={!!multiple}
          showUploadList={false}
          disabled={busy > 0}
          // Each chosen file goes up on its own; the value grows as answers come back, in the order chosen.
          beforeUpload={(file, files) => {
            const chosen = files.slice(0, Math.max(room, 0));
            if (file !== chosen[chosen.length - 1]) return false;
            void (async () => {
              const urls: string[] = [];
              for (const f of chosen) {
                const url = await send(f as unknown as File);
                if (url) urls.push(url);
              }
              if (urls.length) emit(multiple ? [...list, ...urls] : urls);
            })();
            return false;
          }}
        >
          <button
            type="button"
            aria-label={label ? `${t('upload.choose')}: ${label}` : t('upload.choose')}
            style={{ ...tile, borderStyle: 'dashed', background: token.colorFillAlter, color: token.colorText, cursor: busy ? 'wait' : 'pointer', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 6 }}
          >
            {busy ? <LoadingOutlined /> : <PlusOutlined />}
            <span style={{ fontSize: 12 }}>{busy ? t('upload.uploading') : t('upload.choose')}</span>
          </button>
        </Upload>
      )}
    </Space>
  );
}

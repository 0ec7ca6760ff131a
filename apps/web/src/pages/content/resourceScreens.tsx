import { useMemo, type ComponentType } from 'react';
import { Image, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import {
  imageConfigResource, imageTextResource, imageTextTypeResource, rotationResource, rotationTypeResource, UPLOAD_TYPES,
} from '@dau/contract/ui';
import { api, type ListAnswer } from '../../kit/api';
import { useAccess } from '../../kit/access';
import { areaView, ResourcePage, type FieldView, type Option, type ResourceView, type Row } from '../../resources';
import { languageField, useLanguageChoices } from '../../resources/languageChoices';
import { ArticleBodyInput, ArticlePreview } from './ArticleBody';

/**
 * The content screens built from declarations (packages/contract/src/content-resources.ts): file storage,
 * banner groups and banners, article types and articles. Field labels are `content.field.<key>`.
 */
function contentView(def: ResourceView, hints: Record<string, Partial<FieldView>> = {}): ResourceView {
  return areaView('content', def, hints);
}

/** A type list's rows as choices (first 200), or nothing when the admin may not read it. */
function useTypeChoices(apiPath: string, page: string) {
  const { can } = useAccess();
  const q = useQuery({
    queryKey: [page, 'choices', apiPath],
    queryFn: () => api.get<ListAnswer<Row>>(apiPath, { page: 1, page_size: 200, sort: 'id' }),
    enabled: can(page),
    staleTime: 30_000,
    retry: false,
  });
  return useMemo<Option[] | undefined>(() => q.data?.items.map((r) => ({ value: Number(r.id), label: `${String(r.name)} (${String(r.code)})` })), [q.data]);
}

const asChoice = (options: Option[] | undefined, plain = false): Partial<FieldView> =>
  options
    ? { type: 'enum', options, ...(plain ? { render: (v: unknown) => <>{options.find((o) => String(o.value) === String(v))?.label ?? String(v ?? '-')}</> } : {}) }
    : {};

const uploadTypeOptions = (t: TFunction): Option[] => UPLOAD_TYPES.map((k) => ({ value: k, label: t(`content.uploadType.${k}`) }));

const thumb = (v: unknown) => (v ? <Image src={String(v)} width={64} height={36} alt="" style={{ objectFit: 'cover', borderRadius: 4 }} /> : <Typography.Text type="secondary">-</Typography.Text>);

function ImageConfigScreen() {
  const { t, i18n } = useTranslation();
  const megabytes = (v: unknown) => {
    const n = Number(v);
    if (!Number.isFinite(n)) return '-';
    const fmt = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 1 });
    return `${fmt.format(n / 1024 / 1024)} MB (${new Intl.NumberFormat(i18n.language).format(n)} B)`;
  };
  const def = useMemo(
    () =>
      contentView(imageConfigResource, {
        upload_type: { options: uploadTypeOptions(t) },
        domain: { help: 'content.help.domain', placeholder: 'https://s3.example.com' },
        save_path: { help: 'content.help.save_path' },
        max_size: { help: 'content.help.max_size', render: (v) => <>{megabytes(v)}</> },
        allowed_types: { help: 'content.help.allowed_types' },
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- megabytes follows i18n.language
    [t, i18n.language],
  );
  return <ResourcePage def={def} />;
}

function RotationTypeScreen() {
  const def = useMemo(() => contentView(rotationTypeResource, { code: { help: 'content.help.code', keep: true }, name: { keep: true } }), []);
  return <ResourcePage def={def} />;
}

function RotationScreen() {
  const types = useTypeChoices('/content/rotation_types', 'rotation_type');
  const def = useMemo(
    () =>
      contentView(rotationResource, {
        type_id: asChoice(types, true),
        picture: { keep: true, render: thumb },
        title: { keep: true },
        jump_url: { help: 'content.help.jump_url', placeholder: '/sports' },
        sort: { help: 'content.help.sort' },
        shown: { keep: true },
      }),
    [types],
  );
  return <ResourcePage def={def} />;
}

function ImageTextTypeScreen() {
  const def = useMemo(() => contentView(imageTextTypeResource, { code: { help: 'content.help.code', keep: true }, name: { keep: true } }), []);
  return <ResourcePage def={def} />;
}

function ImageTextScreen() {
  const { t } = useTranslation();
  const types = useTypeChoices('/content/image_text_types', 'image_text_type');
  const languages = useLanguageChoices();
  const def = useMemo(
    () =>
      contentView(imageTextResource, {
        type_id: asChoice(types, true),
        title: { keep: true },
        cover: { render: thumb },
        language: languageField(languages),
        body: {
          help: 'content.help.body',
          input: () => <ArticleBodyInput maxLength={imageTextResource.fields.find((f) => f.key === 'body')?.maxLength} />,
          render: (v) => <ArticlePreview html={String(v ?? '')} height={320} title={t('content.field.body')} />,
        },
        shown: { keep: true },
      }),
    [types, languages, t],
  );
  return <ResourcePage def={def} />;
}

export const screens: Record<string, ComponentType> = {
  image_config: ImageConfigScreen,
  rotation_type: RotationTypeScreen,
  rotation: RotationScreen,
  image_text_type: ImageTextTypeScreen,
  image_text: ImageTextScreen,
};

import { Button, Result } from 'antd';
import { ToolOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useMsg } from '../../kit/messages';
import { AuthLayout } from './AuthLayout';

/** /maintain (spec §2): the site is under maintenance; recovery is announced in the group chat. */
export default function MaintainPage() {
  const { t } = useTranslation();
  const msg = useMsg();
  const navigate = useNavigate();
  return (
    <AuthLayout title={t('maintain.title')} width={520}>
      <div data-testid="maintain">
        <Result
          icon={<ToolOutlined />}
          title={t('maintain.title')}
          subTitle={msg('MAINTENANCE')}
          extra={<Button onClick={() => navigate('/admin_login')}>{t('maintain.tryAgain')}</Button>}
        />
      </div>
    </AuthLayout>
  );
}

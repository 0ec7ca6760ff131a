import type { Shape } from '../shape';
import type en from '../en-US/providers';

/** 移动支付服务商页面文本（第 28 号需求）。 */
const providers: Shape<typeof en> = {
  providers: {
    describe: '各移动支付服务商的 API 地址、设置、已保存的凭据，以及每个网络由哪个服务商承载。新安装默认连接内置沙箱；上线只需填写服务商的地址和您的凭据。每项修改都需第二位管理员批准。',
    loadFailed: '无法加载支付服务商。',
    retry: '重试',
    none: '尚未配置支付服务商。',
    sandbox: '内置沙箱',
    production: '生产环境',
    edit: '编辑',
    baseUrl: 'API 基础地址',
    baseUrlHint: '留空则使用内置沙箱。该服务商的生产 API 通常为 {{url}}，请以合同为准。',
    baseUrlInvalid: '请输入 http 或 https 地址，或留空',
    carries: '承载网络',
    carriesNone: '当前未承载任何网络',
    settings: '设置',
    secrets: '凭据',
    stored: '已保存',
    secretKeep: '仅可写入：留空则保留已保存的值。',
    callbacks: '我方回调地址（请在服务商处登记）',
    noCallbacks: '无：该 API 在请求内直接返回结果',
    routing: '各网络的承载服务商',
    payType: '网络',
    provider: '服务商',
    save: '保存',
    saved: '已保存',
    routingSaved: '路由已保存',
    twoPeople: '修改需经第二位管理员批准后才会生效。',
    routingConfirmTitle: '确定更改这些网络的承载服务商？',
    routingConfirmLine: '{{payType}} 经由 {{provider}}',
    confirmTitle: '确定修改 {{name}} 账户？',
    confirmProduction: '付款将发往 {{url}}，使用所填凭据，涉及真实资金。',
    confirmSandbox: '付款将发往内置沙箱，不涉及真实资金。',
    editTitle: '编辑 {{name}}',
  },
};

export default providers;

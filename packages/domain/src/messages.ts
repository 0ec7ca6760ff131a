/**
 * The user-visible messages of spec §5 and §8, plus those the foundation needs (auth, permissions,
 * data scope, validation). The server answers `{ code, message }` with a code from here; the console
 * shows `message(code, locale)`. English texts are the spec's, word for word, where the spec has one.
 *
 * Parameters are written `{name}` and filled by `message(code, locale, { name: value })`.
 */
import { DEFAULT_LOCALE, isLocale, normalizeLocale, type Locale } from './locale';

type Texts = Readonly<Record<Locale, string>>;

export const MESSAGES = {
  // Generic (spec §5, §8)
  PARAM_INVALID: {
    'en-US': 'The parameter is invalid',
    'sw-KE': 'Kigezo si sahihi',
    'zh-CN': '参数无效',
  },
  LIST_TOO_DEEP: {
    'en-US': 'A list pages through its first {max} rows: narrow the filter (a shorter period, a branch, a status) or export the list for all of them',
    'sw-KE': 'Orodha inaonyesha safu {max} za kwanza tu: punguza kichujio (kipindi kifupi, tawi, hali) au hamisha orodha ili upate zote',
    'zh-CN': '列表最多可翻阅前 {max} 条记录：请缩小筛选范围（更短的时间段、分支或状态），或导出列表以获取全部记录',
  },
  NOT_FOUND: { 'en-US': 'Not found', 'sw-KE': 'Haikupatikana', 'zh-CN': '未找到' },
  CONFLICT: {
    'en-US': 'This record was changed or is in a state that does not allow this action. Refresh and try again.',
    'sw-KE': 'Rekodi hii imebadilishwa au iko katika hali isiyoruhusu kitendo hiki. Onyesha upya kisha ujaribu tena.',
    'zh-CN': '该记录已被修改或当前状态不允许此操作，请刷新后重试。',
  },
  TOO_MANY_REQUESTS: {
    'en-US': 'Too many requests. Please wait a moment and try again.',
    'sw-KE': 'Maombi ni mengi mno. Tafadhali subiri kidogo kisha ujaribu tena.',
    'zh-CN': '请求过于频繁，请稍后再试。',
  },
  INTERNAL: {
    'en-US': 'Something went wrong on the server. Please try again; if it keeps happening, contact an administrator.',
    'sw-KE': 'Hitilafu imetokea kwenye seva. Tafadhali jaribu tena; ikiendelea kutokea, wasiliana na msimamizi.',
    'zh-CN': '服务器出错了，请重试；如果问题持续出现，请联系管理员。',
  },
  RESOURCE_ERROR: {
    'en-US': 'Resource error, please contact administrator',
    'sw-KE': 'Hitilafu ya rasilimali, tafadhali wasiliana na msimamizi',
    'zh-CN': '资源错误，请联系管理员',
  },
  DATA_ABNORMAL: { 'en-US': 'Data abnormal', 'sw-KE': 'Data si ya kawaida', 'zh-CN': '数据异常' },
  WS_UNSUPPORTED: {
    'en-US': 'Sorry, the browser does not support websocket, please change the browser and try again',
    'sw-KE': 'Samahani, kivinjari hiki hakiwezi kutumia websocket, tafadhali badilisha kivinjari kisha ujaribu tena',
    'zh-CN': '抱歉，当前浏览器不支持 WebSocket，请更换浏览器后重试',
  },
  MAINTENANCE: {
    'en-US': 'The site is under maintenance. Recovery will be announced in the group chat.',
    'sw-KE': 'Tovuti iko kwenye matengenezo. Kurejea kwa huduma kutatangazwa kwenye gumzo la kikundi.',
    'zh-CN': '网站正在维护中，恢复时间将在群聊中通知。',
  },

  // Sign-in and session (spec §5)
  LOGIN_USERNAME_REQUIRED: {
    'en-US': 'Please input Username',
    'sw-KE': 'Tafadhali weka jina la mtumiaji',
    'zh-CN': '请输入用户名',
  },
  LOGIN_PASSWORD_REQUIRED: {
    'en-US': 'Please enter password',
    'sw-KE': 'Tafadhali weka nenosiri',
    'zh-CN': '请输入密码',
  },
  LOGIN_FAILED: { 'en-US': 'Login failed', 'sw-KE': 'Kuingia kumeshindikana', 'zh-CN': '登录失败' },
  GOOGLE_CODE_REQUIRED: {
    'en-US': 'Please enter the Google verification code',
    'sw-KE': 'Tafadhali weka msimbo wa uthibitisho wa Google',
    'zh-CN': '请输入谷歌验证码',
  },
  GOOGLE_CODE_INVALID: {
    'en-US': 'The Google verification code is wrong',
    'sw-KE': 'Msimbo wa uthibitisho wa Google si sahihi',
    'zh-CN': '谷歌验证码错误',
  },
  ACCOUNT_LOCKED: {
    'en-US': 'Too many failed sign-ins. The account is locked for {minutes} minute(s).',
    'sw-KE': 'Majaribio mengi ya kuingia yameshindikana. Akaunti imefungwa kwa dakika {minutes}.',
    'zh-CN': '登录失败次数过多，账号已锁定 {minutes} 分钟。',
  },
  LOGIN_CODE_FAILED: {
    'en-US': 'The password or the Google verification code is wrong',
    'sw-KE': 'Nenosiri au msimbo wa uthibitisho wa Google si sahihi',
    'zh-CN': '密码或谷歌验证码错误',
  },
  LOGIN_THROTTLED: {
    'en-US': 'Too many failed sign-ins. Please try again in {seconds} second(s).',
    'sw-KE': 'Majaribio mengi ya kuingia yameshindikana. Tafadhali jaribu tena baada ya sekunde {seconds}.',
    'zh-CN': '登录失败次数过多，请在 {seconds} 秒后重试。',
  },
  ACCOUNT_DISABLED: {
    'en-US': 'This account is disabled',
    'sw-KE': 'Akaunti hii imezimwa',
    'zh-CN': '该账号已被禁用',
  },
  ACCOUNT_EXPIRED: { 'en-US': 'This account expired on {at}', 'sw-KE': 'Akaunti hii iliisha muda {at}', 'zh-CN': '该账号已于 {at} 过期' },
  IP_BLACKLISTED: {
    'en-US': 'Access from your IP address is blocked',
    'sw-KE': 'Ufikiaji kutoka anwani yako ya IP umezuiwa',
    'zh-CN': '您的IP地址已被禁止访问',
  },
  UNAUTHORIZED: { 'en-US': 'Please sign in again', 'sw-KE': 'Tafadhali ingia tena', 'zh-CN': '请重新登录' },
  SESSION_EXPIRED: {
    'en-US': 'Your session has expired. Please sign in again.',
    'sw-KE': 'Muda wa kikao chako umekwisha. Tafadhali ingia tena.',
    'zh-CN': '登录已过期，请重新登录。',
  },
  FORBIDDEN: {
    'en-US': 'You do not have permission for this action',
    'sw-KE': 'Huna ruhusa ya kufanya kitendo hiki',
    'zh-CN': '您没有执行此操作的权限',
  },
  FORGOT_PASSWORD: {
    'en-US': 'Please contact an administrator to reset your password',
    'sw-KE': 'Tafadhali wasiliana na msimamizi ili akuwekee upya nenosiri lako',
    'zh-CN': '请联系管理员重置密码',
  },

  // Registration (spec §2, §5)
  REGISTER_DISABLED: {
    'en-US': 'Registration is disabled',
    'sw-KE': 'Usajili umezimwa',
    'zh-CN': '注册功能已关闭',
  },
  REGISTER_PASSWORDS_INCONSISTENT: {
    'en-US': 'Two passwords are inconsistent',
    'sw-KE': 'Nenosiri mbili hazilingani',
    'zh-CN': '两次密码不一致',
  },
  REGISTER_ACCOUNT_EQUALS_PASSWORD: {
    'en-US': 'The account number and password are not allowed to be the same',
    'sw-KE': 'Jina la akaunti na nenosiri haviruhusiwi kufanana',
    'zh-CN': '账号和密码不能相同',
  },
  ACCOUNT_EXISTS: {
    'en-US': 'This account already exists',
    'sw-KE': 'Akaunti hii tayari ipo',
    'zh-CN': '该账号已存在',
  },
  ACCOUNT_INVALID: {
    'en-US': 'The account must be 3 to 32 characters: letters, digits, underscore, dot or hyphen',
    'sw-KE': 'Akaunti lazima iwe na herufi 3 hadi 32: herufi, tarakimu, mstari wa chini, nukta au kistari',
    'zh-CN': '账号须为3至32个字符，只能包含字母、数字、下划线、点或连字符',
  },

  // Passwords (spec §5)
  OLD_PASSWORD_REQUIRED: {
    'en-US': 'Please enter old password',
    'sw-KE': 'Tafadhali weka nenosiri la zamani',
    'zh-CN': '请输入旧密码',
  },
  NEW_PASSWORD_REQUIRED: {
    'en-US': 'Please enter a new password',
    'sw-KE': 'Tafadhali weka nenosiri jipya',
    'zh-CN': '请输入新密码',
  },
  PASSWORDS_INCONSISTENT: {
    'en-US': 'The passwords entered twice are inconsistent, please try again.',
    'sw-KE': 'Nenosiri ulizoweka mara mbili hazilingani, tafadhali jaribu tena.',
    'zh-CN': '两次输入的密码不一致，请重新输入。',
  },
  OLD_PASSWORD_WRONG: {
    'en-US': 'The old password is wrong',
    'sw-KE': 'Nenosiri la zamani si sahihi',
    'zh-CN': '旧密码错误',
  },
  PASSWORD_TOO_WEAK: {
    'en-US': 'The password must be at least 10 characters',
    'sw-KE': 'Nenosiri lazima liwe na angalau herufi 10',
    'zh-CN': '密码长度至少为10个字符',
  },
  PASSWORD_COMMON: {
    'en-US': 'This password is among the most common passwords and is easy to guess. Please choose another one.',
    'sw-KE': 'Nenosiri hili ni miongoni mwa manenosiri yanayotumika sana na ni rahisi kukisiwa. Tafadhali chagua jingine.',
    'zh-CN': '该密码属于最常见的密码，容易被猜中，请换一个。',
  },
  PASSWORD_TOO_LONG: {
    'en-US': 'The password must be at most 128 characters',
    'sw-KE': 'Nenosiri lisizidi herufi 128',
    'zh-CN': '密码长度不能超过128个字符',
  },

  // Roles, permissions, data scope (spec §5, §6)
  ROLE_NODE_NAME_EMPTY: {
    'en-US': 'Node name cannot be empty',
    'sw-KE': 'Jina la nodi haliwezi kuwa tupu',
    'zh-CN': '节点名称不能为空',
  },
  ROLE_NAME_REQUIRED: { 'en-US': 'Fill role name', 'sw-KE': 'Jaza jina la jukumu', 'zh-CN': '请填写角色名称' },
  ROLE_IN_USE: {
    'en-US': 'This role is assigned to administrators and cannot be deleted',
    'sw-KE': 'Jukumu hili limepewa wasimamizi na haliwezi kufutwa',
    'zh-CN': '该角色已分配给管理员，无法删除',
  },
  SHARE_RATIO_INVALID: {
    'en-US': 'Please enter a number greater than or equal to 0',
    'sw-KE': 'Tafadhali weka namba iliyo kubwa kuliko au sawa na 0',
    'zh-CN': '请输入大于或等于0的数字',
  },
  CANNOT_GRANT_UNHELD: {
    'en-US': 'You cannot grant permissions you do not hold',
    'sw-KE': 'Huwezi kutoa ruhusa ambazo wewe mwenyewe huna',
    'zh-CN': '不能授予您自己没有的权限',
  },
  CANNOT_CHANGE_OWN_ROLE: {
    'en-US': 'You cannot change your own role',
    'sw-KE': 'Huwezi kubadilisha jukumu lako mwenyewe',
    'zh-CN': '不能修改自己的角色',
  },
  ROLE_NOT_OWNED: {
    'en-US': 'You can change only roles created in your branch, never your own role or a built-in one',
    'sw-KE': 'Unaweza kubadilisha majukumu yaliyoundwa katika tawi lako tu, kamwe si jukumu lako mwenyewe wala la mfumo',
    'zh-CN': '只能修改您下级范围内创建的角色，不能修改自己的角色或系统内置角色',
  },
  ROLE_HELD_OUTSIDE_BRANCH: {
    'en-US': 'Administrators outside your branch hold this role: its permissions cannot be changed from here',
    'sw-KE': 'Wasimamizi walio nje ya tawi lako wana jukumu hili: ruhusa zake haziwezi kubadilishwa hapa',
    'zh-CN': '您下级范围之外的管理员正在使用该角色，不能在此修改其权限',
  },
  SUPER_ADMIN_ONLY: {
    'en-US': 'Only the super administrator can change this setting',
    'sw-KE': 'Msimamizi mkuu pekee ndiye anayeweza kubadilisha mpangilio huu',
    'zh-CN': '只有超级管理员可以修改此设置',
  },
  OWN_RECORD_LIMITED: {
    'en-US': 'On your own record you can change only your name, phone, password and Google binding; ask your superior for the rest',
    'sw-KE': 'Kwenye rekodi yako mwenyewe unaweza kubadilisha jina, simu, nenosiri na kiungo cha Google tu; mwombe msimamizi wako mengine',
    'zh-CN': '在自己的记录上只能修改姓名、电话、密码和谷歌验证绑定，其余请联系您的上级',
  },
  SHARE_RATIO_ABOVE_OWN: {
    'en-US': 'The share ratio cannot be higher than your own ({max})',
    'sw-KE': 'Uwiano wa mgao hauwezi kuzidi wako mwenyewe ({max})',
    'zh-CN': '分成比例不能高于您自己的比例（{max}）',
  },
  OUT_OF_SCOPE: {
    'en-US': 'This record is outside your branch',
    'sw-KE': 'Rekodi hii iko nje ya tawi lako',
    'zh-CN': '该记录不在您的下级范围内',
  },

  // Files, configuration (spec §5)
  UPLOAD_LIMIT: {
    'en-US': 'File upload limit exceeded',
    'sw-KE': 'Kikomo cha kupakia faili kimepitwa',
    'zh-CN': '超出文件上传限制',
  },
  IMAGE_STORAGE_UNREACHABLE: {
    'en-US': 'The storage did not accept these settings (endpoint, bucket or keys). Nothing was changed.',
    'sw-KE': 'Hifadhi haikukubali mipangilio hii (anwani, ndoo au funguo). Hakuna kilichobadilishwa.',
    'zh-CN': '存储服务不接受这些设置（地址、存储桶或密钥），未做任何更改。',
  },
  CONTENT_TYPE_IN_USE: {
    'en-US': 'This type still has pictures or articles. Move or delete them first.',
    'sw-KE': 'Aina hii bado ina picha au makala. Zihamishe au uzifute kwanza.',
    'zh-CN': '该类型下仍有图片或文章，请先移走或删除。',
  },
  CONTENT_CODE_EXISTS: {
    'en-US': 'This code is already used by another type',
    'sw-KE': 'Msimbo huu tayari unatumiwa na aina nyingine',
    'zh-CN': '该编码已被其他类型使用',
  },
  CONTENT_LANGUAGE_UNKNOWN: {
    'en-US': 'This language is not in the language list',
    'sw-KE': 'Lugha hii haimo kwenye orodha ya lugha',
    'zh-CN': '该语言不在语言列表中',
  },
  LOG_TYPE_PROTECTED: {
    'en-US': 'This log type is part of the audit trail and cannot be switched off',
    'sw-KE': 'Aina hii ya kumbukumbu ni sehemu ya ukaguzi na haiwezi kuzimwa',
    'zh-CN': '该日志类型属于审计记录，不能关闭',
  },
  EXPORT_READY: {
    'en-US': 'Your export #{id} ({type}) is ready: {rows} rows. Download it from Export jobs.',
    'sw-KE': 'Uhamishaji wako #{id} ({type}) uko tayari: safu {rows}. Upakue kutoka Kazi za uhamishaji.',
    'zh-CN': '您的导出任务 #{id}（{type}）已完成，共 {rows} 行，请到导出任务中下载。',
  },
  EXPORT_FAILED: {
    'en-US': 'Your export #{id} ({type}) failed: {reason}',
    'sw-KE': 'Uhamishaji wako #{id} ({type}) umeshindikana: {reason}',
    'zh-CN': '您的导出任务 #{id}（{type}）失败：{reason}',
  },
  IP_SELF_BLOCK: {
    'en-US': 'This entry would block your own IP address. Sign in from another address to add it.',
    'sw-KE': 'Ingizo hili lingezuia anwani yako ya IP. Ingia kutoka anwani nyingine ili kuliongeza.',
    'zh-CN': '该条目会封禁您当前的 IP 地址。请从其他地址登录后再添加。',
  },
  CONVERSION_FAILED: { 'en-US': 'Conversion failed', 'sw-KE': 'Ubadilishaji umeshindikana', 'zh-CN': '转换失败' },
  LOG_TYPE_UNKNOWN: {
    'en-US': 'Unknown log type',
    'sw-KE': 'Aina ya kumbukumbu haijulikani',
    'zh-CN': '未知的日志类型',
  },

  // Queries (spec §5)
  ORDER_FILTER_REQUIRED: {
    'en-US': 'Please enter at least one filter condition',
    'sw-KE': 'Tafadhali weka angalau sharti moja la kuchuja',
    'zh-CN': '请至少输入一个筛选条件',
  },
  ORDER_USER_REQUIRED: {
    'en-US': 'Please select a user or enter the order number or order id',
    'sw-KE': 'Tafadhali chagua mtumiaji au weka namba ya oda au kitambulisho cha oda',
    'zh-CN': '请选择用户，或输入订单号或订单ID',
  },
  CS_PHONE_REQUIRED: {
    'en-US': 'Please enter the mobile phone number of the user you want to query',
    'sw-KE': 'Tafadhali weka namba ya simu ya mkononi ya mtumiaji unayetaka kumtafuta',
    'zh-CN': '请输入要查询用户的手机号码',
  },
  RECHARGE_USER_REQUIRED: {
    'en-US': 'Please select the user to query',
    'sw-KE': 'Tafadhali chagua mtumiaji wa kutafuta',
    'zh-CN': '请选择要查询的用户',
  },

  // Bet slip and jackpot (spec §5)
  LIMIT_DOUBLES: {
    'en-US': 'Limit of doubles reached',
    'sw-KE': 'Kikomo cha machaguo mawili kimefikiwa',
    'zh-CN': '双选数量已达上限',
  },
  SELECT_RESULT: { 'en-US': 'Please select a result', 'sw-KE': 'Tafadhali chagua matokeo', 'zh-CN': '请选择结果' },
  TRIPLES_NOT_ALLOWED: {
    'en-US': 'Triples not allowed',
    'sw-KE': 'Machaguo matatu hayaruhusiwi',
    'zh-CN': '不允许三选',
  },
  EXCEEDED_MAX_SELECTABLE: {
    'en-US': 'exceeded maximum selectable',
    'sw-KE': 'umezidi idadi ya juu ya machaguo',
    'zh-CN': '已超出最大可选数量',
  },
  RESULTS_PER_MATCH_LIMIT: {
    'en-US': 'No more than 2 results may be chosen for the same match',
    'sw-KE': 'Huwezi kuchagua zaidi ya matokeo 2 kwa mechi moja',
    'zh-CN': '同一场比赛最多只能选择2个结果',
  },

  // Jackpot (issue 12)
  JACKPOT_BETS_CLOSED: {
    'en-US': 'Betting on this jackpot issue is closed',
    'sw-KE': 'Kubeti kwenye awamu hii ya jackpot kumefungwa',
    'zh-CN': '本期奖池投注已截止',
  },
  JACKPOT_NOT_OPEN: {
    'en-US': 'This jackpot issue is not open for betting',
    'sw-KE': 'Awamu hii ya jackpot haijafunguliwa kwa kubeti',
    'zh-CN': '本期奖池尚未开放投注',
  },
  JACKPOT_MATCHES_REQUIRED: {
    'en-US': 'A jackpot issue needs exactly 13 matches',
    'sw-KE': 'Awamu ya jackpot inahitaji mechi 13 kamili',
    'zh-CN': '每期奖池必须恰好包含 13 场比赛',
  },
  JACKPOT_TRIPLES_LIMIT: {
    'en-US': 'Limit of triples reached',
    'sw-KE': 'Kikomo cha machaguo matatu kimefikiwa',
    'zh-CN': '三选数量已达上限',
  },
  JACKPOT_RESULTS_MISSING: {
    'en-US': 'Every match needs a result before settlement',
    'sw-KE': 'Kila mechi inahitaji matokeo kabla ya kuamua awamu',
    'zh-CN': '结算前每场比赛都必须有赛果',
  },
  JACKPOT_ALREADY_SETTLED: {
    'en-US': 'This jackpot issue is already settled',
    'sw-KE': 'Awamu hii ya jackpot tayari imeamuliwa',
    'zh-CN': '本期奖池已结算',
  },
  JACKPOT_DELETED: {
    'en-US': 'This jackpot issue was deleted',
    'sw-KE': 'Awamu hii ya jackpot ilifutwa',
    'zh-CN': '本期奖池已被删除',
  },
  JACKPOT_REASON_REQUIRED: { 'en-US': 'Please give a reason', 'sw-KE': 'Tafadhali toa sababu', 'zh-CN': '请填写原因' },
  // Promotions (issue 17)
  PROMO_BUDGET_EXHAUSTED: {
    'en-US': 'The campaign budget does not cover this award',
    'sw-KE': 'Bajeti ya kampeni haitoshi kwa zawadi hii',
    'zh-CN': '活动预算不足以发放此奖励',
  },
  PROMO_ALREADY_APPROVED: {
    'en-US': 'This qualification is already approved',
    'sw-KE': 'Ustahiki huu tayari umeidhinishwa',
    'zh-CN': '该参与记录已审核通过',
  },
  PROMO_NOT_A_CAMPAIGN: {
    'en-US': 'This row belongs to no campaign: approve it from the activity participation screen with a reward',
    'sw-KE': 'Safu hii si ya kampeni yoyote: iidhinishe kwenye skrini ya ushiriki wa promosheni kwa kuweka zawadi',
    'zh-CN': '该记录不属于任何活动：请在活动参与名单中填写奖励后审核',
  },
  PROMO_RULES_INVALID: {
    'en-US': 'The rules do not fit the campaign type',
    'sw-KE': 'Masharti hayaendani na aina ya kampeni',
    'zh-CN': '活动规则与活动类型不符',
  },
  PROMO_REWARD_INVALID: {
    'en-US': 'A percentage reward needs a qualifying amount: use a fixed reward for this campaign type',
    'sw-KE': 'Zawadi ya asilimia inahitaji kiasi cha kustahiki: tumia zawadi ya kiasi maalum kwa aina hii ya kampeni',
    'zh-CN': '按比例的奖励需要有参与金额：此类活动请使用固定金额奖励',
  },
  PROMO_PERIOD_INVALID: {
    'en-US': 'The campaign must end after it starts',
    'sw-KE': 'Kampeni lazima iishe baada ya kuanza',
    'zh-CN': '活动结束时间必须晚于开始时间',
  },
  PROMO_CAMPAIGN_IN_USE: {
    'en-US': 'Bettors already qualified for this campaign: its type, rules and reward stay, and it cannot be deleted',
    'sw-KE': 'Wachezaji tayari wamestahiki kampeni hii: aina, masharti na zawadi yake haviwezi kubadilishwa, wala haiwezi kufutwa',
    'zh-CN': '已有投注用户符合此活动条件：活动类型、规则和奖励不可更改，也不能删除',
  },
  PROMO_BUDGET_BELOW_SPENT: {
    'en-US': 'The budget cannot be less than what the campaign has already spent',
    'sw-KE': 'Bajeti haiwezi kuwa chini ya kiasi ambacho kampeni imeshatumia',
    'zh-CN': '预算不能低于活动已花费的金额',
  },
  PROMO_CAMPAIGN_OVER: {
    'en-US': 'This campaign has ended',
    'sw-KE': 'Kampeni hii imekwisha',
    'zh-CN': '该活动已结束',
  },
  PROMO_CAMPAIGN_NOT_ACTIVE: {
    'en-US': 'This campaign is not active',
    'sw-KE': 'Kampeni hii haiko hai',
    'zh-CN': '该活动未在进行中',
  },
  PROMO_ALREADY_QUALIFIED: {
    'en-US': 'This bettor is already on the campaign',
    'sw-KE': 'Mchezaji huyu tayari yumo kwenye kampeni',
    'zh-CN': '该投注用户已在此活动中',
  },
  PROMO_CUSTOM_ONLY: {
    'en-US': 'Bettors are put on a campaign by hand only for custom awards',
    'sw-KE': 'Wachezaji huwekwa kwenye kampeni kwa mkono kwa zawadi maalum pekee',
    'zh-CN': '仅自定义奖励活动可以手动添加投注用户',
  },
  PROMO_GLOBAL_SUPER_ONLY: {
    'en-US': 'Only the super administrator can run a campaign for every branch',
    'sw-KE': 'Msimamizi mkuu pekee ndiye anaweza kuendesha kampeni kwa matawi yote',
    'zh-CN': '只有超级管理员可以创建适用于全部分支的活动',
  },
  PROMO_CAMPAIGN_ROW: {
    'en-US': 'This row belongs to a campaign: approve it with the campaign\'s award',
    'sw-KE': 'Safu hii ni ya kampeni: iidhinishe kwa zawadi ya kampeni',
    'zh-CN': '该记录属于促销活动：请按活动奖励审核',
  },
  PROMO_BETTOR_OUTSIDE_CAMPAIGN: {
    'en-US': 'This bettor is not in the campaign\'s branch',
    'sw-KE': 'Mchezaji huyu hayumo kwenye tawi la kampeni',
    'zh-CN': '该投注用户不在此活动的分支范围内',
  },
  PROMO_WAGERING_NOT_MET: {
    'en-US': 'A bonus is still being wagered: bet TSh {left} more (settled stakes) before withdrawing',
    'sw-KE': 'Bonasi bado inachezwa: weka dau la TSh {left} zaidi (dau zilizomalizika) kabla ya kutoa pesa',
    'zh-CN': '奖金流水尚未完成：提款前还需投注 TSh {left}（以已结算注单计）',
  },
  PROMO_PERCENT_CAP_REQUIRED: {
    'en-US': 'A percentage reward needs a cap: the most one bettor can receive from the campaign',
    'sw-KE': 'Zawadi ya asilimia inahitaji kikomo: kiasi cha juu kabisa ambacho mchezaji mmoja anaweza kupata kutoka kwenye kampeni',
    'zh-CN': '按比例的奖励必须设置上限：每位投注用户从该活动最多可获得的金额',
  },
  PROMO_AWARD_ZERO: {
    'en-US': 'This award comes to TSh 0.00: give a qualifying amount large enough for the campaign\'s percentage',
    'sw-KE': 'Zawadi hii ni TSh 0.00: weka kiasi cha kustahiki kinachotosha kwa asilimia ya kampeni',
    'zh-CN': '该奖励金额为 TSh 0.00：请填写足够的参与金额以按活动比例计算奖励',
  },
  JACKPOT_TIERS_INVALID: {
    'en-US': 'Each prize tier needs a number of hits and a percentage; the percentages add up to at most 100 %',
    'sw-KE': 'Kila daraja la zawadi linahitaji idadi ya mechi zilizopatiwa na asilimia; jumla ya asilimia isizidi 100 %',
    'zh-CN': '每个奖级都需要填写命中场数和百分比，百分比合计不得超过 100%',
  },
  JACKPOT_HAS_TICKETS: {
    'en-US': 'This jackpot issue has tickets: delete it to refund them',
    'sw-KE': 'Awamu hii ya jackpot ina tiketi: ifute ili wenye tiketi warejeshewe pesa zao',
    'zh-CN': '本期奖池已有投注单：如需退款，请删除本期',
  },
  JACKPOT_BET_TYPE_IN_USE: {
    'en-US': 'This bet type has issues and cannot be deleted',
    'sw-KE': 'Aina hii ya dau ina awamu, kwa hiyo haiwezi kufutwa',
    'zh-CN': '该玩法下已有期次，无法删除',
  },
  JACKPOT_SHARE_NOT_FOUND: {
    'en-US': 'No shared bet slip has this code',
    'sw-KE': 'Hakuna tiketi iliyoshirikiwa yenye msimbo huu',
    'zh-CN': '没有使用此代码的分享投注单',
  },
  JACKPOT_PREVIEW_STALE: {
    'en-US': 'The results or tickets changed since the preview: preview again',
    'sw-KE': 'Matokeo au tiketi zimebadilika tangu hakikisho: fanya hakikisho tena',
    'zh-CN': '预览之后赛果或投注单已发生变化，请重新预览',
  },
  // Jackpot (issue 23): results before kick-off; the queue of prizes held above the cap.
  JACKPOT_MATCH_NOT_STARTED: {
    'en-US': 'Match {position} ({match}) has not kicked off yet: it can get a result once it has started, or be marked cancelled',
    'sw-KE': 'Mechi {position} ({match}) bado haijaanza: itapata matokeo ikishaanza, au iwekwe kama imeghairiwa',
    'zh-CN': '第 {position} 场（{match}）尚未开赛：开赛后才能录入赛果，或将其标记为取消',
  },
  JACKPOT_PAYOUT_ABOVE_HELD: {
    'en-US': 'This is more than the prize still held for this ticket (TSh {remaining} not yet paid or asked for)',
    'sw-KE': 'Kiasi hiki kinazidi zawadi iliyobaki kwa tiketi hii (TSh {remaining} bado hazijalipwa wala kuombwa)',
    'zh-CN': '金额超过该投注单仍暂扣的奖金（尚有 TSh {remaining} 未支付或未申请）',
  },
  JACKPOT_PAYOUT_SAME_ADMIN: {
    'en-US': 'A payment of a held prize needs a second administrator: you asked for this one, so another administrator must approve it',
    'sw-KE': 'Malipo ya zawadi iliyozuiliwa yanahitaji msimamizi wa pili: wewe uliyaomba, kwa hiyo msimamizi mwingine ayaidhinishe',
    'zh-CN': '暂扣奖金的支付需要另一位管理员审批：此申请由您提交，须由其他管理员批准',
  },
  JACKPOT_PAYOUT_DECIDED: {
    'en-US': 'This payment request has already been approved, refused or withdrawn. Refresh the list.',
    'sw-KE': 'Ombi hili la malipo tayari limeidhinishwa, limekataliwa au limeondolewa. Onyesha upya orodha.',
    'zh-CN': '该支付申请已被批准、拒绝或撤回，请刷新列表。',
  },
  CASHOUT_LOCKED: {
    'en-US': 'Cashout currently locked.',
    'sw-KE': 'Cash out imefungwa kwa sasa.',
    'zh-CN': '提前兑现暂时锁定。',
  },
  CASHOUT_FINAL: {
    'en-US': 'A cashout is final and cannot be changed or reversed',
    'sw-KE': 'Cash out ni ya mwisho na haiwezi kubadilishwa wala kurudishwa nyuma',
    'zh-CN': '提前兑现一经完成即为最终结果，无法更改或撤销',
  },

  // Placing bets (issue 5: the placement service's refusals)
  BET_SLIP_EMPTY: {
    'en-US': 'Please add at least one selection to the bet slip',
    'sw-KE': 'Tafadhali ongeza angalau chaguo moja kwenye tiketi ya dau',
    'zh-CN': '请至少在投注单中添加一个选项',
  },
  BET_STAKE_TOO_LOW: {
    'en-US': 'The minimum stake is TSh {min}',
    'sw-KE': 'Dau la chini kabisa ni TSh {min}',
    'zh-CN': '最低投注金额为 TSh {min}',
  },
  BET_STAKE_TOO_HIGH: {
    'en-US': 'The maximum stake is TSh {max}',
    'sw-KE': 'Dau la juu kabisa ni TSh {max}',
    'zh-CN': '最高投注金额为 TSh {max}',
  },
  BET_PAYOUT_TOO_HIGH: {
    'en-US': 'The possible payout of this bet is above the maximum of TSh {max}. Lower the stake or remove a selection.',
    'sw-KE': 'Malipo yanayowezekana ya dau hili yanazidi kiwango cha juu cha TSh {max}. Punguza dau au ondoa chaguo.',
    'zh-CN': '该注单的可赢金额超过上限 TSh {max}，请降低投注金额或移除选项。',
  },
  BET_PAYOUT_OUT_OF_RANGE: {
    'en-US': 'The possible payout of this bet is larger than any amount the system can pay. Lower the stake or remove a selection.',
    'sw-KE': 'Malipo yanayowezekana ya dau hili ni makubwa kuliko kiasi chochote ambacho mfumo unaweza kulipa. Punguza dau au ondoa chaguo.',
    'zh-CN': '该注单的可赢金额超出系统可支付的范围，请降低投注金额或移除选项。',
  },
  BET_TOO_MANY_LEGS: {
    'en-US': 'A bet can have at most {max} selections',
    'sw-KE': 'Dau moja linaweza kuwa na machaguo yasiyozidi {max}',
    'zh-CN': '每注最多只能包含 {max} 个选项',
  },
  BET_ODDS_TOO_HIGH: {
    'en-US': 'The total odds of this bet are above the maximum of {max}',
    'sw-KE': 'Jumla ya odds za dau hili inazidi kiwango cha juu cha {max}',
    'zh-CN': '该注单的总赔率超过上限 {max}',
  },
  BET_SAME_MATCH: {
    'en-US': 'These selections from the same match cannot be combined in one bet',
    'sw-KE': 'Machaguo haya ya mechi moja hayawezi kuunganishwa katika dau moja',
    'zh-CN': '同一场比赛的这些选项不能组合在同一注单中',
  },
  BET_PRICE_CHANGED: {
    'en-US': 'The odds have changed. Please check the new odds and place the bet again.',
    'sw-KE': 'Odds zimebadilika. Tafadhali angalia odds mpya kisha weka dau tena.',
    'zh-CN': '赔率已变化，请确认新赔率后重新投注。',
  },
  BET_SELECTION_CLOSED: {
    'en-US': 'This selection is not open for betting right now',
    'sw-KE': 'Chaguo hili halipokei dau kwa sasa',
    'zh-CN': '该选项当前不可投注',
  },
  BET_MATCH_CLOSED: {
    'en-US': 'This match is not open for betting right now',
    'sw-KE': 'Mechi hii haipokei dau kwa sasa',
    'zh-CN': '该比赛当前不可投注',
  },
  BET_LIVE_DELAY: {
    'en-US': 'Live bets on this match are accepted after a short delay. Please wait a few seconds and try again.',
    'sw-KE': 'Dau za moja kwa moja kwenye mechi hii hupokelewa baada ya muda mfupi. Tafadhali subiri sekunde chache kisha ujaribu tena.',
    'zh-CN': '该比赛的滚球投注需经过短暂延迟才能接受，请稍等几秒后重试。',
  },
  BET_USER_BLOCKED: {
    'en-US': 'Betting is not allowed for this account',
    'sw-KE': 'Akaunti hii hairuhusiwi kuweka dau',
    'zh-CN': '该账号不允许投注',
  },
  BET_RISK_BLOCKED: {
    'en-US': 'The risk level of this account does not allow betting',
    'sw-KE': 'Kiwango cha hatari cha akaunti hii hakiruhusu kuweka dau',
    'zh-CN': '该账号的风险等级不允许投注',
  },
  BET_BALANCE_LOW: {
    'en-US': 'The balance is not enough for this stake',
    'sw-KE': 'Salio halitoshi kwa dau hili',
    'zh-CN': '余额不足以支付该投注金额',
  },
  BET_MATCH_LIMIT: {
    'en-US': 'The total stake on one match cannot be above TSh {max}',
    'sw-KE': 'Jumla ya dau kwenye mechi moja haiwezi kuzidi TSh {max}',
    'zh-CN': '同一场比赛的累计投注金额不能超过 TSh {max}',
  },

  BET_BONUS_FUNDS_LIMIT: {
    'en-US': 'Too much of this stake is paid with bonus funds',
    'sw-KE': 'Sehemu kubwa mno ya dau hili inalipwa kwa fedha za bonasi',
    'zh-CN': '该投注中使用奖金支付的部分过多',
  },

  // Settling and correcting orders (issue 5)
  RESULT_REQUIRED: {
    'en-US': 'A result must be selected',
    'sw-KE': 'Lazima uchague matokeo',
    'zh-CN': '必须选择一个结果',
  },
  REASON_REQUIRED: {
    'en-US': 'Please enter a reason',
    'sw-KE': 'Tafadhali weka sababu',
    'zh-CN': '请输入原因',
  },
  ORDER_NOT_OPEN: {
    'en-US': 'This order is no longer open, so this action is not possible',
    'sw-KE': 'Oda hii haiko wazi tena, kwa hiyo kitendo hiki hakiwezekani',
    'zh-CN': '该订单已不处于未结算状态，无法执行此操作',
  },

  // The match archive (issue 25): an operator's control on a match moved to the archive
  MATCH_ARCHIVED: {
    'en-US': 'This match is over and has been moved to the archive: it can still be viewed, but no longer changed',
    'sw-KE': 'Mechi hii imekwisha na imehamishiwa kwenye kumbukumbu za zamani: bado inaweza kutazamwa, lakini haiwezi kubadilishwa tena',
    'zh-CN': '该比赛已结束并已归档：仍可查看，但不能再修改',
  },

  // The odds feed's recovery (issue 27): the producer panel's and the match screen's buttons
  RECOVERY_IN_PROGRESS: {
    'en-US': 'A recovery of this producer is already in progress: its markets open again when its snapshot is complete',
    'sw-KE': 'Urejeshaji wa mtoaji huyu tayari unaendelea: masoko yake yatafunguliwa tena picha kamili ikikamilika',
    'zh-CN': '该数据源的恢复已在进行中：快照完成后其盘口将重新开放',
  },
  RECOVERY_TOO_SOON: {
    'en-US': 'The feed limits recovery requests: please try again in {seconds} second(s)',
    'sw-KE': 'Mtoaji wa data anapunguza maombi ya urejeshaji: tafadhali jaribu tena baada ya sekunde {seconds}',
    'zh-CN': '数据源限制恢复请求的频率：请在 {seconds} 秒后重试',
  },
  FEED_NOT_CONNECTED: {
    'en-US': 'The odds feed is not connected on this server right now: please try again in a minute',
    'sw-KE': 'Mtiririko wa odds haujaunganishwa kwenye seva hii kwa sasa: tafadhali jaribu tena baada ya dakika moja',
    'zh-CN': '赔率数据源目前未在此服务器上连接：请一分钟后重试',
  },
  FEED_REFUSED: {
    'en-US': 'The odds feed refused the request: {reason}',
    'sw-KE': 'Mtiririko wa odds umekataa ombi: {reason}',
    'zh-CN': '赔率数据源拒绝了该请求：{reason}',
  },
  // Issue 28: mobile-money providers.
  AMOUNT_WHOLE_SHILLINGS: {
    'en-US': 'Whole shillings only (no cents)',
    'sw-KE': 'Pesa kwa simu hupokea shilingi kamili: weka kiasi bila senti',
    'zh-CN': '移动支付仅支持整数先令：请去掉分',
  },
  PROVIDER_CANNOT_CARRY: {
    'en-US': '{provider} cannot carry {pay_type}',
    'sw-KE': '{provider} haiwezi kubeba njia ya malipo {pay_type}',
    'zh-CN': '{provider} 无法承载支付方式 {pay_type}',
  },

  // Money and input formats
  AMOUNT_INVALID: {
    'en-US': 'Please enter a valid amount with at most 2 decimal places',
    'sw-KE': 'Tafadhali weka kiasi sahihi chenye desimali zisizozidi 2',
    'zh-CN': '请输入有效金额，最多保留两位小数',
  },
  INSUFFICIENT_BALANCE: { 'en-US': 'Insufficient balance', 'sw-KE': 'Salio halitoshi', 'zh-CN': '余额不足' },
  PHONE_INVALID: {
    'en-US': 'Please enter a valid Tanzanian mobile number (255XXXXXXXXX or 0XXXXXXXXX)',
    'sw-KE': 'Tafadhali weka namba sahihi ya simu ya mkononi ya Tanzania (255XXXXXXXXX au 0XXXXXXXXX)',
    'zh-CN': '请输入有效的坦桑尼亚手机号码（255XXXXXXXXX 或 0XXXXXXXXX）',
  },
  IP_INVALID: {
    'en-US': 'Please enter a valid IPv4 or IPv6 address, or a range in CIDR form such as 10.0.0.0/8',
    'sw-KE': 'Tafadhali weka anwani sahihi ya IPv4 au IPv6, au masafa kwa muundo wa CIDR kama 10.0.0.0/8',
    'zh-CN': '请输入有效的 IPv4 或 IPv6 地址，或 CIDR 格式的地址段，例如 10.0.0.0/8',
  },

  // Recharges and withdrawals (mobile money)
  AMOUNT_OUT_OF_RANGE: {
    'en-US': 'The amount must be between TSh {min} and TSh {max}',
    'sw-KE': 'Kiasi lazima kiwe kati ya TSh {min} na TSh {max}',
    'zh-CN': '金额必须在 TSh {min} 至 TSh {max} 之间',
  },
  AMOUNT_BELOW_MINIMUM: {
    'en-US': 'The amount must be at least TSh {min}',
    'sw-KE': 'Kiasi lazima kiwe angalau TSh {min}',
    'zh-CN': '金额不能低于 TSh {min}',
  },
  // Issue 28: the number decides the network (domain msisdn.ts); an admin marks a ported number.
  PAY_TYPE_NOT_NETWORK: {
    'en-US': '{phone} is {network}: not payable through {payType}',
    'sw-KE': '{phone} iko kwenye mtandao wa {network}: haiwezi kulipwa kupitia {payType} (msimamizi anaweza kuweka alama ya namba iliyohamishwa)',
    'zh-CN': '{phone} 属于 {network} 网络，不能通过 {payType} 付款（管理员可标记已转网号码）',
  },
  PAY_TYPE_UNKNOWN_NETWORK: {
    'en-US': '{phone}: unknown network, not for {payType}',
    'sw-KE': 'Mtandao wa {phone} haujulikani: haiwezi kulipwa kupitia {payType} (msimamizi anaweza kuiwekea alama ya kuhamishwa)',
    'zh-CN': '{phone} 所属网络未知，不能通过 {payType} 付款（管理员可将其标记为已转网）',
  },
  IDEMPOTENCY_KEY_REUSED: {
    'en-US': 'This request key was already used for a request with different details. Nothing was changed: send the new request again as a new request.',
    'sw-KE': 'Ufunguo huu wa ombi tayari ulitumika kwa ombi lenye maelezo tofauti. Hakuna kilichobadilishwa: tuma ombi jipya tena kama ombi jipya.',
    'zh-CN': '该请求键已用于内容不同的请求，未做任何更改：请将新请求作为新的请求重新提交。',
  },
  WITHDRAWAL_STATE_CHANGED: {
    'en-US': 'This withdrawal has already been handled by someone else or is no longer in a state that allows this action. Refresh the list.',
    'sw-KE': 'Utoaji huu tayari umeshughulikiwa na mtu mwingine au hauko tena katika hali inayoruhusu kitendo hiki. Onyesha upya orodha.',
    'zh-CN': '该提现已被他人处理，或当前状态不再允许此操作，请刷新列表。',
  },
  SECOND_APPROVER_SAME: {
    'en-US': 'A large withdrawal needs the approval of a second, different administrator. You already gave the first approval.',
    'sw-KE': 'Utoaji mkubwa unahitaji idhini ya msimamizi wa pili, tofauti. Wewe tayari umetoa idhini ya kwanza.',
    'zh-CN': '大额提现需要另一位管理员进行第二次审批，您已完成第一次审批。',
  },
  REFUSE_REASON_REQUIRED: {
    'en-US': 'Please enter the reason for refusing',
    'sw-KE': 'Tafadhali weka sababu ya kukataa',
    'zh-CN': '请输入拒绝原因',
  },
  NOT_AWAITING_OPERATOR: {
    'en-US': 'This transaction is not waiting for the operator, so there is nothing to re-query.',
    'sw-KE': 'Muamala huu hausubiri mtoa huduma, kwa hiyo hakuna cha kuuliza upya.',
    'zh-CN': '该交易并未在等待运营商结果，无需重新查询。',
  },
  NOT_AWAITING_RECONCILIATION: {
    'en-US': 'This transaction is not waiting for reconciliation: it has been settled already, or its outcome is not in doubt. Refresh the list.',
    'sw-KE': 'Muamala huu hausubiri usuluhishi: tayari umekamilishwa, au matokeo yake hayana shaka. Onyesha upya orodha.',
    'zh-CN': '该交易无需对账：它已处理完毕，或其结果并无疑问。请刷新列表。',
  },
  TRON_ADDRESS_INVALID: {
    'en-US': 'This is not a valid TRON address (Base58, starting with T)',
    'sw-KE': 'Hii si anwani sahihi ya TRON (Base58, inayoanza na T)',
    'zh-CN': '这不是有效的 TRON 地址（Base58 格式，以 T 开头）',
  },
  WITHDRAWAL_HELD: {
    'en-US': 'This USDT withdrawal is held: {warning}. Check the address with the bettor and release the hold before approving.',
    'sw-KE': 'Utoaji huu wa USDT umezuiliwa: {warning}. Hakiki anwani na mchezaji kisha ondoa kizuizi kabla ya kuidhinisha.',
    'zh-CN': '该 USDT 提现已被暂扣：{warning}。请与投注者核实地址并解除暂扣后再审批。',
  },
  WITHDRAWAL_NOT_HELD: {
    'en-US': 'This withdrawal is not held. Refresh the list.',
    'sw-KE': 'Utoaji huu haujazuiliwa. Onyesha upya orodha.',
    'zh-CN': '该提现未被暂扣，请刷新列表。',
  },
  NO_HOT_WALLET: {
    'en-US': 'There is no collection (hot) wallet, or no gas wallet, to carry this out. Create one on the Tron wallet screen first.',
    'sw-KE': 'Hakuna pochi ya ukusanyaji (hot), au pochi ya gesi, ya kufanya hili. Unda moja kwanza kwenye skrini ya pochi za Tron.',
    'zh-CN': '没有可用于此操作的归集（热）钱包或燃料钱包，请先在 Tron 钱包页面创建。',
  },
  RECONCILE_REFERENCE_REQUIRED: {
    'en-US': "Please enter the reference of the operator's statement line (at most {max} characters)",
    'sw-KE': 'Tafadhali weka kumbukumbu ya mstari wa taarifa ya mtoa huduma (herufi zisizozidi {max})',
    'zh-CN': '请输入运营商对账单中该笔记录的参考号（最多 {max} 个字符）',
  },
  RECONCILE_REMARK_REQUIRED: {
    'en-US': 'Please enter a remark on the reconciliation (at most {max} characters)',
    'sw-KE': 'Tafadhali weka maelezo ya usuluhishi (herufi zisizozidi {max})',
    'zh-CN': '请输入对账备注（最多 {max} 个字符）',
  },
  OPERATOR_UNAVAILABLE: {
    'en-US': 'The mobile-money operator did not answer. Please try again in a moment.',
    'sw-KE': 'Mtoa huduma wa pesa kwa simu hakujibu. Tafadhali jaribu tena baada ya muda mfupi.',
    'zh-CN': '移动支付运营商未响应，请稍后重试。',
  },
  TRON_NODE_UNAVAILABLE: {
    'en-US': 'The TRON node did not answer. Please try again in a moment.',
    'sw-KE': 'Nodi ya TRON haikujibu. Tafadhali jaribu tena baada ya muda mfupi.',
    'zh-CN': 'TRON 节点未响应，请稍后重试。',
  },
  CALLBACK_SIGNATURE_INVALID: {
    'en-US': 'The callback signature is missing, wrong or expired',
    'sw-KE': 'Sahihi ya taarifa ya malipo haipo, si sahihi au imepitwa na wakati',
    'zh-CN': '回调签名缺失、错误或已过期',
  },
  PAY_CONFIG_INVALID: {
    'en-US': 'The minimum withdrawal cannot be above the maximum withdrawal',
    'sw-KE': 'Kiwango cha chini cha kutoa hakiwezi kuzidi kiwango cha juu cha kutoa',
    'zh-CN': '最低提现金额不能高于最高提现金额',
  },

  // Confirmations and notices (spec §8)
  SUCCESS: { 'en-US': 'Successful operation', 'sw-KE': 'Imefanikiwa', 'zh-CN': '操作成功' },
  COPIED: { 'en-US': 'Copied successfully', 'sw-KE': 'Imenakiliwa', 'zh-CN': '复制成功' },
  REQUESTING: {
    'en-US': 'Requesting, please wait...',
    'sw-KE': 'Ombi linatumwa, tafadhali subiri...',
    'zh-CN': '请求中，请稍候...',
  },
  LOAD_FAILED: { 'en-US': 'Failed to load...', 'sw-KE': 'Imeshindwa kupakia...', 'zh-CN': '加载失败...' },
  NO_DATA: { 'en-US': 'No data', 'sw-KE': 'Hakuna data', 'zh-CN': '暂无数据' },
  DELETE_ISSUE_WARNING: {
    'en-US':
      'Deleting this issue deletes all user orders of the round and refunds them. This cannot be recovered.',
    'sw-KE':
      'Kufuta awamu hii kutafuta oda zote za watumiaji za awamu hii na kuwarejeshea pesa zao. Haitaweza kurejeshwa.',
    'zh-CN': '删除该期将删除本期所有用户订单并全部退款，删除后无法恢复。',
  },
  DELETE_PERMANENT_WARNING: {
    'en-US': 'The data will be permanently deleted and cannot be recovered.',
    'sw-KE': 'Data itafutwa kabisa na haitaweza kurejeshwa.',
    'zh-CN': '数据将被永久删除，无法恢复。',
  },
  CONFIRM_CLEAR_MESSAGES: {
    'en-US': 'Clear all site messages?',
    'sw-KE': 'Futa jumbe zote za tovuti?',
    'zh-CN': '确定清空所有站内消息吗？',
  },
  CONFIRM_COLLECT_ALL: {
    'en-US': 'Collect the balances of all wallets?',
    'sw-KE': 'Kusanya salio la pochi zote?',
    'zh-CN': '确定归集所有钱包吗？',
  },
  CONFIRM_SYNC_BALANCES: {
    'en-US': 'Sync the balances of all wallets?',
    'sw-KE': 'Sawazisha salio la pochi zote?',
    'zh-CN': '确定同步所有钱包余额吗？',
  },
  CONFIRM_RELEASE_LOCK: {
    'en-US': 'Release this database lock? The session holding it will be terminated.',
    'sw-KE': 'Achilia kufuli hili la hifadhidata? Kikao kinacholishikilia kitakatishwa.',
    'zh-CN': '确定释放该数据库锁吗？持有该锁的会话将被终止。',
  },
  // Shop (issue 16)
  SHOP_CATEGORY_CYCLE: {
    'en-US': 'A category cannot be placed under itself or under one of its own subcategories',
    'sw-KE': 'Kundi haliwezi kuwekwa chini yake lenyewe wala chini ya kundi lake dogo',
    'zh-CN': '分类不能放在自身或其子分类之下',
  },
  SHOP_CATEGORY_HAS_CHILDREN: {
    'en-US': 'This category has subcategories: move or delete them first',
    'sw-KE': 'Kundi hili lina makundi madogo: yahamishe au uyafute kwanza',
    'zh-CN': '该分类下还有子分类，请先移动或删除子分类',
  },
  SHOP_CATEGORY_HAS_PRODUCTS: {
    'en-US': 'This category still has products: move or delete them first',
    'sw-KE': 'Kundi hili bado lina bidhaa: zihamishe au uzifute kwanza',
    'zh-CN': '该分类下还有商品，请先移动或删除商品',
  },
  SHOP_BRAND_HAS_PRODUCTS: {
    'en-US': 'This brand still has products: move or delete them first',
    'sw-KE': 'Chapa hii bado ina bidhaa: zihamishe au uzifute kwanza',
    'zh-CN': '该品牌下还有商品，请先移动或删除商品',
  },
  // SMS (issue 15)
  SMS_NO_RECIPIENTS: {
    'en-US': 'No recipient is left after exclusions: nothing to send',
    'sw-KE': 'Hakuna mpokeaji aliyebaki baada ya vizuizi: hakuna cha kutuma',
    'zh-CN': '排除后没有剩余的收件人，无需发送',
  },
  SMS_DISABLED: {
    'en-US': 'SMS sending is switched off in the SMS settings',
    'sw-KE': 'Utumaji wa SMS umezimwa katika mipangilio ya SMS',
    'zh-CN': '短信发送已在短信设置中关闭',
  },
  SMS_TOO_MANY_RECIPIENTS: {
    'en-US': 'Too many numbers in one list (at most {max})',
    'sw-KE': 'Namba ni nyingi mno katika orodha moja (zisizozidi {max})',
    'zh-CN': '单个列表中的号码过多（最多 {max} 个）',
  },
  SMS_EXCLUSION_EXISTS: {
    'en-US': 'This number is already on the no-send list',
    'sw-KE': 'Namba hii tayari iko kwenye orodha ya kutotumiwa SMS',
    'zh-CN': '该号码已在禁发名单中',
  },
  SMS_CALLBACK_REFUSED: {
    'en-US': 'The callback token is missing or wrong',
    'sw-KE': 'Tokeni ya mwito haipo au si sahihi',
    'zh-CN': '回调令牌缺失或错误',
  },
  SMS_PREVIEW_CHANGED: {
    'en-US': 'The recipients or the cost changed since the preview: preview again',
    'sw-KE': 'Wapokeaji au gharama vimebadilika tangu onyesho la awali: onyesha tena',
    'zh-CN': '自预览以来收件人或费用已变化，请重新预览',
  },
  // Operations (issue 16): servers, scripts, database locks
  SCRIPT_UNKNOWN: {
    'en-US': 'There is no script named "{name}"',
    'sw-KE': 'Hakuna skripti inayoitwa "{name}"',
    'zh-CN': '没有名为“{name}”的脚本',
  },
  SCRIPT_SELF_APPROVAL: {
    'en-US': 'A dangerous script must be approved by another administrator, not by the one who asked for it',
    'sw-KE': 'Skripti hatari lazima iidhinishwe na msimamizi mwingine, si yule aliyeiomba',
    'zh-CN': '危险脚本必须由另一位管理员批准，申请人不能自己批准',
  },
  SCRIPT_NOT_YOURS: { 'en-US': 'Only its requester can withdraw it', 'sw-KE': 'Ni mwombaji pekee anayeweza kuiondoa', 'zh-CN': '仅申请人可撤回' },
  SCRIPT_NOT_AWAITING_APPROVAL: {
    'en-US': 'This run is not waiting for an approval',
    'sw-KE': 'Utekelezaji huu haungoji idhini',
    'zh-CN': '该运行不在等待批准状态',
  },
  SERVER_NOT_RUNNING: {
    'en-US': 'The target server is not running (no beat in the last 30 seconds)',
    'sw-KE': 'Seva lengwa haifanyi kazi (hakuna mapigo katika sekunde 30 zilizopita)',
    'zh-CN': '目标服务器未在运行（最近 30 秒没有心跳）',
  },
  SERVER_STILL_RUNNING: {
    'en-US': 'Only a server that is down can be removed from the list',
    'sw-KE': 'Ni seva iliyozimika pekee inayoweza kuondolewa kwenye orodha',
    'zh-CN': '只能删除已下线的服务器',
  },
  LOCK_NOT_OURS: {
    'en-US': 'This database session does not belong to the product\'s database',
    'sw-KE': 'Kikao hiki cha hifadhidata si cha hifadhidata ya mfumo huu',
    'zh-CN': '该数据库会话不属于本系统的数据库',
  },
  LOCK_OWN_CONNECTION: {
    'en-US': 'This session is one of the server\'s own connections and cannot be terminated here',
    'sw-KE': 'Kikao hiki ni mojawapo ya miunganisho ya seva yenyewe na hakiwezi kukatishwa hapa',
    'zh-CN': '该会话是服务器自身的连接，不能在此终止',
  },
  DB_VIEWS_UNAVAILABLE: {
    'en-US': 'The embedded database has no other sessions, locks or statement statistics to show: these views need PostgreSQL (DATABASE_URL)',
    'sw-KE': 'Hifadhidata iliyojengewa ndani haina vikao vingine, kufuli au takwimu za kauli za kuonyesha: mionekano hii inahitaji PostgreSQL (DATABASE_URL)',
    'zh-CN': '内嵌数据库没有其他会话、锁或语句统计可显示：这些视图需要 PostgreSQL（DATABASE_URL）',
  },
  PG_STAT_STATEMENTS_OFF: {
    'en-US': 'pg_stat_statements is not enabled. Add it to shared_preload_libraries in postgresql.conf, restart PostgreSQL, then run CREATE EXTENSION pg_stat_statements in the product\'s database.',
    'sw-KE': 'pg_stat_statements haijawashwa. Iongeze kwenye shared_preload_libraries katika postgresql.conf, anzisha upya PostgreSQL, kisha endesha CREATE EXTENSION pg_stat_statements katika hifadhidata ya mfumo.',
    'zh-CN': '未启用 pg_stat_statements。请在 postgresql.conf 的 shared_preload_libraries 中加入它，重启 PostgreSQL，然后在本系统的数据库中执行 CREATE EXTENSION pg_stat_statements。',
  },
  // Messaging (issue 15, MSG)
  MESSAGE_NO_RECIPIENTS: {
    'en-US': 'No bettor of your branch matches these recipients',
    'sw-KE': 'Hakuna mchezaji wa tawi lako anayelingana na wapokeaji hawa',
    'zh-CN': '您的下级中没有符合这些接收人的用户',
  },
  MESSAGE_TOO_MANY_PHONES: {
    'en-US': 'Too many phone numbers: at most {max} in one send',
    'sw-KE': 'Namba za simu ni nyingi mno: zisizidi {max} kwa utumaji mmoja',
    'zh-CN': '手机号码过多：一次最多 {max} 个',
  },
  MESSAGE_SEND_AT_INVALID: {
    'en-US': 'The scheduled time must be in the future (within a year)',
    'sw-KE': 'Muda uliopangwa lazima uwe ujao (ndani ya mwaka mmoja)',
    'zh-CN': '定时发送时间必须是将来的时间（一年以内）',
  },
  MESSAGE_ALREADY_REPLIED: {
    'en-US': 'This message has already been answered',
    'sw-KE': 'Ujumbe huu umeshajibiwa',
    'zh-CN': '该留言已回复',
  },
  APP_VERSION_INVALID: {
    'en-US': 'Please enter the version as numbers separated by dots, e.g. 1.4.2',
    'sw-KE': 'Tafadhali andika toleo kwa namba zilizotenganishwa na nukta, mfano 1.4.2',
    'zh-CN': '请按数字加点的格式填写版本号，例如 1.4.2',
  },
  APP_VERSION_EXISTS: {
    'en-US': 'This platform already has this version',
    'sw-KE': 'Jukwaa hili tayari lina toleo hili',
    'zh-CN': '该平台已存在此版本',
  },

  // Telegram bot replies (issue 15: binding a Telegram account with a one-time code)
  TELEGRAM_BOT_HELLO: {
    'en-US': 'To bind your account, open the binding page of the console and send /start followed by the code it shows.',
    'sw-KE': 'Ili kuunganisha akaunti yako, fungua ukurasa wa kuunganisha kwenye koni na utume /start ikifuatiwa na msimbo unaoonyeshwa.',
    'zh-CN': '要绑定账号，请在后台打开绑定页面，发送 /start 加上页面显示的验证码。',
  },
  TELEGRAM_BOT_BOUND: {
    'en-US': 'Your Telegram is now bound to {account}. Notices will reach you here.',
    'sw-KE': 'Telegram yako sasa imeunganishwa na {account}. Taarifa zitakufikia hapa.',
    'zh-CN': '您的 Telegram 已绑定到 {account}，通知将发送到这里。',
  },
  TELEGRAM_BOT_CODE_INVALID: {
    'en-US': 'This code is invalid, expired or already used. Ask the console for a new one.',
    'sw-KE': 'Msimbo huu si sahihi, umeisha muda au umeshatumika. Omba msimbo mpya kwenye koni.',
    'zh-CN': '该验证码无效、已过期或已被使用，请在后台重新获取。',
  },
  // Messaging (issue 15): provider settings, app versions and the no-send list are the whole product's
  WHOLE_BOOK_ONLY: {
    'en-US': 'This applies to every branch: only an administrator who sees the whole book can do it',
    'sw-KE': 'Hili linahusu matawi yote: ni msimamizi anayeona data za matawi yote pekee anayeweza kulifanya',
    'zh-CN': '此操作影响所有分支：只有可查看全部数据的管理员才能执行',
  },
  // Issue 30: the daily close.
  CLOSE_DAY_NOT_OVER: {
    'en-US': 'The day {day} is not over yet (Dar es Salaam time): it can be closed a few minutes after its midnight',
    'sw-KE': 'Siku {day} bado haijaisha (saa za Dar es Salaam): inaweza kufungwa dakika chache baada ya saa sita usiku wake',
    'zh-CN': '{day} 尚未结束（达累斯萨拉姆时间）：可在其午夜后几分钟进行日结',
  },
  CASINO_LARGE_WIN_REVIEWED: {
    'en-US': 'This large win was already reviewed',
    'sw-KE': 'Ushindi huu mkubwa umeshakaguliwa',
    'zh-CN': '该大额赢奖已复核',
  },
  ENDPOINT_INTERNAL: {
    'en-US': 'This address is on a private or local network: the product only calls public addresses (ask the operator of the server to allow private endpoints)',
    'sw-KE': 'Anwani hii iko kwenye mtandao binafsi au wa ndani: mfumo huita anwani za umma pekee (muombe msimamizi wa seva aruhusu anwani binafsi)',
    'zh-CN': '该地址位于私有或本地网络：本系统只访问公网地址（如需使用私有地址，请联系服务器运维开启）',
  },
  // Duties (issue 22): settings that wait for a second admin
  PENDING_CHANGE_OWN: {
    'en-US': 'You asked for this change: another administrator who sees the whole book must approve it',
    'sw-KE': 'Wewe ndiye uliyeomba mabadiliko haya: msimamizi mwingine anayeona data za matawi yote lazima ayaidhinishe',
    'zh-CN': '此变更由您提出：必须由另一位可查看全部数据的管理员批准',
  },
  PENDING_CHANGE_DECIDED: {
    'en-US': 'This change is no longer waiting: it was already approved, refused, withdrawn or it expired. Reload the list',
    'sw-KE': 'Mabadiliko haya hayasubiri tena: yameshaidhinishwa, yamekataliwa, yameondolewa au muda wake umekwisha. Pakia upya orodha',
    'zh-CN': '此变更已不在等待中：它已被批准、拒绝、撤回或已过期。请刷新列表',
  },
  PENDING_CHANGE_REASON: {
    'en-US': 'Say why you refuse this change',
    'sw-KE': 'Eleza kwa nini unakataa mabadiliko haya',
    'zh-CN': '请说明拒绝此变更的原因',
  },
  PENDING_APPROVAL: {
    'en-US': 'Saved as a pending change: it takes effect when a second administrator approves it',
    'sw-KE': 'Imehifadhiwa kama mabadiliko yanayosubiri: yataanza kutumika msimamizi wa pili atakapoyaidhinisha',
    'zh-CN': '已保存为待审批变更：第二位管理员批准后生效',
  },
  PENDING_NO_APPROVER: {
    'en-US': 'Saved as a pending change, but no other administrator can approve it yet: it waits until one exists (24 hours at most)',
    'sw-KE': 'Imehifadhiwa kama mabadiliko yanayosubiri, lakini bado hakuna msimamizi mwingine anayeweza kuyaidhinisha: yatasubiri hadi awepo (saa 24 zaidi)',
    'zh-CN': '已保存为待审批变更，但目前没有其他管理员可以批准：将等待直至有人可批准（最长 24 小时）',
  },
  // Operations (issue 16): the bills-detach-month script
  BILL_MONTH_TOO_RECENT: {
    'en-US': 'The bills of {month} are still read by the bill lists: only a month that ended before the previous month and more than 30 days ago can be detached',
    'sw-KE': 'Bili za {month} bado zinasomwa na orodha za bili: mwezi unaoweza kutenganishwa ni ule ulioisha kabla ya mwezi uliopita na zaidi ya siku 30 zilizopita',
    'zh-CN': '{month} 的账单仍在账单列表的读取范围内：只能分离在上个月之前、且结束已超过 30 天的月份',
  },
  BILL_PARTITION_MISSING: {
    'en-US': 'There is no bill partition for {month} (it was never created, or it is already detached)',
    'sw-KE': 'Hakuna sehemu ya bili ya {month} (haikuwahi kuundwa, au imeshatenganishwa)',
    'zh-CN': '{month} 没有账单分区（从未创建，或已被分离）',
  },
  BILL_PARTITION_DEFAULT: {
    'en-US': 'The bills of {month} sit in the default bill partition, which is never detached',
    'sw-KE': 'Bili za {month} ziko kwenye sehemu ya msingi ya bili, ambayo haitenganishwi kamwe',
    'zh-CN': '{month} 的账单位于默认账单分区中，默认分区不能分离',
  },
  BILL_MONTH_NOT_OLDEST: {
    'en-US': 'The bills table still holds bills older than {month}: detach the oldest month first',
    'sw-KE': 'Jedwali la bili bado lina bili za zamani kuliko {month}: tenganisha mwezi wa zamani zaidi kwanza',
    'zh-CN': '账单表中仍有早于 {month} 的账单：请先分离最早的月份',
  },
  BILL_ARCHIVE_EXISTS: {
    'en-US': 'A table named {table} already exists: the month cannot be detached under that name',
    'sw-KE': 'Jedwali linaloitwa {table} tayari lipo: mwezi huu hauwezi kutenganishwa kwa jina hilo',
    'zh-CN': '名为 {table} 的表已存在：无法以该名称分离该月份',
  },
} as const satisfies Record<string, Texts>;

export type MessageCode = keyof typeof MESSAGES;
export type MessageParams = Readonly<Record<string, string | number>>;

export const MESSAGE_CODES = Object.keys(MESSAGES) as MessageCode[];

export function isMessageCode(value: unknown): value is MessageCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(MESSAGES, value);
}

/** Fills `{name}` placeholders; a placeholder without a value is left as written. */
export function interpolate(template: string, params?: MessageParams): string {
  if (!params) return template;
  return template.replace(/\{([A-Za-z0-9_]+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : whole,
  );
}

/** The text of a message in a language (any tag is normalised; unknown languages get en-US). */
export function message(code: MessageCode, locale: Locale | string = DEFAULT_LOCALE, params?: MessageParams): string {
  const texts: Texts = MESSAGES[code];
  const lang = isLocale(locale) ? locale : normalizeLocale(locale);
  return interpolate(texts[lang], params);
}

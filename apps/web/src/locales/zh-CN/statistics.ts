import type en from '../en-US/statistics';

import type { Shape } from '../shape';

const statistics: Shape<typeof en> = {
  statistics: {
    describe: {
      today_statistics: '本分支今日数据（达累斯萨拉姆时间，UTC+3），按小时统计。每 15 秒刷新一次。',
      match_statistics: '按赛事统计：投注额、派彩、博彩毛收入，以及每个结果胜出时需赔付的金额。',
      history_statistics: '与今日相同的数据，按天统计，日期范围自选（最多 92 天）。',
    },
    figure: {
      turnover: '投注额',
      payouts: '派彩',
      ggr: '毛收入 (GGR)',
      ngr: '净收入 (NGR)',
      tax: '代扣税款',
      bonuses: '奖金',
      cashouts: '提前结算',
      orders: '注单数',
      settled: '已结算注单',
      bettors: '投注人数',
      deposits: '充值',
      deposit_count: '充值笔数',
      withdrawals: '提现',
      withdrawal_count: '提现笔数',
      new_bettors: '新增用户',
      online_bettors: '当前在线',
      net_deposits: '净充值',
    },
    hint: {
      cashouts: '提前结算注单支付的金额，已计入派彩。',
      ggr: '博彩毛收入：投注额减派彩（含提前结算金额）。',
      ngr: '博彩净收入：毛收入减奖金。',
      tax: '对中奖金额代扣的税款，应缴给税务机关。',
      bettors: '下过注单的去重用户数。',
      margin: '留存率：投注额的 {{value}}',
    },
    chart: {
      money: '投注额、派彩与毛收入',
      activity: '注单数与投注人数',
      cash: '充值与提现',
      hour: '小时',
      day: '日期',
    },
    today: {
      asOf: '截至 {{time}}（达累斯萨拉姆时间）',
      live: '实时',
    },
    match: {
      match: '赛事',
      sport: '运动',
      league: '联赛',
      start: '开赛时间',
      eventId: '赛事 ID',
      liability: '赔付风险',
      maxLiability: '最大风险结果',
      stake: '投注额',
      market: '玩法',
      outcome: '结果',
      startRange: '开赛时间范围',
      noOutcomes: '本分支没有该赛事的投注选项。',
      liabilityHint: '若该结果胜出，未结算注单需赔付的金额。',
      legsHint: '赛事上的注单场次：串关会计入其每一场赛事。',
    },
    history: {
      range: '日期',
      day: '日期',
      total: '合计',
      tooLong: '最多选择 92 天。',
      exportCsv: '导出 CSV',
    },
  },
};

export default statistics;

/** 访客页面文案（议题 16）。 */
const visitors = {
  visitors: {
    describe: '投注网站和应用的访客，按达累斯萨拉姆的日期和小时统计：新访客与回访客，按设备、来源和国家。访问记录保留 90 天，每日统计永久保留。',
    visits: '访问次数',
    visitors: '访客数',
    new: '新访客',
    returning: '回访客',
    day: '日期',
    dayTable: '按日统计',
    exportDays: '下载每日统计',
    visitsTitle: '访问记录',
    unknownCountry: '未知',
    tooLong: '最多选择 {{n}} 天。',
    chart: {
      days: '每日访客',
      hours: '各小时访问次数',
      devices: '按设备',
      sources: '按来源',
      countries: '按国家或地区（前 10）',
    },
    field: {
      id: 'ID',
      visited_at: '时间',
      visitor_id: '访客 ID',
      kind: '新访客或回访客',
      device: '设备',
      source: '来源',
      country: '国家或地区',
      path: '页面',
    },
  },
};

export default visitors;

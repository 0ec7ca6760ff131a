/**
 * antd 6 locale for Swahili (Kenya/Tanzania usage), modelled key for key on antd's own
 * `antd/es/locale/en_US` and the rc-picker / rc-pagination parts it imports. antd ships no Swahili.
 *
 * The date picker's `locale: 'sw_KE'` makes the dayjs adapter use dayjs's `sw` locale (week starts
 * on Monday); the console should `import 'dayjs/locale/sw'`. Short week days and months are given
 * here too, so the panels are in Swahili even before that locale is loaded.
 *
 * antd 6 has no `Image` section in its Locale type any more (the preview has no texts), so there
 * is none here.
 */
import type { Locale } from 'antd/es/locale';

const typeTemplate = '${label} si ${type} halali';

const timePickerLocale = {
  placeholder: 'Chagua muda',
  rangePlaceholder: ['Muda wa kuanza', 'Muda wa mwisho'] as [string, string],
};

const datePickerLocale = {
  lang: {
    placeholder: 'Chagua tarehe',
    yearPlaceholder: 'Chagua mwaka',
    quarterPlaceholder: 'Chagua robo ya mwaka',
    monthPlaceholder: 'Chagua mwezi',
    weekPlaceholder: 'Chagua wiki',
    rangePlaceholder: ['Tarehe ya kuanza', 'Tarehe ya mwisho'] as [string, string],
    rangeYearPlaceholder: ['Mwaka wa kuanza', 'Mwaka wa mwisho'] as [string, string],
    rangeQuarterPlaceholder: ['Robo ya kuanza', 'Robo ya mwisho'] as [string, string],
    rangeMonthPlaceholder: ['Mwezi wa kuanza', 'Mwezi wa mwisho'] as [string, string],
    rangeWeekPlaceholder: ['Wiki ya kuanza', 'Wiki ya mwisho'] as [string, string],
    // rc-picker common locale
    yearFormat: 'YYYY',
    cellDateFormat: 'D',
    cellMeridiemFormat: 'A',
    monthBeforeYear: true,
    // rc-picker locale
    locale: 'sw_KE',
    today: 'Leo',
    now: 'Sasa',
    backToToday: 'Rudi leo',
    ok: 'Sawa',
    clear: 'Futa',
    week: 'Wiki',
    month: 'Mwezi',
    year: 'Mwaka',
    timeSelect: 'chagua muda',
    dateSelect: 'chagua tarehe',
    weekSelect: 'Chagua wiki',
    monthSelect: 'Chagua mwezi',
    yearSelect: 'Chagua mwaka',
    decadeSelect: 'Chagua muongo',
    previousMonth: 'Mwezi uliopita',
    nextMonth: 'Mwezi ujao',
    previousYear: 'Mwaka uliopita',
    nextYear: 'Mwaka ujao',
    previousDecade: 'Muongo uliopita',
    nextDecade: 'Muongo ujao',
    previousCentury: 'Karne iliyopita',
    nextCentury: 'Karne ijayo',
    // Sunday first, as rc-picker expects; it rotates them to the locale's first day of the week.
    shortWeekDays: ['Jpl', 'Jtat', 'Jnne', 'Jtan', 'Alh', 'Ijm', 'Jmos'],
    shortMonths: ['Jan', 'Feb', 'Mac', 'Apr', 'Mei', 'Jun', 'Jul', 'Ago', 'Sep', 'Okt', 'Nov', 'Des'],
  },
  timePickerLocale: { ...timePickerLocale },
};

const swKE: Locale = {
  locale: 'sw',
  Pagination: {
    items_per_page: '/ ukurasa',
    jump_to: 'Nenda kwa',
    jump_to_confirm: 'thibitisha',
    page: 'Ukurasa',
    prev_page: 'Ukurasa uliotangulia',
    next_page: 'Ukurasa unaofuata',
    prev_5: 'Kurasa 5 zilizotangulia',
    next_5: 'Kurasa 5 zinazofuata',
    prev_3: 'Kurasa 3 zilizotangulia',
    next_3: 'Kurasa 3 zinazofuata',
    page_size: 'Ukubwa wa ukurasa',
  },
  DatePicker: datePickerLocale,
  TimePicker: timePickerLocale,
  Calendar: datePickerLocale,
  global: {
    placeholder: 'Tafadhali chagua',
    close: 'Funga',
    sortable: 'inaweza kupangwa',
    show: 'Onyesha',
    hide: 'Ficha',
  },
  Table: {
    filterTitle: 'Menyu ya kuchuja',
    filterConfirm: 'Sawa',
    filterReset: 'Weka upya',
    filterEmptyText: 'Hakuna vichujio',
    filterCheckAll: 'Chagua vipengee vyote',
    filterSearchPlaceholder: 'Tafuta kwenye vichujio',
    emptyText: 'Hakuna data',
    selectAll: 'Chagua ukurasa huu',
    selectInvert: 'Geuza uteuzi wa ukurasa huu',
    selectNone: 'Futa uteuzi wote',
    selectionAll: 'Chagua data yote',
    sortTitle: 'Panga',
    expand: 'Panua safu',
    collapse: 'Kunja safu',
    triggerDesc: 'Bofya kupanga kwa kushuka',
    triggerAsc: 'Bofya kupanga kwa kupanda',
    cancelSort: 'Bofya kughairi upangaji',
  },
  Tour: {
    Next: 'Inayofuata',
    Previous: 'Iliyotangulia',
    Finish: 'Maliza',
  },
  Modal: {
    okText: 'Sawa',
    cancelText: 'Ghairi',
    justOkText: 'Sawa',
  },
  Popconfirm: {
    okText: 'Sawa',
    cancelText: 'Ghairi',
  },
  Transfer: {
    titles: ['', ''],
    searchPlaceholder: 'Tafuta hapa',
    itemUnit: 'kipengee',
    itemsUnit: 'vipengee',
    remove: 'Ondoa',
    selectCurrent: 'Chagua ukurasa huu',
    removeCurrent: 'Ondoa ukurasa huu',
    selectAll: 'Chagua data yote',
    deselectAll: 'Acha kuchagua data yote',
    removeAll: 'Ondoa data yote',
    selectInvert: 'Geuza uteuzi wa ukurasa huu',
  },
  Upload: {
    uploading: 'Inapakia...',
    removeFile: 'Ondoa faili',
    uploadError: 'Hitilafu ya kupakia',
    previewFile: 'Hakiki faili',
    downloadFile: 'Pakua faili',
  },
  Empty: {
    description: 'Hakuna data',
  },
  Icon: {
    icon: 'aikoni',
  },
  Text: {
    edit: 'Hariri',
    copy: 'Nakili',
    copied: 'Imenakiliwa',
    expand: 'Panua',
    collapse: 'Kunja',
  },
  Carousel: {
    prevSlide: 'Slaidi iliyotangulia',
    nextSlide: 'Slaidi inayofuata',
  },
  Form: {
    optional: '(si lazima)',
    defaultValidateMessages: {
      default: 'Hitilafu ya uthibitishaji kwenye ${label}',
      required: 'Tafadhali weka ${label}',
      enum: '${label} lazima iwe mojawapo ya [${enum}]',
      whitespace: '${label} haiwezi kuwa nafasi tupu',
      date: {
        format: 'Muundo wa tarehe wa ${label} si sahihi',
        parse: '${label} haiwezi kubadilishwa kuwa tarehe',
        invalid: '${label} ni tarehe batili',
      },
      types: {
        string: typeTemplate,
        method: typeTemplate,
        array: typeTemplate,
        object: typeTemplate,
        number: typeTemplate,
        date: typeTemplate,
        boolean: typeTemplate,
        integer: typeTemplate,
        float: typeTemplate,
        regexp: typeTemplate,
        email: typeTemplate,
        url: typeTemplate,
        hex: typeTemplate,
      },
      string: {
        len: '${label} lazima iwe na herufi ${len}',
        min: '${label} lazima iwe na angalau herufi ${min}',
        max: '${label} isizidi herufi ${max}',
        range: '${label} lazima iwe na herufi kati ya ${min} na ${max}',
      },
      number: {
        len: '${label} lazima iwe sawa na ${len}',
        min: '${label} isiwe chini ya ${min}',
        max: '${label} isizidi ${max}',
        range: '${label} lazima iwe kati ya ${min} na ${max}',
      },
      array: {
        len: 'Lazima ziwe ${len} ${label}',
        min: 'Angalau ${min} ${label}',
        max: 'Zisizidi ${max} ${label}',
        range: 'Idadi ya ${label} lazima iwe kati ya ${min} na ${max}',
      },
      pattern: {
        mismatch: '${label} hailingani na muundo ${pattern}',
      },
    },
  },
  QRCode: {
    expired: 'Muda wa msimbo wa QR umekwisha',
    refresh: 'Onyesha upya',
    scanned: 'Umechanganuliwa',
  },
  ColorPicker: {
    presetEmpty: 'Tupu',
    transparent: 'Uwazi',
    singleColor: 'Rangi moja',
    gradientColor: 'Mchanganyiko wa rangi',
  },
};

export default swKE;

import type { Shape } from '../shape';
import type en from '../en-US/providers';

/** Maandishi ya skrini ya watoa huduma wa pesa kwa simu (toleo 28). */
const providers: Shape<typeof en> = {
  providers: {
    describe:
      'API ya kila mtoa huduma wa pesa kwa simu iko wapi, mipangilio yake na vitambulisho vilivyohifadhiwa, na mtoa huduma gani anabeba kila mtandao. Usakinishaji mpya unazungumza na sandbox zilizojengwa ndani; kuanza kazi halisi ni anwani ya msingi ya mtoa huduma na vitambulisho vyako. Kila badiliko linasubiri msimamizi wa pili.',
    loadFailed: 'Imeshindwa kupakia watoa huduma.',
    retry: 'Jaribu tena',
    none: 'Hakuna mtoa huduma aliyewekwa.',
    sandbox: 'Sandbox ya ndani',
    production: 'Halisi',
    edit: 'Hariri',
    baseUrl: 'Anwani ya msingi ya API',
    baseUrlHint: 'Acha wazi kwa sandbox ya ndani. API halisi ya mtoa huduma kwa kawaida ni {{url}}: ithibitishe kwa mkataba wako.',
    baseUrlInvalid: 'Weka anwani ya http au https, au iache wazi',
    carries: 'Anabeba',
    carriesNone: 'Hakuna mtandao kwa sasa',
    settings: 'Mipangilio',
    secrets: 'Vitambulisho vya siri',
    stored: 'kimehifadhiwa',
    secretKeep: 'Kuandika tu: acha wazi ili kubaki na thamani iliyohifadhiwa.',
    callbacks: 'Anwani zetu za majibu (zisajili kwa mtoa huduma)',
    noCallbacks: 'Hakuna: API hii hujibu ndani ya ombi lenyewe',
    routing: 'Mtoa huduma anayebeba kila mtandao',
    payType: 'Mtandao',
    provider: 'Mtoa huduma',
    save: 'Hifadhi',
    saved: 'Imehifadhiwa',
    routingSaved: 'Njia za malipo zimehifadhiwa',
    twoPeople: 'Msimamizi wa pili lazima aidhinishe badiliko kabla halijatumika.',
    routingConfirmTitle: 'Ubadilishe mtoa huduma anayebeba mitandao hii?',
    routingConfirmLine: '{{payType}} kupitia {{provider}}',
    confirmTitle: 'Ubadilishe akaunti ya {{name}}?',
    confirmProduction: 'Malipo yataenda {{url}} kwa vitambulisho vilivyowekwa. Pesa halisi zinahamia huko.',
    confirmSandbox: 'Malipo yataenda kwenye sandbox ya ndani: hakuna pesa halisi inayohamia.',
    editTitle: 'Hariri {{name}}',
  },
};

export default providers;

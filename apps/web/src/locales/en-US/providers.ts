/** Texts of the mobile-money providers screen (issue 28). */
const providers = {
  providers: {
    describe:
      'Where each mobile-money provider’s API is, its settings and which credentials are stored, and which provider carries each network. A fresh install talks to the built-in sandboxes; going live is the provider’s base URL and your credentials. Every change waits for a second administrator.',
    loadFailed: 'The providers could not be loaded.',
    retry: 'Try again',
    none: 'No providers are configured.',
    sandbox: 'Built-in sandbox',
    production: 'Production',
    edit: 'Edit',
    baseUrl: 'API base URL',
    baseUrlHint: 'Leave empty for the built-in sandbox. The provider’s production API is usually {{url}}: confirm it with your contract.',
    baseUrlInvalid: 'Enter an http or https address, or leave it empty',
    carries: 'Carries',
    carriesNone: 'No network at the moment',
    settings: 'Settings',
    secrets: 'Credentials',
    stored: 'stored',
    secretKeep: 'Write-only: leave empty to keep the stored value.',
    callbacks: 'Our callback URLs (register them with the provider)',
    noCallbacks: 'None: this API answers within the call',
    routing: 'Which provider carries each network',
    payType: 'Network',
    provider: 'Provider',
    save: 'Save',
    saved: 'Saved',
    routingSaved: 'Routing saved',
    twoPeople: 'A second administrator must approve the change before it applies.',
    routingConfirmTitle: 'Change which provider carries these networks?',
    routingConfirmLine: '{{payType}} through {{provider}}',
    confirmTitle: 'Change the {{name}} account?',
    confirmProduction: 'Payments will go to {{url}} with the credentials entered. Real money moves there.',
    confirmSandbox: 'Payments will go to the built-in sandbox: no real money moves.',
    editTitle: 'Edit {{name}}',
  },
} as const;

export default providers;
